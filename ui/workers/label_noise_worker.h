#pragma once
// Computes the Label noise tab's scene (core/eval/label_noise_scene.h) off the GUI thread, on a
// JobRunner (ui/workers/job_runner.h): it loads the bundled dataset (or takes the data it is
// given) and calls computeLabelNoiseScene.
// A newer request supersedes older ones: pending ones are skipped and a running one is stopped
// through its stop token (Algorithm 1 checks it between repetitions), so dragging a spin box
// never queues up stale pictures.

#include "core/eval/label_noise_scene.h"

#include <QObject>
#include <QString>

#include <memory>

namespace fdlab::ui {

class JobRunner;

using LabelNoiseScenePtr = std::shared_ptr<const fdlab::LabelNoiseScene>;

}  // namespace fdlab::ui

Q_DECLARE_METATYPE(fdlab::ui::LabelNoiseScenePtr)

namespace fdlab::ui {

class LabelNoiseRunner : public QObject {
    Q_OBJECT
public:
    explicit LabelNoiseRunner(QObject* parent = nullptr);
    ~LabelNoiseRunner() override;

    /// Computes the scene of `data` if set, else of the bundled dataset `dataset`, with `params`;
    /// older requests are dropped.
    void request(const QString& dataset, const std::shared_ptr<const fdlab::Dataset>& data,
                 const fdlab::LabelNoiseSceneParams& params);
    bool busy() const;

signals:
    void sceneReady(const fdlab::ui::LabelNoiseScenePtr& scene);
    void failed(const QString& message);

private:
    JobRunner* m_jobs = nullptr;
};

}  // namespace fdlab::ui
