#pragma once
// Shared by the per-instance view tests (tests/core/test_instance_view.cpp) and the Heatmaps
// tab's (tests/ui/test_heatmap_view.cpp): four hand-made 4x4 images and hand-made linear models.

#include "core/data/dataset.h"
#include "core/learners/registry.h"

#include <Eigen/Core>

#include <memory>
#include <utility>

namespace fdlab::testing {

// 4x4 images, class 1 = "pos" (y = +1). With A = 1 on the top row and B = 0.25 everywhere,
// both with bias -1.5, under the worst-case deletion of K = 3 pixels:
//   0: blank, positive              -> both models wrong already (A -1.5, B -1.5)
//   1: top row lit, positive        -> A right (2.5), B wrong (-0.5)
//   2: everything lit, positive     -> A 2.5, at K = 3: -0.5 (lost); B 2.5 -> 1.75 (kept)
//   3: pixel 15 lit, negative       -> both right, nothing worth deleting
inline std::shared_ptr<Dataset> tinyImages() {
    auto d = std::make_shared<Dataset>();
    d->name = "tiny4x4";
    d->X = Dataset::Matrix::Zero(4, 16);
    for (int j = 0; j < 4; ++j) d->X(1, j) = 1.0f;
    d->X.row(2).setOnes();
    d->X(3, 15) = 1.0f;
    d->labels = {1, 1, 1, 0};
    d->classNames = {"neg", "pos"};
    d->imageShape = ImageShape{4, 4};
    d->fillDefaults();
    return d;
}

/// The binary linear model b + w.x over classes {"neg", "pos"}.
inline TrainedModel linearModel(const Eigen::VectorXd& w, double b) {
    FitResult f;
    f.model = LinearModel::binary(w, b, {"neg", "pos"});
    f.status = Status::Converged;
    return wrapLinear(std::move(f));
}

/// A (1 on the top row) and B (0.25 everywhere), both with bias -1.5.
inline std::pair<TrainedModel, TrainedModel> tinyModels() {
    Eigen::VectorXd wa = Eigen::VectorXd::Zero(16);
    wa.head(4).setOnes();
    return {linearModel(wa, -1.5), linearModel(Eigen::VectorXd::Constant(16, 0.25), -1.5)};
}

}  // namespace fdlab::testing
