#pragma once
// Dekel & Shamir, "Learning to classify with missing and corrupted features", ICML 2008,
// section 2: the LP-based learner (spec ALGORITHMS.md section 2).
//
// Feature values v_j > 0, V = V([n]), budget N in [0, V), P = V - N; margin gamma > 0, box C > 0.
// At test time an adversary deletes any S with V(S) <= N per instance; J = [n] \ S is kept.
//
// LP (3), exact but exponential (one constraint per kept set):
//     min (1/m) sum_i xi_i   s.t. for all i, all J with V([n] \ J) <= N:
//         y_i (b + sum_{j in J} w_j x_ij) >= gamma V(J) / P - xi_i,   xi >= 0,  ||w||_inf <= C.
// LP (4), polynomial (O(mn) variables and rows):
//     min (1/m) sum_i xi_i
//     s.t. P lambda_i - sum_j alpha_ij + y_i b >= -xi_i                       for all i
//          y_i w_j x_ij - gamma v_j / P >= lambda_i v_j - alpha_ij            for all i, j
//          alpha, lambda, xi >= 0,  -C <= w_j <= C,  b free (or |b| <= C).
// Theorem 1: LP (4) >= LP (3), with equality when every v_j is in {0, 1} and N is an integer.
//
// At a fixed (w, b), example i's constraints say xi_i >= [gamma V/P - y_i (b + w.x_i) + D_i]_+
// where, with q_ij = y_i w_j x_ij - gamma v_j / P, the damage D_i is
//     LP (3): max { sum_{j in S} q_ij : V(S) <= N }           (0/1 knapsack, exact)
//     LP (4): max { sum_j s_j q_ij : 0 <= s <= 1, s.v <= N }   (fractional knapsack)
// (LP (4)'s form follows from LP duality of its inner problem in lambda_i, alpha_i, the
// paper's Eqs. (7)-(9)). The knapsack's optimal set is the adversary's best deletion, i.e. the
// most violated constraint of example i: the separation oracle of constraint generation.
//
// Methods (DekelShamirLpParams::method):
//  - Simplex / InteriorPoint: LP (4) built in full and solved by GLPK. Where x_ij = 0 the
//    variable alpha_ij is eliminated exactly (reduceZeros): its row reads alpha_ij >=
//    v_j (lambda_i + gamma/P) and alpha_ij only appears with a minus sign in row i, so at an
//    optimum it sits on that bound; summing, row i becomes
//        (P - Z_i) lambda_i - sum_{j: x_ij != 0} alpha_ij + y_i b + xi_i >= gamma Z_i / P,
//    Z_i = sum_{j: x_ij = 0} v_j. Same optimum, about nnz(x_i) instead of n alphas per example.
//  - StructuredInteriorPoint (default; the fastest route measured, see
//    tests/bench/bench_dekel_shamir: 1000 MNIST digits in about 3 s, against 800 s for ActiveSet):
//    the same top-N form as ActiveSet below, with every hinge term, solved by FDLab's own
//    primal-dual interior point that eliminates the per-example blocks and factors only a
//    (n+1) x (n+1) system in (w, b) (dekel_shamir_ipm.h): densely by Cholesky up to
//    ipmDenseMaxFeatures (3000) features, by preconditioned conjugate gradients above (the
//    dense system would take O(n^2) memory and O(n^3) per iteration: 4.9 GB at SpamAssassin's
//    24,598 words). Optimal to a relative gap and infeasibility of ipmTolerance, not a vertex.
//    If it breaks down numerically on the dense path it hands over to ActiveSet and says so in
//    the message; on the conjugate-gradient path it reports the failure.
//  - ActiveSet (the fastest GLPK route measured):
//    LP (4) with alpha_ij = lambda_i v_j - q_ij + beta_ij substituted, i.e. the "sum of the
//    top N" form  y_i (b + w.x_i) - N lambda_i - sum_j beta_ij + xi_i >= gamma V/P,
//    beta_ij >= q_ij - lambda_i v_j, beta >= 0. Only the pixels the adversary deletes have
//    beta_ij > 0 (about N/v per example, against ~150 non-zero pixels of a digit), so the rows
//    (i, j) are generated when violated, examples enter in stages (100, then doubling) and
//    non-binding rows are dropped between stages; every re-solve is a dual simplex warm start.
//    Exact for LP (4) with any v. Details in solveActiveSet (dekel_shamir_lp.cpp).
//  - ConstraintGeneration: cutting planes on the kept-set form. The restricted LP
//    over (w, b, xi) starts with the cut J = [n] per example; each round solves it (dual simplex
//    warm-started from the previous basis), asks the oracle for every example's most violated
//    constraint and adds those violated by more than `tolerance`; it stops when none is.
//    problem = Lp4: fractional-knapsack oracle (cuts with one fractional coordinate), solves
//    LP (4) exactly for any v. problem = Lp3: exact oracle (sorting for equal v_j, 0/1 DP for
//    integer v_j, or v_j that become integers after scaling by 10, 100 or 1000), solves LP (3).
//    For v in {0,1} (or all v_j equal with N a multiple of them) both are the same LP.
//    For general v, LP (3) <= LP (4); the paper bounds the difference (Theorem 1).
//    This is Kelley's cutting-plane method in (w, b): it converges slowly in 784 dimensions
//    (more than 300 s for 100 MNIST digits), so it serves as the LP (3) solver for small data.
//  Every method returns LP (4)'s optimum unless problem = Lp3 (constraint generation only).
//  On convergence FitResult::objective is the LP optimum; otherwise (limits, cancel) it is the
//  loss of the returned model (an upper bound) and, for the generation methods, gap = that minus
//  the restricted LP's value.
//
// Bagging (chunks > 0): the paper's variant for large sets -- shuffle with `seed`, split into
// `chunks` parts, solve each, average w and b. FitResult::objective is then the average of
// xi_i(w, b) (the loss above) of the averaged model over the whole training set.

