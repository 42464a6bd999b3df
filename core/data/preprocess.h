#pragma once
// Preprocessing fitted on the training part and applied unchanged to the test part.

#include "core/data/dataset.h"

#include <string>
#include <vector>

namespace fdlab {

enum class Scaling {
    None,
    MinusOneOne,   ///< per feature, [min, max] of train -> [-1, 1]; constant features -> 0
    ZeroOne,       ///< per feature, [min, max] of train -> [0, 1]; constant features -> 0
    UnitNorm,      ///< each row divided by its Euclidean norm (zero rows stay zero); no fitting
    Binarise       ///< x -> 1 if x > threshold else 0 (threshold 0.5 by default); no fitting
};

const char* toString(Scaling s);
/// Parses "none", "minus-one-one", "zero-one", "unit-norm", "binarise"; throws std::invalid_argument.
Scaling scalingFromString(const std::string& s);

/// A fitted preprocessing step: an affine map per feature, or a row normalisation.
struct Preprocessor {
    Scaling scaling = Scaling::None;
    float binariseThreshold = 0.5f;
    std::vector<float> offset;   ///< per feature (affine scalings): x' = (x - offset) * factor + shift
    std::vector<float> factor;
    float shift = 0.0f;

    /// Fits on d (rows as given). Only the affine scalings look at the data.
    static Preprocessor fit(const Dataset& d, Scaling s, float binariseThreshold = 0.5f);
    /// Applies to every row of d, in place. Values outside the training range map outside the
    /// target interval (no clipping), as a linear model expects.
    void apply(Dataset& d) const;
    /// apply() on one row with n features: a dense row (n values), or a sparse one (increasing
    /// columns and their values; zeros stay zeros). For an instance made after the run (a drawn
    /// digit, a typed message), so that it is what the learners were trained on.
    void applyDense(std::vector<float>& x) const;
    void applySparse(const std::vector<std::int32_t>& columns, std::vector<float>& values, int n) const;
    /// The affine scalings: the largest value any feature had in the data they were fitted on
    /// (before scaling), e.g. 1 for MNIST's pixels; 0 for other scalings (they keep no range). A
    /// drawing is inked in these units, since apply() then maps it as it mapped the data.
    float fittedMaximum() const;
};

}  // namespace fdlab
