#pragma once
// The Curves tab: error (or AUC) versus the attack level, one line per learner with error bars
// (mean +- standard error over repetitions), drawn live as core finishes points, and the
// paper's reported numbers as hollow markers when the experiment has them. It only draws:
// the points come from core (CurvePoint), the summaries from fdlab::summarizePoints.
// A multi-task experiment (core/eval/multi_task.h) gets a task selector: "Mean over N tasks"
// (the paper's aggregate, fdlab::aggregateOverTasks, +- se across tasks, with the paper's
// numbers) or one task's own curves.

#include "core/eval/experiment_runner.h"

#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPGraph;
class QCPErrorBars;
class QComboBox;
class QCheckBox;
class QLabel;
class QToolButton;

namespace fdlab::ui {

class CurvePlot : public QWidget {
    Q_OBJECT
public:
    enum class Metric { Error, Auc };
    explicit CurvePlot(QWidget* parent = nullptr);

    /// Starts a new figure for `spec`: one (empty) line per learner, axis labels for its
    /// threat, the paper's numbers if any.
    void setSpec(const fdlab::ExperimentSpec& spec);
    /// Adds one finished point and redraws (queued replot, so bursts cost one paint).
    void addPoint(const fdlab::CurvePoint& p);
    /// Replaces every point (re-opened results).
    void setPoints(std::vector<fdlab::CurvePoint> points);
    const std::vector<fdlab::CurvePoint>& points() const { return m_points; }

    void setMetric(Metric m);
    /// Not "metric": that name would hide QWidget::metric(PaintDeviceMetric) (clang -Woverloaded-virtual).
    Metric shownMetric() const { return m_metric; }
    /// Multi-task experiments: -1 shows the mean over tasks, t task t's curves (range-checked:
    /// ignored outside [-1, tasks)); single-task experiments always show theirs (-1).
    void setShownTask(int task);
    int shownTask() const { return m_task; }
    void setLogScale(bool on);
    bool logScale() const { return m_log; }

    /// Points drawn on the line of learner `learnerIndex` (levels with at least one point).
    int graphPointCount(int learnerIndex) const;
    int learnerCount() const { return static_cast<int>(m_lines.size()); }
    QCustomPlot* plot() const { return m_plot; }

    /// Writes the figure at width x height pixels (points for PDF) as PNG, PDF or SVG by the
    /// path's suffix, atomically (ui/plots/widget_export.h); false with *error set on failure.
    bool exportTo(const QString& path, int width, int height, QString* error = nullptr);

    /// One-sided threats: points drawn for learner i's error on the attacked classes / the others.
    int attackedPointCount(int learnerIndex) const;
    int othersPointCount(int learnerIndex) const;

    /// The run's warnings (a learner stopped at its iteration limit, learnt a constant
    /// classifier, failed...): a "N warnings" button above the plot lists them all; none hides
    /// it; those that differ only in their repetition read as one (groupedWarnings). setSpec
    /// clears them. Only the first used to reach the status bar, briefly.
    void setWarnings(const std::vector<std::string>& warnings);
    /// The button's text ("" when hidden) and the full list it shows.
    QString warningsButtonText() const;
    QString warningsText() const;

    /// Kept curves: another run's mean curves drawn as thin dashed lines in its learners'
    /// colours, "SVM (label)", under every later run until dropped, so that two runs compare on
    /// one plot (a lesson's step 1 random deletion beside step 2's worst case; a researcher's run
    /// before and after a change). Drawn only while the shown run's level has the same unit (the
    /// axis title) as theirs; of a multi-task run, task `task`'s or (-1) the mean over tasks. A
    /// kept learner has the colour of the shown learner of the same name, else its own. The
    /// "Keep these curves" button keeps what is shown ("kept", with the task's name); pressed
    /// again it drops them.
    void keepCurves(const QString& label, const std::vector<fdlab::CurvePoint>& points, const fdlab::ExperimentSpec& spec,
                    int task = -1);
    void dropKeptCurves();
    /// Kept lines drawn now (0 when none are kept or their unit differs), and points on line i.
    int keptCurveCount() const;
    /// The label of the kept curves ("kept", a lesson's "step 1: random-deletion"), "" when none.
    QString keptLabel() const { return m_keptIds.empty() ? QString() : m_keptLabel; }
    int keptPointCount(int i) const;
    QToolButton* keepButton() const { return m_keepButton; }

    /// Scales the plot's own fonts (axes, ticks, legend) by `s` against the application font
    /// (presentation mode: 1.5; 1 restores).
    void setFontScale(double s);

    /// Axis title for the level of a threat model.
    static QString levelLabel(const std::string& threat);

private:
    struct Line {
        QCPGraph* graph = nullptr;
        QCPErrorBars* bars = nullptr;
        QCPGraph* paper = nullptr;   // hollow markers of the paper's numbers, may be null
        // One-sided threats: the error on the attacked classes' instances (dashed) and on the
        // others (dotted); null otherwise.
        QCPGraph* attacked = nullptr;
        QCPGraph* others = nullptr;
    };
    void rebuildData();
    void drawKept();
    void showWarnings();
    void rescale();
    void onMouseMove(QMouseEvent* e);

    QCustomPlot* m_plot = nullptr;
    QComboBox* m_metricBox = nullptr;
    QCheckBox* m_logBox = nullptr;
    QComboBox* m_taskBox = nullptr;   ///< multi-task experiments only (hidden otherwise)
    QLabel* m_taskLabel = nullptr;
    QLabel* m_title = nullptr;
    QToolButton* m_warnButton = nullptr;   ///< "N warnings", hidden without any
    QToolButton* m_keepButton = nullptr;   ///< "Keep these curves" / "Drop kept curves"
    // Kept curves: their label, the unit of their level, their learners and mean curves, and
    // the lines drawing them (rebuilt by setSpec, which clears the plot).
    QString m_keptLabel;
    QString m_keptUnit;
    std::vector<std::string> m_keptIds;
    std::vector<int> m_keptColours;   ///< learner index in the kept run (its colour)
    std::vector<fdlab::CurveSummary> m_keptSummary;
    std::vector<QCPGraph*> m_kept;
    QStringList m_warnings;
    std::vector<Line> m_lines;
    std::vector<std::string> m_ids;
    std::vector<fdlab::CurvePoint> m_points;
    std::vector<fdlab::CurveSummary> m_summary;
    fdlab::ExperimentSpec m_spec;
    Metric m_metric = Metric::Error;
    int m_task = -1;
    bool m_log = false;
};

/// A colour per learner index (distinct, print-friendly).
QColor learnerColour(int index);

}  // namespace fdlab::ui
