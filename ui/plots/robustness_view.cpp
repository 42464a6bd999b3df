#include "ui/plots/robustness_view.h"

#include "core/attacks/threat_registry.h"
#include "ui/plots/heatmap_view.h"
#include "ui/workers/job_runner.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QTabWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace fdlab::ui {

namespace {

// A small deterministic offset per instance (|.| < 0.3), so that instances with equal whole
// needs do not hide one another.
double jitter(int i, int salt) {
    std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761u + static_cast<std::uint32_t>(salt) * 40503u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return 0.6 * (static_cast<double>(h % 1000) / 1000.0 - 0.5);
}

QString needWord(bool byValue) { return byValue ? QObject::tr("value N") : QObject::tr("deletions K"); }

// The map measures the exact adversary (worst-case-count, worst-case-value-exact). Under any
// other threat the experiment's curve is another adversary's (greedy, random): say so, or a
// student reads the map's fractions as the curve's. Empty when they are the same adversary.
QString notTheCurve(const AttackSpec& attack) {
    if (attack.threat == "worst-case-count" || attack.threat == "worst-case-value-exact") return {};
    QString title = QString::fromStdString(attack.threat);
    try {
        title = QString::fromStdString(threatInfo(attack.threat).title);
    } catch (const std::invalid_argument&) {   // an unknown name is shown as it is
    }
    return QObject::tr(" <b>Not this experiment's curve:</b> its threat is \"%1\"; the map shows what the exact "
                       "adversary needs, so at a budget it can flip more instances than the curve counts.")
        .arg(title.toHtmlEscaped());
}

}  // namespace

RobustnessView::RobustnessView(QWidget* parent) : QWidget(parent) {
    setObjectName("robustness");
    m_jobs = new JobRunner("fdlab-robustness", this);
    auto* outer = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Learner A:"), this));
    m_a = new QComboBox(this);
    bar->addWidget(m_a, 1);
    bar->addWidget(new QLabel(tr("B:"), this));
    m_b = new QComboBox(this);
    bar->addWidget(m_b, 1);
    m_compute = new QPushButton(tr("Compute"), this);
    m_compute->setObjectName("robustnessCompute");
    m_compute->setToolTip(tr("For every test instance, find the smallest budget with which the exact adversary flips it"));
    bar->addWidget(m_compute);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(180);
    m_progress->setVisible(false);
    bar->addWidget(m_progress);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setVisible(false);
    bar->addWidget(m_cancel);
    outer->addLayout(bar);
    m_summary = new QLabel(this);
    m_summary->setObjectName("robustnessSummary");
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    outer->addWidget(m_summary);

    auto* plots = new QHBoxLayout;
    m_scatter = new QCustomPlot(this);
    m_scatter->setMinimumSize(260, 240);
    m_scatter->setBackground(palette().color(QPalette::Base));
    m_density = new QCPColorMap(m_scatter->xAxis, m_scatter->yAxis);
    m_density->setGradient(QCPColorGradient(QCPColorGradient::gpThermal).inverted());
    m_density->setInterpolate(false);
    m_diagonal = m_scatter->addGraph();
    m_diagonal->setPen(QPen(QColor(120, 120, 120), 1, Qt::DashLine));
    m_spared = new QCPCurve(m_scatter->xAxis, m_scatter->yAxis);
    m_spared->setLineStyle(QCPCurve::lsNone);
    m_spared->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(140, 140, 140), 1.2), Qt::NoBrush, 7));
    m_spared->setName(tr("not attacked"));
    // On top: at "never" they share the corner with the attacked instances no budget flips, and
    // hollow they leave those visible.
    m_scatter->addLayer("spared", m_scatter->layer("main"), QCustomPlot::limAbove);
    m_spared->setLayer("spared");
    m_points = new QCPCurve(m_scatter->xAxis, m_scatter->yAxis);
    m_points->setLineStyle(QCPCurve::lsNone);
    m_points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(30, 80, 170, 200), QColor(30, 80, 170, 70), 7));
    m_points->setName(tr("attacked"));
    m_diagonal->removeFromLegend();
    m_density->removeFromLegend();
    m_scatter->legend->setFont(font());
    m_scatter->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignLeft | Qt::AlignTop);
    m_scatter->plotLayout()->insertRow(0);
    m_scatter->plotLayout()->addElement(0, 0, new QCPTextElement(m_scatter, tr("Smallest budget that flips each test instance"),
                                                                 QFont(font().family(), font().pointSize() + 1, QFont::Bold)));
    plots->addWidget(m_scatter, 3);
    auto* hists = new QVBoxLayout;
    for (int k = 0; k < 2; ++k) {
        m_hist[k] = new QCustomPlot(this);
        m_hist[k]->setMinimumSize(220, 120);
        m_hist[k]->setBackground(palette().color(QPalette::Base));
        m_bars[k] = new QCPBars(m_hist[k]->xAxis, m_hist[k]->yAxis);
        m_bars[k]->setPen(Qt::NoPen);
        m_bars[k]->setBrush(k == 0 ? QColor(70, 110, 170) : QColor(210, 110, 40));
        m_hist[k]->yAxis->setLabel(tr("instances"));
        hists->addWidget(m_hist[k], 1);
    }
    plots->addLayout(hists, 2);
    outer->addLayout(plots, 1);

    connect(m_compute, &QPushButton::clicked, this, &RobustnessView::compute);
    connect(m_cancel, &QPushButton::clicked, this, &RobustnessView::cancel);
    connect(m_scatter, &QCustomPlot::mousePress, this, &RobustnessView::onPlotClick);
    clear();
}

