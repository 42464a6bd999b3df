#include "ui/plots/curve_plot.h"

#include <QApplication>

#include "core/attacks/threat_registry.h"

#include "core/eval/experiment_runner.h"
#include "core/eval/multi_task.h"
#include "core/eval/presets.h"
#include "ui/plots/widget_export.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QDialog>
#include <QDialogButtonBox>
#include <QScreen>
#include <QTextBrowser>
#include <QStyle>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace fdlab::ui {

QColor learnerColour(int index) {
    // Okabe-Ito: distinguishable for colour-blind readers and in print.
    static const QColor colours[] = {QColor(0, 114, 178), QColor(213, 94, 0),  QColor(0, 158, 115),
                                     QColor(204, 121, 167), QColor(230, 159, 0), QColor(86, 180, 233),
                                     QColor(120, 120, 120), QColor(0, 0, 0)};
    return colours[static_cast<std::size_t>(index) % std::size(colours)];
}

QString CurvePlot::levelLabel(const std::string& threat) { return tr(threatInfo(threat).levelLabel.c_str()); }

CurvePlot::CurvePlot(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setObjectName("curveTitle");
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    bar->addWidget(m_title, 1);
    m_warnButton = new QToolButton(this);
    m_warnButton->setObjectName("curveWarnings");
    m_warnButton->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
    m_warnButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_warnButton->setAutoRaise(true);
    m_warnButton->hide();
    connect(m_warnButton, &QToolButton::clicked, this, &CurvePlot::showWarnings);
    bar->addWidget(m_warnButton);
    m_keepButton = new QToolButton(this);
    m_keepButton->setObjectName("curveKeep");
    m_keepButton->setText(tr("Keep these curves"));
    m_keepButton->setToolTip(tr("Keep this run's curves as dashed lines, to compare the next runs with them"));
    m_keepButton->setEnabled(false);
    connect(m_keepButton, &QToolButton::clicked, this, [this] {
        if (!m_keptIds.empty()) dropKeptCurves();
        else keepCurves(m_spec.multiTask() && m_task >= 0 ? tr("kept, %1").arg(QString::fromStdString(m_spec.taskName(m_task))) : tr("kept"),
                        m_points, m_spec, m_task);
    });
    bar->addWidget(m_keepButton);
    m_taskLabel = new QLabel(tr("Task:"), this);
    bar->addWidget(m_taskLabel);
    m_taskBox = new QComboBox(this);
    m_taskBox->setObjectName("curveTask");
    m_taskBox->setToolTip(tr("The mean over the experiment's tasks (as the papers average over digit pairs), or one task"));
    bar->addWidget(m_taskBox);
    m_taskLabel->hide();
    m_taskBox->hide();
    bar->addWidget(new QLabel(tr("Show:"), this));
    m_metricBox = new QComboBox(this);
    m_metricBox->addItems({tr("Test error"), tr("AUC")});
    m_metricBox->setToolTip(tr("Plot the test error or the area under the ROC curve"));
    bar->addWidget(m_metricBox);
    m_logBox = new QCheckBox(tr("Log y axis"), this);
    bar->addWidget(m_logBox);
    layout->addLayout(bar);

    m_plot = new QCustomPlot(this);
    m_plot->setObjectName("curvePlot");
    m_plot->setMinimumSize(300, 200);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom | QCP::iSelectLegend);
    m_plot->legend->setVisible(true);
    m_plot->legend->setBrush(QColor(255, 255, 255, 220));
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    QFont axisFont = font();
    axisFont.setPointSizeF(axisFont.pointSizeF() + 1);
    m_plot->xAxis->setLabelFont(axisFont);
    m_plot->yAxis->setLabelFont(axisFont);
    m_plot->xAxis->setLabel(tr("attack level"));
    m_plot->yAxis->setLabel(tr("test error"));
    m_plot->xAxis->grid()->setSubGridVisible(false);
    m_plot->setMouseTracking(true);
    layout->addWidget(m_plot, 1);

    connect(m_metricBox, &QComboBox::currentIndexChanged, this,
            [this](int i) { setMetric(i == 1 ? Metric::Auc : Metric::Error); });
    connect(m_logBox, &QCheckBox::toggled, this, &CurvePlot::setLogScale);
    connect(m_taskBox, &QComboBox::currentIndexChanged, this, [this](int i) { setShownTask(i - 1); });
    connect(m_plot, &QCustomPlot::mouseMove, this, &CurvePlot::onMouseMove);
}

