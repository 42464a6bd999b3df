#include "ui/plots/label_noise_view.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace fdlab::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Pale ColorBrewer RdBu: the points and rings drawn on top stay readable.
QCPColorGradient paleDiverging() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(170, 200, 230));
    g.setColorStopAt(0.5, QColor(255, 255, 255));
    g.setColorStopAt(1.0, QColor(245, 180, 160));
    return g;
}

QCPGraph* scatterGraph(QCustomPlot* plot, const QCPScatterStyle& style, const QString& name) {
    QCPGraph* g = plot->addGraph();
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(style);
    g->setName(name);
    return g;
}

}  // namespace

QStringList LabelNoiseView::datasets() {
    return {"biggio-2d", "sonar", "ionosphere", "pima", "breastcancer", "heart_scale"};
}

LabelNoiseView::LabelNoiseView(QWidget* parent) : QWidget(parent) {
    setObjectName("labelNoiseView");
    m_runner = new LabelNoiseRunner(this);

    m_dataset = new QComboBox(this);
    m_dataset->setObjectName("labelNoiseDataset");
    m_dataset->addItems(datasets());
    m_dataset->setSizeAdjustPolicy(QComboBox::AdjustToContents);   // "loaded: NAME" can be long
    m_dataset->setToolTip(tr("Two-class bundled data, or the loaded data when its task has two classes; all "
                             "but biggio-2d are scaled to [-1, 1]. With more than two features the picture is "
                             "the plane of the first two principal components."));
    m_flipKind = new QComboBox(this);
    m_flipKind->setObjectName("labelNoiseFlipKind");
    m_flipKind->addItem(tr("adversarial (Algorithm 1)"), static_cast<int>(FlipKind::Adversarial));
    m_flipKind->addItem(tr("random"), static_cast<int>(FlipKind::Random));
    m_flipKind->addItem(tr("none"), static_cast<int>(FlipKind::None));
    m_flips = new QSpinBox(this);
    m_flips->setObjectName("labelNoiseFlips");
    m_flips->setRange(0, 400);
    m_flips->setValue(10);
    m_flips->setToolTip(tr("Number of training labels flipped, L"));
    m_kernel = new QComboBox(this);
    m_kernel->addItems({"linear", "rbf"});
    m_C = new QDoubleSpinBox(this);
    m_C->setRange(0.001, 10000);
    m_C->setDecimals(3);
    m_C->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_C->setValue(1.0);
    m_C->setToolTip(tr("C: box on the dual variables (both panels)"));
    m_gamma = new QDoubleSpinBox(this);
    m_gamma->setRange(0.001, 1000);
    m_gamma->setDecimals(3);
    m_gamma->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    m_gamma->setValue(1.0);
    m_gamma->setToolTip(tr("RBF width: K(x, z) = exp(-gamma ||x - z||^2)"));
    m_gamma->setEnabled(false);
    m_mu = new QDoubleSpinBox(this);
    m_mu->setObjectName("labelNoiseMu");
    m_mu->setRange(0.01, 0.5);
    m_mu->setSingleStep(0.05);
    m_mu->setValue(0.5);
    m_mu->setToolTip(tr("mu: the flip rate the LN-robust SVM assumes (0.5 is trained as 0.499)"));

    // Two rows of controls: in one row they made the window wider than a 1280-pixel screen.
    auto* controls = new QHBoxLayout;
    auto* svmControls = new QHBoxLayout;
    auto addControl = [&](QHBoxLayout* row, const QString& label, QWidget* w) {
        auto* l = new QLabel(label, this);
        l->setBuddy(w);
        row->addWidget(l);
        row->addWidget(w);
    };
    addControl(controls, tr("&Data"), m_dataset);
    addControl(controls, tr("&Flips"), m_flipKind);
    controls->addWidget(m_flips);
    controls->addStretch(1);
    auto* controlsArea = controls;
    controls = svmControls;
    addControl(controls, tr("&Kernel"), m_kernel);
    addControl(controls, tr("&C"), m_C);
    addControl(controls, tr("&gamma"), m_gamma);
    addControl(controls, tr("LN-robust &mu"), m_mu);
    controls->addStretch(1);

    auto* plots = new QHBoxLayout;
    for (Panel& p : m_panels) {
        p = makePanel();
        plots->addWidget(p.plot, 1);
    }
    m_panels[0].plot->setObjectName("labelNoiseSvmPlot");
    m_panels[1].plot->setObjectName("labelNoiseRobustPlot");

    auto* legend = new QLabel(
        tr("<span style='color:#c0392b'>&#9679;</span> label +1 &nbsp; <span style='color:#2c5aa0'>&#9632;</span> "
           "label -1 (as trained, after the flips) &nbsp; <span style='color:#1e9e3c'>&#9711;</span> flipped &nbsp; "
           "&#9711; support vector &nbsp; black line: decision boundary &nbsp; background: decision value "
           "(blue &lt; 0 &lt; red)"),
        this);
    legend->setWordWrap(true);
    m_status = new QLabel(tr("computing..."), this);
    m_status->setObjectName("labelNoiseStatus");
    m_status->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controlsArea);
    layout->addLayout(svmControls);
    layout->addLayout(plots, 1);
    layout->addWidget(legend);
    layout->addWidget(m_status);

    connect(m_runner, &LabelNoiseRunner::sceneReady, this, &LabelNoiseView::showScene);
    connect(m_runner, &LabelNoiseRunner::failed, this, [this](const QString& msg) {
        m_status->setText(tr("Error: %1").arg(msg));
        emit sceneFailed(msg);
    });
    auto changed = [this] {
        if (!m_updating) recompute();
    };
    connect(m_dataset, &QComboBox::currentIndexChanged, this, changed);
    connect(m_flipKind, &QComboBox::currentIndexChanged, this, changed);
    connect(m_flips, &QSpinBox::valueChanged, this, changed);
    connect(m_kernel, &QComboBox::currentIndexChanged, this, [this, changed] {
        m_gamma->setEnabled(m_kernel->currentText() == "rbf");
        changed();
    });
    connect(m_C, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_gamma, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_mu, &QDoubleSpinBox::valueChanged, this, changed);
    recompute();
}

