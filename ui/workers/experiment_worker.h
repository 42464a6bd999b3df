#pragma once
// Runs experiments (fdlab::runExperiment) off the GUI thread, on a JobRunner
// (ui/workers/job_runner.h).
//
// cancel() only requests the stop (core polls the token, so the run ends within ~100 ms) and the
// run still reports finished() with the points done so far. Points arrive as core finishes them;
// progress is throttled to about 20 reports a second. A run started while another is being
// cancelled queues behind it, and signals of an older run are dropped. Every signal carries the
// id start() returned, so that a receiver can also drop what is not the run it shows (the main
// window: an experiment opened from a file has no run id). discard() stops the run and drops all
// it would still report. The destructor stops and waits.

#include "core/eval/experiment_runner.h"
#include "ui/workers/core_metatypes.h"

#include <QObject>
#include <QString>

namespace fdlab::ui {

class JobRunner;

class ExperimentWorker : public QObject {
    Q_OBJECT
public:
    explicit ExperimentWorker(QObject* parent = nullptr);
    ~ExperimentWorker() override;

    /// Starts a run (superseding the current one) and returns its id (> 0). The spec is copied.
    quint64 start(const fdlab::ExperimentSpec& spec);
    /// Requests a stop; returns at once. finished() follows with Status::Cancelled.
    void cancel();
    /// Stops the run and drops everything it would still report (no finished() follows); the
    /// worker thread lets it end in the background (core polls the stop token).
    void discard();
    bool isRunning() const;

signals:
    void started(quint64 runId);
    void pointReady(quint64 runId, const fdlab::CurvePoint& point);
    void progress(quint64 runId, double fraction, const QString& message);
    void finished(quint64 runId, const fdlab::ExperimentResult& result);
    void failed(quint64 runId, const QString& message);

private:
    JobRunner* m_jobs = nullptr;
    quint64 m_runs = 0;   ///< the last run id given
};

}  // namespace fdlab::ui
