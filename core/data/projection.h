#pragma once
// A 2-D view of a dataset for pictures: the data itself when it has two features, otherwise
// principal component analysis (Pearson 1901; Hotelling 1933) onto the first two components.
//
// PCA: with the column means mu and the centred matrix Xc = X - 1 mu^T, the sample covariance
// S = Xc^T Xc / (m - 1) has eigenpairs S a_k = lambda_k a_k, lambda_1 >= lambda_2 >= ...; the
// projection of x is (a_1.(x - mu), a_2.(x - mu)) and a point (u, v) of the picture lifts back
// to the plane mu + u a_1 + v a_2 in feature space (where decision values are drawn). The sign
// of each a_k is fixed so that its largest-magnitude entry is positive (eigen solvers return
// either sign), making the picture reproducible.

#include "core/data/dataset.h"

#include <Eigen/Core>

#include <string>

namespace fdlab {

struct Projection2d {
    Eigen::VectorXd origin;     ///< n: mu (PCA) or 0 (identity)
    Eigen::MatrixXd axes;       ///< n x 2: a_1, a_2 (PCA) or the unit vectors e_1, e_2
    Eigen::Vector2d variance{0.0, 0.0};   ///< lambda_1, lambda_2 (PCA), else the two feature variances
    double totalVariance = 0.0;           ///< trace S
    bool identity = false;      ///< true when the data has exactly two features (no projection)

    /// (u, v) of a feature vector (length n).
    Eigen::Vector2d project(const Eigen::VectorXd& x) const { return axes.transpose() * (x - origin); }
    /// The point origin + u a_1 + v a_2 of feature space.
    Eigen::VectorXd lift(double u, double v) const { return origin + u * axes.col(0) + v * axes.col(1); }
    /// "feature names" for two features, else "PC1 (62% of the variance)"-style axis titles.
    std::string axisTitle(int k, const Dataset& d) const;
};

/// The identity for 2 features, PCA otherwise. Throws std::invalid_argument for fewer than two
/// features or fewer than two rows.
Projection2d projection2d(const Dataset& d);

/// The m x 2 coordinates of every row of d under p.
Eigen::MatrixX2d projectRows(const Dataset& d, const Projection2d& p);

}  // namespace fdlab