#include "core/data/dataset.h"
#include "core/learners/fit_result.h"
#include "core/util/run_control.h"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace fdlab {

enum class DekelShamirLpMethod { Simplex, InteriorPoint, ConstraintGeneration, ActiveSet, StructuredInteriorPoint };
enum class DekelShamirLpProblem { Lp4, Lp3 };

const char* toString(DekelShamirLpMethod m);
const char* toString(DekelShamirLpProblem p);

struct DekelShamirLpParams {
    /// Margin gamma > 0. Default 1.
    double gamma = 1.0;
    /// Box ||w||_inf <= C, C > 0. Default 1.
    double C = 1.0;
    /// Deletion budget N in [0, V), V = total feature value. Default 0 (no deletion).
    double N = 0.0;
    /// v_j from the dataset's importance values (true) or all 1 (false). Default true.
    bool useImportance = true;
    /// Bias boxed to [-C, C] (true) or free (false). Default false.
    bool boxBias = false;
    /// Solution method. Default StructuredInteriorPoint.
    DekelShamirLpMethod method = DekelShamirLpMethod::StructuredInteriorPoint;
    /// Which LP to solve: Lp4 (every method) or Lp3 (ConstraintGeneration only). Default Lp4.
    DekelShamirLpProblem problem = DekelShamirLpProblem::Lp4;
    /// Simplex method only: dual simplex instead of primal. Default false (primal).
    bool dualSimplex = false;
    /// Bagging: number of chunks, 0 = off (train on everything at once). Default 0.
    int chunks = 0;
    /// GLPK presolver for the full LP (Simplex). Default false.
    bool presolve = false;
    /// GLPK automatic scaling. Default true.
    bool scaling = true;
    /// Eliminate alpha_ij where x_ij = 0 (exact, see above). Default true.
    bool reduceZeros = true;
    /// ActiveSet / ConstraintGeneration: a row or cut is added when violated by more than this
    /// (> 0). Default 1e-7.
    double tolerance = 1e-7;
    /// Seed of the bagging shuffle and of ActiveSet's example order. Default 1.
    std::uint64_t seed = 1;
    /// Rounds (ActiveSet, ConstraintGeneration) or simplex iterations (Simplex); 0 = no limit.
    /// Default 0.
    long maxIterations = 0;
    /// Wall-clock limit in seconds, 0 = none. Default 0. (Interior point cannot be interrupted.)
    double timeLimit = 0.0;
    /// StructuredInteriorPoint: relative duality gap and infeasibility at which it stops, in
    /// (0, 1e-2]. Default 1e-8.
    double ipmTolerance = 1e-8;
    /// StructuredInteriorPoint: the reduced (w, b) Newton system is factored densely up to this
    /// many features and solved by preconditioned conjugate gradients above (see
    /// dekel_shamir_ipm.h). Default 3000; >= 0 (0: always conjugate gradients).
    int ipmDenseMaxFeatures = 3000;
    /// StructuredInteriorPoint above ipmDenseMaxFeatures: conjugate-gradient steps per Newton
    /// solve at most. Default 2000; >= 1.
    int ipmCgMaxIterations = 2000;
    /// StructuredInteriorPoint above ipmDenseMaxFeatures: the block preconditioner's size (the
    /// most frequent features, dekel_shamir_ipm.h). Default 500; in [0, 4000] (0: Jacobi alone).
    int ipmCgBlockFeatures = 500;

