#pragma once
// A linear model's top words by weight as a sorted horizontal bar chart (the spammer's view,
// one per learner): the words of largest positive weight w_j (they push toward class 1, e.g.
// spam) above those of most negative weight, sorted from the largest w_j at the top to the most
// negative at the bottom, each word as its bar's tick label. Bars take the two ends of the
// message view's diverging scale (core's contributionColor): red for w_j > 0, blue for
// w_j < 0, so a word's bar has the colour its occurrences get in a message of class 1.
// Bounded-weight learners (FDROP caps |w_j|) tie many words at the cap: the title then says
// how many share the extreme weight (within core's relative tolerance), so that the bars read
// as a sample of them, and that the sample is the words in most training messages.
// The chart shows as many bars as fit its height at a legible row (the strongest words of each
// sign, alternately), so that a small window keeps the text above it readable; words longer
// than 18 characters are elided in the middle (the full word is in the tooltip of its row).
//
// The words come from core (topWordsByWeight, computed on the Heatmaps worker thread); this
// widget only draws them. Exports (PNG/PDF/SVG) go through ui/plots/widget_export.h: drawn
// afresh as vectors for PDF and SVG, written atomically.

#include "core/eval/message_view.h"

#include <QColor>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QCPBars;
class QCPTextElement;

namespace fdlab::ui {

class TopWordsChart : public QWidget {
    Q_OBJECT
public:
    explicit TopWordsChart(QWidget* parent = nullptr);

    /// Shows `top` for `learner`; the x axis names which class each sign pushes toward. Setting
    /// what is already shown does nothing (a message switch keeps the model, so no redraw).
    void setTopWords(const TopWords& top, const QString& learner, const QString& positiveClass,
                     const QString& negativeClass);
    void clear();
    bool isEmpty() const { return m_words.isEmpty(); }

    /// The words from the top bar to the bottom one, their weights, and each bar's colour
    /// (those shown at the current height).
    const QStringList& words() const { return m_words; }
    const QVector<double>& weights() const { return m_weights; }
    QColor barColour(int row) const;
    QString title() const;
    QCustomPlot* plot() const { return m_plot; }

    /// PNG, PDF or SVG by the path's suffix, at the chart's on-screen size, atomically.
    bool save(const QString& path, QString* error = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    /// Bars that fit `height` pixels (at least kMinRows; minimumSizeHint leaves room for them).
    int rowsFitting(int height) const;
    static constexpr int kMinRows = 4;

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void redraw();
    int rowHeight() const;
    /// Everything but the bars: title lines, the weight axis (ticks and label), margins.
    int overheadHeight() const;

    QCustomPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QCPBars* m_positive = nullptr;
    QCPBars* m_negative = nullptr;
    QStringList m_words;
    QVector<double> m_weights;
    QVector<int> m_documents;   // training messages containing each word (-1: not known)
    QString m_shownKey;   // what is set: learner, classes and every word and weight
    TopWords m_top;
    QString m_positiveClass, m_negativeClass;
    int m_rows = -1;      // bars drawn (-1: not drawn yet)
};

}  // namespace fdlab::ui
