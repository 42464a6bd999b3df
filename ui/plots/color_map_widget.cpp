#include "ui/plots/color_map_widget.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QMouseEvent>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace fdlab::ui {

namespace {
constexpr int kPad = 3;        // pixels around the image
constexpr int kTitleGap = 4;   // pixels between the title and the plot
}

ColorMapWidget::ColorMapWidget(QWidget* parent) : QWidget(parent) {
    // No layout: resizeEvent places the title and the plot, so that heightForWidth below is the
    // widget's own (a layout's would take precedence in QWidgetItem).
    m_plot = new QCustomPlot(this);
    m_plot->setBackground(palette().color(QPalette::Base));

    // The title is a label above the plot, so that it spans the image and its colour scale
    // and wraps instead of being cut off in narrow cells.
    m_title = new QLabel(this);
    m_title->setAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    m_title->setWordWrap(true);
    QFont tf = font();
    tf.setBold(true);
    m_title->setFont(tf);
    m_title->setVisible(false);

    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setInterpolate(false);   // pixels stay pixels
    m_map->setTightBoundary(false);
    m_scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(0, 1, m_scale);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);   // the scale takes only what it needs
    m_scale->setAutoMargins(QCP::msLeft | QCP::msRight);   // top and bottom: updateAxes
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(10);
    // About 3 ticks: with QCustomPlot's default 5, a weight scale from -0.15 to 0.15 got 7 labels
    // that ran into each other under a 150 px image ("-0.15-0.1-0.05 0 0.05...").
    m_scale->axis()->ticker()->setTickCount(3);
    m_map->setColorScale(m_scale);
    m_map->setGradient(inkGradient());
    // Images need no ticks: the axes only frame the picture.
    for (QCPAxis* a : {m_plot->xAxis, m_plot->yAxis}) {
        a->setTicks(false);
        a->setTickLabels(false);
        a->grid()->setVisible(false);
        a->setBasePen(Qt::NoPen);
    }
    m_plot->yAxis->setRangeReversed(true);   // row 0 at the top
    m_plot->axisRect()->setAutoMargins(QCP::msNone);
    m_plot->axisRect()->setMargins(QMargins(kPad, kPad, kPad, kPad));

    m_maskItem = new QCPItemPixmap(m_plot);
    m_maskItem->setClipToAxisRect(true);
    m_maskItem->setVisible(false);
    m_maskItem->topLeft->setType(QCPItemPosition::ptPlotCoords);
    m_maskItem->bottomRight->setType(QCPItemPosition::ptPlotCoords);

    m_frame = new QCPItemRect(m_plot);
    m_frame->setPen(QPen(QColor(160, 160, 160), 1));
    m_frame->setBrush(Qt::NoBrush);
    m_frame->topLeft->setType(QCPItemPosition::ptPlotCoords);
    m_frame->bottomRight->setType(QCPItemPosition::ptPlotCoords);
    m_frame->setVisible(false);

    connect(m_plot, &QCustomPlot::afterLayout, this, &ColorMapWidget::updateAxes);
    connect(m_plot, &QCustomPlot::mousePress, this, &ColorMapWidget::onPress);
    connect(m_plot, &QCustomPlot::mouseMove, this, &ColorMapWidget::onMove);
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent*) { emit mouseReleased(); });
}

void ColorMapWidget::setTitle(const QString& title) {
    m_title->setText(title);
    m_title->setVisible(!title.isEmpty());
    placeChildren();
    updateGeometry();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString ColorMapWidget::title() const { return m_title->text(); }

void ColorMapWidget::setScaleLabel(const QString& label) {
    m_scale->axis()->setLabel(label);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString ColorMapWidget::scaleLabel() const { return m_scale->axis()->label(); }

void ColorMapWidget::setGradient(const QCPColorGradient& g) {
    m_map->setGradient(g);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QCPColorGradient ColorMapWidget::inkGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, Qt::white);
    g.setColorStopAt(1.0, Qt::black);
    return g;
}

QCPColorGradient ColorMapWidget::divergingGradient() {
    // ColorBrewer RdBu, reversed so that positive is red.
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(33, 102, 172));
    g.setColorStopAt(0.25, QColor(146, 197, 222));
    g.setColorStopAt(0.5, QColor(247, 247, 247));
    g.setColorStopAt(0.75, QColor(244, 165, 130));
    g.setColorStopAt(1.0, QColor(178, 24, 43));
    return g;
}

QCPColorGradient ColorMapWidget::heatGradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(255, 255, 204));
    g.setColorStopAt(0.35, QColor(254, 178, 76));
    g.setColorStopAt(0.7, QColor(240, 59, 32));
    g.setColorStopAt(1.0, QColor(128, 0, 38));
    return g;
}

