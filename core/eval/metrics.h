#pragma once
// Scores of a model on a (possibly attacked) test set: error rate and, for binary problems,
// the area under the ROC curve.

#include <vector>

namespace fdlab {

/// AUC of binary scores (class 1 positive): P(s_pos > s_neg) + 1/2 P(tie), by ranks (average
/// ranks for ties, Mann-Whitney). NaN when a class is absent.
double rocAuc(const std::vector<double>& scores, const std::vector<int>& labels);

/// Mean and standard error (sample std / sqrt(n); 0 for n < 2) of finite values; NaNs skipped.
struct MeanSe {
    double mean = 0.0;
    double se = 0.0;
    int n = 0;
};
MeanSe meanAndStandardError(const std::vector<double>& values);

}  // namespace fdlab
