#pragma once
// The lesson dock: pick a lesson, read a step (text, "try this"), and see the observation the
// step computes from its run, with its numbers. A step sets the experiment state through the
// host's one command (lesson_host.h); the run happens on the application's worker and the
// observation (which may train a model or two) on a job runner of the dock's own, so the GUI
// thread never waits.

#include "core/teach/lesson.h"
#include "core/teach/observation.h"
#include "ui/lessons/lesson_host.h"

#include <QWidget>

#include <map>
#include <optional>
#include <set>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;

namespace fdlab::ui {

class JobRunner;

class LessonDock : public QWidget {
    Q_OBJECT
public:
    /// `lessons`: usually listLessons().
    LessonDock(LessonHost* host, std::vector<fdlab::Lesson> lessons, QWidget* parent = nullptr);
    ~LessonDock() override;

    const std::vector<fdlab::Lesson>& lessons() const { return m_lessons; }
    /// Opens lesson `index` (into lessons()) at step `step`; applies that step's state.
    void startLesson(int index, int step = 0);
    /// Opens the lesson with file stem `id`; false when there is none.
    bool startLesson(const QString& id, int step = 0);
    int lessonIndex() const { return m_lesson; }
    int step() const { return m_step; }
    void next();
    void back();
    /// The dock was closed: the curves a step kept on the Curves tab ("SVM (step 1: ...)") are
    /// dropped, since no lesson explains them any more (curves the student kept stay). The lesson
    /// stays where it was.
    void closed();
    /// The dock was opened again: a started lesson's kept curves come back, if the Curves tab
    /// still shows the step's run and keeps nothing else.
    void reopened();

    /// The observation shown for the current step (empty until computed).
    const std::optional<fdlab::Observation>& observation() const { return m_observation; }
    /// What the observation area shows (also while waiting, or an error).
    QString observationText() const;
    QString progressText() const;

signals:
    /// The current step's observation is shown (computed from its run).
    void observationShown(const QString& text);
    /// The current step's observation could not be computed (message shown in the dock).
    void observationFailed(const QString& message);

private:
    void showStep();
    void applyStep(bool forceRun);
    void onRunFinished(const fdlab::ExperimentResult& r);
    void onRunFailed(const QString& message);
    void computeObservation(const fdlab::ExperimentResult& r);
    void setObservationHtml(const QString& html);

    LessonHost* m_host;
    std::vector<fdlab::Lesson> m_lessons;
    int m_lesson = -1;
    int m_step = 0;
    bool m_started = false;       ///< a lesson was started (not only shown in the picker)
    bool m_awaitingRun = false;                ///< the step's run has been asked for and not finished
    std::optional<fdlab::ExperimentResult> m_stepRun;   ///< the run of the current experiment
    int m_stepRunLesson = -1, m_stepRunStep = -1;       ///< the step whose experiment m_stepRun ran
    /// The current lesson's finished step runs, by the step that set the experiment: a step with
    /// a new experiment keeps the previous experiment's curves on the Curves tab (dashed).
    std::map<int, fdlab::ExperimentResult> m_runs;
    int m_runsLesson = -1;
    /// Steps of the current lesson whose experiment, run only for a later step to compare with,
    /// failed: not tried again.
    std::set<int> m_comparisonFailed;
    /// The curves the current step keeps on the Curves tab (none: empty label).
    fdlab::KeptCurves m_kept;
    std::optional<fdlab::Observation> m_observation;
    JobRunner* m_jobs = nullptr;

    QComboBox* m_picker = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_progress = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_text = nullptr;
    QLabel* m_try = nullptr;
    QLabel* m_observationLabel = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_next = nullptr;
    QPushButton* m_rerun = nullptr;
};

}  // namespace fdlab::ui
