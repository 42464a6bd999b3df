#pragma once
// Runs the attacks the Heatmaps tab draws, off the GUI thread: the view of one test instance
// for two learners, a grid of instances (Figure 1.4 of the FDROP chapter), and the analysis of
// every test instance (clean and attacked margins) used to jump to the instances learner A
// loses and learner B keeps. The computations are core's (core/eval/instance_view.h); with the
// context's attack seeded as the curves' test attack of repetition 0 (main_window), random
// threats show the very draw the curves were computed from. Grids arrive as QImages.
//
// AttackRunner owns two worker threads (views and grids; the whole-test-set analysis) so that a
// long analysis never delays the picture. A newer request makes older pending ones of the same
// kind obsolete: they are skipped, and a running analysis is stopped through its stop token.

#include "core/eval/instance_view.h"

#include <QImage>
#include <QObject>
#include <QString>
#include <QThread>

#include <array>
#include <atomic>
#include <memory>
#include <stop_token>
#include <utility>
#include <vector>

namespace fdlab::ui {

using HeatmapContextPtr = std::shared_ptr<const InstanceViewContext>;

struct AttackRequest {
    enum Kind { View = 0, Grid = 1, Analysis = 2 };
    Kind kind = View;
    quint64 generation = 0;
    HeatmapContextPtr context;
    int a = 0, b = 0;
    int instance = 0;
    std::vector<int> rows;   ///< Grid
    int columns = 5;         ///< Grid
    double level = 0.0;
    std::stop_token stop;
};

}  // namespace fdlab::ui

// Declared before any signal uses them (moc's metatype tables instantiate them).
Q_DECLARE_METATYPE(fdlab::ui::AttackRequest)
Q_DECLARE_METATYPE(fdlab::InstanceView)
Q_DECLARE_METATYPE(fdlab::InstanceAnalysis)

namespace fdlab::ui {

class AttackWorker : public QObject {
    Q_OBJECT
public:
    explicit AttackWorker(const std::array<std::atomic<quint64>, 3>* latest) : m_latest(latest) {}
    void run(const fdlab::ui::AttackRequest& r);
signals:
    void viewReady(quint64 generation, const fdlab::InstanceView& view);
    void gridReady(quint64 generation, const QImage& a, const QImage& b);
    void analysisReady(quint64 generation, const fdlab::InstanceAnalysis& analysis);
    void progress(quint64 generation, double fraction);
    void failed(quint64 generation, int kind, const QString& message);

private:
    bool stale(const AttackRequest& r) const;
    const std::array<std::atomic<quint64>, 3>* m_latest;
};

class AttackRunner : public QObject {
    Q_OBJECT
public:
    explicit AttackRunner(QObject* parent = nullptr);
    ~AttackRunner() override;

    void requestView(HeatmapContextPtr ctx, int a, int b, int instance, double level);
    void requestGrid(HeatmapContextPtr ctx, int a, int b, std::vector<int> rows, double level, int columns);
    void requestAnalysis(HeatmapContextPtr ctx, int a, int b, double level);
    /// Makes every pending request obsolete and stops a running analysis.
    void cancelAll();

signals:
    void viewReady(const fdlab::InstanceView& view);
    void gridReady(const QImage& a, const QImage& b);
    void analysisReady(const fdlab::InstanceAnalysis& analysis);
    void analysisProgress(double fraction);
    void failed(int kind, const QString& message);
    // internal: hand requests to the worker threads
    void toViewThread(const fdlab::ui::AttackRequest& r);
    void toAnalysisThread(const fdlab::ui::AttackRequest& r);

private:
    quint64 next(AttackRequest::Kind k);
    bool current(int kind, quint64 generation) const { return m_latest[static_cast<std::size_t>(kind)] == generation; }

    std::array<std::atomic<quint64>, 3> m_latest{};
    quint64 m_counter = 0;
    std::stop_source m_analysisStop;
    QThread m_viewThread, m_analysisThread;
};

}  // namespace fdlab::ui