LabelNoiseView::Panel LabelNoiseView::makePanel() {
    Panel p;
    p.plot = new QCustomPlot(this);
    p.plot->setMinimumSize(240, 240);   // two side by side fit the central area of a 1200 px window
    p.plot->plotLayout()->insertRow(0);
    p.plot->plotLayout()->addElement(0, 0, new QCPTextElement(p.plot, "", QFont(font().family(), 10, QFont::Bold)));
    p.map = new QCPColorMap(p.plot->xAxis, p.plot->yAxis);
    p.map->setGradient(paleDiverging());
    p.map->setInterpolate(true);
    p.boundary = new QCPCurve(p.plot->xAxis, p.plot->yAxis);
    p.boundary->setPen(QPen(Qt::black, 2));
    p.boundary->setName(tr("boundary"));
    p.negative = scatterGraph(p.plot, QCPScatterStyle(QCPScatterStyle::ssSquare, QColor(44, 90, 160), QColor(44, 90, 160), 6), "-1");
    p.positive = scatterGraph(p.plot, QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(192, 57, 43), 7), "+1");
    p.support = scatterGraph(p.plot, QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.2), Qt::NoBrush, 12), "SV");
    p.flipped = scatterGraph(p.plot, QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(30, 158, 60), 2.2), Qt::NoBrush, 17), "flipped");
    return p;
}

void LabelNoiseView::setSettings(const QString& dataset, const LabelNoiseSceneParams& p) {
    m_updating = true;
    m_dataset->setCurrentText(dataset);
    m_flipKind->setCurrentIndex(m_flipKind->findData(static_cast<int>(p.flipKind)));
    m_flips->setValue(p.flips);
    m_kernel->setCurrentText(QString::fromLatin1(toString(p.svm.kernel)));
    m_gamma->setEnabled(p.svm.kernel == SvmKernel::Rbf);
    m_C->setValue(p.svm.C);
    m_gamma->setValue(p.svm.gamma);
    m_mu->setValue(p.mu);
    m_updating = false;
    recompute();
}

QString LabelNoiseView::dataset() const { return m_dataset->currentText(); }

bool LabelNoiseView::loadedShown() const { return m_loaded && m_dataset->currentData().toString() == "loaded"; }

void LabelNoiseView::setLoadedData(std::shared_ptr<const Dataset> data) {
    const bool wasShown = loadedShown();
    const int at = m_dataset->findData(QStringLiteral("loaded"));
    if (!data || data->numClasses() != 2 || data->rows() == 0) {
        m_loaded.reset();
        if (at >= 0) m_dataset->removeItem(at);   // moves the selection off it, which recomputes
        return;
    }
    m_loaded = std::move(data);
    const QString label = tr("loaded: %1").arg(QString::fromStdString(m_loaded->name));
    m_updating = true;
    if (at >= 0) m_dataset->setItemText(at, label);
    else m_dataset->insertItem(0, label, QStringLiteral("loaded"));
    m_updating = false;
    if (wasShown) recompute();
}

