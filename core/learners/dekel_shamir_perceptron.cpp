#include "core/learners/dekel_shamir_perceptron.h"

#include "core/util/param_check.h"

#include "core/learners/dekel_shamir_lp.h"
#include "core/util/rng.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace fdlab {

namespace {

std::string num(double x) { return formatParam(x); }

[[noreturn]] void bad(const std::string& field, const std::string& what) { invalidParam("DekelShamirPerceptronParams", field, what); }

}  // namespace

void DekelShamirPerceptronParams::validate() const {
    if (!(gamma > 0.0) || !std::isfinite(gamma)) bad("gamma", "= " + num(gamma) + " must be a finite number > 0");
    if (!(C > 0.0) || !std::isfinite(C)) bad("C", "= " + num(C) + " must be a finite number > 0");
    if (!(N >= 0.0) || !std::isfinite(N)) bad("N", "= " + num(N) + " must be a finite number >= 0");
    if (!(tau >= 0.0) || !std::isfinite(tau)) bad("tau", "= " + num(tau) + " must be >= 0 (0 = 2C/sqrt(m))");
    if (epochs < 1) bad("epochs", "= " + std::to_string(epochs) + " must be >= 1");
}

FitResult fitDekelShamirPerceptron(const Dataset& train, const DekelShamirPerceptronParams& p, const RunControl& rc) {
    p.validate();
    if (!train.isBinary())
        throw std::invalid_argument("Dekel-Shamir perceptron: needs a binary dataset, got " +
                                    std::to_string(train.numClasses()) + " classes");
    if (train.rows() == 0) throw std::invalid_argument("Dekel-Shamir perceptron: empty training set");
    Stopwatch clock;
    const auto adv = [&] {
        try {
            return DekelShamirAdversary(train, p.gamma, p.N, p.useImportance);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(std::string("DekelShamirPerceptronParams.") + e.what());
        }
    }();
    // Greedy is the exact sort when all values are equal (DekelShamirAdversary::worst).
    const auto oracle = DekelShamirAdversary::Oracle::Greedy;

    const int m = train.rows(), n = train.features();
    const double tau = p.tau > 0.0 ? p.tau : 2.0 * p.C / std::sqrt(static_cast<double>(m));
    const double C = p.C;
    Eigen::VectorXd w = Eigen::VectorXd::Zero(n), wSum = Eigen::VectorXd::Zero(n);
    double b = 0.0, bSum = 0.0;
    long steps = 0, updates = 0;
    double onlineLoss = 0.0;
    std::vector<int> order(static_cast<std::size_t>(m));
    std::vector<char> deleted(static_cast<std::size_t>(n), 0);
    Rng rng(p.seed);
    Status status = Status::Converged;

    for (int epoch = 0; epoch < p.epochs && status == Status::Converged; ++epoch) {
        std::iota(order.begin(), order.end(), 0);
        if (p.shuffle) rng.shuffle(order);
        double epochLoss = 0.0;
        for (int t = 0; t < m; ++t) {
            if ((t & 255) == 0 && rc.cancelled()) {
                status = Status::Cancelled;
                break;
            }
            const int i = order[static_cast<std::size_t>(t)];
            // (w, b) is the hypothesis predicting example i: it enters the average.
            wSum += w;
            bSum += b;
            ++steps;
            const auto W = adv.worst(i, w, b, oracle);
            epochLoss += W.loss;
            if (!(W.loss > 0.0)) continue;
            ++updates;
            const double y = train.y(i);
            for (int j : W.deleted) deleted[static_cast<std::size_t>(j)] = 1;
            train.forEachNonZero(i, [&](int j, float x) {
                if (!deleted[static_cast<std::size_t>(j)]) w(j) = std::clamp(w(j) + tau * y * x, -C, C);
            });
            for (int j : W.deleted) deleted[static_cast<std::size_t>(j)] = 0;
            b = std::clamp(b + tau * y, -C, C);
        }
        onlineLoss += epochLoss;
        rc.report(static_cast<double>(epoch + 1) / p.epochs, epoch + 1,
                  "epoch " + std::to_string(epoch + 1) + ": average online loss " + num(epochLoss / m));
    }

    FitResult r;
    const Eigen::VectorXd wBar = steps > 0 ? Eigen::VectorXd(wSum / static_cast<double>(steps)) : wSum;
    const double bBar = steps > 0 ? bSum / static_cast<double>(steps) : 0.0;
    r.model = LinearModel::binary(wBar, bBar, train.classNames);
    r.objective = adv.averageLoss(wBar, bBar, oracle);
    r.iterations = steps;
    r.status = status;
    r.message = std::to_string(steps) + " steps, " + std::to_string(updates) + " updates, tau " + num(tau) +
                ", average online loss " + num(steps > 0 ? onlineLoss / static_cast<double>(steps) : 0.0) +
                (adv.equalValues() ? "" : " (greedy inner max)");
    r.elapsed = clock.seconds();
    return r;
}

}  // namespace fdlab
