#include "ui/plots/feature_rounds_view.h"

#include "ui/plots/color_map_widget.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace fdlab::ui {

FeatureRoundsView::FeatureRoundsView(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);
    auto* controls = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    controls->addWidget(m_title, 1);
    m_quantityBox = new QComboBox(this);
    m_quantityBox->setObjectName("roundsQuantity");
    m_quantityBox->addItem(tr("I_t"));
    m_quantityBox->addItem(tr("D_t"));
    m_quantityBox->setToolTip(tr("I_t(f): how much round t's member relied on feature f (sensitivity analysis, max 1 "
                                 "per round)\nD_t(f): the emphasis distribution round t was trained under"));
    controls->addWidget(m_quantityBox);
    m_imagesBox = new QCheckBox(tr("as images"), this);
    m_imagesBox->setObjectName("roundsAsImages");
    m_imagesBox->setToolTip(tr("One image per round (image data)"));
    controls->addWidget(m_imagesBox);
    outer->addLayout(controls);

    m_plot = new QCustomPlot(this);
    m_plot->setBackground(palette().color(QPalette::Base));
    outer->addWidget(m_plot, 1);
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    m_scale = new QCPColorScale(m_plot);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(10);
    m_plot->plotLayout()->addElement(0, 1, m_scale);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);   // the scale takes only what it needs
    m_map->setColorScale(m_scale);
    QCPColorGradient g = ColorMapWidget::heatGradient();
    g.setNanHandling(QCPColorGradient::nhTransparent);   // the gaps between the round images
    m_map->setGradient(g);
    auto* group = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    m_plot->yAxis->setRangeReversed(true);   // round 1 (or the first image row) at the top
    for (QCPAxis* a : {m_plot->xAxis, m_plot->yAxis}) a->grid()->setVisible(false);

    connect(m_plot, &QCustomPlot::afterLayout, this, &FeatureRoundsView::updateAspect);
    connect(m_quantityBox, &QComboBox::currentIndexChanged, this,
            [this](int i) { setQuantity(i == 1 ? Quantity::Distribution : Quantity::Importance); });
    connect(m_imagesBox, &QCheckBox::toggled, this, &FeatureRoundsView::setImageMode);
    clear();
}

void FeatureRoundsView::setRounds(const QString& learner, const FeatureRounds& rounds, std::optional<ImageShape> shape,
                                  const std::vector<std::string>& featureNames) {
    m_learner = learner;
    m_rounds = rounds;
    m_shape = shape;
    m_names = featureNames;
    m_imagesBox->setEnabled(m_shape.has_value());
    if (!m_shape) m_imageMode = false;
    redraw();
}

