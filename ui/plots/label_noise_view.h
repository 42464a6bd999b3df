#pragma once
// The "Label noise" tab: Figure 1 of Biggio, Nelson & Laskov (ACML 2011) for any bundled
// two-class dataset. Two pictures side by side, the SVM and the LN-robust SVM trained on the
// same tainted labels: the training points in 2-D (the data itself for two features, the PCA
// plane otherwise), coloured by their tainted label, the flipped ones ringed in green, each
// model's support vectors ringed in black, its decision values as a pale blue-white-red
// background (white = 0) and its boundary (the zero contour) as a black line.
// Everything shown is computed by core (core/eval/label_noise_scene.h) on a worker thread
// (ui/workers/label_noise_worker.h); this widget only draws. Changing any control recomputes.

#include "core/eval/label_noise_scene.h"
#include "ui/workers/label_noise_worker.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QLabel;
class QCustomPlot;
class QCPColorMap;
class QCPCurve;
class QCPGraph;

namespace fdlab::ui {

class LabelNoiseView : public QWidget {
    Q_OBJECT
public:
    explicit LabelNoiseView(QWidget* parent = nullptr);

    /// The two-class bundled datasets offered (biggio-2d first: the paper's picture).
    static QStringList datasets();

    /// The data loaded in the main window, as its task makes it (e.g. MNIST 3 vs 5): offered
    /// first in the Data box as "loaded: NAME" when it has exactly two classes, removed
    /// otherwise (null clears it). Recomputes if that entry is the one shown.
    void setLoadedData(std::shared_ptr<const fdlab::Dataset> data);
    bool hasLoadedData() const { return static_cast<bool>(m_loaded); }

    /// Sets the controls (and recomputes once).
    void setSettings(const QString& dataset, const fdlab::LabelNoiseSceneParams& params);
    QString dataset() const;
    /// The parameters the controls describe.
    fdlab::LabelNoiseSceneParams params() const;

    /// The scene drawn now (null before the first one arrives).
    const LabelNoiseScenePtr& scene() const { return m_scene; }
    /// 0 = SVM, 1 = LN-robust SVM.
    QCustomPlot* plot(int k) const { return m_panels[k].plot; }
    /// What the status line says (the last error, or a summary of the scene).
    QString statusText() const;

signals:
    /// A scene has been drawn.
    void sceneShown();
    void sceneFailed(const QString& message);

private:
    struct Panel {
        QCustomPlot* plot = nullptr;
        QCPColorMap* map = nullptr;
        QCPCurve* boundary = nullptr;
        QCPGraph* negative = nullptr;   // tainted label -1
        QCPGraph* positive = nullptr;   // tainted label +1
        QCPGraph* flipped = nullptr;    // green rings
        QCPGraph* support = nullptr;    // black rings
    };
    Panel makePanel();
    void recompute();
    void showScene(const LabelNoiseScenePtr& s);
    void drawPanel(Panel& p, const fdlab::SvmPanelResult& r, const QString& title);

    QComboBox* m_dataset = nullptr;
    QComboBox* m_flipKind = nullptr;
    QSpinBox* m_flips = nullptr;
    QComboBox* m_kernel = nullptr;
    QDoubleSpinBox* m_C = nullptr;
    QDoubleSpinBox* m_gamma = nullptr;
    QDoubleSpinBox* m_mu = nullptr;
    QLabel* m_status = nullptr;
    Panel m_panels[2];
    LabelNoiseRunner* m_runner = nullptr;
    LabelNoiseScenePtr m_scene;
    std::shared_ptr<const fdlab::Dataset> m_loaded;   // see setLoadedData
    bool loadedShown() const;
    bool m_updating = false;   // setSettings: one recompute at the end, not one per control
};

}  // namespace fdlab::ui
