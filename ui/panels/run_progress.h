#pragma once
// A run's progress and its Cancel button, following the experiment state's runs by itself. The
// window shows one in the status bar and one under the views in presentation mode, where the
// status bar is hidden and a teacher pressing Run would otherwise see nothing happen.

#include <QWidget>

class QProgressBar;
class QPushButton;

namespace fdlab::ui {

class ExperimentController;

class RunProgress : public QWidget {
    Q_OBJECT
public:
    /// `onlyWhileRunning`: the widget itself hides between runs (a strip under the views);
    /// otherwise only the bar and the button do (the status bar's).
    RunProgress(ExperimentController* controller, bool onlyWhileRunning, QWidget* parent = nullptr);

    /// Whether the widget may appear at all (the strip: only in presentation mode).
    void setWanted(bool wanted);
    bool running() const { return m_running; }
    QProgressBar* bar() const { return m_bar; }
    QPushButton* cancelButton() const { return m_cancel; }

private:
    void setRunning(bool running);
    void updateVisibility();

    QProgressBar* m_bar = nullptr;
    QPushButton* m_cancel = nullptr;
    bool m_onlyWhileRunning = false;
    bool m_wanted = true;
    bool m_running = false;
};

}  // namespace fdlab::ui
