#include "ui/workers/experiment_worker.h"

#include "ui/workers/job_runner.h"

namespace fdlab::ui {

ExperimentWorker::ExperimentWorker(QObject* parent) : QObject(parent) {
    qRegisterMetaType<CurvePoint>();
    qRegisterMetaType<ExperimentResult>();
    qRegisterMetaType<ExperimentSpec>();
    m_jobs = new JobRunner("fdlab-experiment", this);
}

ExperimentWorker::~ExperimentWorker() = default;   // the runner stops the run and waits

quint64 ExperimentWorker::start(const ExperimentSpec& spec) {
    const quint64 id = ++m_runs;
    m_jobs->run(
        [this, spec, id](const JobContext& c) {
            if (c.cancelled()) {   // cancelled before it started
                ExperimentResult r;
                r.spec = spec;
                r.status = Status::Cancelled;
                return r;
            }
            // `this` outlives the job (the runner's destructor waits); posted points of a
            // superseded run are dropped.
            return runExperiment(spec, c.control(), [this, &c, id](const CurvePoint& pt) {
                c.post([this, pt, id] { emit pointReady(id, pt); });
            });
        },
        [this, id](const ExperimentResult& r) { emit finished(id, r); },
        [this, id](const QString& m) { emit failed(id, m); },
        [this, id](const Progress& p) { emit progress(id, p.fraction, QString::fromStdString(p.message)); });
    emit started(id);   // isRunning() is true by now
    return id;
}

void ExperimentWorker::cancel() { m_jobs->cancel(); }

void ExperimentWorker::discard() { m_jobs->discard(); }

bool ExperimentWorker::isRunning() const { return m_jobs->busy(); }

}  // namespace fdlab::ui
