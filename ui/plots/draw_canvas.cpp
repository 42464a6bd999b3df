#include "ui/plots/draw_canvas.h"

#include "ui/plots/own_input_verdicts.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace fdlab::ui {

InkPad::InkPad(QWidget* parent) : QWidget(parent) {
    setObjectName("inkPad");
    setCursor(Qt::CrossCursor);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void InkPad::setShape(int rows, int cols, float ink) {
    m_rows = rows;
    m_cols = cols;
    m_ink = ink > 0.0f ? ink : 1.0f;
    clear();
}

void InkPad::clear() {
    m_x.assign(static_cast<std::size_t>(m_rows * m_cols), 0.0f);
    update();
    emit changed();
}

void InkPad::setPen(double radius) { m_pen = std::clamp(radius, 0.5, 4.0); }

QRect InkPad::area() const {
    // The part of the pad on screen: in the scrolled Heatmaps tab the stack is as tall as its
    // largest page, and a pad sized to all of it had its bottom rows out of sight at 1280x720.
    const QRect visible = visibleRegion().boundingRect();
    return visible.isEmpty() ? rect() : visible;
}

int InkPad::cellSize() const {
    const QRect a = area();
    return m_rows > 0 ? std::max(1, std::min(a.width() / m_cols, a.height() / m_rows)) : 1;
}

QPoint InkPad::origin() const {
    const QRect a = area();
    const int s = cellSize();
    return {a.x() + (a.width() - s * m_cols) / 2, a.y() + (a.height() - s * m_rows) / 2};
}

QPointF InkPad::cellPoint(const QPointF& p) const {
    const int s = cellSize();
    const QPointF o = origin();
    return {(p.y() - o.y()) / s - 0.5, (p.x() - o.x()) / s - 0.5};   // (row, col), cell centres whole
}

bool InkPad::cellAt(const QPoint& p, int* row, int* col) const {
    const QPointF c = cellPoint(p);
    const int r = static_cast<int>(std::lround(c.x())), k = static_cast<int>(std::lround(c.y()));
    if (r < 0 || k < 0 || r >= m_rows || k >= m_cols) return false;
    if (row) *row = r;
    if (col) *col = k;
    return true;
}

void InkPad::stroke(double row, double col) {
    // Full ink within the radius, fading to nothing one cell further out (anti-aliased).
    const int r0 = static_cast<int>(std::floor(row - m_pen - 1)), r1 = static_cast<int>(std::ceil(row + m_pen + 1));
    const int c0 = static_cast<int>(std::floor(col - m_pen - 1)), c1 = static_cast<int>(std::ceil(col + m_pen + 1));
    bool any = false;
    for (int r = std::max(0, r0); r <= std::min(m_rows - 1, r1); ++r)
        for (int c = std::max(0, c0); c <= std::min(m_cols - 1, c1); ++c) {
            const double d = std::hypot(r - row, c - col);
            const double a = std::clamp(m_pen + 0.5 - d, 0.0, 1.0);
            if (a <= 0.0) continue;
            float& v = m_x[static_cast<std::size_t>(r * m_cols + c)];
            const float nv = std::max(v, static_cast<float>(a) * m_ink);
            any = any || nv != v;
            v = nv;
        }
    if (any) {
        update();
        emit changed();
    }
}

void InkPad::mousePressEvent(QMouseEvent* e) {
    m_last = cellPoint(e->position());
    stroke(m_last.x(), m_last.y());
}

void InkPad::mouseMoveEvent(QMouseEvent* e) {
    if (!(e->buttons() & Qt::LeftButton)) return;
    // Fill the segment since the last event, so that fast strokes stay connected.
    const QPointF p = cellPoint(e->position());
    const double len = std::hypot(p.x() - m_last.x(), p.y() - m_last.y());
    const int steps = std::max(1, static_cast<int>(std::ceil(len / 0.5)));
    for (int s = 1; s <= steps; ++s) {
        const double t = static_cast<double>(s) / steps;
        stroke(m_last.x() + t * (p.x() - m_last.x()), m_last.y() + t * (p.y() - m_last.y()));
    }
    m_last = p;
}

void InkPad::paintEvent(QPaintEvent*) {
    // Scrolling moves the part on screen without a resize: then repaint all of it, centred anew.
    if (area() != m_painted) {
        m_painted = area();
        update();
    }
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    if (m_rows == 0) return;
    const int s = cellSize();
    const QPoint origin = this->origin();
    for (int r = 0; r < m_rows; ++r)
        for (int c = 0; c < m_cols; ++c) {
            const int g = 255 - static_cast<int>(std::lround(255.0 * std::clamp(m_x[static_cast<std::size_t>(r * m_cols + c)] / m_ink, 0.0f, 1.0f)));
            p.fillRect(origin.x() + c * s, origin.y() + r * s, s, s, QColor(g, g, g));
        }
    p.setPen(QColor(170, 170, 170));
    p.drawRect(origin.x(), origin.y(), s * m_cols - 1, s * m_rows - 1);
}

DrawCanvas::DrawCanvas(QWidget* parent) : QWidget(parent) {
    auto* outer = new QHBoxLayout(this);
    m_pad = new InkPad(this);
    outer->addWidget(m_pad, 2);
    auto* side = new QVBoxLayout;
    auto* intro = new QLabel(tr("<b>Your own input.</b> Draw with the mouse (hold the left button). The drawing is "
                                "classified as you draw."), this);
    intro->setWordWrap(true);
    side->addWidget(intro);
    auto* pen = new QHBoxLayout;
    auto* thinner = new QPushButton(tr("Thinner pen"), this);
    auto* thicker = new QPushButton(tr("Thicker pen"), this);
    m_penLabel = new QLabel(this);
    auto* clear = new QPushButton(tr("Clear"), this);
    clear->setObjectName("drawClear");
    pen->addWidget(thinner);
    pen->addWidget(thicker);
    pen->addWidget(m_penLabel);
    pen->addStretch(1);
    pen->addWidget(clear);
    side->addLayout(pen);
    m_verdicts = new OwnInputVerdicts(tr("Attack it: use as a test instance"),
                                      tr("Adds the drawing to the test instances of the Heatmaps tab, with the class "
                                         "chosen above as its true class, and opens it there"),
                                      "draw", this);
    side->addWidget(m_verdicts);
    side->addStretch(1);
    outer->addLayout(side, 1);

    const auto showPen = [this] { m_penLabel->setText(tr("pen %1 cells").arg(2 * m_pad->pen(), 0, 'f', 1)); };
    showPen();
    connect(thinner, &QPushButton::clicked, this, [this, showPen] {
        m_pad->setPen(m_pad->pen() - 0.5);
        showPen();
    });
    connect(thicker, &QPushButton::clicked, this, [this, showPen] {
        m_pad->setPen(m_pad->pen() + 0.5);
        showPen();
    });
    connect(clear, &QPushButton::clicked, this, [this] {
        m_verdicts->forgetIntendedClass();
        m_pad->clear();
    });
    connect(m_pad, &InkPad::changed, this, &DrawCanvas::classify);
    connect(m_verdicts, &OwnInputVerdicts::intendedClassChanged, this, &DrawCanvas::classify);
    connect(m_verdicts, &OwnInputVerdicts::useRequested, this, [this] { emit useDrawing(m_pad->values(), intendedClass()); });
}

void DrawCanvas::setContext(HeatmapContextPtr ctx, int a, int b) {
    m_ctx = ctx;
    m_verdicts->setContext(ctx, a, b);
    if (!ctx || !ctx->test->imageShape) return;
    const Dataset& d = *ctx->test;
    // Ink as dark as the data's darkest pixel (MNIST: 1, or 255 for raw bytes), in the units the
    // data had before the run's scaling: classify() applies that scaling to the drawing. (The
    // test set is already scaled: under zero-one on MNIST 3 vs 5 its darkest value is ~25, and a
    // stroke of 25 raw became 25 and more after scaling again.)
    float ink = ctx->preprocessor ? ctx->preprocessor->fittedMaximum() : 0.0f;
    if (ink <= 0.0f)
        for (int i = 0; i < d.rows(); ++i) d.forEachNonZero(i, [&](int, float v) { ink = std::max(ink, v); });
    m_pad->setShape(d.imageShape->rows, d.imageShape->cols, ink);
}

QLabel* DrawCanvas::verdict(int which) const { return m_verdicts->verdict(which); }
int DrawCanvas::intendedClass() const { return m_verdicts->intendedClass(); }
void DrawCanvas::setIntendedClass(int k) { m_verdicts->setIntendedClass(k); }

void DrawCanvas::classify() {
    std::vector<float> x = m_pad->values();
    if (x.empty()) return;
    const bool inked = std::any_of(x.begin(), x.end(), [](float v) { return v != 0.0f; });
    try {
        if (m_ctx && m_ctx->preprocessor) m_ctx->preprocessor->applyDense(x);   // what the learners were trained on
    } catch (const std::exception& e) {   // a scaled pixel beyond a float (a tiny training range)
        m_verdicts->verdict(0)->setText(QString::fromStdString(e.what()).toHtmlEscaped());
        m_verdicts->verdict(1)->clear();
        m_verdicts->useButton()->setEnabled(false);
        return;
    }
    m_verdicts->classify(RowView::dense(x), inked);
}

}  // namespace fdlab::ui