void FeatureRoundsView::clear() {
    for (QCPItemText* t : m_tileLabels) m_plot->removeItem(t);
    m_tileLabels.clear();
    m_rounds = {};
    m_learner.clear();
    m_map->data()->clear();
    m_title->setText(tr("No FeatureBoost model selected."));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void FeatureRoundsView::setQuantity(Quantity q) {
    m_quantity = q;
    const int index = q == Quantity::Distribution ? 1 : 0;
    if (m_quantityBox->currentIndex() != index) m_quantityBox->setCurrentIndex(index);   // re-enters once
    redraw();
}

void FeatureRoundsView::setImageMode(bool images) {
    m_imageMode = images && m_shape.has_value();
    if (m_imagesBox->isChecked() != m_imageMode) m_imagesBox->setChecked(m_imageMode);   // re-enters once
    redraw();
}

const Eigen::MatrixXd& FeatureRoundsView::values() const {
    return m_quantity == Quantity::Distribution ? m_rounds.distribution : m_rounds.importance;
}

int FeatureRoundsView::tileColumns() const {
    const int t = std::max(1, m_rounds.rounds());
    return t <= 5 ? t : static_cast<int>(std::ceil(std::sqrt(2.0 * t)));   // wider than tall: fits a row of the tab
}

void FeatureRoundsView::redraw() {
    for (QCPItemText* t : m_tileLabels) m_plot->removeItem(t);
    m_tileLabels.clear();
    if (m_rounds.empty()) {
        clear();
        return;
    }
    const bool importance = m_quantity == Quantity::Importance;
    m_title->setText(tr("<b>%1</b>: what its %2 rounds relied on").arg(m_learner.toHtmlEscaped()).arg(m_rounds.rounds()));
    m_scale->axis()->setLabel(importance ? tr("importance I_t(f)") : tr("emphasis D_t(f)"));
    const Eigen::MatrixXd& v = values();
    if (m_imageMode)
        drawImages(v);
    else
        drawMatrix(v);
    // Importance is scaled to max 1 per round; the distribution from 0 to its largest entry.
    const double hi = importance ? 1.0 : std::max(1e-12, v.maxCoeff());
    m_scale->setDataRange(QCPRange(0.0, hi));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void FeatureRoundsView::drawMatrix(const Eigen::MatrixXd& v) {
    const int T = static_cast<int>(v.rows()), n = static_cast<int>(v.cols());
    // QCPColorMap needs two cells per direction to know a cell's size: a single round (or
    // feature) is drawn as two half-width cells with the same value.
    QCPColorMapData* data = m_map->data();
    data->setSize(std::max(2, n), std::max(2, T));
    data->setRange(n > 1 ? QCPRange(0, n - 1) : QCPRange(-0.25, 0.25), T > 1 ? QCPRange(1, T) : QCPRange(0.75, 1.25));
    for (int t = 0; t < data->valueSize(); ++t)
        for (int f = 0; f < data->keySize(); ++f) data->setCell(f, t, v(std::min(t, T - 1), std::min(f, n - 1)));

    QCPAxis* x = m_plot->xAxis;
    QCPAxis* y = m_plot->yAxis;
    for (QCPAxis* a : {x, y}) {
        a->setVisible(true);
        a->setTicks(true);
        a->setTickLabels(true);
        a->setBasePen(QPen(Qt::black, 1));
    }
    y->setLabel(tr("round t"));
    auto yt = QSharedPointer<QCPAxisTickerFixed>::create();
    yt->setTickStep(T <= 12 ? 1.0 : std::ceil(T / 10.0));
    yt->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    y->setTicker(yt);
    if (n <= 40 && static_cast<int>(m_names.size()) == n) {
        auto xt = QSharedPointer<QCPAxisTickerText>::create();
        for (int f = 0; f < n; ++f) xt->addTick(f, QString::fromStdString(m_names[static_cast<std::size_t>(f)]));
        x->setTicker(xt);
        x->setTickLabelRotation(n > 8 ? 60 : 0);
        x->setLabel(QString());
    } else {
        x->setTicker(QSharedPointer<QCPAxisTicker>::create());
        x->setTickLabelRotation(0);
        x->setLabel(m_shape ? tr("pixel f (row-major)") : tr("feature f"));
    }
    x->setRange(-0.5, n - 0.5);
    y->setRange(0.5, T + 0.5);
}

void FeatureRoundsView::drawImages(const Eigen::MatrixXd& v) {
    const int T = static_cast<int>(v.rows());
    const int r = m_shape->rows, c = m_shape->cols;
    const int tc = tileColumns(), tr_ = (T + tc - 1) / tc;
    const int W = tc * (c + 1) - 1, H = tr_ * (r + 1) - 1;   // one transparent cell between tiles
    QCPColorMapData* data = m_map->data();
    data->setSize(W, H);
    data->setRange(QCPRange(0, W - 1), QCPRange(0, H - 1));
    data->fill(std::numeric_limits<double>::quiet_NaN());
    for (int t = 0; t < T; ++t) {
        const int ox = (t % tc) * (c + 1), oy = (t / tc) * (r + 1);
        for (int i = 0; i < r; ++i)
            for (int j = 0; j < c; ++j) data->setCell(ox + j, oy + i, v(t, i * c + j));
        auto* label = new QCPItemText(m_plot);
        label->setClipToAxisRect(true);
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(ox - 0.3, oy - 0.3);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        QFont f = font();
        f.setPointSizeF(std::max(6.0, f.pointSizeF() - 2));
        label->setFont(f);
        label->setColor(QColor(60, 60, 60));
        label->setText(QString::number(t + 1));
        m_tileLabels.push_back(label);
    }
    for (QCPAxis* a : {m_plot->xAxis, m_plot->yAxis}) {
        a->setTicks(false);
        a->setTickLabels(false);
        a->setLabel(QString());
        a->setBasePen(Qt::NoPen);
    }
}

void FeatureRoundsView::updateAspect() {
    if (!m_imageMode || m_rounds.empty()) return;
    // Square pixels: show the whole mosaic and pad the longer side of the axis rect.
    const int W = m_map->data()->keySize(), H = m_map->data()->valueSize();
    m_plot->xAxis->setRange(-0.5, W - 0.5);
    m_plot->yAxis->setRange(-0.5, H - 0.5);
    const QRect rect = m_plot->axisRect()->rect();
    if (rect.width() <= 0 || rect.height() <= 0 || W <= 0 || H <= 0) return;
    if (static_cast<double>(rect.width()) / rect.height() > static_cast<double>(W) / H)
        m_plot->xAxis->setScaleRatio(m_plot->yAxis, 1.0);
    else
        m_plot->yAxis->setScaleRatio(m_plot->xAxis, 1.0);
}

double FeatureRoundsView::shownValue(int round, int feature) const {
    if (m_rounds.empty() || round < 0 || round >= m_rounds.rounds() || feature < 0 ||
        feature >= static_cast<int>(m_rounds.importance.cols()))
        return std::numeric_limits<double>::quiet_NaN();
    if (!m_imageMode) return m_map->data()->cell(feature, round);   // single rounds/features: cell 0 of two
    const int c = m_shape->cols, r = m_shape->rows, tc = tileColumns();
    return m_map->data()->cell((round % tc) * (c + 1) + feature % c, (round / tc) * (r + 1) + feature / c);
}

}  // namespace fdlab::ui