void CurvePlot::setFontScale(double s) {
    QFont base = QApplication::font();
    if (base.pointSizeF() > 0) base.setPointSizeF(base.pointSizeF() * s);
    QFont label = base;
    if (label.pointSizeF() > 0) label.setPointSizeF(label.pointSizeF() + 1);
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setLabelFont(label);
        axis->setTickLabelFont(base);
    }
    m_plot->legend->setFont(base);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CurvePlot::setWarnings(const std::vector<std::string>& warnings) {
    m_warnings.clear();
    for (const std::string& w : groupedWarnings(warnings)) m_warnings << QString::fromStdString(w);
    m_warnButton->setText(tr("%n warning(s)", nullptr, static_cast<int>(m_warnings.size())));
    m_warnButton->setToolTip(QStringLiteral("<p>%1</p>").arg(tr("Click for the list. First: %1").arg(m_warnings.value(0).toHtmlEscaped())));
    m_warnButton->setVisible(!m_warnings.isEmpty());
}

// A scrolling list: a label-flip run of three learners over nine levels has 39 warnings, and a
// message box grew to 4,000 pixels with its Close button off the screen.
void CurvePlot::showWarnings() {
    QDialog box(this);
    box.setObjectName("curveWarningsDialog");
    box.setWindowTitle(tr("Warnings of this run"));
    auto* layout = new QVBoxLayout(&box);
    layout->addWidget(new QLabel(tr("The run finished with %n warning(s):", nullptr, static_cast<int>(m_warnings.size())), &box));
    auto* list = new QTextBrowser(&box);
    // Escaped: warnings quote file names and "|w.x| < |b|", which must not be read as markup.
    QStringList items;
    for (const QString& w : m_warnings) items << w.toHtmlEscaped();
    list->setHtml(QStringLiteral("<ul><li>%1</li></ul>").arg(items.join(QStringLiteral("</li><li>"))));
    layout->addWidget(list, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &box);
    connect(buttons, &QDialogButtonBox::rejected, &box, &QDialog::reject);
    layout->addWidget(buttons);
    const QRect area = screen() ? screen()->availableGeometry() : QRect(0, 0, 1280, 720);
    box.resize(std::min(720, area.width() * 9 / 10), std::min(480, area.height() * 8 / 10));
    box.exec();
}

QString CurvePlot::warningsButtonText() const { return m_warnButton->isVisibleTo(this) ? m_warnButton->text() : QString(); }

QString CurvePlot::warningsText() const {
    QStringList items;
    for (const QString& w : m_warnings) items << QStringLiteral("\u2022 ") + w;
    return items.join(QStringLiteral("\n\n"));
}