LabelNoiseSceneParams LabelNoiseView::params() const {
    LabelNoiseSceneParams p;
    p.flipKind = static_cast<FlipKind>(m_flipKind->currentData().toInt());
    p.flips = m_flips->value();
    p.svm.kernel = svmKernelFromString(m_kernel->currentText().toStdString());
    p.svm.C = m_C->value();
    p.svm.gamma = m_gamma->value();
    p.mu = m_mu->value();
    p.scaling = dataset() == "biggio-2d" ? Scaling::None : Scaling::MinusOneOne;   // loaded data too
    return p;
}

QString LabelNoiseView::statusText() const { return m_status->text(); }

void LabelNoiseView::recompute() {
    m_status->setText(tr("computing..."));
    m_runner->request(dataset(), loadedShown() ? m_loaded : nullptr, params());
}

void LabelNoiseView::drawPanel(Panel& p, const SvmPanelResult& r, const QString& title) {
    const LabelNoiseScene& s = *m_scene;
    const DecisionGrid& g = r.grid;
    p.map->data()->setSize(g.nu, g.nv);
    p.map->data()->setRange(QCPRange(g.uMin, g.uMax), QCPRange(g.vMin, g.vMax));
    double a = 0.0;
    for (int k = 0; k < g.nv; ++k)
        for (int i = 0; i < g.nu; ++i) {
            p.map->data()->setCell(i, k, g.at(i, k));
            a = std::max(a, std::abs(g.at(i, k)));
        }
    p.map->setDataRange(QCPRange(-std::max(a, 1e-12), std::max(a, 1e-12)));   // white = 0

    QVector<double> bu, bv;
    for (const ContourSegment& c : r.boundary) bu << c.u0 << c.u1 << kNaN, bv << c.v0 << c.v1 << kNaN;
    p.boundary->setData(bu, bv);

    QVector<double> nu, nv, pu, pv, fu, fv, su, sv;
    for (int i = 0; i < static_cast<int>(s.points.rows()); ++i) {
        (s.y[static_cast<std::size_t>(i)] > 0 ? pu : nu) << s.points(i, 0);
        (s.y[static_cast<std::size_t>(i)] > 0 ? pv : nv) << s.points(i, 1);
    }
    for (int i : s.flipped) fu << s.points(i, 0), fv << s.points(i, 1);
    for (int i : r.supportVectors) su << s.points(i, 0), sv << s.points(i, 1);
    p.negative->setData(nu, nv);
    p.positive->setData(pu, pv);
    p.flipped->setData(fu, fv);
    p.support->setData(su, sv);

    p.plot->xAxis->setLabel(QString::fromStdString(s.uTitle));
    p.plot->yAxis->setLabel(QString::fromStdString(s.vTitle));
    p.plot->xAxis->setRange(g.uMin, g.uMax);
    p.plot->yAxis->setRange(g.vMin, g.vMax);
    static_cast<QCPTextElement*>(p.plot->plotLayout()->element(0, 0))->setText(title);
    p.plot->replot(QCustomPlot::rpQueuedReplot);
}

void LabelNoiseView::showScene(const LabelNoiseScenePtr& s) {
    m_scene = s;
    const LabelNoiseSceneParams p = params();
    const QString kernel = p.svm.kernel == SvmKernel::Rbf ? tr("RBF kernel, gamma = %1").arg(p.svm.gamma) : tr("linear kernel");
    auto title = [&](const QString& name, const SvmPanelResult& r) {
        // One fact per line: at 1200 px the two plots are ~290 px wide each.
        return tr("%1\n%2% error on the clean labels\n%3 support vectors")
            .arg(name)
            .arg(100.0 * r.cleanTrainError, 0, 'f', 1)
            .arg(r.supportVectors.size());
    };
    drawPanel(m_panels[0], s->svm, title(tr("SVM"), s->svm));
    drawPanel(m_panels[1], s->robust, title(tr("LN-robust SVM (mu = %1)").arg(s->robust.model.mu), s->robust));
    m_status->setText(tr("%1 (%2, C = %3), %4 ms%5")
                          .arg(QString::fromStdString(s->message), kernel)
                          .arg(p.svm.C)
                          .arg(std::lround(1000 * s->elapsed))
                          .arg(s->projection.identity
                                   ? QString()
                                   : tr("; %1 features shown on the plane of the first two principal components "
                                        "(the background is the decision function on that plane)")
                                         .arg(s->data.features())));
    emit sceneShown();
}

}  // namespace fdlab::ui