void ColorMapWidget::setImage(const std::vector<double>& values, int rows, int cols) {
    if (rows <= 0 || cols <= 0 || values.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols)) {
        clearImage();
        return;
    }
    const bool reshaped = rows != m_rows || cols != m_cols;
    m_rows = rows;
    m_cols = cols;
    QCPColorMapData* data = m_map->data();
    if (reshaped) {
        data->setSize(cols, rows);
        data->setRange(QCPRange(0, cols - 1), QCPRange(0, rows - 1));
        if (m_fitHeight) updateGeometry();   // the aspect ratio changed
    }
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) data->setCell(c, r, values[static_cast<std::size_t>(r * cols + c)]);
    m_map->setVisible(true);
    m_frame->topLeft->setCoords(-0.5, -0.5);
    m_frame->bottomRight->setCoords(cols - 0.5, rows - 0.5);
    m_frame->setVisible(true);
    if (reshaped) rebuildMask();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ColorMapWidget::clearImage() {
    m_rows = m_cols = 0;
    m_map->data()->clear();
    m_map->setVisible(false);
    m_frame->setVisible(false);
    m_mask.clear();
    rebuildMask();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

double ColorMapWidget::value(int row, int col) const {
    if (row < 0 || col < 0 || row >= m_rows || col >= m_cols) return 0.0;
    return m_map->data()->cell(col, row);
}

void ColorMapWidget::setRange(double lo, double hi) {
    if (!(hi > lo)) {
        const double pad = std::max(1e-9, std::abs(lo) * 0.05);
        lo -= pad;
        hi = lo + 2 * pad;
    }
    m_scale->setDataRange(QCPRange(lo, hi));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ColorMapWidget::setSymmetricRange() {
    double a = 0.0;
    for (int r = 0; r < m_rows; ++r)
        for (int c = 0; c < m_cols; ++c) a = std::max(a, std::abs(m_map->data()->cell(c, r)));
    if (a <= 0.0) a = 1.0;
    setRange(-a, a);
}

void ColorMapWidget::setAutoRange() {
    if (m_rows == 0) return;
    double lo = m_map->data()->cell(0, 0), hi = lo;
    for (int r = 0; r < m_rows; ++r)
        for (int c = 0; c < m_cols; ++c) {
            const double v = m_map->data()->cell(c, r);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    setRange(lo, hi);
}

double ColorMapWidget::rangeLower() const { return m_scale->dataRange().lower; }
double ColorMapWidget::rangeUpper() const { return m_scale->dataRange().upper; }

void ColorMapWidget::setMask(const std::vector<int>& cells, const QColor& color) {
    m_mask = cells;
    m_maskColor = color;
    rebuildMask();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ColorMapWidget::rebuildMask() {
    if (m_mask.empty() || m_rows == 0) {
        m_maskItem->setVisible(false);
        return;
    }
    // One image pixel per cell, scaled without smoothing so that cells keep sharp edges.
    QImage img(m_cols, m_rows, QImage::Format_ARGB32);
    img.fill(Qt::transparent);
    for (int j : m_mask)
        if (j >= 0 && j < m_rows * m_cols) img.setPixelColor(j % m_cols, j / m_cols, m_maskColor);
    m_maskItem->setPixmap(QPixmap::fromImage(img));
    m_maskItem->setScaled(true, Qt::IgnoreAspectRatio, Qt::FastTransformation);
    m_maskItem->topLeft->setCoords(-0.5, -0.5);
    m_maskItem->bottomRight->setCoords(m_cols - 0.5, m_rows - 0.5);
    m_maskItem->setVisible(true);
}

void ColorMapWidget::updateAxes() {
    noteScaleExtent();
    // Square cells, the image centred in the axis rect. The colour scale gets top and bottom
    // margins equal to the image's vertical padding, so that the bar is exactly as tall as the
    // image (only the scale's vertical margins change: the layout stays stable).
    const int cols = std::max(1, m_cols), rows = std::max(1, m_rows);
    m_plot->xAxis->setRange(-0.5, cols - 0.5);
    m_plot->yAxis->setRange(-0.5, rows - 0.5);
    const QRect r = m_plot->axisRect()->rect();
    if (r.width() <= 0 || r.height() <= 0) return;
    const double imageAspect = static_cast<double>(cols) / rows;
    if (static_cast<double>(r.width()) / r.height() > imageAspect)
        m_plot->xAxis->setScaleRatio(m_plot->yAxis, 1.0);
    else
        m_plot->yAxis->setScaleRatio(m_plot->xAxis, 1.0);
    if (m_scaleBelow) {
        // The bar as wide as the image: left and right margins equal to its horizontal padding.
        const int imageW = static_cast<int>(std::lround(std::min<double>(r.width(), r.height() * imageAspect)));
        const int padX = kPad + std::max(0, (r.width() - imageW) / 2);
        if (m_scale->margins().left() != padX || m_scale->margins().right() != padX) {
            m_scale->setMargins(QMargins(padX, m_scale->margins().top(), padX, m_scale->margins().bottom()));
            QTimer::singleShot(0, m_plot, [plot = m_plot] { plot->replot(); });
        }
        return;
    }
    const int imageH = static_cast<int>(std::lround(std::min<double>(r.height(), r.width() / imageAspect)));
    const int padY = kPad + std::max(0, (r.height() - imageH) / 2);
    if (m_scale->margins().top() != padY || m_scale->margins().bottom() != padY) {
        // Top and bottom are set by hand (automatic margins never shrink once grown).
        m_scale->setMargins(QMargins(m_scale->margins().left(), padY, m_scale->margins().right(), padY));
        // The new margins take effect on the next layout; QCustomPlot drops replot requests made
        // while it replots, so ask from the event loop.
        QTimer::singleShot(0, m_plot, [plot = m_plot] { plot->replot(); });
    }
}

void ColorMapWidget::noteScaleExtent() {
    // heightForWidth reads the colour scale's extent as laid out, which is known only after the
    // plot's layout. A layout keeps the heights it was told (QWidgetItemV2 caches them per width)
    // until updateGeometry, so tell it when the extent has changed. The largest extent seen is
    // kept, so that tick labels that change with the height cannot make the layout oscillate.
    if (m_plot->width() <= 0 || m_plot->height() <= 0) return;   // not laid out yet
    const QRect outer = m_scale->outerRect();
    const int extent = m_scaleBelow ? outer.height() : outer.width();
    if (extent <= m_scaleExtent) return;
    m_scaleExtent = extent;
    if (m_fitHeight) updateGeometry();
}

void ColorMapWidget::setFitHeightToWidth(bool on) {
    m_fitHeight = on;
    QSizePolicy sp = sizePolicy();
    sp.setHeightForWidth(on);
    setSizePolicy(sp);
    updateGeometry();
}

void ColorMapWidget::setScaleBelow(bool below) {
    if (below == m_scaleBelow) return;
    m_scaleBelow = below;
    QCPLayoutGrid* layout = m_plot->plotLayout();
    layout->take(m_scale);
    layout->simplify();
    if (below) {
        layout->addElement(1, 0, m_scale);
        layout->setRowStretchFactor(1, 0.001);   // the bar takes only what it needs
        m_scale->setType(QCPAxis::atBottom);
        m_scale->setAutoMargins(QCP::msTop | QCP::msBottom);   // left and right: updateAxes
    } else {
        layout->addElement(0, 1, m_scale);
        layout->setColumnStretchFactor(1, 0.001);
        m_scale->setType(QCPAxis::atRight);
        m_scale->setAutoMargins(QCP::msLeft | QCP::msRight);
    }
    m_scale->setMargins(QMargins());
    m_scaleExtent = 0;   // the other side's extent until the plot is laid out again
    updateGeometry();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

int ColorMapWidget::heightForWidth(int width) const {
    if (m_scaleBelow) {
        const int scaleHeight = m_scaleExtent > 0 ? m_scaleExtent : 3 * fontMetrics().height() + 10;
        const int cols = std::max(1, m_cols), rows = std::max(1, m_rows);
        int h = std::max(1, width - 2 * kPad) * rows / cols + 2 * kPad + 2 + scaleHeight;
        if (m_title->isVisibleTo(this)) h += m_title->heightForWidth(width) + kTitleGap;
        return std::max(h, minimumSizeHint().height());
    }
    // The colour scale's width as laid out (bar, ticks and label); before the first layout, an
    // estimate from the font.
    const int scaleWidth = m_scaleExtent > 0 ? m_scaleExtent : 4 * fontMetrics().height() + 10;
    const int cols = std::max(1, m_cols), rows = std::max(1, m_rows);
    const int imageWidth = std::max(1, width - scaleWidth - 2 * kPad);
    int h = imageWidth * rows / cols + 2 * kPad + 2;
    if (m_title->isVisibleTo(this)) h += m_title->heightForWidth(width) + kTitleGap;
    return std::max(h, minimumSizeHint().height());
}

void ColorMapWidget::placeChildren() {
    const int titleHeight = m_title->isVisibleTo(this) ? m_title->heightForWidth(width()) + kTitleGap : 0;
    m_title->setGeometry(0, 0, width(), std::max(0, titleHeight - kTitleGap));
    m_plot->setGeometry(0, titleHeight, width(), std::max(0, height() - titleHeight));
}

void ColorMapWidget::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    placeChildren();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool ColorMapWidget::cellAt(const QPoint& pixel, int* row, int* col) const {
    if (m_rows == 0) return false;
    const double x = m_plot->xAxis->pixelToCoord(pixel.x());
    const double y = m_plot->yAxis->pixelToCoord(pixel.y());
    const int c = static_cast<int>(std::floor(x + 0.5)), r = static_cast<int>(std::floor(y + 0.5));
    if (r < 0 || c < 0 || r >= m_rows || c >= m_cols) return false;
    if (row) *row = r;
    if (col) *col = c;
    return true;
}

void ColorMapWidget::onPress(QMouseEvent* e) {
    int r = 0, c = 0;
    if (cellAt(e->pos(), &r, &c)) emit cellPressed(r, c, e->buttons());
}

void ColorMapWidget::onMove(QMouseEvent* e) {
    if (e->buttons() == Qt::NoButton) return;
    int r = 0, c = 0;
    if (cellAt(e->pos(), &r, &c)) emit cellDragged(r, c, e->buttons());
}

}  // namespace fdlab::ui