void RobustnessView::clear() {
    m_jobs->discard();
    m_ctx.reset();
    m_map.reset();
    m_a->clear();
    m_b->clear();
    m_compute->setEnabled(false);
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
    m_summary->setText(tr("Run an experiment first. Then Compute finds, for every test instance, the smallest number "
                          "of deletions with which the exact adversary flips it, for two learners side by side."));
    draw();
}

void RobustnessView::setContext(HeatmapContextPtr ctx) {
    clear();
    if (!ctx || !ctx->test || ctx->models.empty()) return;
    m_ctx = std::move(ctx);
    for (const auto& [name, model] : m_ctx->models) {
        m_a->addItem(QString::fromStdString(name));
        m_b->addItem(QString::fromStdString(name));
    }
    m_b->setCurrentIndex(m_ctx->models.size() > 1 ? 1 : 0);
    m_compute->setEnabled(true);
    const bool byValue = budgetOfThreat(m_ctx->attack, *m_ctx->test).byValue;
    m_summary->setText(tr("%1 test instances. Compute finds the smallest %2 with which the exact adversary flips each "
                          "(greedy deletion for learners that are not linear).")
                           .arg(m_ctx->test->rows())
                           .arg(needWord(byValue)) +
                       notTheCurve(m_ctx->attack));
}

void RobustnessView::setLearners(int a, int b) {
    m_a->setCurrentIndex(a);
    m_b->setCurrentIndex(b);
}

bool RobustnessView::busy() const { return m_jobs->busy(); }

void RobustnessView::cancel() { m_jobs->cancel(); }

void RobustnessView::compute() {
    if (!m_ctx) return;
    const int a = m_a->currentIndex(), b = m_b->currentIndex();
    if (a < 0 || b < 0) return;
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    m_compute->setEnabled(false);
    HeatmapContextPtr ctx = m_ctx;
    m_jobs->run(
        [ctx, a, b](const JobContext& c) {
            return robustnessMap(*ctx->test, ctx->models[static_cast<std::size_t>(a)].second,
                                 ctx->models[static_cast<std::size_t>(b)].second, ctx->attack, c.control());
        },
        [this](const RobustnessMap& r) {
            m_map = r;
            m_progress->setVisible(false);
            m_cancel->setVisible(false);
            m_compute->setEnabled(true);
            draw();
            emit mapReady();
        },
        [this](const QString& error) {
            m_progress->setVisible(false);
            m_cancel->setVisible(false);
            m_compute->setEnabled(true);
            m_summary->setText(tr("<span style='color:#b00'>Could not compute the map: %1</span>").arg(error.toHtmlEscaped()));
        },
        [this](const Progress& p) { m_progress->setValue(static_cast<int>(std::lround(100 * p.fraction))); });
}

bool RobustnessView::showsHistogram2d() const { return m_map && m_map->done > kScatterLimit; }

int RobustnessView::instanceAtPoint(int k) const {
    return k >= 0 && k < static_cast<int>(m_pointInstance.size()) ? m_pointInstance[static_cast<std::size_t>(k)] : -1;
}

int RobustnessView::instanceAtSparedPoint(int k) const {
    return k >= 0 && k < static_cast<int>(m_sparedInstance.size()) ? m_sparedInstance[static_cast<std::size_t>(k)] : -1;
}