void CurvePlot::setSpec(const ExperimentSpec& spec) {
    m_spec = spec;
    setWarnings({});
    m_task = -1;
    {
        const QSignalBlocker b(m_taskBox);
        m_taskBox->clear();
        if (spec.multiTask()) {
            m_taskBox->addItem(tr("Mean over %1 tasks").arg(spec.taskCount()));
            for (int t = 0; t < spec.taskCount(); ++t) m_taskBox->addItem(QString::fromStdString(spec.taskName(t)));
        }
        m_taskBox->setVisible(spec.multiTask());
        m_taskLabel->setVisible(spec.multiTask());
    }
    m_points.clear();
    m_summary.clear();
    m_ids.clear();
    m_plot->clearPlottables();
    m_lines.clear();
    m_plot->xAxis->setLabel(levelLabel(spec.attack.threat));
    const QString name = QString::fromStdString(spec.name.empty() ? std::string("Experiment") : spec.name);
    m_title->setText(QStringLiteral("<b>%1</b> &nbsp; %2, %3 repetition(s)")
                         .arg(name.toHtmlEscaped(),
                              QString::fromStdString(spec.attack.threat).toHtmlEscaped())
                         .arg(spec.repetitions));

    // One-sided threats: three curves per learner, named so that the legend says which is which.
    QString attackedNames;
    for (const std::string& c : spec.attackedClasses)
        attackedNames += (attackedNames.isEmpty() ? "" : ", ") + QString::fromStdString(c);
    const bool oneSided = !spec.attackedClasses.empty();
    for (std::size_t i = 0; i < spec.learners.size(); ++i) {
        const LearnerSpec& l = spec.learners[i];
        const QColor colour = learnerColour(static_cast<int>(i));
        Line line;
        line.graph = m_plot->addGraph();
        line.graph->setName(QString::fromStdString(l.id) + (oneSided ? tr(": all instances") : QString()));
        line.graph->setPen(QPen(colour, 2));
        line.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 6));
        line.bars = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
        line.bars->setDataPlottable(line.graph);
        line.bars->setPen(QPen(colour, 1));
        line.bars->setWhiskerWidth(6);
        line.bars->removeFromLegend();
        // The paper's numbers, when the preset has them: hollow markers, no line.
        const auto& paper = spec.paper;
        if (paper.is_object() && paper.contains("curves") && paper["curves"].contains(l.id)) {
            line.paper = m_plot->addGraph();
            line.paper->setName(QString::fromStdString(l.id) + tr(" (paper)"));
            line.paper->setLineStyle(QCPGraph::lsNone);
            line.paper->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(colour, 1.5), Qt::NoBrush, 10));
            for (const auto& lv : paper["curves"][l.id])
                if (lv.is_array() && lv.size() >= 2) line.paper->addData(lv[0].get<double>(), lv[1].get<double>());
        }
        if (oneSided) {
            line.attacked = m_plot->addGraph();
            line.attacked->setName(QString::fromStdString(l.id) + tr(": attacked (%1)").arg(attackedNames));
            line.attacked->setPen(QPen(colour, 2, Qt::DashLine));
            line.others = m_plot->addGraph();
            line.others->setName(QString::fromStdString(l.id) + tr(": other classes"));
            line.others->setPen(QPen(colour, 1.5, Qt::DotLine));
        }
        m_lines.push_back(line);
        m_ids.push_back(l.id);
    }
    m_kept.clear();   // clearPlottables removed them
    drawKept();
    rebuildData();
}

void CurvePlot::keepCurves(const QString& label, const std::vector<CurvePoint>& points, const ExperimentSpec& spec, int task) {
    ExperimentResult r;
    r.spec = spec;
    r.summary = summarizePoints(points);
    if (spec.multiTask() && task >= 0) std::erase_if(r.summary, [task](const CurveSummary& s) { return s.task != task; });
    else if (spec.multiTask()) r.summary = aggregateOverTasks(r);
    m_keptSummary = std::move(r.summary);
    m_keptIds.clear();   // the learners with a point (a cancelled run may lack some), in their colours
    m_keptColours.clear();
    for (std::size_t i = 0; i < spec.learners.size(); ++i) {
        const std::string& id = spec.learners[i].id;
        if (std::any_of(m_keptSummary.begin(), m_keptSummary.end(), [&](const CurveSummary& c) { return c.learner == id; })) {
            m_keptIds.push_back(id);
            m_keptColours.push_back(static_cast<int>(i));
        }
    }
    m_keptLabel = label;
    m_keptUnit = levelLabel(spec.attack.threat);
    if (m_keptSummary.empty()) m_keptIds.clear();   // nothing to draw: nothing kept
    drawKept();
    rebuildData();
}

void CurvePlot::dropKeptCurves() {
    m_keptIds.clear();
    m_keptSummary.clear();
    drawKept();
    rebuildData();
}

