#pragma once
// What the GUI's "Label noise" view draws, computed here (the view only paints): Figure 1 of
// Biggio, Nelson & Laskov, "Support Vector Machines Under Adversarial Label Noise", ACML 2011.
//
// Given a binary training set D and a flip budget L:
//   1. taint D: flip L labels at random or by Algorithm 1 (core/attacks/label_flips.h, the
//      attacked SVM being the plain SVM with the panel's kernel, C and gamma), or none;
//   2. train the SVM (mu = 0) and the LN-robust SVM (mu) on the tainted set;
//   3. in 2-D (the data itself for two features, else the PCA plane through the mean,
//      core/data/projection.h): the training points, which were flipped, each model's support
//      vectors, its decision values on a grid covering the points, and its zero contour
//      (core/eval/decision_surface.h). For more than two features the grid shows the decision
//      function restricted to that plane, which is a slice, not the boundary the points see;
//   4. each model's error on the untainted training labels (the quantity Algorithm 1 maximises).
// Large datasets are thinned to maxRows rows (a seeded uniform sample, both classes kept in
// proportion) because kernel SVMs here cost O(m^2) memory and the picture would be unreadable.

#include "core/data/dataset.h"
#include "core/data/preprocess.h"
#include "core/data/projection.h"
#include "core/eval/decision_surface.h"
#include "core/learners/kernel_svm.h"
#include "core/util/run_control.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fdlab {

enum class FlipKind { None, Random, Adversarial };
const char* toString(FlipKind k);

struct LabelNoiseSceneParams {
    /// How the training labels are tainted. Default Adversarial (the paper's picture).
    FlipKind flipKind = FlipKind::Adversarial;
    /// Number of labels flipped, L. Default 10 (the paper's); in [0, rows after thinning].
    int flips = 10;
    /// Algorithm 1's repetitions R. Default 10; >= 1.
    int repeats = 10;
    /// The SVM of both panels (kernel, C, gamma; its mu is ignored). Default linear, C = 1.
    KernelSvmParams svm;
    /// The LN-robust SVM's assumed flip rate. Default 0.5 (trained as 0.499); in (0, 0.5].
    double mu = 0.5;
    /// Scaling fitted on the data before anything else. Default None.
    Scaling scaling = Scaling::None;
    /// Rows kept at most (seeded sample). Default 400; >= 10.
    int maxRows = 400;
    /// Grid points per axis. Default 120; in [2, 1000].
    int gridSize = 120;
    /// Seed of the flips and the thinning. Default 1.
    std::uint64_t seed = 1;

    /// Throws std::invalid_argument naming the offending field.
    void validate() const;
};

struct SvmPanelResult {
    KernelSvmModel model;
    std::vector<int> supportVectors;        ///< rows of the (thinned) data that are support vectors
    DecisionGrid grid;
    std::vector<ContourSegment> boundary;   ///< the zero contour of grid
    double cleanTrainError = 0.0;           ///< on the untainted labels
};

struct LabelNoiseScene {
    Dataset data;                 ///< the (scaled, thinned) untainted data
    Projection2d projection;
    Eigen::MatrixX2d points;      ///< rows x 2
    std::vector<int> y;           ///< tainted labels in {-1, +1}
    std::vector<int> flipped;     ///< rows whose label was flipped, ascending
    SvmPanelResult svm, robust;   ///< mu = 0 and mu = params.mu
    std::string uTitle, vTitle;   ///< axis titles
    Status status = Status::Failed;
    std::string message;
    double elapsed = 0.0;
};

/// Steps 1-4 above. Throws std::invalid_argument for bad params or non-binary data (naming the
/// field or the dataset); cancellation (checked between steps) gives Status::Cancelled.
LabelNoiseScene computeLabelNoiseScene(const Dataset& d, const LabelNoiseSceneParams& p, const RunControl& rc = {});

}  // namespace fdlab
