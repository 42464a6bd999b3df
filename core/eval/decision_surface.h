#pragma once
// Decision values of a binary model on a regular grid over a 2-D picture plane, and the zero
// level set (the decision boundary) as line segments, for drawing boundaries like Figure 1 of
// Biggio, Nelson & Laskov (ACML 2011).
//
// Grid: u_i = uMin + i (uMax - uMin) / (nu - 1), v_k likewise; value(i, k) = f(lift(u_i, v_k)),
// f the model's score (> 0: class index 1) and lift the plane of a Projection2d (the data's
// own plane for two features, the PCA plane through the mean otherwise).
// Boundary: marching squares (Lorensen & Cline 1987, in 2-D) with linear interpolation along
// each cell edge whose end values differ in sign (a value of exactly 0 counts as positive);
// a saddle cell (diagonal corners of equal sign) is resolved by the mean of its four corners.
// Linear interpolation makes the segments exact for functions that are linear on the plane.

#include "core/data/projection.h"
#include "core/learners/scorer.h"
#include "core/util/run_control.h"

#include <vector>

namespace fdlab {

struct DecisionGrid {
    double uMin = 0.0, uMax = 1.0, vMin = 0.0, vMax = 1.0;
    int nu = 0, nv = 0;
    std::vector<double> values;   ///< nv rows of nu values: values[k * nu + i] = f at (u_i, v_k)

    double u(int i) const { return nu > 1 ? uMin + (uMax - uMin) * i / (nu - 1) : uMin; }
    double v(int k) const { return nv > 1 ? vMin + (vMax - vMin) * k / (nv - 1) : vMin; }
    double at(int i, int k) const { return values[static_cast<std::size_t>(k) * static_cast<std::size_t>(nu) + static_cast<std::size_t>(i)]; }
};

struct ContourSegment {
    double u0 = 0.0, v0 = 0.0, u1 = 0.0, v1 = 0.0;
};

/// Evaluates a binary scorer (outputs() == 1, features() == plane dimension) on an nu x nv grid
/// over [uMin, uMax] x [vMin, vMax] (nu, nv >= 2, uMin < uMax, vMin < vMax; std::invalid_argument
/// otherwise). Cancellation is checked once per grid row; a cancelled grid has no values.
DecisionGrid decisionGrid(const Scorer& model, const Projection2d& plane, double uMin, double uMax, double vMin,
                          double vMax, int nu, int nv, const RunControl& rc = {});

/// The zero level set of g as segments (marching squares, see above).
std::vector<ContourSegment> zeroContour(const DecisionGrid& g);

}  // namespace fdlab