void RobustnessView::draw() {
    m_points->data()->clear();
    m_spared->data()->clear();
    m_scatter->legend->setVisible(false);
    m_sparedInstance.clear();
    m_diagonal->data()->clear();
    m_density->data()->clear();
    m_density->setVisible(false);
    m_pointInstance.clear();
    for (QCPBars* b : m_bars) b->data()->clear();
    m_scatter->clearItems();
    if (!m_map || !m_ctx) {
        m_scatter->replot();
        for (QCustomPlot* h : m_hist) h->replot();
        return;
    }
    const RobustnessMap& r = *m_map;
    const QString names[2] = {m_a->currentText(), m_b->currentText()};
    const QString unit = needWord(r.byValue);
    double most = 0.0;
    for (int i = 0; i < r.done; ++i)
        for (double v : {r.needA[static_cast<std::size_t>(i)], r.needB[static_cast<std::size_t>(i)]})
            if (std::isfinite(v)) most = std::max(most, v);
    const RobustnessCounts counts = r.counts();
    m_never = std::max(1.0, std::ceil(most * 1.12 + 1.0));
    const auto place = [&](double v) { return std::isfinite(v) ? v : m_never; };

    // Scatter (or density) with the diagonal and the "never" lines.
    if (!showsHistogram2d()) {
        // The spared classes' instances apart: their place says what the threat chose, not how
        // robust the learners are, so they must not read as "never flipped" attacked points.
        QVector<double> xs[2], ys[2];
        for (int i = 0; i < r.done; ++i) {
            const int set = r.spared.size() > static_cast<std::size_t>(i) && r.spared[static_cast<std::size_t>(i)] ? 1 : 0;
            xs[set].push_back(place(r.needA[static_cast<std::size_t>(i)]) + (r.byValue ? 0.0 : jitter(i, 1)));
            ys[set].push_back(place(r.needB[static_cast<std::size_t>(i)]) + (r.byValue ? 0.0 : jitter(i, 2)));
            (set ? m_sparedInstance : m_pointInstance).push_back(i);
        }
        m_points->setData(xs[0], ys[0]);
        m_spared->setData(xs[1], ys[1]);
        m_scatter->legend->setVisible(!m_sparedInstance.empty());
    } else {
        const int bins = 40;
        m_density->setVisible(true);
        m_density->data()->setSize(bins, bins);
        m_density->data()->setRange(QCPRange(0, m_never), QCPRange(0, m_never));
        std::vector<double> count(static_cast<std::size_t>(bins * bins), 0.0);
        for (int i = 0; i < r.done; ++i) {
            int bx = 0, by = 0;
            m_density->data()->coordToCell(place(r.needA[static_cast<std::size_t>(i)]), place(r.needB[static_cast<std::size_t>(i)]), &bx, &by);
            count[static_cast<std::size_t>(std::clamp(by, 0, bins - 1) * bins + std::clamp(bx, 0, bins - 1))] += 1;
        }
        for (int y = 0; y < bins; ++y)
            for (int x = 0; x < bins; ++x) m_density->data()->setCell(x, y, count[static_cast<std::size_t>(y * bins + x)]);
        m_density->rescaleDataRange(true);
    }
    m_diagonal->setData(QVector<double>{0.0, m_never}, QVector<double>{0.0, m_never});
    for (const bool vertical : {true, false}) {
        auto* line = new QCPItemStraightLine(m_scatter);
        line->setPen(QPen(QColor(170, 60, 60), 1, Qt::DotLine));
        line->point1->setCoords(vertical ? m_never : 0.0, vertical ? 0.0 : m_never);
        line->point2->setCoords(vertical ? m_never : 1.0, vertical ? 1.0 : m_never);
        auto* label = new QCPItemText(m_scatter);
        label->setText(tr("never"));
        label->setColor(QColor(170, 60, 60));
        label->position->setCoords(vertical ? m_never : 0.0, vertical ? 0.0 : m_never);
        label->setPositionAlignment(vertical ? (Qt::AlignRight | Qt::AlignBottom) : (Qt::AlignLeft | Qt::AlignBottom));
    }
    m_scatter->xAxis->setLabel(tr("%1 needed against %2").arg(unit, names[0]));
    m_scatter->yAxis->setLabel(tr("%1 needed against %2").arg(unit, names[1]));
    m_scatter->xAxis->setRange(-0.6, m_never + 0.6 + m_never * 0.04);
    m_scatter->yAxis->setRange(-0.6, m_never + 0.6 + m_never * 0.04);
    m_scatter->replot();

    // One histogram per learner: bins of the need, the last bar "never".
    // Counts: whole bins of at least 1. Values: 30 bins over the range (the ceiling made them at
    // least 1 unit wide: pima's prices 0.54-2.47 gave three bars), and instances already wrong
    // (need 0) a bar of their own just left of 0, not mixed with needs below one bin.
    const double width = r.byValue ? m_never / 30.0 : std::max(1.0, std::ceil(m_never / 30.0));
    for (int k = 0; k < 2; ++k) {
        const std::vector<double>& need = k == 0 ? r.needA : r.needB;
        QMap<double, double> bins;
        for (int i = 0; i < r.done; ++i) {
            const double v = place(need[static_cast<std::size_t>(i)]);
            const double n = need[static_cast<std::size_t>(i)];
            // Instances the threat spares go with "never, or not attacked" whatever their need
            // (a wrong spared instance has need 0, and sat in the need-0 bar).
            const bool spared = r.spared.size() > static_cast<std::size_t>(i) && r.spared[static_cast<std::size_t>(i)];
            const double at = spared || !std::isfinite(n) ? m_never
                              : r.byValue && n == 0.0     ? -width / 2
                                                          : std::floor(v / width) * width + width / 2;
            bins[at] += 1;
        }
        m_bars[k]->setWidth(width * 0.9);
        m_bars[k]->setData(QVector<double>(bins.keys()), QVector<double>(bins.values()), true);
        m_hist[k]->xAxis->setLabel(counts.spared == 0 ? tr("%1 needed against %2\n(last bar: never)").arg(unit, names[k])
                                                      : tr("%1 needed against %2\n(last bar: never, or not attacked)").arg(unit, names[k]));
        m_hist[k]->xAxis->setRange(-width, m_never + width);
        m_hist[k]->rescaleAxes();
        m_hist[k]->xAxis->setRange(-width * (r.byValue ? 1.5 : 1.0), m_never + width);
        m_hist[k]->yAxis->setRangeLower(0);
        m_hist[k]->replot();
    }
    QString text = tr("%1 of %2 test instances%3. <b>Below the diagonal</b> (%4 instances): the adversary needs fewer "
                      "%5 against %6 than against %7; <b>above</b> (%8): fewer against %7; on it: %9. Never flipped: "
                      "%7 %10, %6 %11.")
                       .arg(r.done).arg(m_ctx->test->rows())
                       .arg(r.status == Status::Cancelled ? tr(" (cancelled part-way)") : QString())
                       .arg(counts.below).arg(unit, names[1], names[0]).arg(counts.above).arg(counts.equal)
                       .arg(counts.neverA).arg(counts.neverB);
    if (counts.spared > 0) {
        // A one-sided threat (the spammer) leaves the other classes alone: counted apart, or
        // "never flipped" would credit the learners with the threat's choice.
        QStringList spared, attacked;
        const std::vector<std::string>& classes = m_ctx->test->classNames;
        for (int c = 0; c < static_cast<int>(classes.size()); ++c)
            (m_ctx->attack.attacks(c) ? attacked : spared) << QString::fromStdString(classes[static_cast<std::size_t>(c)]).toHtmlEscaped();
        text += tr(" <b>Not attacked:</b> %1 %2 (the threat attacks %3 only), counted apart from the above; no budget "
                   "changes them: %4 gets %5 of them wrong, %6 %7.")
                    .arg(counts.spared).arg(spared.join(", "), attacked.join(", "), names[0]).arg(counts.sparedWrongA)
                    .arg(names[1]).arg(counts.sparedWrongB);
        if (!showsHistogram2d()) text += tr(" They are the hollow grey points.");
    }
    text += tr(" Click a point to open that instance in the Heatmaps tab.");
    if (!r.exactA || !r.exactB) text += tr(" <i>Greedy deletion (a heuristic) for the non-linear learner: its needs are upper bounds.</i>");
    if (!r.byValue) text += tr(" Points are spread by less than 0.3 so that equal counts stay visible.");
    text += notTheCurve(m_ctx->attack);
    m_summary->setText(text);
}

