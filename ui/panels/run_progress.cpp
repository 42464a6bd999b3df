#include "ui/panels/run_progress.h"

#include "ui/experiment_controller.h"

#include <QHBoxLayout>
#include <QProgressBar>
#include <QPushButton>

#include <cmath>

namespace fdlab::ui {

RunProgress::RunProgress(ExperimentController* c, bool onlyWhileRunning, QWidget* parent)
    : QWidget(parent), m_onlyWhileRunning(onlyWhileRunning) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(onlyWhileRunning ? QMargins(6, 2, 6, 2) : QMargins());
    m_bar = new QProgressBar(this);
    m_bar->setRange(0, 1000);
    m_bar->setFormat(tr("running: %p%"));
    if (!onlyWhileRunning) m_bar->setMaximumWidth(220);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName("cancelButton");
    m_cancel->setToolTip(tr("Stop the run; the points done so far stay"));
    layout->addWidget(m_bar, 1);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QPushButton::clicked, c, &ExperimentController::cancel);
    connect(c, &ExperimentController::runStarted, this, [this] { setRunning(true); });
    connect(c, &ExperimentController::pointAdded, this, [this](const CurvePoint&, double fraction) {
        m_bar->setValue(static_cast<int>(std::lround(1000.0 * fraction)));
    });
    connect(c, &ExperimentController::progressMessage, m_bar, &QProgressBar::setToolTip);
    connect(c, &ExperimentController::finished, this, [this] { setRunning(false); });
    connect(c, &ExperimentController::resultShown, this, [this] { setRunning(false); });
    connect(c, &ExperimentController::failed, this, [this] { setRunning(false); });
    setRunning(c->isRunning());
}

void RunProgress::setWanted(bool wanted) {
    m_wanted = wanted;
    updateVisibility();
}

void RunProgress::setRunning(bool running) {
    m_running = running;
    m_bar->setValue(0);
    updateVisibility();
}

void RunProgress::updateVisibility() {
    m_bar->setVisible(m_running);
    m_cancel->setVisible(m_running);
    setVisible(m_wanted && (m_running || !m_onlyWhileRunning));
}

}  // namespace fdlab::ui