void CurvePlot::drawKept() {
    for (QCPGraph* g : m_kept) m_plot->removeGraph(g);
    m_kept.clear();
    const bool kept = !m_keptIds.empty();
    m_keepButton->setText(kept ? tr("Drop kept curves") : tr("Keep these curves"));
    m_keepButton->setToolTip(kept ? tr("Kept: %1. Drop them from the plot").arg(m_keptLabel.toHtmlEscaped())
                                  : tr("Keep this run's curves as dashed lines, to compare the next runs with them"));
    if (!kept || m_keptUnit != levelLabel(m_spec.attack.threat)) return;   // another unit: another x axis
    for (std::size_t i = 0; i < m_keptIds.size(); ++i) {
        QCPGraph* g = m_plot->addGraph();
        const auto same = std::find(m_ids.begin(), m_ids.end(), m_keptIds[i]);
        QColor colour = learnerColour(same != m_ids.end() ? static_cast<int>(same - m_ids.begin()) : m_keptColours[i]);
        colour.setAlpha(170);
        g->setPen(QPen(colour, 1.5, Qt::DashLine));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(colour, 1.2), Qt::NoBrush, 7));
        g->setName(tr("%1 (%2)").arg(QString::fromStdString(m_keptIds[i]), m_keptLabel));
        m_kept.push_back(g);
    }
}

int CurvePlot::keptCurveCount() const { return static_cast<int>(m_kept.size()); }

int CurvePlot::keptPointCount(int i) const {
    return i >= 0 && i < keptCurveCount() ? m_kept[static_cast<std::size_t>(i)]->dataCount() : 0;
}

int CurvePlot::attackedPointCount(int learnerIndex) const {
    if (learnerIndex < 0 || learnerIndex >= learnerCount()) return 0;
    const QCPGraph* g = m_lines[static_cast<std::size_t>(learnerIndex)].attacked;
    return g ? g->dataCount() : 0;
}

int CurvePlot::othersPointCount(int learnerIndex) const {
    if (learnerIndex < 0 || learnerIndex >= learnerCount()) return 0;
    const QCPGraph* g = m_lines[static_cast<std::size_t>(learnerIndex)].others;
    return g ? g->dataCount() : 0;
}

void CurvePlot::addPoint(const CurvePoint& p) {
    m_points.push_back(p);
    rebuildData();
}

void CurvePlot::setPoints(std::vector<CurvePoint> points) {
    m_points = std::move(points);
    rebuildData();
}

void CurvePlot::setMetric(Metric m) {
    m_metric = m;
    {
        const QSignalBlocker b(m_metricBox);
        m_metricBox->setCurrentIndex(m == Metric::Auc ? 1 : 0);
    }
    m_plot->yAxis->setLabel(m == Metric::Auc ? tr("AUC") : tr("test error"));
    for (const Line& l : m_lines)
        for (QCPGraph* g : {l.paper, l.attacked, l.others})   // errors only (the papers report errors)
            if (g) g->setVisible(m == Metric::Error && (g != l.paper || m_task < 0));
    rebuildData();
}

void CurvePlot::setShownTask(int task) {
    if (task < -1 || task >= (m_spec.multiTask() ? m_spec.taskCount() : 0)) return;
    m_task = task;
    {
        const QSignalBlocker b(m_taskBox);
        m_taskBox->setCurrentIndex(task + 1);
    }
    // The paper's numbers are its mean over tasks: shown with the mean only.
    for (const Line& l : m_lines)
        if (l.paper) l.paper->setVisible(m_metric == Metric::Error && m_task < 0);
    rebuildData();
}

