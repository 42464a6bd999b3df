#include "ui/workers/experiment_worker.h"

#include <QMetaObject>

#include <chrono>

namespace fdlab::ui {

void ExperimentJob::run(int runId, const ExperimentSpec& spec, std::stop_token token) {
    if (token.stop_requested()) {   // cancelled before it started
        ExperimentResult r;
        r.spec = spec;
        r.status = Status::Cancelled;
        emit finished(runId, r);
        return;
    }
    // Throttle progress: core may report hundreds of times a second from several threads.
    std::mutex progressMutex;
    auto last = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    RunControl rc;
    rc.stop = token;
    rc.onProgress = [&](const Progress& p) {
        const std::lock_guard lock(progressMutex);
        const auto now = std::chrono::steady_clock::now();
        if (now - last < std::chrono::milliseconds(50)) return;
        last = now;
        emit progress(runId, p.fraction, QString::fromStdString(p.message));
    };
    try {
        ExperimentResult r = runExperiment(spec, rc, [&](const CurvePoint& pt) { emit pointReady(runId, pt); });
        emit finished(runId, r);
    } catch (const std::exception& e) {
        emit failed(runId, QString::fromStdString(e.what()));
    }
}

ExperimentWorker::ExperimentWorker(QObject* parent) : QObject(parent) {
    qRegisterMetaType<CurvePoint>();
    qRegisterMetaType<ExperimentResult>();
    qRegisterMetaType<ExperimentSpec>();
    qRegisterMetaType<std::stop_token>();
    m_job = new ExperimentJob;
    m_job->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_job, &QObject::deleteLater);
    connect(this, &ExperimentWorker::requestRun, m_job, &ExperimentJob::run);
    connect(m_job, &ExperimentJob::pointReady, this, [this](int id, const CurvePoint& p) {
        if (id == m_runId) emit pointReady(p);
    });
    connect(m_job, &ExperimentJob::progress, this, [this](int id, double f, const QString& m) {
        if (id == m_runId) emit progress(f, m);
    });
    connect(m_job, &ExperimentJob::finished, this, [this](int id, const ExperimentResult& r) {
        if (id != m_runId) return;
        m_running = false;
        emit finished(r);
    });
    connect(m_job, &ExperimentJob::failed, this, [this](int id, const QString& m) {
        if (id != m_runId) return;
        m_running = false;
        emit failed(m);
    });
    m_thread.setObjectName("fdlab-experiment");
    m_thread.start();
}

ExperimentWorker::~ExperimentWorker() {
    cancel();
    m_thread.quit();
    m_thread.wait();
}

void ExperimentWorker::start(const ExperimentSpec& spec) {
    cancel();
    m_stop = std::stop_source();
    ++m_runId;
    m_running = true;
    emit started();
    emit requestRun(m_runId, spec, m_stop.get_token());
}

void ExperimentWorker::cancel() { m_stop.request_stop(); }

TaskRunner::TaskRunner(QObject* parent) : QObject(parent) {
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread.setObjectName("fdlab-task");
    m_thread.start();
}

TaskRunner::~TaskRunner() {
    cancel();
    m_thread.quit();
    m_thread.wait();
}

void TaskRunner::cancel() { m_stop.request_stop(); }

void TaskRunner::run(Job job, Done done, Fail fail) {
    m_stop = std::stop_source();
    const std::stop_token token = m_stop.get_token();
    ++m_busy;
    QMetaObject::invokeMethod(m_context, [this, job = std::move(job), done = std::move(done),
                                          fail = std::move(fail), token] {
        std::any result;
        QString error;
        try {
            result = job(token);
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
            if (error.isEmpty()) error = QStringLiteral("unknown error");
        }
        // Back to the GUI thread; `this` outlives the thread (the destructor waits).
        QMetaObject::invokeMethod(this, [this, result = std::move(result), error, done, fail] {
            --m_busy;
            if (error.isEmpty()) {
                if (done) done(result);
            } else if (fail) {
                fail(error);
            }
        }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
}

}  // namespace fdlab::ui
