#include "core/learners/fdrop.h"

#include "core/learners/fdrop_dual.h"
#include "core/learners/worst_case_hinge.h"
#include "core/solvers/bundle_method.h"

#include <cmath>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

namespace fdlab {

const char* toString(FdropSolver s) {
    switch (s) {
    case FdropSolver::Auto: return "auto";
    case FdropSolver::DualCoordinate: return "dual-cd";
    case FdropSolver::Bundle: return "bundle";
    }
    return "?";
}

FdropSolver fdropSolverFromString(const std::string& name) {
    for (const FdropSolver s : {FdropSolver::Auto, FdropSolver::DualCoordinate, FdropSolver::Bundle})
        if (name == toString(s)) return s;
    throw std::invalid_argument("unknown FDROP solver '" + name + "' (auto, dual-cd, bundle)");
}

FdropSolver fdropSolverFor(const FdropParams& p) {
    if (p.solver != FdropSolver::Auto) return p.solver;
    const bool plainHinge = p.useImportance ? p.N <= 0.0 : p.K == 0;
    return plainHinge ? FdropSolver::Bundle : FdropSolver::DualCoordinate;
}

void FdropParams::validate() const {
    if (!(C > 0.0) || !std::isfinite(C)) throw std::invalid_argument("FdropParams.C must be finite and > 0");
    if (K < 0) throw std::invalid_argument("FdropParams.K must be >= 0");
    if (!(N >= 0.0) || !std::isfinite(N)) throw std::invalid_argument("FdropParams.N must be finite and >= 0");
    if (!(epsilon > 0.0) || !std::isfinite(epsilon))
        throw std::invalid_argument("FdropParams.epsilon must be finite and > 0");
    if (maxIterations < 1) throw std::invalid_argument("FdropParams.maxIterations must be >= 1");
}

FitResult fitFdrop(const Dataset& train, const FdropParams& p, const RunControl& rc, FdropDualStart* end) {
    p.validate();
    if (!train.isBinary())
        throw std::invalid_argument("FDROP: dataset '" + train.name + "' has " + std::to_string(train.numClasses()) +
                                    " classes, FDROP needs a binary dataset");
    if (train.rows() == 0) throw std::invalid_argument("FDROP: dataset '" + train.name + "' has no rows");
    Stopwatch clock;

    std::unique_ptr<WorstCaseHingeOracle> oracle;
    // Budgets the adversary cannot use up, as for the attacks (core/attacks/attack.h) and the
    // Dekel-Shamir LP: with N >= V or K > n every feature could be deleted.
    if (p.useImportance) {
        std::vector<double> v = train.importance;
        if (v.empty()) v.assign(static_cast<std::size_t>(train.features()), 1.0);
        const double V = std::accumulate(v.begin(), v.end(), 0.0);
        if (!(p.N < V))
            throw std::invalid_argument("FdropParams.N = " + std::to_string(p.N) + " must be below the total feature value V = " +
                                        std::to_string(V) + " of '" + train.name + "'");
        oracle = std::make_unique<WorstCaseHingeOracle>(train, std::move(v), p.N, p.bias);
    } else {
        if (p.K > train.features())
            throw std::invalid_argument("FdropParams.K = " + std::to_string(p.K) + " exceeds the " +
                                        std::to_string(train.features()) + " features of '" + train.name + "'");
        oracle = std::make_unique<WorstCaseHingeOracle>(train, p.K, p.bias);
    }

    // Both solvers return (w with the bias last, objective, gap, iterations, status, message).
    auto finish = [&](const Eigen::VectorXd& w, double objective, double gap, long iterations, Status status,
                      const std::string& message) {
        const int n = train.features();
        FitResult r;
        r.model = LinearModel::binary(w.head(n), p.bias ? w(n) : 0.0, train.classNames);
        r.objective = objective;
        r.gap = gap;
        r.iterations = iterations;
        r.status = status;
        r.message = message;
        r.elapsed = clock.seconds();
        return r;
    };
    if (fdropSolverFor(p) == FdropSolver::DualCoordinate) {
        FdropDualParams dp;
        dp.C = p.C;
        dp.epsilon = p.epsilon;
        dp.relativeEpsilon = p.relativeEpsilon;
        dp.maxEpochs = p.maxIterations;
        dp.seed = p.seed;
        dp.start = p.start;
        FdropDualResult dr = solveFdropDual(*oracle, dp, rc);
        if (end) *end = std::move(dr.end);
        return finish(dr.w, dr.objective, dr.gap, dr.epochs, dr.status, dr.message);
    }
    if (end) *end = FdropDualStart{};
    BundleParams bp;
    bp.C = p.C;
    bp.epsilon = p.epsilon;
    bp.relativeEpsilon = p.relativeEpsilon;
    bp.maxIterations = p.maxIterations;
    bp.maxInactiveAge = 50;   // keeps the inner QP small on long runs (K > 0); the bound stays valid
    const BundleResult br = minimiseBundle(*oracle, Eigen::VectorXd::Zero(oracle->dimension()), bp, rc);
    return finish(br.w, br.objective, br.gap, br.iterations, br.status, br.message);
}

}  // namespace fdlab
