#pragma once
// Runs experiments (fdlab::runExperiment) and other long core jobs off the GUI thread.
//
// ExperimentWorker owns a QThread with a job object living on it (Qt's worker pattern). Each
// run gets its own std::stop_source; cancel() only requests the stop (core polls the token, so
// the run ends within ~100 ms) and the run still reports finished() with the points done so
// far. Points arrive through queued signals as core finishes them; progress is throttled to
// about 20 reports a second. Runs are numbered: a run started while another is being cancelled
// queues behind it, and signals of an older run are dropped. The destructor stops and waits.
//
// TaskRunner runs one-off jobs (training a model for export or for the heatmaps) the same way.

#include "core/eval/experiment_runner.h"
#include "ui/workers/core_metatypes.h"

#include <QElapsedTimer>
#include <QObject>
#include <QThread>

#include <any>
#include <atomic>
#include <functional>
#include <mutex>
#include <stop_token>


namespace fdlab::ui {

/// Lives on the worker thread.
class ExperimentJob : public QObject {
    Q_OBJECT
public:
    void run(int runId, const fdlab::ExperimentSpec& spec, std::stop_token stop);

signals:
    void pointReady(int runId, const fdlab::CurvePoint& point);
    void progress(int runId, double fraction, const QString& message);
    void finished(int runId, const fdlab::ExperimentResult& result);
    void failed(int runId, const QString& message);
};

class ExperimentWorker : public QObject {
    Q_OBJECT
public:
    explicit ExperimentWorker(QObject* parent = nullptr);
    ~ExperimentWorker() override;

    /// Starts a run (cancelling the current one). The spec is copied.
    void start(const fdlab::ExperimentSpec& spec);
    /// Requests a stop; returns at once. finished() follows with Status::Cancelled.
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    void started();
    void pointReady(const fdlab::CurvePoint& point);
    void progress(double fraction, const QString& message);
    void finished(const fdlab::ExperimentResult& result);
    void failed(const QString& message);
    void requestRun(int runId, const fdlab::ExperimentSpec& spec, std::stop_token stop);   // internal

private:
    QThread m_thread;
    ExperimentJob* m_job = nullptr;
    std::stop_source m_stop;   // of the current run; a fresh one per start()
    int m_runId = 0;
    bool m_running = false;
};

/// Runs std::function jobs on its own thread, one at a time; the result (a std::any, or the
/// message of an exception) comes back on the GUI thread through the given callbacks.
class TaskRunner : public QObject {
    Q_OBJECT
public:
    using Job = std::function<std::any(std::stop_token)>;
    using Done = std::function<void(std::any)>;
    using Fail = std::function<void(QString)>;

    explicit TaskRunner(QObject* parent = nullptr);
    ~TaskRunner() override;

    void run(Job job, Done done, Fail fail);
    void cancel();
    bool isBusy() const { return m_busy > 0; }

private:
    QThread m_thread;
    QObject* m_context = nullptr;   // lives on m_thread
    std::stop_source m_stop;
    int m_busy = 0;
};

}  // namespace fdlab::ui
