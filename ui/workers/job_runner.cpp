#include "ui/workers/job_runner.h"

#include "core/util/errors.h"

#include <QMetaObject>

#include <chrono>
#include <memory>
#include <mutex>

namespace fdlab::ui {

JobRunner::JobRunner(const QString& threadName, QObject* parent) : QObject(parent) {
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread.setObjectName(threadName);
    m_thread.start();
}

JobRunner::~JobRunner() {
    discard();
    m_thread.quit();
    m_thread.wait();
    // Calls the job queued to this object are removed with it (QObject's destructor).
}

quint64 JobRunner::start(Job job, Done done, Fail fail, OnProgress progress) {
    m_stop.request_stop();   // the running job, if any, stops early
    m_stop = std::stop_source();
    const quint64 id = ++m_counter;
    m_latest = id;
    m_busy = true;
    QMetaObject::invokeMethod(
        m_context,
        [this, id, stop = m_stop.get_token(), job = std::move(job), done = std::move(done), fail = std::move(fail),
         progress = std::move(progress)] { execute(id, stop, job, done, fail, progress); },
        Qt::QueuedConnection);
    return id;
}

void JobRunner::cancel() { m_stop.request_stop(); }

void JobRunner::discard() {
    m_stop.request_stop();
    m_latest = ++m_counter;
    m_busy = false;
}

void JobRunner::deliver(quint64 id, std::function<void()> f) {
    QMetaObject::invokeMethod(
        this,
        [this, id, f = std::move(f)] {
            if (id == m_latest.load()) f();
        },
        Qt::QueuedConnection);
}

// On the worker thread.
void JobRunner::execute(quint64 id, std::stop_token stop, const Job& job, const Done& done, const Fail& fail,
                        const OnProgress& progress) {
    if (id != m_latest.load()) return;   // superseded before it started
    JobContext ctx;
    ctx.m_rc.stop = stop;
    ctx.m_post = [this, id](std::function<void()> f) { deliver(id, std::move(f)); };
    if (progress) {
        struct Throttle {
            std::mutex mutex;
            std::chrono::steady_clock::time_point last{};
        };
        auto throttle = std::make_shared<Throttle>();
        ctx.m_rc.onProgress = [this, id, progress, throttle](const Progress& p) {
            {
                const std::lock_guard lock(throttle->mutex);
                const auto now = std::chrono::steady_clock::now();
                if (throttle->last != std::chrono::steady_clock::time_point{} &&
                    now - throttle->last < std::chrono::milliseconds(m_progressMs.load()))
                    return;
                throttle->last = now;
            }
            deliver(id, [progress, p] { progress(p); });
        };
    }
    std::any result;
    QString error;
    try {
        result = job(ctx);
    } catch (const std::exception& e) {
        error = QString::fromStdString(fdlab::errorText(e));
    } catch (...) {
        error = QStringLiteral("unknown error");
    }
    deliver(id, [this, result = std::move(result), error, done, fail]() mutable {
        m_busy = false;
        if (error.isEmpty()) {
            if (done) done(std::move(result));
        } else if (fail) {
            fail(error);
        }
    });
}

}  // namespace fdlab::ui
