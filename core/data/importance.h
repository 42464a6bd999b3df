#pragma once
// Per-feature importance values v_j > 0: the adversary's cost of deleting feature j.

#include "core/data/dataset.h"

#include <string>
#include <vector>

namespace fdlab {

/// v_j = 1 for every feature.
std::vector<double> uniformImportance(const Dataset& d);

/// Reads "name,value" lines (optional header "name,value"; '#' comments). Every feature of d
/// must appear exactly once, values finite and > 0. Throws DataError naming file and line
/// (unknown name, duplicate, missing feature, bad number).
std::vector<double> importanceFromCsv(const Dataset& d, const std::string& path);

/// Writes "name,value" with a header, atomically.
void saveImportanceCsv(const Dataset& d, const std::vector<double>& v, const std::string& path);

/// Parameters of the mutual-information heuristic.
struct MutualInfoParams {
    /// Equal-width bins per feature over [min, max] of the data (constant features: one bin).
    /// Default 8, range [2, 256].
    int bins = 8;
    /// Smallest value given to a feature that carries no information. Default 0.1, range (0, 1].
    double floor = 0.1;
    /// Total of all v_j after mapping; <= 0 means "n" (the uniform total). Default 0.
    double total = 0.0;
    void validate() const;
};

/// Mutual-information heuristic (Dekel & Shamir use "a mutual information heuristic"; this is
/// our exact definition):
///   I_j = sum_{b,c} p(b,c) log2( p(b,c) / (p(b) p(c)) ), over the bins b of feature j and the
///         classes c, with empirical probabilities on d (no smoothing; 0 log 0 = 0);
///   r_j = floor + (1 - floor) * I_j / max_k I_k   (r_j = 1 for all j when every I_j is 0);
///   v_j = r_j * T / sum_k r_k,  T = params.total (or n).
/// So the most informative feature costs the most to delete, no feature is free, and the
/// values sum to T (the uniform case sums to n, keeping budgets comparable).
std::vector<double> mutualInformationImportance(const Dataset& d, const MutualInfoParams& p = {});

/// The raw I_j (bits) used above, exposed for tests and the importance editor.
std::vector<double> mutualInformationBits(const Dataset& d, int bins);

}  // namespace fdlab
