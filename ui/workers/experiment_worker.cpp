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

void ExperimentWorker::start(const ExperimentSpec& spec) {
    m_jobs->run(
        [this, spec](const JobContext& c) {
            if (c.cancelled()) {   // cancelled before it started
                ExperimentResult r;
                r.spec = spec;
                r.status = Status::Cancelled;
                return r;
            }
            // `this` outlives the job (the runner's destructor waits); posted points of a
            // superseded run are dropped.
            return runExperiment(spec, c.control(),
                                 [this, &c](const CurvePoint& pt) { c.post([this, pt] { emit pointReady(pt); }); });
        },
        [this](const ExperimentResult& r) { emit finished(r); }, [this](const QString& m) { emit failed(m); },
        [this](const Progress& p) { emit progress(p.fraction, QString::fromStdString(p.message)); });
    emit started();   // isRunning() is true by now
}

void ExperimentWorker::cancel() { m_jobs->cancel(); }

bool ExperimentWorker::isRunning() const { return m_jobs->busy(); }

}  // namespace fdlab::ui
