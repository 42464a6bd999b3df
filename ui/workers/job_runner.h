#pragma once
// Runs core jobs off the GUI thread, one at a time, on a worker thread of its own (Qt's worker
// pattern: a context object moved to a QThread; results come back over queued calls).
//
// Every job gets a run id and a RunControl. Starting a job supersedes the one before it: its stop
// is requested (core polls the token), it is skipped if it has not started yet, and whatever it
// still delivers -- result, error, progress, partial results -- is dropped on the GUI thread, so a
// stale picture never replaces a newer one. cancel() only requests the stop: the job still
// delivers (core returns a Cancelled status with what was done). Progress is throttled (by
// default to one report per 50 ms) because core may report hundreds of times a second from
// several threads. The destructor stops the current job and waits for the thread.
//
//     m_jobs->run([spec](const JobContext& c) { return runExperiment(spec, c.control()); },
//                 [this](ExperimentResult r) { ... }, [this](const QString& error) { ... });

#include "core/util/run_control.h"

#include <QObject>
#include <QString>
#include <QThread>

#include <any>
#include <atomic>
#include <functional>
#include <stop_token>
#include <type_traits>
#include <utility>

namespace fdlab::ui {

/// What a running job sees: its RunControl and a way to hand partial results to the GUI thread.
class JobContext {
public:
    /// The stop token (requested on cancel or when a newer job supersedes this one) and the
    /// progress callback, for core functions.
    const RunControl& control() const { return m_rc; }
    std::stop_token stop() const { return m_rc.stop; }
    bool cancelled() const { return m_rc.cancelled(); }
    /// Runs `f` on the GUI thread unless the job has been superseded by then (thread-safe; the
    /// calls arrive in order, all before the job's result).
    void post(std::function<void()> f) const { m_post(std::move(f)); }

private:
    friend class JobRunner;
    RunControl m_rc;
    std::function<void(std::function<void()>)> m_post;
};

class JobRunner : public QObject {
    Q_OBJECT
public:
    using Job = std::function<std::any(const JobContext&)>;
    using Done = std::function<void(std::any)>;
    using Fail = std::function<void(const QString&)>;
    using OnProgress = std::function<void(const Progress&)>;

    /// `threadName` names the worker thread (for debuggers and profilers).
    explicit JobRunner(const QString& threadName, QObject* parent = nullptr);
    ~JobRunner() override;

    /// Queues `job` behind the running one and supersedes it (see above). On the GUI thread,
    /// unless superseded: `progress` as the job reports, then `done` with its result, or `fail`
    /// with the message of the exception it threw. Returns the run id.
    quint64 start(Job job, Done done, Fail fail = {}, OnProgress progress = {});

    /// start() for a job returning R (copyable) and a `done` taking it.
    template <class F, class D>
    quint64 run(F job, D done, Fail fail = {}, OnProgress progress = {}) {
        using R = std::decay_t<std::invoke_result_t<F&, const JobContext&>>;
        return start([job = std::move(job)](const JobContext& c) mutable -> std::any { return job(c); },
                     [done = std::move(done)](std::any a) mutable { done(std::any_cast<R>(std::move(a))); },
                     std::move(fail), std::move(progress));
    }

    /// Requests the current job's stop; it still delivers its result (or error).
    void cancel();
    /// Supersedes the current job without starting another: stops it and drops what it delivers.
    void discard();
    /// True from start() until the current job has delivered (false after discard()).
    bool busy() const { return m_busy; }
    /// The id of the latest job started (0 before the first).
    quint64 currentId() const { return m_latest.load(); }
    /// Shortest time between two progress reports delivered (0: every report).
    void setProgressInterval(int milliseconds) { m_progressMs = milliseconds; }

private:
    void execute(quint64 id, std::stop_token stop, const Job& job, const Done& done, const Fail& fail,
                 const OnProgress& progress);
    /// Runs f on the GUI thread if job `id` is still the latest by then.
    void deliver(quint64 id, std::function<void()> f);

    QThread m_thread;
    QObject* m_context = nullptr;   // lives on m_thread
    std::atomic<quint64> m_latest{0};   // read by the worker thread to skip superseded jobs
    quint64 m_counter = 0;
    std::stop_source m_stop;   // of the latest job
    bool m_busy = false;
    std::atomic<int> m_progressMs{50};
};

}  // namespace fdlab::ui
