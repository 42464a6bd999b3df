#include "ui/workers/attack_worker.h"

#include "ui/workers/job_runner.h"

#include <algorithm>
#include <utility>

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

AttackRunner::AttackRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<InstanceView>();
    qRegisterMetaType<InstanceAnalysis>();
    m_jobs[View] = new JobRunner("fdlab-heatmap-view", this);
    m_jobs[Grid] = new JobRunner("fdlab-heatmap-grid", this);
    m_jobs[Analysis] = new JobRunner("fdlab-heatmap-analysis", this);
}

AttackRunner::~AttackRunner() = default;   // the runners stop their jobs and wait

void AttackRunner::requestView(HeatmapContextPtr ctx, int a, int b, int instance, double level) {
    m_jobs[View]->run([ctx = std::move(ctx), a, b, instance, level](const JobContext&) {
        return computeInstanceView(*ctx, a, b, instance, level);
    }, [this](InstanceView v) { emit viewReady(v); }, [this](const QString& m) { emit failed(View, m); });
}

void AttackRunner::requestGrid(HeatmapContextPtr ctx, int a, int b, std::vector<int> rows, double level, int columns) {
    m_jobs[Grid]->run([ctx = std::move(ctx), a, b, rows = std::move(rows), level, columns](const JobContext& c) {
        std::pair<QImage, QImage> grids;
        grids.first = deletionGridImage(*ctx, a, rows, level, columns);
        if (!c.cancelled()) grids.second = deletionGridImage(*ctx, b, rows, level, columns);   // else superseded
        return grids;
    }, [this](const std::pair<QImage, QImage>& g) { emit gridReady(g.first, g.second); },
       [this](const QString& m) { emit failed(Grid, m); });
}

void AttackRunner::requestAnalysis(HeatmapContextPtr ctx, int a, int b, double level) {
    m_jobs[Analysis]->run([ctx = std::move(ctx), a, b, level](const JobContext& c) {
        return analyseInstances(*ctx, a, b, level, c.control());
    }, [this](const InstanceAnalysis& res) {
        if (res.complete) emit analysisReady(res);
    }, [this](const QString& m) { emit failed(Analysis, m); },
       [this](const Progress& p) { emit analysisProgress(p.fraction); });
}

void AttackRunner::cancelAll() {
    for (JobRunner* j : m_jobs) j->discard();
}

}  // namespace fdlab::ui