void CurvePlot::setLogScale(bool on) {
    m_log = on;
    {
        const QSignalBlocker b(m_logBox);
        m_logBox->setChecked(on);
    }
    if (on) {
        m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    } else {
        m_plot->yAxis->setScaleType(QCPAxis::stLinear);
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    }
    rescale();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CurvePlot::rebuildData() {
    m_summary = summarizePoints(m_points);
    if (m_spec.multiTask()) {
        if (m_task < 0) {
            ExperimentResult all;
            all.spec = m_spec;
            all.summary = std::move(m_summary);
            m_summary = aggregateOverTasks(all);
        } else {
            std::erase_if(m_summary, [this](const CurveSummary& s) { return s.task != m_task; });
        }
    }
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        QVector<double> keys, values, errors;
        for (const CurveSummary& s : m_summary) {
            if (s.learner != m_ids[i]) continue;
            const MeanSe& ms = m_metric == Metric::Auc ? s.auc : s.error;
            if (!std::isfinite(ms.mean)) continue;
            keys.push_back(s.level);
            values.push_back(ms.mean);
            errors.push_back(std::isfinite(ms.se) ? ms.se : 0.0);
        }
        m_lines[i].graph->setData(keys, values, true);
        m_lines[i].bars->setData(errors);
        for (const bool attacked : {true, false}) {
            QCPGraph* g = attacked ? m_lines[i].attacked : m_lines[i].others;
            if (!g) continue;
            QVector<double> k, v;
            for (const CurveSummary& s : m_summary) {
                const double e = attacked ? s.errorAttacked.mean : s.errorOthers.mean;
                if (s.learner != m_ids[i] || !std::isfinite(e)) continue;
                k.push_back(s.level);
                v.push_back(e);
            }
            g->setData(k, v, true);
        }
    }
    for (std::size_t i = 0; i < m_kept.size(); ++i) {
        QVector<double> k, v;
        for (const CurveSummary& s : m_keptSummary) {
            const MeanSe& ms = m_metric == Metric::Auc ? s.auc : s.error;
            if (s.learner != m_keptIds[i] || !std::isfinite(ms.mean)) continue;
            k.push_back(s.level);
            v.push_back(ms.mean);
        }
        m_kept[i]->setData(k, v, true);
    }
    m_keepButton->setEnabled(!m_keptIds.empty() || !m_points.empty());
    rescale();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CurvePlot::rescale() {
    // x: every level of the spec (so the axis does not jump while points arrive).
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double l : m_spec.levels) {
        lo = std::min(lo, l);
        hi = std::max(hi, l);
    }
    for (const CurvePoint& p : m_points) {
        lo = std::min(lo, p.level);
        hi = std::max(hi, p.level);
    }
    for (const QCPGraph* g : m_kept)
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            lo = std::min(lo, it->key);
            hi = std::max(hi, it->key);
        }
    if (std::isfinite(lo)) {
        const double pad = hi > lo ? 0.03 * (hi - lo) : 1.0;
        m_plot->xAxis->setRange(lo - pad, hi + pad);
    }
    // y: the data with its error bars and the paper's markers.
    double ylo = std::numeric_limits<double>::infinity(), yhi = -ylo;
    for (const CurveSummary& s : m_summary) {
        const MeanSe& ms = m_metric == Metric::Auc ? s.auc : s.error;
        if (!std::isfinite(ms.mean)) continue;
        const double se = std::isfinite(ms.se) ? ms.se : 0.0;
        ylo = std::min(ylo, ms.mean - se);
        yhi = std::max(yhi, ms.mean + se);
    }
    std::vector<const QCPGraph*> others(m_kept.begin(), m_kept.end());
    for (const Line& l : m_lines)
        for (const QCPGraph* g : {l.paper, l.attacked, l.others})
            if (g && g->visible()) others.push_back(g);
    for (const QCPGraph* g : others)
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
            ylo = std::min(ylo, it->value);
            yhi = std::max(yhi, it->value);
        }
    if (!std::isfinite(ylo)) {
        ylo = 0.0;
        yhi = m_metric == Metric::Auc ? 1.0 : 0.5;
    }
    if (m_log) {
        ylo = std::max(ylo, 1e-3);
        yhi = std::max(yhi, ylo * 10);
        m_plot->yAxis->setRange(ylo / 1.3, yhi * 1.3);
    } else {
        // An error axis starts at 0: from the data's own minimum, random deletion's rise from
        // 0.11 to 0.14 filled the plot's height and looked as steep as the worst case's 0.11 to
        // 0.94 (lesson b, steps 1 and 2). The log axis is there for small differences.
        ylo = m_metric == Metric::Auc ? std::max(0.0, ylo) : 0.0;
        if (m_metric == Metric::Auc) yhi = std::min(1.0, yhi);
        const double pad = std::max(0.02, 0.08 * (yhi - ylo));
        const double lo = std::max(0.0, ylo - pad);
        // Headroom for the legend (top left): flat curves near the top of a 0-based error axis
        // ran under it. The highest point stays below the share f of the axis height the legend
        // takes (as laid out at the last replot; before the first, about 22 px per entry):
        // top >= lo + (yhi - lo) / (1 - f).
        double f = 0.0;
        if (m_plot->legend->visible() && m_plot->legend->itemCount() > 0) {
            const QRect axis = m_plot->axisRect()->rect();
            const QRect box = m_plot->legend->outerRect();
            f = axis.height() > 50 && box.height() > 0
                    ? (box.bottom() - axis.top() + 8.0) / axis.height()
                    : (22.0 * m_plot->legend->itemCount() + 20.0) / std::max(200.0, m_plot->height() - 80.0);
        }
        f = std::clamp(f, 0.0, 0.5);
        m_plot->yAxis->setRange(lo, std::max(yhi + pad, lo + (yhi - lo) / (1.0 - f)));
    }
}

