#pragma once
// A reusable image-with-colour-scale view: QCPColorMap + labelled QCPColorScale + a
// QCPMarginGroup (QCustomPlot's setupColorMapDemo), a title above, square cells, row 0 at the
// top (image convention), and an optional mask of cells drawn on top in one colour (e.g. the
// adversary's deleted pixels in red). Mouse presses and drags over the map are reported as cells,
// so editors can paint on it.

#include <QColor>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPColorGradient;
class QCPItemPixmap;
class QCPItemRect;
class QLabel;
class QMouseEvent;

namespace fdlab::ui {

class ColorMapWidget : public QWidget {
    Q_OBJECT
public:
    explicit ColorMapWidget(QWidget* parent = nullptr);

    /// Text above the map (empty hides it).
    void setTitle(const QString& title);
    QString title() const;
    /// Label of the colour scale (always set one: scales must say what they measure).
    void setScaleLabel(const QString& label);
    QString scaleLabel() const;
    void setGradient(const QCPColorGradient& g);

    /// Ink on paper: white (low) to black (high), for pixel values.
    static QCPColorGradient inkGradient();
    /// Blue (negative) - white (0) - red (positive), for weights and contributions; use with
    /// setSymmetricRange so that white is exactly 0.
    static QCPColorGradient divergingGradient();
    /// Light yellow to dark red, for non-negative values such as importance.
    static QCPColorGradient heatGradient();

    /// Row-major values of a rows x cols image; row 0 is drawn at the top.
    void setImage(const std::vector<double>& values, int rows, int cols);
    void clearImage();
    int imageRows() const { return m_rows; }
    int imageCols() const { return m_cols; }
    double value(int row, int col) const;

    /// Colour range [lo, hi] (hi > lo is enforced by widening a degenerate range).
    void setRange(double lo, double hi);
    /// [-a, a] with a = max |value| (so 0 maps to the gradient's centre).
    void setSymmetricRange();
    /// [min, max] of the values.
    void setAutoRange();
    double rangeLower() const;
    double rangeUpper() const;

    /// Cells (row-major indices) drawn on top in `color`; an empty list removes the mask.
    void setMask(const std::vector<int>& cells, const QColor& color = QColor(220, 30, 30));
    const std::vector<int>& mask() const { return m_mask; }

    /// Cell under a widget pixel; false outside the image.
    bool cellAt(const QPoint& pixel, int* row, int* col) const;

    QCustomPlot* plot() const { return m_plot; }
    QCPColorMap* colorMap() const { return m_map; }
    QCPColorScale* colorScale() const { return m_scale; }

    /// Opt-in: report the height that fits the image at a given width (title, square cells,
    /// colour scale), so that a layout gives the map no more height than it can use and the
    /// title stays on the image. Off by default (the map fills whatever it is given).
    void setFitHeightToWidth(bool on);
    /// The colour scale under the image (a horizontal bar) instead of on its right: in narrow
    /// cells the image gets the whole width (the Heatmaps tab's four columns beside the docks).
    void setScaleBelow(bool below);
    bool scaleBelow() const { return m_scaleBelow; }
    bool hasHeightForWidth() const override { return m_fitHeight; }
    int heightForWidth(int width) const override;

    QSize sizeHint() const override { return {260, 240}; }
    QSize minimumSizeHint() const override { return {140, 120}; }

signals:
    /// A press (pressed = true) or drag over a cell with the given buttons.
    void cellPressed(int row, int col, Qt::MouseButtons buttons);
    void cellDragged(int row, int col, Qt::MouseButtons buttons);
    void mouseReleased();

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void onPress(QMouseEvent* e);
    void onMove(QMouseEvent* e);
    void updateAxes();
    void noteScaleExtent();
    void rebuildMask();
    /// Title on top (its word-wrapped height), the plot below it.
    void placeChildren();

    QCustomPlot* m_plot = nullptr;
    QCPColorMap* m_map = nullptr;
    QCPColorScale* m_scale = nullptr;
    QLabel* m_title = nullptr;
    QCPItemPixmap* m_maskItem = nullptr;
    QCPItemRect* m_frame = nullptr;   // the image border, so that white pixels still show their extent
    std::vector<int> m_mask;
    QColor m_maskColor;
    int m_rows = 0, m_cols = 0;
    bool m_fitHeight = false;
    bool m_scaleBelow = false;
    int m_scaleExtent = 0;   ///< the colour scale's width (right) or height (below) as laid out; 0: not yet
};

}  // namespace fdlab::ui
