#include "ui/workers/label_noise_worker.h"

#include "core/data/bundled.h"

namespace fdlab::ui {

void LabelNoiseWorker::run(const LabelNoiseRequest& r) {
    if (r.generation != m_latest->load() || r.stop.stop_requested()) return;   // obsolete
    try {
        const Dataset bundled = r.data ? Dataset{} : loadBundled(r.dataset.toStdString());
        const Dataset& d = r.data ? *r.data : bundled;
        auto scene = std::make_shared<LabelNoiseScene>(computeLabelNoiseScene(d, r.params, RunControl{{}, r.stop}));
        if (scene->status == Status::Cancelled) return;
        emit sceneReady(r.generation, scene);
    } catch (const std::exception& e) {
        emit failed(r.generation, QString::fromStdString(e.what()));
    }
}

LabelNoiseRunner::LabelNoiseRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<LabelNoiseRequest>();
    qRegisterMetaType<LabelNoiseScenePtr>();
    auto* worker = new LabelNoiseWorker(&m_latest);
    worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, worker, &QObject::deleteLater);
    connect(this, &LabelNoiseRunner::toWorker, worker, &LabelNoiseWorker::run, Qt::QueuedConnection);
    connect(worker, &LabelNoiseWorker::sceneReady, this, [this](quint64 g, const LabelNoiseScenePtr& s) {
        if (g != m_latest.load()) return;
        m_pending = false;
        emit sceneReady(s);
    }, Qt::QueuedConnection);
    connect(worker, &LabelNoiseWorker::failed, this, [this](quint64 g, const QString& msg) {
        if (g != m_latest.load()) return;
        m_pending = false;
        emit failed(msg);
    }, Qt::QueuedConnection);
    m_thread.setObjectName("label-noise");
    m_thread.start();
}

LabelNoiseRunner::~LabelNoiseRunner() {
    m_stop.request_stop();
    m_thread.quit();
    m_thread.wait();
}

void LabelNoiseRunner::request(const QString& dataset, const std::shared_ptr<const Dataset>& data,
                               const LabelNoiseSceneParams& params) {
    m_stop.request_stop();   // a running computation of an older request stops early
    m_stop = std::stop_source();
    LabelNoiseRequest r;
    r.generation = ++m_latest;
    r.dataset = dataset;
    r.data = data;
    r.params = params;
    r.stop = m_stop.get_token();
    m_pending = true;
    emit toWorker(r);
}

}  // namespace fdlab::ui
