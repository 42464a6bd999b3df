#include "ui/workers/attack_worker.h"

#include <algorithm>

namespace fdlab::ui {

namespace {

/// instanceDeletionGrid as a QImage.
QImage deletionGridImage(const InstanceViewContext& ctx, int model, const std::vector<int>& rows, double level,
                         int columns) {
    const RgbImage img = instanceDeletionGrid(ctx, model, rows, level, columns);
    QImage out(img.width, img.height, QImage::Format_RGB888);
    for (int y = 0; y < img.height; ++y)
        std::copy_n(img.rgb.data() + static_cast<std::size_t>(y) * img.width * 3, img.width * 3, out.scanLine(y));
    return out;
}

}  // namespace

bool AttackWorker::stale(const AttackRequest& r) const {
    return (*m_latest)[static_cast<std::size_t>(r.kind)].load() != r.generation;
}

void AttackWorker::run(const AttackRequest& r) {
    if (stale(r)) return;   // a newer request of the same kind is queued behind this one
    try {
        switch (r.kind) {
        case AttackRequest::View:
            emit viewReady(r.generation, computeInstanceView(*r.context, r.a, r.b, r.instance, r.level));
            break;
        case AttackRequest::Grid: {
            const QImage a = deletionGridImage(*r.context, r.a, r.rows, r.level, r.columns);
            if (stale(r)) return;
            emit gridReady(r.generation, a, deletionGridImage(*r.context, r.b, r.rows, r.level, r.columns));
            break;
        }
        case AttackRequest::Analysis: {
            RunControl rc;
            rc.stop = r.stop;
            const quint64 gen = r.generation;
            rc.onProgress = [this, gen](const Progress& p) { emit progress(gen, p.fraction); };
            InstanceAnalysis res = analyseInstances(*r.context, r.a, r.b, r.level, rc);
            if (res.complete) emit analysisReady(r.generation, res);
            break;
        }
        }
    } catch (const std::exception& e) {
        emit failed(r.generation, r.kind, QString::fromStdString(e.what()));
    }
}

AttackRunner::AttackRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<AttackRequest>();
    qRegisterMetaType<InstanceView>();
    qRegisterMetaType<InstanceAnalysis>();
    auto* viewWorker = new AttackWorker(&m_latest);
    auto* analysisWorker = new AttackWorker(&m_latest);
    viewWorker->moveToThread(&m_viewThread);
    analysisWorker->moveToThread(&m_analysisThread);
    connect(&m_viewThread, &QThread::finished, viewWorker, &QObject::deleteLater);
    connect(&m_analysisThread, &QThread::finished, analysisWorker, &QObject::deleteLater);
    connect(this, &AttackRunner::toViewThread, viewWorker, &AttackWorker::run);
    connect(this, &AttackRunner::toAnalysisThread, analysisWorker, &AttackWorker::run);
    for (AttackWorker* w : {viewWorker, analysisWorker}) {
        // Results of obsolete requests are dropped here, on the GUI thread.
        connect(w, &AttackWorker::viewReady, this, [this](quint64 g, const InstanceView& v) {
            if (current(AttackRequest::View, g)) emit viewReady(v);
        });
        connect(w, &AttackWorker::gridReady, this, [this](quint64 g, const QImage& a, const QImage& b) {
            if (current(AttackRequest::Grid, g)) emit gridReady(a, b);
        });
        connect(w, &AttackWorker::analysisReady, this, [this](quint64 g, const InstanceAnalysis& res) {
            if (current(AttackRequest::Analysis, g)) emit analysisReady(res);
        });
        connect(w, &AttackWorker::progress, this, [this](quint64 g, double f) {
            if (current(AttackRequest::Analysis, g)) emit analysisProgress(f);
        });
        connect(w, &AttackWorker::failed, this, [this](quint64 g, int kind, const QString& msg) {
            if (current(kind, g)) emit failed(kind, msg);
        });
    }
    m_viewThread.setObjectName("fdlab-heatmap-view");
    m_analysisThread.setObjectName("fdlab-heatmap-analysis");
    m_viewThread.start();
    m_analysisThread.start();
}

AttackRunner::~AttackRunner() {
    cancelAll();
    m_viewThread.quit();
    m_analysisThread.quit();
    m_viewThread.wait();
    m_analysisThread.wait();
}

quint64 AttackRunner::next(AttackRequest::Kind k) {
    const quint64 g = ++m_counter;
    m_latest[static_cast<std::size_t>(k)] = g;
    return g;
}

void AttackRunner::requestView(HeatmapContextPtr ctx, int a, int b, int instance, double level) {
    AttackRequest r;
    r.kind = AttackRequest::View;
    r.generation = next(r.kind);
    r.context = std::move(ctx);
    r.a = a;
    r.b = b;
    r.instance = instance;
    r.level = level;
    emit toViewThread(r);
}

void AttackRunner::requestGrid(HeatmapContextPtr ctx, int a, int b, std::vector<int> rows, double level, int columns) {
    AttackRequest r;
    r.kind = AttackRequest::Grid;
    r.generation = next(r.kind);
    r.context = std::move(ctx);
    r.a = a;
    r.b = b;
    r.rows = std::move(rows);
    r.level = level;
    r.columns = columns;
    emit toViewThread(r);
}

void AttackRunner::requestAnalysis(HeatmapContextPtr ctx, int a, int b, double level) {
    m_analysisStop.request_stop();
    m_analysisStop = std::stop_source();
    AttackRequest r;
    r.kind = AttackRequest::Analysis;
    r.generation = next(r.kind);
    r.context = std::move(ctx);
    r.a = a;
    r.b = b;
    r.level = level;
    r.stop = m_analysisStop.get_token();
    emit toAnalysisThread(r);
}

void AttackRunner::cancelAll() {
    m_analysisStop.request_stop();
    for (auto& g : m_latest) g = ++m_counter;
}

}  // namespace fdlab::ui