    /// Throws std::invalid_argument naming the field. N < V is checked by fit, which knows V.
    void validate() const;
};

/// The adversary of Dekel & Shamir against a linear model, and the per-example loss
///     xi_i(w, b) = [ gamma V(J*)/P - y_i (b + sum_{j in J*} w_j x_ij) ]_+
/// with J* the kept set the oracle picks (see the header comment).
class DekelShamirAdversary {
public:
    enum class Oracle {
        Exact,       ///< 0/1 knapsack: sorting (equal v_j) or DP (integer v_j up to scaling)
        Fractional,  ///< fractional knapsack: LP (4)'s relaxation
        Greedy       ///< sorting (equal v_j) or greedy by ratio; a lower bound on Exact
    };

    /// Throws std::invalid_argument if N is not in [0, V) or gamma <= 0.
    DekelShamirAdversary(const Dataset& d, double gamma, double N, bool useImportance);

    struct Worst {
        double value = 0.0;          ///< gamma V(J)/P - y (b + sum_J w x) before the [.]_+
        double loss = 0.0;           ///< max(value, 0)
        std::vector<int> deleted;    ///< S, increasing feature indices, taken whole
        int fractionalItem = -1;     ///< Fractional: feature deleted in part, else -1
        double fraction = 0.0;       ///< its deleted fraction
    };

    /// Worst case for row i. Exact throws std::invalid_argument when the values are not
    /// integers even after scaling by 10, 100 or 1000 (or the DP would exceed 10^7 cells).
    Worst worst(int i, const Eigen::VectorXd& w, double b, Oracle o) const;
    /// (1/m) sum_i loss_i.
    double averageLoss(const Eigen::VectorXd& w, double b, Oracle o) const;

    const std::vector<double>& values() const { return m_v; }
    double totalValue() const { return m_V; }
    double P() const { return m_P; }
    bool equalValues() const { return m_equal; }
    /// Scale making the values integers for the DP, 0 when none of 1, 10, 100, 1000 works.
    double dpScale() const { return m_dpScale; }

private:
    const Dataset* m_d;
    double m_gamma, m_N;
    std::vector<double> m_v;
    double m_V = 0.0, m_P = 0.0;
    bool m_equal = true;
    double m_dpScale = 0.0;
};

/// Trains on a binary dataset. Throws std::invalid_argument for bad params, a non-binary or
/// empty dataset, or problem = Lp3 with a method other than ConstraintGeneration.
FitResult fitDekelShamirLp(const Dataset& train, const DekelShamirLpParams& p, const RunControl& rc = {});

}  // namespace fdlab
