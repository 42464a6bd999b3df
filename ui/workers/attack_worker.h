#pragma once
// Runs the attacks the Heatmaps tab draws, off the GUI thread: the view of one test instance
// for two learners, a grid of instances (Figure 1.4 of the FDROP chapter), and the analysis of
// every test instance (clean and attacked margins) used to jump to the instances learner A
// loses and learner B keeps. The computations are core's (core/eval/instance_view.h); with the
// context's attack seeded as the curves' test attack of repetition 0 (main_window), random
// threats show the very draw the curves were computed from. Grids arrive as QImages.
//
// Each kind of request has a JobRunner (ui/workers/job_runner.h) of its own, so that a long
// analysis never delays the picture: a newer request of one kind supersedes the older one of
// that kind (a pending one is skipped, a running analysis or grid is stopped, and what it still
// delivers is dropped), but not the requests of the other kinds.

#include "core/eval/instance_view.h"

#include <QImage>
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace fdlab::ui {

class JobRunner;

using HeatmapContextPtr = std::shared_ptr<const InstanceViewContext>;

}  // namespace fdlab::ui

// Declared before any signal uses them (moc's metatype tables instantiate them).
Q_DECLARE_METATYPE(fdlab::InstanceView)
Q_DECLARE_METATYPE(fdlab::InstanceAnalysis)

namespace fdlab::ui {

class AttackRunner : public QObject {
    Q_OBJECT
public:
    enum Kind { View = 0, Grid = 1, Analysis = 2 };

    explicit AttackRunner(QObject* parent = nullptr);
    ~AttackRunner() override;

    void requestView(HeatmapContextPtr ctx, int a, int b, int instance, double level);
    /// Learner a's and b's grids of the test rows `rows`, `columns` pairs per line.
    void requestGrid(HeatmapContextPtr ctx, int a, int b, std::vector<int> rows, double level, int columns);
    void requestAnalysis(HeatmapContextPtr ctx, int a, int b, double level);
    /// Makes every pending request obsolete and stops the running ones.
    void cancelAll();

signals:
    void viewReady(const fdlab::InstanceView& view);
    void gridReady(const QImage& a, const QImage& b);
    void analysisReady(const fdlab::InstanceAnalysis& analysis);
    void analysisProgress(double fraction);
    void failed(int kind, const QString& message);

private:
    JobRunner* m_jobs[3] = {nullptr, nullptr, nullptr};   // by Kind
};

}  // namespace fdlab::ui