int CurvePlot::graphPointCount(int learnerIndex) const {
    if (learnerIndex < 0 || learnerIndex >= learnerCount()) return 0;
    return m_lines[static_cast<std::size_t>(learnerIndex)].graph->dataCount();
}

void CurvePlot::onMouseMove(QMouseEvent* e) {
    // The nearest drawn point (in pixels) within 12 px gets a tooltip with exact numbers.
    const QPointF pos = e->position();
    double best = 12.0 * 12.0;
    QString text;
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        for (const CurveSummary& s : m_summary) {
            if (s.learner != m_ids[i]) continue;
            const MeanSe& ms = m_metric == Metric::Auc ? s.auc : s.error;
            if (!std::isfinite(ms.mean)) continue;
            const double px = m_plot->xAxis->coordToPixel(s.level), py = m_plot->yAxis->coordToPixel(ms.mean);
            const double d2 = (px - pos.x()) * (px - pos.x()) + (py - pos.y()) * (py - pos.y());
            if (d2 >= best) continue;
            best = d2;
            text = tr("<b>%1</b><br>%2 = %3<br>%4 = %5 &plusmn; %6 (s.e., %7 repetition(s))")
                       .arg(QString::fromStdString(s.learner).toHtmlEscaped(), m_plot->xAxis->label())
                       .arg(s.level)
                       .arg(m_plot->yAxis->label())
                       .arg(ms.mean, 0, 'f', 4)
                       .arg(ms.se, 0, 'f', 4)
                       .arg(ms.n);
            if (m_metric == Metric::Error)
                if (auto ref = paperReference(m_spec, s.learner, s.level))
                    text += tr("<br>paper: %1").arg(*ref, 0, 'f', 4);
        }
        const Line& l = m_lines[i];
        if (l.paper && l.paper->visible())
            for (auto it = l.paper->data()->constBegin(); it != l.paper->data()->constEnd(); ++it) {
                const double px = m_plot->xAxis->coordToPixel(it->key), py = m_plot->yAxis->coordToPixel(it->value);
                const double d2 = (px - pos.x()) * (px - pos.x()) + (py - pos.y()) * (py - pos.y());
                if (d2 >= best) continue;
                best = d2;
                text = tr("<b>%1</b><br>%2 = %3<br>paper's error = %4")
                           .arg(l.paper->name().toHtmlEscaped(), m_plot->xAxis->label())
                           .arg(it->key)
                           .arg(it->value, 0, 'f', 4);
            }
    }
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(m_plot->mapToGlobal(pos.toPoint()), text, m_plot);
}

bool CurvePlot::exportTo(const QString& path, int width, int height, QString* error) {
    return exportPlot(m_plot, path, width, height, m_plot->xAxis->label() + " / " + m_plot->yAxis->label(), error);
}

}  // namespace fdlab::ui
