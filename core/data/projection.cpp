#include "core/data/projection.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <stdexcept>

namespace fdlab {

std::string Projection2d::axisTitle(int k, const Dataset& d) const {
    if (identity) return k < d.features() ? d.featureName(k) : "x" + std::to_string(k + 1);
    const double share = totalVariance > 0 ? 100.0 * variance(k) / totalVariance : 0.0;
    return "PC" + std::to_string(k + 1) + " (" + std::to_string(static_cast<int>(std::lround(share))) + "% of the variance)";
}

Projection2d projection2d(const Dataset& d) {
    if (d.features() < 2) throw std::invalid_argument("2-D projection: dataset '" + d.name + "' has fewer than two features");
    if (d.rows() < 2) throw std::invalid_argument("2-D projection: dataset '" + d.name + "' has fewer than two rows");
    const Eigen::MatrixXd X = d.denseCopy("the PCA projection").cast<double>();
    const Eigen::VectorXd mu = X.colwise().mean().transpose();
    const Eigen::MatrixXd Xc = X.rowwise() - mu.transpose();
    const Eigen::MatrixXd S = Xc.transpose() * Xc / static_cast<double>(d.rows() - 1);
    Projection2d p;
    p.totalVariance = S.trace();
    if (d.features() == 2) {
        p.identity = true;
        p.origin = Eigen::VectorXd::Zero(2);
        p.axes = Eigen::MatrixXd::Identity(2, 2);
        p.variance = {S(0, 0), S(1, 1)};
        return p;
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(S);   // ascending eigenvalues
    const Eigen::Index n = S.rows();
    p.origin = mu;
    p.axes.resize(n, 2);
    for (int k = 0; k < 2; ++k) {
        Eigen::VectorXd a = eig.eigenvectors().col(n - 1 - k);
        Eigen::Index big = 0;
        a.cwiseAbs().maxCoeff(&big);
        if (a(big) < 0) a = -a;
        p.axes.col(k) = a;
        p.variance(k) = eig.eigenvalues()(n - 1 - k);
    }
    return p;
}

Eigen::MatrixX2d projectRows(const Dataset& d, const Projection2d& p) {
    const Eigen::MatrixXd X = d.denseCopy("the PCA projection").cast<double>();
    return (X.rowwise() - p.origin.transpose()) * p.axes;
}

}  // namespace fdlab
