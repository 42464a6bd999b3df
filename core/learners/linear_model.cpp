#include "core/learners/linear_model.h"

#include <algorithm>
#include <limits>

namespace fdlab {

double LinearModel::score(const Dataset& d, int i, int k) const {
    return b(k) + d.dot(i, W.col(k));
}

Eigen::VectorXd LinearModel::scores(const Dataset& d, int i) const {
    Eigen::VectorXd s(W.cols());
    for (Eigen::Index k = 0; k < W.cols(); ++k) s(k) = score(d, i, static_cast<int>(k));
    return s;
}

int LinearModel::predict(const Dataset& d, int i) const {
    if (isBinary()) return score(d, i, 0) > 0.0 ? 1 : 0;
    Eigen::Index best = 0;
    scores(d, i).maxCoeff(&best);
    return static_cast<int>(best);
}

double LinearModel::errorRate(const Dataset& d) const {
    if (d.rows() == 0) return 0.0;
    // A score exactly on the decision boundary counts as an error (the model did not commit to
    // the true class); the evaluation engine uses the same rule (margin <= 0).
    int wrong = 0;
    for (int i = 0; i < d.rows(); ++i) {
        const int label = d.labels[static_cast<std::size_t>(i)];
        double margin;
        if (isBinary()) {
            margin = (label == 1 ? 1.0 : -1.0) * score(d, i, 0);
        } else {
            const Eigen::VectorXd s = scores(d, i);
            double other = -std::numeric_limits<double>::infinity();
            for (Eigen::Index k = 0; k < s.size(); ++k)
                if (k != label) other = std::max(other, s(k));
            margin = s(label) - other;
        }
        if (margin <= 0.0) ++wrong;
    }
    return static_cast<double>(wrong) / d.rows();
}

LinearModel LinearModel::binary(Eigen::VectorXd w, double b, std::vector<std::string> classNames) {
    LinearModel m;
    m.W = std::move(w);
    m.b = Eigen::VectorXd::Constant(1, b);
    m.classNames = std::move(classNames);
    return m;
}

}  // namespace fdlab
