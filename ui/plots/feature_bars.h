#pragma once
// Bars over (a selection of) the features of one instance, some of them highlighted (the
// Heatmaps tab's view of non-image data: x_j, w_j and y w_j x_j with the deleted features red).
//
// Made to stay readable in the narrow cells of the Heatmaps tab: the title is elided to the
// plot's width (never clipped on the left), and the feature names under the bars are thinned to
// as many as fit without overlapping (horizontal when they fit, else rotated and cut to a third
// of the chart's height at most, so the bars keep the rest), recomputed
// whenever the plot is laid out again (resize, presentation mode's larger fonts).

#include <QWidget>

#include <string>
#include <vector>

class QCustomPlot;
class QCPTextElement;
class QCPBars;
class QCPItemText;

namespace fdlab::ui {

class FeatureBars : public QWidget {
    Q_OBJECT
public:
    explicit FeatureBars(QWidget* parent = nullptr);

    /// Title above the bars (the full text; what is drawn may be elided: shownTitle()).
    void setTitle(const QString& title);
    QString title() const { return m_fullTitle; }
    QString shownTitle() const;
    void setValueLabel(const QString& label);
    /// Bars for the `shown` features (at positions 0, 1, ...), values indexed by feature;
    /// features with marked[j] != 0 in red; names (may be shorter than the feature count: f<j+1>).
    /// When every shown |value| <= zeroBelow (0: only exact zeros) the bars are "all 0": drawn
    /// flat on a [-1, 1] axis with that label. The caller knows the values' scale: a weight of
    /// 1e-10 is 0 up to rounding on [0, 1] data and a real weight on features of 1e10.
    void setData(const std::vector<int>& shown, const std::vector<double>& values, const std::vector<char>& marked,
                 const std::vector<std::string>& names, double zeroBelow = 0.0);
    /// No bars, `why` as the title.
    void clearData(const QString& why);

    /// One feature name drawn under the bars: its bar's centre in widget pixels and its text.
    struct TickLabel {
        double x = 0.0;
        QString text;
    };
    /// The names drawn as of the last layout, left to right.
    std::vector<TickLabel> tickLabels() const;
    /// Their rotation in degrees (0: horizontal).
    double tickLabelRotation() const;
    QFont tickLabelFont() const;
    /// Whether the bars are all 0 (setData's zeroBelow): drawn flat and labelled "all 0".
    bool allZero() const { return m_allZero; }

    QCustomPlot* plot() const { return m_plot; }
    QSize sizeHint() const override { return {300, 220}; }

protected:
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    /// Chooses the names shown and their rotation for the axis width just laid out; replots
    /// (queued) only when that choice changed, so the layout settles after one more pass.
    void layoutTicks();
    void elideTitle();

    QCustomPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QCPBars* m_normal = nullptr;
    QCPBars* m_marked = nullptr;
    QCPItemText* m_zeroNote = nullptr;   ///< "all 0", shown when every bar is (about) 0
    bool m_allZero = false;
    QString m_fullTitle;
    QStringList m_names;          ///< per shown position, in full (cut when laid out)
    int m_every = 0;              ///< a name every m_every bars (0: not yet laid out)
    double m_rotation = 0.0;
    int m_nameWidth = 0;          ///< pixel width the drawn names are cut to
};

}  // namespace fdlab::ui
