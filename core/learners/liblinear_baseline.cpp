#include "core/learners/liblinear_baseline.h"

#include <linear.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace fdlab {

const char* toString(LiblinearSolver s) {
    switch (s) {
    case LiblinearSolver::HingeSvmDual: return "hinge SVM (liblinear -s 3)";
    case LiblinearSolver::LogisticRegression: return "logistic regression (liblinear -s 0)";
    }
    return "?";
}

void LiblinearParams::validate() const {
    if (!(C > 0.0) || !std::isfinite(C)) throw std::invalid_argument("LiblinearParams.C must be finite and > 0");
    if (!(eps >= 0.0) || !std::isfinite(eps)) throw std::invalid_argument("LiblinearParams.eps must be finite and >= 0");
    if (!std::isfinite(bias) || bias == 0.0)
        throw std::invalid_argument("LiblinearParams.bias must be finite and non-zero (< 0 disables the bias)");
    if (solver != LiblinearSolver::HingeSvmDual && solver != LiblinearSolver::LogisticRegression)
        throw std::invalid_argument("LiblinearParams.solver is not a known solver");
}

namespace {

// liblinear's print hook and rand() are process-global.
std::mutex g_liblinearMutex;
std::string g_liblinearLog;   // guarded by g_liblinearMutex
void captureLiblinear(const char* s) { g_liblinearLog += s; }

struct ModelDeleter {
    void operator()(model* m) const { free_and_destroy_model(&m); }
};

double regularisedNorm2(const LinearModel& m, double B) {
    const double wb = B > 0.0 ? m.b(0) / B : 0.0;
    return m.W.col(0).squaredNorm() + wb * wb;
}

/// Numerically stable log(1 + exp(-z)).
double logLoss(double z) { return z > 0 ? std::log1p(std::exp(-z)) : -z + std::log1p(std::exp(z)); }

}  // namespace

double hingeSvmObjective(const Dataset& d, const LinearModel& m, double C, double B) {
    double s = 0.0;
    for (int i = 0; i < d.rows(); ++i) s += std::max(0.0, 1.0 - d.y(i) * m.score(d, i));
    return 0.5 * regularisedNorm2(m, B) + C * s;
}

double logisticObjective(const Dataset& d, const LinearModel& m, double C, double B) {
    double s = 0.0;
    for (int i = 0; i < d.rows(); ++i) s += logLoss(d.y(i) * m.score(d, i));
    return 0.5 * regularisedNorm2(m, B) + C * s;
}

FitResult fitLiblinear(const Dataset& train, const LiblinearParams& p, const RunControl& rc) {
    p.validate();
    if (!train.isBinary())
        throw std::invalid_argument("liblinear baseline: dataset '" + train.name + "' has " +
                                    std::to_string(train.numClasses()) + " classes, a binary dataset is required");
    train.requireNonEmptyClasses("liblinear baseline: dataset '" + train.name + "'");
    FitResult r;
    r.model = LinearModel::binary(Eigen::VectorXd::Zero(train.features()), 0.0, train.classNames);
    if (rc.cancelled()) {
        r.status = Status::Cancelled;
        r.message = "cancelled before training";
        return r;
    }
    Stopwatch clock;
    const int m = train.rows(), n = train.features();
    const bool hasBias = p.bias > 0.0;

    // Copy the data into liblinear's 1-based, -1-terminated sparse rows.
    std::vector<feature_node> space;
    std::vector<std::size_t> start;
    std::vector<double> y(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) {
        start.push_back(space.size());
        train.forEachNonZero(i, [&](int j, float v) { space.push_back({j + 1, static_cast<double>(v)}); });
        if (hasBias) space.push_back({n + 1, p.bias});
        space.push_back({-1, 0.0});
        y[static_cast<std::size_t>(i)] = train.y(i);
    }
    std::vector<feature_node*> rows;
    for (std::size_t s : start) rows.push_back(space.data() + s);

    problem prob{};
    prob.l = m;
    prob.n = n + (hasBias ? 1 : 0);
    prob.y = y.data();
    prob.x = rows.data();
    prob.bias = hasBias ? p.bias : -1.0;

    parameter param{};
    const bool hinge = p.solver == LiblinearSolver::HingeSvmDual;
    param.solver_type = hinge ? L2R_L1LOSS_SVC_DUAL : L2R_LR;
    param.eps = p.eps > 0.0 ? p.eps : (hinge ? 0.1 : 0.01);
    param.C = p.C;
    param.nr_weight = 0;
    param.weight_label = nullptr;
    param.weight = nullptr;
    param.p = 0.1;
    param.init_sol = nullptr;

    std::unique_ptr<model, ModelDeleter> mdl;
    std::string log;
    {
        std::lock_guard<std::mutex> lock(g_liblinearMutex);
        if (const char* err = check_parameter(&prob, &param))
            throw std::invalid_argument(std::string("liblinear rejects the parameters: ") + err);
        g_liblinearLog.clear();
        set_print_string_function(&captureLiblinear);
        std::srand(1);   // liblinear's coordinate permutation uses rand(): make it reproducible
        mdl.reset(::train(&prob, &param));
        log.swap(g_liblinearLog);
    }
    if (!mdl) {
        r.status = Status::Failed;
        r.message = "liblinear returned no model";
        return r;
    }

    // liblinear numbers its classes by first appearance; w scores label[0] positively.
    const double sign = mdl->label[0] == 1 ? 1.0 : -1.0;
    Eigen::VectorXd w(n);
    for (int j = 0; j < n; ++j) w(j) = sign * mdl->w[j];
    const double b = hasBias ? sign * mdl->w[n] * p.bias : 0.0;
    r.model = LinearModel::binary(std::move(w), b, train.classNames);
    r.objective = hinge ? hingeSvmObjective(train, r.model, p.C, p.bias)
                        : logisticObjective(train, r.model, p.C, p.bias);
    r.elapsed = clock.seconds();
    const bool maxIter = log.find("max number of iterations") != std::string::npos ||
                         log.find("maximal number of iterations") != std::string::npos;
    r.status = maxIter ? Status::MaxIterations : Status::Converged;
    r.message = std::string(toString(p.solver)) + (maxIter ? ": reached liblinear's iteration limit" : ": converged");
    rc.report(1.0, 1, r.message);
    return r;
}

}  // namespace fdlab