void RobustnessView::onPlotClick(QMouseEvent* e) {
    if (!m_map || showsHistogram2d()) return;
    int best = -1;
    double bestDist = 10.0 * 10.0;   // within 10 px
    for (const QCPCurve* curve : {m_points, m_spared}) {
        const auto data = curve->data();
        for (int k = 0; k < data->size(); ++k) {
            const double dx = m_scatter->xAxis->coordToPixel(data->at(k)->key) - e->position().x();
            const double dy = m_scatter->yAxis->coordToPixel(data->at(k)->value) - e->position().y();
            if (dx * dx + dy * dy < bestDist) {
                bestDist = dx * dx + dy * dy;
                best = curve == m_points ? instanceAtPoint(k) : instanceAtSparedPoint(k);
            }
        }
    }
    if (best >= 0) emit openInstance(best);
}

RobustnessView* addRobustnessTab(QTabWidget* tabs, HeatmapView* heatmaps) {
    auto* view = new RobustnessView(tabs);
    tabs->addTab(view, QObject::tr("Robustness"));
    QObject::connect(heatmaps, &HeatmapView::contextChanged, view, [view, heatmaps] { view->setContext(heatmaps->context()); });
    QObject::connect(view, &RobustnessView::openInstance, heatmaps, [tabs, heatmaps](int i) {
        heatmaps->setInstance(i);
        for (int t = 0; t < tabs->count(); ++t)
            if (tabs->widget(t)->isAncestorOf(heatmaps)) tabs->setCurrentIndex(t);
    });
    return view;
}

}  // namespace fdlab::ui
