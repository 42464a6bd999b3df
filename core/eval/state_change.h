#pragma once
// One command that changes the experiment state the GUI shows (ui/experiment_controller.h):
// every field is optional, and only the fields set are applied, in this order: spec (the
// panels show it and its data loads; a run going on is abandoned and the views showing the
// previous experiment are cleared), budget (the one adversary budget the Attack panel and the
// Heatmaps tab share, clamped once to what the data allows), instance (the test instance the
// Heatmaps tab shows), tab (which view is in front), keep (curves the Curves tab keeps for
// comparison), run (start the experiment).
// Lessons and views set state only through this, never by poking widgets.

#include "core/eval/experiment_runner.h"
#include "core/eval/experiment_spec.h"

#include <optional>
#include <string>

namespace fdlab {

/// Another run's curves for the Curves tab to keep beside the runs that follow (dashed), under
/// `label`; an empty label drops the kept curves.
struct KeptCurves {
    std::string label;
    std::vector<CurvePoint> points;
    ExperimentSpec spec;
    /// When set, the change applies only while the kept curves shown carry this label ("": none
    /// are kept), e.g. a lesson that ends drops its own curves and leaves ones the student kept.
    std::optional<std::string> ifKept;
};

struct StateChange {
    /// A full experiment (a preset's, or data + learners + threat + levels); none: keep the
    /// current one.
    std::optional<ExperimentSpec> spec;
    /// The adversary's budget shown in the Attack panel and the Heatmaps tab (K features for
    /// count threats, N for value budgets, a fraction or probability otherwise). It is clamped
    /// to the loaded data (K <= n, N < V); when the heatmaps are being prepared it applies once
    /// they are ready.
    std::optional<double> budget;
    /// The test instance (0-based index into the test part of repetition 0) the Heatmaps tab shows.
    std::optional<int> instance;
    /// The view in front: one of tabIds() ("curves", "heatmaps", "data", "label-noise",
    /// "robustness" when the build has it).
    std::optional<std::string> tab;
    /// Curves to keep for comparison, or (empty label) none; unset: the kept ones stay.
    std::optional<KeptCurves> keep;
    /// Start the experiment (the spec given, else the one the panels describe).
    bool run = false;
};

}  // namespace fdlab
