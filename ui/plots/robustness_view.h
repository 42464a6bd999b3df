#pragma once
// The Robustness tab: a dataset-level view of the adversary (core/teach/robustness_map.h). For
// every test instance, the smallest budget (count K or value N) with which the exact adversary
// flips it, learner A against learner B: a scatter with the diagonal (a 2-D histogram when there
// are many instances), and one histogram per learner. Points below the diagonal need fewer
// deletions against B than against A, i.e. B is the more fragile learner there. Instances no
// budget flips sit in a "never" band past the largest need. Clicking a point opens that instance
// in the Heatmaps tab (openInstance). Computed on a worker thread with progress and Cancel.

#include "core/teach/robustness_map.h"
#include "ui/workers/attack_worker.h"

#include <QWidget>

#include <optional>

class QCPBars;
class QCPColorMap;
class QCPCurve;
class QCPGraph;
class QComboBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace fdlab::ui {

class HeatmapView;
class JobRunner;

class RobustnessView : public QWidget {
    Q_OBJECT
public:
    explicit RobustnessView(QWidget* parent = nullptr);

    /// The test set, models and threat of the Heatmaps tab (null: nothing to show). Does not
    /// compute: that takes a while; the user presses Compute (or compute() is called).
    void setContext(HeatmapContextPtr ctx);
    void clear();
    /// Starts the map for the chosen learners on the worker thread.
    void compute();
    void cancel();
    bool busy() const;

    void setLearners(int a, int b);
    const std::optional<RobustnessMap>& map() const { return m_map; }
    /// More instances than this are drawn as a 2-D histogram instead of points.
    static constexpr int kScatterLimit = 2000;
    bool showsHistogram2d() const;
    /// The test row of point k of the attacked instances' scatter (attackedPoints()), -1 past it.
    int instanceAtPoint(int k) const;
    /// The test row of point k of the spared instances' scatter (sparedPoints()), -1 past it.
    int instanceAtSparedPoint(int k) const;
    /// Instances the threat attacks: filled circles. Instances of the classes a one-sided threat
    /// spares: hollow grey circles, "not attacked" in the legend (they sit at "never", or at 0
    /// when a learner gets them wrong clean, whatever the learners do).
    QCPCurve* attackedPoints() const { return m_points; }
    QCPCurve* sparedPoints() const { return m_spared; }
    QCustomPlot* scatterPlot() const { return m_scatter; }
    QLabel* summaryLabel() const { return m_summary; }

signals:
    /// The user clicked instance i (a test-set row) in the scatter.
    void openInstance(int i);
    /// A map has been computed (possibly cancelled part-way).
    void mapReady();

private:
    void draw();
    void onPlotClick(QMouseEvent* e);

    HeatmapContextPtr m_ctx;
    std::optional<RobustnessMap> m_map;
    std::vector<int> m_pointInstance;   ///< scatter point k -> test row
    std::vector<int> m_sparedInstance;  ///< spared point k -> test row
    double m_never = 0.0;               ///< where "never flipped" is drawn
    JobRunner* m_jobs = nullptr;

    QComboBox* m_a = nullptr;
    QComboBox* m_b = nullptr;
    QPushButton* m_compute = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_summary = nullptr;
    QCustomPlot* m_scatter = nullptr;
    QCPCurve* m_points = nullptr;   ///< a curve keeps the points in instance order
    QCPCurve* m_spared = nullptr;
    QCPGraph* m_diagonal = nullptr;
    QCPColorMap* m_density = nullptr;
    QCustomPlot* m_hist[2] = {nullptr, nullptr};
    QCPBars* m_bars[2] = {nullptr, nullptr};
};

/// Adds the Robustness tab to `tabs`, following `heatmaps`' context; a click on an instance opens
/// it in the Heatmaps tab (the tab holding `heatmaps`).
RobustnessView* addRobustnessTab(QTabWidget* tabs, HeatmapView* heatmaps);

}  // namespace fdlab::ui
