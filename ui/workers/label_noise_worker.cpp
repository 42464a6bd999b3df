#include "ui/workers/label_noise_worker.h"

#include "core/data/bundled.h"
#include "ui/workers/job_runner.h"

namespace fdlab::ui {

LabelNoiseRunner::LabelNoiseRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<LabelNoiseScenePtr>();
    m_jobs = new JobRunner("label-noise", this);
}

LabelNoiseRunner::~LabelNoiseRunner() = default;   // the runner stops the job and waits

void LabelNoiseRunner::request(const QString& dataset, const std::shared_ptr<const Dataset>& data,
                               const LabelNoiseSceneParams& params) {
    m_jobs->run(
        [name = dataset.toStdString(), data, params](const JobContext& c) -> LabelNoiseScenePtr {
            const Dataset bundled = data ? Dataset{} : loadBundled(name);
            auto scene = std::make_shared<LabelNoiseScene>(computeLabelNoiseScene(data ? *data : bundled, params, c.control()));
            if (scene->status == Status::Cancelled) return nullptr;   // superseded or shutting down
            return scene;
        },
        [this](const LabelNoiseScenePtr& s) {
            if (s) emit sceneReady(s);
        },
        [this](const QString& m) { emit failed(m); });
}

bool LabelNoiseRunner::busy() const { return m_jobs->busy(); }

}  // namespace fdlab::ui
