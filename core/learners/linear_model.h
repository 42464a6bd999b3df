#pragma once
// The one linear model type of FDLab: scores s_k(x) = b_k + w_k . x, one column per class.
//
// Binary models have a single column (K = 1): score s(x) = b + w.x, prediction class 1 (y = +1)
// when s(x) > 0, else class 0. Multi-class models have K = number of classes columns and predict
// argmax_k s_k(x) (ties to the lowest index). The bias is never deletable by an attack.

#include "core/data/dataset.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace fdlab {

struct LinearModel {
    Eigen::MatrixXd W;                     ///< n x K (K = 1 for binary)
    Eigen::VectorXd b;                     ///< K
    std::vector<std::string> classNames;   ///< of the training data (2 for binary)

    bool isBinary() const { return W.cols() == 1; }
    int features() const { return static_cast<int>(W.rows()); }

    /// Binary: w (column 0). Multi-class: column k.
    Eigen::VectorXd w(int k = 0) const { return W.col(k); }

    /// Score of column k for row i of d: b_k + w_k . x_i.
    double score(const Dataset& d, int i, int k = 0) const;
    /// All K scores for row i.
    Eigen::VectorXd scores(const Dataset& d, int i) const;
    /// Predicted class index for row i.
    int predict(const Dataset& d, int i) const;
    /// Fraction of rows of d misclassified: margin <= 0, i.e. a score exactly on the decision
    /// boundary counts as an error (see Scorer).
    double errorRate(const Dataset& d) const;

    /// Binary model from w and b.
    static LinearModel binary(Eigen::VectorXd w, double b, std::vector<std::string> classNames);
};

}  // namespace fdlab
