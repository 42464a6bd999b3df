#include "core/attacks/label_flips.h"

#include "core/util/rng.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace fdlab {

namespace {

void requireBinary(const Dataset& d, const char* who) {
    if (!d.isBinary())
        throw std::invalid_argument(std::string(who) + ": needs a binary dataset (got " +
                                    std::to_string(d.numClasses()) + " classes)");
}

void requireFlipCount(int L, int rows, const char* who) {
    if (L < 0 || L > rows)
        throw std::invalid_argument(std::string(who) + ": flips must be in [0, " + std::to_string(rows) + "] (got " +
                                    std::to_string(L) + ")");
}

// Divides by max v when positive, else by max |v| (else leaves v alone).
void normaliseByMax(Eigen::VectorXd& v) {
    if (v.size() == 0) return;
    double m = v.maxCoeff();
    if (!(m > 0)) m = v.cwiseAbs().maxCoeff();
    if (m > 0) v /= m;
}

// Decision values f_i = sum_j coef_j K_ij + b on the training rows.
Eigen::VectorXd decisions(const Eigen::MatrixXd& K, const KernelSvmDual& s) {
    return (K * s.coef).array() + s.b;
}

double errorOn(const Eigen::VectorXd& f, const std::vector<int>& y) {
    int e = 0;
    for (std::size_t i = 0; i < y.size(); ++i)
        if (y[i] * f(static_cast<Eigen::Index>(i)) <= 0.0) ++e;
    return y.empty() ? 0.0 : static_cast<double>(e) / static_cast<double>(y.size());
}

// Indices of the L smallest v (ties by index), ascending by index.
std::vector<int> smallestL(const Eigen::VectorXd& v, int L) {
    std::vector<int> order(static_cast<std::size_t>(v.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return v(a) < v(b); });
    order.resize(static_cast<std::size_t>(L));
    std::sort(order.begin(), order.end());
    return order;
}

}  // namespace

Dataset flipLabels(const Dataset& d, const std::vector<int>& rows) {
    requireBinary(d, "label flips");
    Dataset t = d;
    std::vector<char> seen(static_cast<std::size_t>(d.rows()), 0);
    for (int i : rows) {
        if (i < 0 || i >= d.rows())
            throw std::invalid_argument("label flips: row " + std::to_string(i) + " out of range [0, " +
                                        std::to_string(d.rows()) + ")");
        if (seen[static_cast<std::size_t>(i)]++)
            throw std::invalid_argument("label flips: row " + std::to_string(i) + " listed twice");
        int& l = t.labels[static_cast<std::size_t>(i)];
        l = 1 - l;
    }
    return t;
}

LabelFlipResult randomLabelFlips(const Dataset& d, int L, std::uint64_t seed) {
    requireBinary(d, "random label flips");
    requireFlipCount(L, d.rows(), "random label flips");
    Rng rng(seed);
    std::vector<int> idx(static_cast<std::size_t>(d.rows()));
    std::iota(idx.begin(), idx.end(), 0);
    rng.shuffle(idx);
    idx.resize(static_cast<std::size_t>(L));
    std::sort(idx.begin(), idx.end());
    LabelFlipResult r;
    r.tainted = flipLabels(d, idx);
    r.tainted.provenance = d.provenance + " + " + std::to_string(L) + " random label flips (seed " +
                           std::to_string(seed) + ")";
    r.flipped = std::move(idx);
    return r;
}

void AdversarialLabelFlipParams::validate() const {
    if (flips < 0) throw std::invalid_argument("AdversarialLabelFlipParams.flips must be >= 0");
    if (repeats < 1) throw std::invalid_argument("AdversarialLabelFlipParams.repeats must be >= 1");
    if (!std::isfinite(beta1) || beta1 < 0)
        throw std::invalid_argument("AdversarialLabelFlipParams.beta1 must be finite and >= 0");
    if (!std::isfinite(beta2) || beta2 < 0)
        throw std::invalid_argument("AdversarialLabelFlipParams.beta2 must be finite and >= 0");
    svm.validate();
}

LabelFlipResult adversarialLabelFlips(const Dataset& d, const AdversarialLabelFlipParams& p, const RunControl& rc) {
    p.validate();
    requireBinary(d, "adversarial label flips");
    d.requireNonEmptyClasses("adversarial label flips");
    requireFlipCount(p.flips, d.rows(), "adversarial label flips");
    const int n = d.rows();
    const double C = p.svm.C;

    // The kernel matrix is shared by every SVM trained here (only the labels change).
    const Eigen::MatrixXd K = kernelMatrix(d, p.svm.kernel, p.svm.gamma);
    const std::vector<int> y = d.signedLabels();
    const Eigen::VectorXd yv = Eigen::Map<const Eigen::VectorXi>(y.data(), n).cast<double>();

    // Step 1: the clean SVM and its normalised margins s_i.
    const KernelSvmDual clean = solveKernelSvmDual(K, y, C, p.svm.mu, p.svm.eps, p.svm.cacheMb);
    Eigen::VectorXd s = yv.cwiseProduct(decisions(K, clean));
    normaliseByMax(s);
    const Eigen::VectorXd base = clean.alpha / C - p.beta1 * s;

    LabelFlipResult best;
    best.flipped = smallestL(base, p.flips);
    best.status = Status::Converged;
    Rng rng(p.seed);
    for (int r = 0; r < p.repeats; ++r) {
        if (rc.cancelled()) {
            best.status = Status::Cancelled;
            break;
        }
        // Step 2: a random SVM and its normalised margins q_i.
        Eigen::VectorXd alphaRnd(n);
        for (int j = 0; j < n; ++j) alphaRnd(j) = rng.uniform(-C, C);
        const Eigen::VectorXd g = K * yv.cwiseProduct(alphaRnd);
        const double B = g.cwiseAbs().maxCoeff();
        const double bRnd = rng.uniform(-B, B);
        Eigen::VectorXd q = yv.cwiseProduct((g.array() + bRnd).matrix());
        normaliseByMax(q);
        const Eigen::VectorXd v = base - p.beta2 * q;
        std::vector<int> flips = smallestL(v, p.flips);

        // Train on the flipped labels, measure the error on the clean labels.
        std::vector<int> yt = y;
        for (int i : flips) yt[static_cast<std::size_t>(i)] = -yt[static_cast<std::size_t>(i)];
        const KernelSvmDual tainted = solveKernelSvmDual(K, yt, C, p.svm.mu, p.svm.eps, p.svm.cacheMb);
        const double err = errorOn(decisions(K, tainted), y);
        if (err > best.cleanTrainError) {
            best.cleanTrainError = err;
            best.flipped = std::move(flips);
        }
        best.repeatsDone = r + 1;
        rc.report(static_cast<double>(r + 1) / p.repeats, r + 1,
                  "repeat " + std::to_string(r + 1) + ": clean training error " + std::to_string(err) + ", best " +
                      std::to_string(best.cleanTrainError));
    }
    best.tainted = flipLabels(d, best.flipped);
    best.tainted.provenance = d.provenance + " + " + std::to_string(p.flips) + " adversarial label flips (seed " +
                              std::to_string(p.seed) + ")";
    return best;
}

}  // namespace fdlab
