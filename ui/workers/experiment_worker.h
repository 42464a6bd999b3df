#pragma once
// Runs experiments (fdlab::runExperiment) off the GUI thread, on a JobRunner
// (ui/workers/job_runner.h).
//
// cancel() only requests the stop (core polls the token, so the run ends within ~100 ms) and the
// run still reports finished() with the points done so far. Points arrive as core finishes them;
// progress is throttled to about 20 reports a second. A run started while another is being
// cancelled queues behind it, and signals of an older run are dropped. The destructor stops and
// waits.

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

    /// Starts a run (superseding the current one). The spec is copied.
    void start(const fdlab::ExperimentSpec& spec);
    /// Requests a stop; returns at once. finished() follows with Status::Cancelled.
    void cancel();
    bool isRunning() const;

signals:
    void started();
    void pointReady(const fdlab::CurvePoint& point);
    void progress(double fraction, const QString& message);
    void finished(const fdlab::ExperimentResult& result);
    void failed(const QString& message);

private:
    JobRunner* m_jobs = nullptr;
};

}  // namespace fdlab::ui
