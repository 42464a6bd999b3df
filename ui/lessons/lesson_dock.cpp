#include "ui/lessons/lesson_dock.h"

#include "core/attacks/threat_registry.h"
#include "core/teach/lesson_runner.h"
#include "ui/workers/job_runner.h"

#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

namespace fdlab::ui {

namespace {

// The step whose experiment is in force at `step`: the last one at or before it that set one.
int experimentOwner(const Lesson& l, int step) {
    for (int s = step; s > 0; --s)
        if (l.steps[static_cast<std::size_t>(s)].newExperiment) return s;
    return 0;
}

QLabel* wrappedLabel(QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setWordWrap(true);
    l->setTextFormat(Qt::RichText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    return l;
}

}  // namespace

LessonDock::LessonDock(LessonHost* host, std::vector<Lesson> lessons, QWidget* parent)
    : QWidget(parent), m_host(host), m_lessons(std::move(lessons)) {
    setObjectName("lessonDock");
    m_jobs = new JobRunner("FDLab lesson", this);
    auto* layout = new QVBoxLayout(this);
    m_picker = new QComboBox(this);
    m_picker->setObjectName("lessonPicker");
    m_picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_picker->setMinimumContentsLength(20);
    for (std::size_t i = 0; i < m_lessons.size(); ++i)
        m_picker->addItem(QString("%1. %2").arg(QChar('a' + static_cast<int>(i))).arg(QString::fromStdString(m_lessons[i].title)));
    layout->addWidget(m_picker);
    // The lesson's text scrolls between the picker and the buttons: at 1280x720 a long step
    // (text, "try this" and the observation with its numbers) is taller than the dock.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName("lessonScroll");
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* content = new QWidget(scroll);
    auto* outer = layout;
    layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    m_summary = wrappedLabel(this);
    m_summary->setStyleSheet("color: palette(mid);");
    layout->addWidget(m_summary);

    auto* line = new QFrame(this);
    line->setFrameShape(QFrame::HLine);
    layout->addWidget(line);
    m_progress = new QLabel(this);
    m_progress->setObjectName("lessonProgress");
    layout->addWidget(m_progress);
    m_title = wrappedLabel(this);
    layout->addWidget(m_title);
    m_text = wrappedLabel(this);
    m_text->setObjectName("lessonText");
    layout->addWidget(m_text);
    m_try = wrappedLabel(this);
    m_try->setObjectName("lessonTry");
    m_try->setFrameShape(QFrame::StyledPanel);
    m_try->setMargin(6);
    layout->addWidget(m_try);
    m_observationLabel = wrappedLabel(this);
    m_observationLabel->setObjectName("lessonObservation");
    m_observationLabel->setFrameShape(QFrame::StyledPanel);
    m_observationLabel->setMargin(6);
    layout->addWidget(m_observationLabel);
    layout->addStretch(1);
    scroll->setWidget(content);
    layout = outer;
    layout->addWidget(scroll, 1);

    auto* buttons = new QHBoxLayout;
    m_back = new QPushButton(tr("< Back"), this);
    m_back->setObjectName("lessonBack");
    m_next = new QPushButton(tr("Next >"), this);
    m_next->setObjectName("lessonNext");
    m_rerun = new QPushButton(tr("Run step again"), this);
    m_rerun->setObjectName("lessonRerun");
    m_rerun->setToolTip(tr("Set this step's experiment again and run it (after you changed the panels)"));
    buttons->addWidget(m_back);
    buttons->addWidget(m_rerun);
    buttons->addStretch(1);
    buttons->addWidget(m_next);
    layout->addLayout(buttons);

    connect(m_picker, &QComboBox::activated, this, [this](int i) { startLesson(i, 0); });
    connect(m_back, &QPushButton::clicked, this, &LessonDock::back);
    connect(m_next, &QPushButton::clicked, this, &LessonDock::next);
    connect(m_rerun, &QPushButton::clicked, this, [this] { applyStep(true); });
    connect(m_host, &LessonHost::runFinished, this, &LessonDock::onRunFinished);
    connect(m_host, &LessonHost::runFailed, this, &LessonDock::onRunFailed);
    if (m_lessons.empty()) {
        m_progress->setText(tr("No lessons found (looked in %1).").arg(QString::fromStdString(lessonsDir())));
        for (QWidget* w : {static_cast<QWidget*>(m_picker), static_cast<QWidget*>(m_back), static_cast<QWidget*>(m_next),
                           static_cast<QWidget*>(m_rerun)})
            w->setEnabled(false);
    } else {
        m_lesson = 0;
        showStep();   // shown, not applied: the lesson starts when the student picks it
        m_observationLabel->setText(tr("Pick a lesson above, or press Next to start this one."));
        m_back->setEnabled(false);
        m_next->setText(tr("Start >"));
    }
}

LessonDock::~LessonDock() = default;

bool LessonDock::startLesson(const QString& id, int step) {
    for (std::size_t i = 0; i < m_lessons.size(); ++i)
        if (QString::fromStdString(m_lessons[i].id) == id) {
            startLesson(static_cast<int>(i), step);
            return true;
        }
    return false;
}

void LessonDock::startLesson(int index, int step) {
    if (index < 0 || index >= static_cast<int>(m_lessons.size())) return;
    m_lesson = index;
    m_step = std::clamp(step, 0, static_cast<int>(m_lessons[static_cast<std::size_t>(index)].steps.size()) - 1);
    m_started = true;
    showStep();
    applyStep(false);
}

void LessonDock::next() {
    if (m_lesson < 0) return;
    if (!m_started) {
        startLesson(m_lesson, 0);
        return;
    }
    const int n = static_cast<int>(m_lessons[static_cast<std::size_t>(m_lesson)].steps.size());
    if (m_step + 1 >= n) {
        // The last step's Next opens the following lesson.
        if (m_lesson + 1 < static_cast<int>(m_lessons.size())) startLesson(m_lesson + 1, 0);
        return;
    }
    ++m_step;
    showStep();
    applyStep(false);
}

void LessonDock::back() {
    if (m_lesson < 0 || m_step == 0 || !m_started) return;
    --m_step;
    showStep();
    applyStep(false);
}

QString LessonDock::progressText() const { return m_progress->text(); }
QString LessonDock::observationText() const { return m_observationLabel->text(); }

void LessonDock::showStep() {
    const Lesson& l = m_lessons[static_cast<std::size_t>(m_lesson)];
    const LessonStep& s = l.steps[static_cast<std::size_t>(m_step)];
    m_picker->setCurrentIndex(m_lesson);
    m_summary->setText(QString::fromStdString(l.summary).toHtmlEscaped());
    m_progress->setText(tr("Step %1 of %2").arg(m_step + 1).arg(l.steps.size()));
    m_title->setText("<b>" + QString::fromStdString(s.title).toHtmlEscaped() + "</b>");
    m_text->setText(QString::fromStdString(s.text).toHtmlEscaped());
    m_try->setText("<b>" + tr("Try this:") + "</b> " + QString::fromStdString(s.tryThis).toHtmlEscaped());
    const int n = static_cast<int>(l.steps.size());
    m_back->setEnabled(m_started && m_step > 0);
    const bool last = m_step + 1 >= n;
    m_next->setText(last ? tr("Next lesson >") : tr("Next >"));
    m_next->setEnabled(!last || m_lesson + 1 < static_cast<int>(m_lessons.size()));
    m_observation.reset();
}

void LessonDock::applyStep(bool forceRun) {
    const Lesson& l = m_lessons[static_cast<std::size_t>(m_lesson)];
    const LessonStep& s = l.steps[static_cast<std::size_t>(m_step)];
    const int owner = experimentOwner(l, m_step);
    LessonStateChange change;
    change.view = s.view;
    // The previous experiment's curves stay beside this one's (lesson b: step 1's random deletion
    // under step 2's worst case), when that step ran in this lesson; else none are kept.
    if (m_runsLesson != m_lesson) {
        m_runs.clear();
        m_comparisonFailed.clear();
        m_runsLesson = m_lesson;
    }
    change.keep = KeptCurves{};
    // Only curves on the same level axis can be drawn beside this step's (lesson f step 3's worst
    // case after random blankout: K against p); other kept curves were run and never shown.
    const int previous = owner > 0 ? experimentOwner(l, owner - 1) : -1;
    const bool sameAxis = previous >= 0 && threatInfo(l.steps[static_cast<std::size_t>(previous)].experiment.attack.threat).levelLabel ==
                                               threatInfo(l.steps[static_cast<std::size_t>(owner)].experiment.attack.threat).levelLabel;
    if (sameAxis) {
        if (m_runs.find(previous) == m_runs.end() && !m_comparisonFailed.count(previous)) {
            // Opened at this step (--lesson-step, the picker, a teacher's jump): the earlier
            // experiment this step compares with has not run, and the step's text spoke of its
            // dashed curve that was not there. It runs first, on the dock's own worker (not as the
            // window's run: that one's heatmaps, still being prepared, took the step's budget and
            // instance), then this step's as usual.
            const ExperimentSpec spec = l.steps[static_cast<std::size_t>(previous)].experiment;
            const int lesson = m_lesson;
            m_awaitingRun = false;
            setObservationHtml("<i>" + tr("Running step %1's experiment first, to compare this step with...").arg(previous + 1) +
                               "</i>");
            auto done = [this, lesson, previous](const std::optional<ExperimentResult>& r) {
                if (m_lesson != lesson || m_runsLesson != lesson) return;
                if (r && r->status != Status::Cancelled && r->status != Status::Failed) m_runs[previous] = *r;
                else m_comparisonFailed.insert(previous);   // this step runs without it
                applyStep(false);
            };
            m_jobs->run([spec](const JobContext& c) { return std::optional<ExperimentResult>(runExperiment(spec, c.control())); },
                        done, [done](const QString&) { done(std::nullopt); });
            return;
        }
        if (const auto it = m_runs.find(previous); it != m_runs.end()) {
            // Named by the step, and by its threat when this step's differs ("step 1: random-deletion").
            const std::string& threat = it->second.spec.attack.threat;
            QString label = tr("step %1").arg(previous + 1);
            if (threat != l.steps[static_cast<std::size_t>(owner)].experiment.attack.threat)
                label += ": " + QString::fromStdString(threat);
            change.keep = KeptCurves{label.toStdString(), it->second.points, it->second.spec};
        }
    }
    // The instance the observation speaks of (a step without its own inherits an earlier one's).
    m_kept = *change.keep;
    change.view.instance = lessonInstance(l, m_step);
    m_jobs->discard();   // an observation still being computed belongs to another step
    // The views must show the run the observation speaks of: after a run of the student's own
    // (other levels, another dataset) the step's experiment is shown and run again, or the
    // observation ("at K = 10 ... 0.630") sat beside curves of another experiment.
    const ExperimentResult* shown = m_host->lastResult();
    const bool viewsShowStepRun = shown && sameExperiment(shown->spec, l.steps[static_cast<std::size_t>(owner)].experiment);
    if (forceRun || !m_stepRun || m_stepRunLesson != m_lesson || m_stepRunStep != owner || !viewsShowStepRun) {
        change.spec = l.steps[static_cast<std::size_t>(owner)].experiment;
        change.run = true;
        m_awaitingRun = true;
        m_stepRun.reset();
        m_stepRunLesson = m_lesson;
        m_stepRunStep = owner;
        setObservationHtml("<i>" + tr("Running this step's experiment...") + "</i>");
        m_host->apply(change);
        return;
    }
    m_host->apply(change);
    computeObservation(*m_stepRun);
}

void LessonDock::closed() {
    if (m_kept.label.empty()) return;
    LessonStateChange change;
    change.keep = fdlab::KeptCurves{};
    change.keep->ifKept = m_kept.label;   // the student's own kept curves stay
    m_host->apply(change);
}

void LessonDock::reopened() {
    if (!m_started || m_kept.label.empty()) return;
    // Only over the step's own run, and only where nothing else is kept: after a run of other
    // data the lesson's curves would lie over another plot.
    const Lesson& l = m_lessons[static_cast<std::size_t>(m_lesson)];
    const ExperimentResult* shown = m_host->lastResult();
    if (!shown || !sameExperiment(shown->spec, l.steps[static_cast<std::size_t>(experimentOwner(l, m_step))].experiment))
        return;
    LessonStateChange change;
    change.keep = m_kept;
    change.keep->ifKept = std::string();
    m_host->apply(change);
}

void LessonDock::onRunFinished(const ExperimentResult& r) {
    // A run the student started, or one abandoned for the step's: the lesson's numbers stay its own.
    if (!m_awaitingRun || !sameExperiment(r.spec, m_lessons[static_cast<std::size_t>(m_stepRunLesson)]
                                                         .steps[static_cast<std::size_t>(m_stepRunStep)]
                                                         .experiment))
        return;
    m_awaitingRun = false;
    if (r.status == Status::Cancelled || r.status == Status::Failed) {
        setObservationHtml("<i>" + tr("The run was stopped before it finished. Press \"Run step again\" to see this "
                                      "step's observation.") + "</i>");
        return;
    }
    m_stepRun = r;
    if (m_runsLesson == m_stepRunLesson) m_runs[m_stepRunStep] = r;
    computeObservation(r);
}

void LessonDock::onRunFailed(const QString& message) {
    if (!m_awaitingRun) return;
    m_awaitingRun = false;
    setObservationHtml("<b>" + tr("The step's run failed:") + "</b> " + message.toHtmlEscaped());
    emit observationFailed(message);
}

void LessonDock::computeObservation(const ExperimentResult& r) {
    setObservationHtml("<i>" + tr("Computing the observation...") + "</i>");
    const Lesson lesson = m_lessons[static_cast<std::size_t>(m_lesson)];
    const int step = m_step;
    m_jobs->run([lesson, step, r](const JobContext& c) { return observeStep(lesson, step, r, c.control()); },
                [this](const Observation& o) {
                    if (o.text.empty()) return;   // cancelled
                    m_observation = o;
                    QString html = "<b>" + tr("What this run shows:") + "</b> " + QString::fromStdString(o.text).toHtmlEscaped();
                    if (!o.claim.empty()) {
                        // The evaluated sides in brackets only when the claim computes something
                        // ("0.5 * e10"); "10 <= 20 (10 <= 20)" says nothing twice.
                        QString claim = QString::fromStdString(o.claimWithValues).toHtmlEscaped();
                        if (o.claimNumbers != o.claimWithValues)
                            claim += " (" + QString::fromStdString(o.claimNumbers).toHtmlEscaped() + ")";
                        html += "<br><span style='color:" + QString(o.claimHolds ? "#1a7f37" : "#b42318") + "'>" +
                                (o.claimHolds ? tr("The lesson's claim holds here: %1.")
                                              : tr("The lesson's claim does not hold in this run: %1 is false."))
                                    .arg(claim) +
                                "</span>";
                    }
                    setObservationHtml(html);
                    emit observationShown(QString::fromStdString(o.text));
                },
                [this](const QString& msg) {
                    setObservationHtml("<b>" + tr("The observation could not be computed:") + "</b> " + msg.toHtmlEscaped());
                    emit observationFailed(msg);
                });
}

void LessonDock::setObservationHtml(const QString& html) { m_observationLabel->setText(html); }

}  // namespace fdlab::ui
