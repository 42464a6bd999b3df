#pragma once
// Uniform deletion (Globerson & Roweis): the adversary deletes the same K features from every
// test instance. Maximising the test error over all C(n, K) sets is combinatorial; FDLab offers
// the top-|w| heuristic and, for small problems, exact enumeration.

#include "core/data/dataset.h"
#include "core/learners/linear_model.h"
#include "core/util/run_control.h"

#include <vector>

namespace fdlab {

/// The K features with the largest |w_j| (multi-class: largest sum_k |W_jk|); ties to the
/// lower index. A heuristic: it ignores the data.
std::vector<int> uniformTopWeightDeletion(const LinearModel& m, int K);

/// Number of K-subsets of n features, saturating at 2^62.
double binomialCount(int n, int K);

struct UniformExactResult {
    std::vector<int> deleted;   ///< the maximising set, increasing
    int errors = 0;             ///< test errors with it deleted from the attacked instances (the others clean)
    double marginSum = 0.0;     ///< tie-breaker: sum of the attacked instances' margins (lower = more damage)
    bool complete = true;       ///< false when cancelled (best set among those enumerated)
};

/// Enumerates every K-subset of the features (std::invalid_argument if C(n, K) > maxSets) and
/// returns one that maximises the number of misclassified instances of `test` (margin <= 0)
/// when it is deleted from the instances of the attacked classes (`attackedClasses`, as
/// AttackSpec::attackedClasses: empty = every class; the others stay clean, so only the
/// attacked instances decide), breaking ties by the smallest sum of their margins, then
/// lexicographically first.
UniformExactResult uniformExactDeletion(const LinearModel& m, const Dataset& test, int K,
                                        const std::vector<int>& attackedClasses = {}, double maxSets = 1e6,
                                        const RunControl& rc = {});

}  // namespace fdlab
