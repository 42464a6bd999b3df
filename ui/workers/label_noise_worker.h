#pragma once
// Computes the Label noise tab's scene (core/eval/label_noise_scene.h) off the GUI thread: a
// worker object on its own QThread loads the bundled dataset (or takes the data it is given) and
// calls computeLabelNoiseScene.
// A newer request makes older ones obsolete: pending ones are skipped and a running one is
// stopped through its stop token (Algorithm 1 checks it between repetitions), so dragging a
// spin box never queues up stale pictures.

#include "core/eval/label_noise_scene.h"

#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <memory>
#include <stop_token>

namespace fdlab::ui {

using LabelNoiseScenePtr = std::shared_ptr<const fdlab::LabelNoiseScene>;

struct LabelNoiseRequest {
    quint64 generation = 0;
    QString dataset;                      ///< a bundled dataset name (when data is null)
    std::shared_ptr<const fdlab::Dataset> data;   ///< else: this two-class data (e.g. the loaded file)
    fdlab::LabelNoiseSceneParams params;
    std::stop_token stop;
};

}  // namespace fdlab::ui

Q_DECLARE_METATYPE(fdlab::ui::LabelNoiseRequest)
Q_DECLARE_METATYPE(fdlab::ui::LabelNoiseScenePtr)

namespace fdlab::ui {

class LabelNoiseWorker : public QObject {
    Q_OBJECT
public:
    explicit LabelNoiseWorker(const std::atomic<quint64>* latest) : m_latest(latest) {}
    void run(const fdlab::ui::LabelNoiseRequest& r);
signals:
    void sceneReady(quint64 generation, const fdlab::ui::LabelNoiseScenePtr& scene);
    void failed(quint64 generation, const QString& message);

private:
    const std::atomic<quint64>* m_latest;
};

class LabelNoiseRunner : public QObject {
    Q_OBJECT
public:
    explicit LabelNoiseRunner(QObject* parent = nullptr);
    ~LabelNoiseRunner() override;

    /// Computes the scene of `data` if set, else of the bundled dataset `dataset`, with `params`;
    /// older requests are dropped.
    void request(const QString& dataset, const std::shared_ptr<const fdlab::Dataset>& data,
                 const fdlab::LabelNoiseSceneParams& params);
    bool busy() const { return m_pending; }

signals:
    void sceneReady(const fdlab::ui::LabelNoiseScenePtr& scene);
    void failed(const QString& message);
    void toWorker(const fdlab::ui::LabelNoiseRequest& r);   // internal

private:
    std::atomic<quint64> m_latest{0};
    std::stop_source m_stop;
    bool m_pending = false;
    QThread m_thread;
};

}  // namespace fdlab::ui
