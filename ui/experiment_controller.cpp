#include "ui/experiment_controller.h"

#include "core/eval/model_data.h"
#include "ui/workers/experiment_worker.h"
#include "ui/workers/job_runner.h"

namespace fdlab::ui {

ExperimentController::ExperimentController(ExperimentSpec initial, QObject* parent)
    : QObject(parent), m_state(std::move(initial)) {
    qRegisterMetaType<std::shared_ptr<const HeatmapContext>>();
    m_loader = new DatasetLoader(this);
    connect(m_loader, &DatasetLoader::loaded, this, &ExperimentController::onLoaded);
    connect(m_loader, &DatasetLoader::failed, this, &ExperimentController::onFailed);
    m_worker = new ExperimentWorker(this);
    connect(m_worker, &ExperimentWorker::pointReady, this, &ExperimentController::onPoint);
    connect(m_worker, &ExperimentWorker::progress, this, [this](quint64 id, double, const QString& message) {
        if (id == m_runId) emit progressMessage(message);
    });
    connect(m_worker, &ExperimentWorker::finished, this, &ExperimentController::onFinished);
    connect(m_worker, &ExperimentWorker::failed, this, &ExperimentController::onRunFailed);
    m_heatmapJobs = new JobRunner("fdlab-heatmap-training", this);
    m_exportJobs = new JobRunner("fdlab-model-export", this);
    m_importanceJobs = new JobRunner("fdlab-run-importance", this);
}

ExperimentController::~ExperimentController() {
    m_worker->cancel();
    m_heatmapJobs->cancel();
    m_exportJobs->cancel();
}

QStringList ExperimentController::tabIds() {
    return {"curves", "heatmaps", "data", "label-noise", "robustness"};
}

void ExperimentController::apply(const StateChange& change) {
    if (change.spec) applySpec(*change.spec);
    if (change.budget) {
        // Heatmaps on their way (a run or their training): they open on it once they are ready.
        if (change.run || m_worker->isRunning() || m_heatmapJobs->busy()) m_pendingBudget = *change.budget;
        setBudget(*change.budget);
    }
    if (change.keep) emit keptCurvesRequested(*change.keep);
    if (change.instance) {
        if (change.run || m_worker->isRunning() || m_heatmapJobs->busy()) m_pendingInstance = *change.instance;
        emit instanceRequested(*change.instance);
    }
    if (change.run) {
        if (change.spec)
            run(*change.spec);
        else
            runCurrent();
    }
    if (change.tab) {   // after the run, which brings the curves to the front
        const QString tab = QString::fromStdString(*change.tab);
        if (!tabIds().contains(tab))
            emit errorOccurred(tr("Unknown view"), tr("There is no view '%1' (views: %2).").arg(tab, tabIds().join(", ")));
        else
            emit tabRequested(tab);
    }
}

void ExperimentController::setSpecReader(std::function<ExperimentSpec(const ExperimentSpec&)> reader) {
    m_reader = std::move(reader);
}

ExperimentSpec ExperimentController::currentSpec() const {
    ExperimentSpec spec = m_reader ? m_reader(m_state.spec()) : m_state.spec();
    if (!spec.dataset.file.empty() && sourceName(spec.dataset) == m_loadedSource.toStdString())
        spec.dataset.options = m_loadOptions;
    if (m_editedImportance && m_data && m_editedImportance->size() == static_cast<std::size_t>(m_data->features())) {
        spec.importance.kind = ImportanceSpec::Kind::Values;
        spec.importance.values = *m_editedImportance;
    }
    if (spec.learners.empty()) throw std::invalid_argument("learners: tick at least one learner");
    spec = m_state.forRun(std::move(spec));
    spec.validate();
    return spec;
}

void ExperimentController::setEditedImportance(const std::vector<double>& values) {
    m_editedImportance = values;
    m_importanceJobs->discard();   // the hand-edited values are the run's now
    m_state.setImportance(values);
    emit budgetChanged(m_state.budget(), m_state.maxBudget());
}

void ExperimentController::computeRunImportance() {
    m_importanceJobs->discard();
    if (!m_data || m_state.spec().importance.kind == ImportanceSpec::Kind::Dataset) return;
    const ExperimentSpec spec = m_state.spec();
    const QString what = QString::fromStdString(toJson(spec).value("importance", nlohmann::json::object()).value("kind", ""));
    m_importanceJobs->run([spec, data = m_data](const JobContext&) { return importanceOfRun(spec, *data); },
                          [this, what](const std::vector<double>& v) {
                              m_state.setImportance(v);
                              emit importanceReady(v, what);
                              emit budgetChanged(m_state.budget(), m_state.maxBudget());
                          },
                          [this](const QString& msg) { emit errorOccurred(tr("Could not compute the importance values"), msg); });
}

// ---- data -----------------------------------------------------------------------------------

void ExperimentController::applySpec(const ExperimentSpec& spec) {
    // Another experiment replaces the one shown: nothing of a run still going may join it.
    abandonRun();
    m_heatmapJobs->discard();
    m_pendingBudget.reset();
    m_pendingInstance.reset();
    m_result.reset();
    m_editedImportance.reset();
    m_state.setSpec(spec);
    emit viewsStale();
    const QString source = QString::fromStdString(sourceName(spec.dataset));
    if (source == m_loadedSource && m_data) {
        // The same data: the spec is adapted to it at once.
        const std::vector<std::string> notes = m_state.adaptToData(m_data, spec.dataset, true);
        emit specApplied(m_state.spec());
        emit budgetChanged(m_state.budget(), m_state.maxBudget());
        for (const std::string& n : notes) emit statusMessage(QString::fromStdString(n), 0);
        computeRunImportance();
        return;
    }
    emit specApplied(m_state.spec());
    m_specSource = source;   // its split is the spec's where it fits
    openSource(source, spec.dataset.options);
}

void ExperimentController::openSource(const QString& source, const LoadOptions& options) {
    // Other data while a run is going: the run stops as with Cancel (its finished points stay,
    // with its own spec). The heatmaps of the previous data must not be re-analysed at a budget
    // taken from the new data: they are cleared now.
    cancel();
    if (source != m_specSource) {
        m_heatmapJobs->discard();
        emit viewsStale();
    }
    emit statusMessage(tr("Loading %1...").arg(source), 0);
    m_loadOptions = options;
    m_loader->request(source, options);
}

void ExperimentController::onLoaded(const QString& source, DatasetPtr data, const QString& format) {
    const bool specsData = source == m_specSource;
    m_specSource.clear();
    if (!specsData && m_reader) {
        try {   // data chosen on its own: what the panels describe now is adapted to it
            m_state.edit(m_reader(m_state.spec()));
        } catch (const std::exception&) {
            // a field the panels cannot express yet (e.g. an unparsable level list): the spec last set
        }
    }
    m_data = std::move(data);
    m_loadedSource = source;
    m_editedImportance.reset();
    DatasetRef ref;
    if (source.startsWith("bundled:"))
        ref.bundled = source.mid(8).toStdString();
    else
        ref.file = source.toStdString();
    ref.options = m_loadOptions;
    if (specsData) ref = m_state.spec().dataset;
    QStringList notes;
    for (const std::string& n : m_state.adaptToData(m_data, ref, specsData)) notes << QString::fromStdString(n);
    const QString note = notes.join(' ');
    emit dataLoaded(source, m_data, format, m_state.spec(), note);
    emit budgetChanged(m_state.budget(), m_state.maxBudget());
    computeRunImportance();
    emit statusMessage(note.isEmpty() ? tr("%1: %2 instances, %3 features")
                                            .arg(QString::fromStdString(m_data->name))
                                            .arg(m_data->rows())
                                            .arg(m_data->features())
                                      : note,
                       0);
}

void ExperimentController::onFailed(const QString& source, const QString& message) {
    if (source == m_specSource) m_specSource.clear();
    emit dataFailed(source, message);
    emit errorOccurred(tr("Could not load %1").arg(source), message);
}

// ---- runs -----------------------------------------------------------------------------------

bool ExperimentController::runCurrent() {
    try {
        run(currentSpec());
        return true;
    } catch (const std::exception& e) {
        emit errorOccurred(tr("Cannot run this experiment"), QString::fromStdString(e.what()));
        return false;
    }
}

void ExperimentController::run(const ExperimentSpec& spec) {
    m_heatmapJobs->discard();
    emit viewsStale();
    m_runSpec = spec;
    m_result.reset();
    m_pointCount = 0;
    emit runStarted(spec);
    emit tabRequested("curves");
    emit statusMessage(tr("Running %1...").arg(QString::fromStdString(spec.name)), 0);
    m_runId = m_worker->start(spec);
}

void ExperimentController::cancel() {
    if (!m_worker->isRunning()) return;
    m_worker->cancel();
    m_heatmapJobs->cancel();
    m_exportJobs->cancel();
    emit statusMessage(tr("Cancelling..."), 0);
}

bool ExperimentController::isRunning() const { return m_worker->isRunning(); }

void ExperimentController::abandonRun() {
    m_runId = 0;
    if (!m_worker->isRunning()) return;
    m_worker->discard();
    emit failed(QString());   // the views stop showing a run going on
    emit statusMessage(tr("The run was cancelled: another experiment was opened"), 5000);
}

void ExperimentController::showResult(const ExperimentResult& r) {
    abandonRun();
    m_runSpec = r.spec;
    m_result = r;
    emit resultShown(r);   // not runStarted / finished: nothing ran
    emit tabRequested("curves");
    prepareHeatmaps(r);
}

void ExperimentController::onPoint(quint64 runId, const CurvePoint& p) {
    if (runId != m_runId) return;   // a run that no longer owns the curves
    ++m_pointCount;
    // Progress = finished points of all expected ones (core's own fractions are per job).
    double fraction = 0.0;
    if (m_runSpec) {
        const double expected = double(m_runSpec->learners.size()) * double(m_runSpec->levels.size()) *
                                double(repetitionCount(*m_runSpec));
        if (expected > 0) fraction = m_pointCount / expected;
    }
    emit pointAdded(p, fraction);
    emit statusMessage(tr("%1 points  (last: %2 at %3)").arg(m_pointCount).arg(QString::fromStdString(p.learner)).arg(p.level), 0);
}

void ExperimentController::onFinished(quint64 runId, const ExperimentResult& r) {
    if (runId != m_runId) return;
    m_result = r;
    QString msg = r.status == Status::Cancelled
                      ? tr("Cancelled: %1 points kept").arg(r.points.size())
                      : tr("Finished: %1 points in %2 s").arg(r.points.size()).arg(r.elapsed, 0, 'f', 1);
    if (!r.warnings.empty()) msg += tr("  (%1 warning(s): %2)").arg(r.warnings.size()).arg(QString::fromStdString(r.warnings.front()));
    emit statusMessage(msg, 0);
    emit finished(r);
    if (r.status != Status::Cancelled) prepareHeatmaps(r);
}

void ExperimentController::onRunFailed(quint64 runId, const QString& message) {
    if (runId != m_runId) return;
    emit failed(message);
    emit errorOccurred(tr("The experiment failed"), message);
}

void ExperimentController::setBudget(double b) {
    const double clamped = m_state.setBudget(b);
    emit budgetChanged(clamped, m_state.maxBudget());
}

// ---- heatmaps and exported models ----------------------------------------------------------

void ExperimentController::prepareHeatmaps(const ExperimentResult& r) {
    const std::vector<std::size_t> chosen = heatmapLearners(r.spec);
    if (chosen.empty()) return;   // label flips act on the training set: nothing per instance
    std::vector<std::pair<LearnerSpec, nlohmann::json>> todo;
    for (std::size_t i : chosen) todo.emplace_back(r.spec.learners[i], paramsAtRepetition0(&r, r.spec.learners[i]));
    const ExperimentSpec spec = r.spec;
    // The budget the views share, else the middle level of the curves.
    const double level = m_pendingBudget ? *m_pendingBudget : spec.levels.empty() ? 0.0 : spec.levels[spec.levels.size() / 2];
    emit statusMessage(tr("Training models for the heatmaps..."), 0);
    m_heatmapJobs->run(
        [spec, todo, level](const JobContext& c) -> std::shared_ptr<const HeatmapContext> {
            const TaskData data = loadTaskData(spec);
            PreparedSplit split = prepareRepetition(data, spec, 0);
            auto job = std::make_shared<HeatmapContext>();
            job->test = std::make_shared<const Dataset>(std::move(split.test));
            for (const auto& [l, params] : todo) {
                TrainedModel m = trainLearner(l.learner, split.train, params, c.control());
                if (c.cancelled()) return nullptr;
                job->models.emplace_back(QString::fromStdString(l.id), std::move(m));
            }
            job->train = std::make_shared<const Dataset>(std::move(split.train));
            job->preprocessor = std::make_shared<const Preprocessor>(split.preprocessor);
            // The curves' test attack of repetition 0 (experiment_runner.cpp), so that random
            // threats show the draw the curves used.
            job->attack = resolvedAttack(spec, data.data);
            job->attack.seed = derivedSeed(spec, 0, 1);
            job->budget = level;
            return job;
        },
        [this](const std::shared_ptr<const HeatmapContext>& job) {
            if (!job) return;   // cancelled
            m_pendingBudget.reset();
            emit heatmapsReady(job);
            setBudget(job->budget);
            if (m_pendingInstance) emit instanceRequested(*std::exchange(m_pendingInstance, std::nullopt));
            emit statusMessage(tr("Heatmaps ready"), 5000);
        },
        [this](const QString& msg) { emit errorOccurred(tr("Could not prepare the heatmaps"), msg); });
}

void ExperimentController::exportModel(const QString& path, const QString& learnerId) {
    ExperimentSpec spec;
    LearnerSpec l;
    try {
        spec = m_runSpec ? *m_runSpec : currentSpec();
        l = learnerById(spec, learnerId.toStdString());
    } catch (const std::exception& e) {
        emit errorOccurred(tr("Could not export the model"), QString::fromStdString(e.what()));
        return;
    }
    const nlohmann::json params = paramsAtRepetition0(m_result ? &*m_result : nullptr, l);
    emit statusMessage(tr("Training %1 for export...").arg(learnerId), 0);
    m_exportJobs->run(
        [spec, l, params, path](const JobContext& c) {
            exportLearnerModel(spec, l, params, path.toStdString(), c.control());
            return path;
        },
        [this](const QString& p) {
            emit statusMessage(tr("Saved model %1").arg(p), 5000);
            emit modelSaved(p);
        },
        [this](const QString& msg) { emit errorOccurred(tr("Could not export the model"), msg); });
}

}  // namespace fdlab::ui
