#include "core/learners/dekel_shamir_lp.h"

#include "core/util/param_check.h"

#include "core/learners/dekel_shamir_ipm.h"
#include "core/solvers/glpk_lp.h"
#include "core/solvers/knapsack.h"
#include "core/util/rng.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_set>

namespace fdlab {

const char* toString(DekelShamirLpMethod m) {
    switch (m) {
    case DekelShamirLpMethod::Simplex: return "simplex";
    case DekelShamirLpMethod::InteriorPoint: return "interior point";
    case DekelShamirLpMethod::ConstraintGeneration: return "constraint generation";
    case DekelShamirLpMethod::ActiveSet: return "active set";
    case DekelShamirLpMethod::StructuredInteriorPoint: return "structured interior point";
    }
    return "?";
}

const char* toString(DekelShamirLpProblem p) {
    switch (p) {
    case DekelShamirLpProblem::Lp4: return "LP (4)";
    case DekelShamirLpProblem::Lp3: return "LP (3)";
    }
    return "?";
}

namespace {

std::string num(double x) { return formatParam(x); }

[[noreturn]] void bad(const std::string& field, const std::string& what) { invalidParam("DekelShamirLpParams", field, what); }

}  // namespace

void DekelShamirLpParams::validate() const {
    if (!(gamma > 0.0) || !std::isfinite(gamma)) bad("gamma", "= " + num(gamma) + " must be a finite number > 0");
    if (!(C > 0.0) || !std::isfinite(C)) bad("C", "= " + num(C) + " must be a finite number > 0");
    if (!(N >= 0.0) || !std::isfinite(N)) bad("N", "= " + num(N) + " must be a finite number >= 0");
    if (chunks < 0) bad("chunks", "= " + std::to_string(chunks) + " must be >= 0 (0 = no bagging)");
    if (!(tolerance > 0.0) || !std::isfinite(tolerance)) bad("tolerance", "= " + num(tolerance) + " must be > 0");
    if (maxIterations < 0) bad("maxIterations", "= " + std::to_string(maxIterations) + " must be >= 0");
    if (!(timeLimit >= 0.0) || !std::isfinite(timeLimit)) bad("timeLimit", "= " + num(timeLimit) + " must be >= 0");
    if (!(ipmTolerance > 0.0 && ipmTolerance <= 1e-2)) bad("ipmTolerance", "= " + num(ipmTolerance) + " must be in (0, 1e-2]");
    if (ipmCgBlockFeatures < 0 || ipmCgBlockFeatures > kMaxCgBlockFeatures)
        bad("ipmCgBlockFeatures", "= " + std::to_string(ipmCgBlockFeatures) + " must be in [0, " +
                                      std::to_string(kMaxCgBlockFeatures) + "]");
    if (ipmCgMaxIterations < 1) bad("ipmCgMaxIterations", "= " + std::to_string(ipmCgMaxIterations) + " must be >= 1");
    if (ipmDenseMaxFeatures < 0)
        bad("ipmDenseMaxFeatures", "= " + std::to_string(ipmDenseMaxFeatures) + " must be >= 0");
    if (problem == DekelShamirLpProblem::Lp3 && method != DekelShamirLpMethod::ConstraintGeneration)
        bad("problem", "= LP (3) is only solved by method = ConstraintGeneration");
}

// ---------------------------------------------------------------------------------------------
// The adversary

DekelShamirAdversary::DekelShamirAdversary(const Dataset& d, double gamma, double N, bool useImportance)
    : m_d(&d), m_gamma(gamma), m_N(N) {
    const auto n = static_cast<std::size_t>(d.features());
    if (useImportance && d.importance.size() == n)
        m_v = d.importance;
    else
        m_v.assign(n, 1.0);
    m_V = std::accumulate(m_v.begin(), m_v.end(), 0.0);
    if (!(gamma > 0.0)) throw std::invalid_argument("gamma = " + num(gamma) + " must be > 0");
    if (!(N >= 0.0 && N < m_V))
        throw std::invalid_argument("N = " + num(N) + " must be in [0, V) where V = " + num(m_V) +
                                    " is the total feature value");
    m_P = m_V - N;
    for (double v : m_v)
        if (v != m_v.front()) m_equal = false;
    for (double s : {1.0, 10.0, 100.0, 1000.0})   // the knapsack DP's own grid test (a value of 0 units is no price)
        if (dpAccepts(m_v, N, s)) {
            m_dpScale = s;
            break;
        }
}

DekelShamirAdversary::Worst DekelShamirAdversary::worst(int i, const Eigen::VectorXd& w, double b, Oracle o) const {
    const Dataset& d = *m_d;
    const double y = d.y(i);
    Worst out;
    // Candidates: only features with q_j = y w_j x_j - gamma v_j / P > 0 can be worth deleting,
    // and q_j < 0 wherever x_j = 0.
    std::vector<int> idx;
    std::vector<double> q, wt;
    double wx = 0.0;
    d.forEachNonZero(i, [&](int j, float xf) {
        const double x = xf;
        const double yw = y * w(j) * x;
        wx += w(j) * x;
        const double qj = yw - m_gamma * m_v[static_cast<std::size_t>(j)] / m_P;
        if (qj > 0.0) {
            idx.push_back(j);
            q.push_back(qj);
            wt.push_back(m_v[static_cast<std::size_t>(j)]);
        }
    });
    double damage = 0.0;
    if (!q.empty()) {
        KnapsackResult k;
        if (m_equal && o != Oracle::Fractional) {
            k = topKProfits(q, static_cast<int>(std::floor(m_N / m_v.front() + 1e-9)));
        } else if (o == Oracle::Greedy) {
            k = greedyKnapsack(q, wt, m_N);
        } else if (o == Oracle::Fractional) {
            k = fractionalKnapsack(q, wt, m_N);
        } else {
            if (m_dpScale <= 0.0)
                throw std::invalid_argument(
                    "the exact adversary (LP (3)) needs feature values that are integers after scaling by 1, 10, "
                    "100 or 1000");
            k = exactKnapsack(q, wt, std::floor(m_N * m_dpScale + 1e-9) / m_dpScale, m_dpScale);
        }
        for (int c : k.chosen) {
            damage += q[static_cast<std::size_t>(c)];
            out.deleted.push_back(idx[static_cast<std::size_t>(c)]);
        }
        if (k.fractionalItem >= 0 && k.fraction > 0.0) {
            out.fractionalItem = idx[static_cast<std::size_t>(k.fractionalItem)];
            out.fraction = k.fraction;
            damage += k.fraction * q[static_cast<std::size_t>(k.fractionalItem)];
        }
        std::sort(out.deleted.begin(), out.deleted.end());
    }
    out.value = m_gamma * m_V / m_P - y * (b + wx) + damage;
    out.loss = std::max(out.value, 0.0);
    return out;
}

double DekelShamirAdversary::averageLoss(const Eigen::VectorXd& w, double b, Oracle o) const {
    const int m = m_d->rows();
    if (m == 0) return 0.0;
    double s = 0.0;
    for (int i = 0; i < m; ++i) s += worst(i, w, b, o).loss;
    return s / m;
}

// ---------------------------------------------------------------------------------------------
// Solvers

namespace {

struct SolveOut {
    Eigen::VectorXd w;
    double b = 0.0;
    double objective = 0.0;
    double gap = -1.0;
    long iterations = 0;
    Status status = Status::Failed;
    std::string message;
};

Status fromLp(LpStatus s) {
    switch (s) {
    case LpStatus::Optimal: return Status::Converged;
    case LpStatus::IterationLimit:
    case LpStatus::TimeLimit: return Status::MaxIterations;
    case LpStatus::Cancelled: return Status::Cancelled;
    default: return Status::Failed;
    }
}

DekelShamirAdversary::Oracle oracleFor(const DekelShamirLpParams& p) {
    return p.problem == DekelShamirLpProblem::Lp3 ? DekelShamirAdversary::Oracle::Exact
                                                  : DekelShamirAdversary::Oracle::Fractional;
}

void readModel(const GlpkLp& lp, int n, double C, SolveOut& out) {
    out.w.resize(n);
    // Basic variables of an interrupted simplex may sit outside their bounds: clip to the box.
    for (int j = 0; j < n; ++j) out.w(j) = std::clamp(lp.value(j), -C, C);
    out.b = lp.value(n);
}

// LP (4) in full (alpha_ij eliminated where x_ij = 0 when p.reduceZeros).
// Columns: w_0..w_{n-1}, b, xi_0..xi_{m-1}, lambda_0..lambda_{m-1}, alphas.
SolveOut solveFull(const Dataset& d, const DekelShamirAdversary& adv, const DekelShamirLpParams& p,
                   const RunControl& rc, double timeLimit) {
    const int m = d.rows(), n = d.features();
    const double P = adv.P(), g = p.gamma;
    const auto& v = adv.values();
    GlpkLp lp;
    lp.addColumns(n, -p.C, p.C);
    const int bCol = lp.addColumn(p.boxBias ? -p.C : -kLpInf, p.boxBias ? p.C : kLpInf);
    const int xi0 = lp.addColumns(m, 0.0, kLpInf, 1.0 / m);
    const int la0 = lp.addColumns(m, 0.0, kLpInf);
    long alphas = 0;
    for (int i = 0; i < m; ++i) alphas += p.reduceZeros ? d.nonZeros(i) : n;
    int alpha = alphas > 0 ? lp.addColumns(static_cast<int>(alphas), 0.0, kLpInf) : 0;

    std::vector<int> cols;
    std::vector<double> vals;
    std::vector<std::pair<int, double>> nz;
    for (int i = 0; i < m; ++i) {
        if (rc.cancelled()) return {Eigen::VectorXd::Zero(n), 0.0, 0.0, -1.0, 0, Status::Cancelled, "cancelled"};
        const double y = d.y(i);
        nz.clear();
        if (p.reduceZeros) {
            d.forEachNonZero(i, [&](int j, float x) { nz.emplace_back(j, static_cast<double>(x)); });
        } else {
            for (int j = 0; j < n; ++j) nz.emplace_back(j, static_cast<double>(d.value(i, j)));
        }
        double Z = adv.totalValue();
        for (const auto& [j, x] : nz) Z -= v[static_cast<std::size_t>(j)];
        if (!p.reduceZeros) Z = 0.0;
        // Row i: (P - Z_i) lambda_i - sum alpha_ij + y_i b + xi_i >= gamma Z_i / P.
        cols = {la0 + i, bCol, xi0 + i};
        vals = {P - Z, y, 1.0};
        for (std::size_t k = 0; k < nz.size(); ++k) {
            cols.push_back(alpha + static_cast<int>(k));
            vals.push_back(-1.0);
        }
        lp.addRow(cols, vals, g * Z / P, kLpInf);
        // Rows (i, j): y_i x_ij w_j - v_j lambda_i + alpha_ij >= gamma v_j / P.
        for (std::size_t k = 0; k < nz.size(); ++k) {
            const auto [j, x] = nz[k];
            const double vj = v[static_cast<std::size_t>(j)];
            const int c[3] = {j, la0 + i, alpha + static_cast<int>(k)};
            const double a[3] = {y * x, -vj, 1.0};
            lp.addRow(c, a, g * vj / P, kLpInf);
        }
        alpha += static_cast<int>(nz.size());
    }

    LpSolveOptions o;
    o.method = p.method == DekelShamirLpMethod::InteriorPoint
                   ? LpMethod::InteriorPoint
                   : (p.dualSimplex ? LpMethod::DualSimplex : LpMethod::PrimalSimplex);
    o.presolve = p.presolve;
    o.scaling = p.scaling;
    o.iterationLimit = p.maxIterations;
    o.timeLimit = timeLimit;
    o.shouldStop = [&rc] { return rc.cancelled(); };
    rc.report(-1.0, 0, "solving LP (4): " + std::to_string(lp.columns()) + " columns, " + std::to_string(lp.rows()) +
                           " rows (" + toString(p.method) + ")");
    const LpSolveReport rep = lp.solve(o);

    SolveOut out;
    out.status = fromLp(rep.status);
    out.iterations = rep.iterations;
    out.message = std::string(toString(p.method)) + ": " + rep.message;
    if (rep.status == LpStatus::Failed || rep.status == LpStatus::Infeasible || rep.status == LpStatus::Unbounded) {
        out.w = Eigen::VectorXd::Zero(n);
        out.status = Status::Failed;
        return out;
    }
    readModel(lp, n, p.C, out);
    out.objective = rep.optimal() ? rep.objective
                                  : adv.averageLoss(out.w, out.b, DekelShamirAdversary::Oracle::Fractional);
    rc.report(1.0, rep.iterations, "LP (4) value " + num(out.objective));
    return out;
}

std::uint64_t cutHash(const DekelShamirAdversary::Worst& w) {
    std::uint64_t h = 1469598103934665603ULL;
    auto mix = [&h](std::uint64_t x) {
        for (int k = 0; k < 8; ++k) {
            h ^= (x >> (8 * k)) & 0xff;
            h *= 1099511628211ULL;
        }
    };
    for (int j : w.deleted) mix(static_cast<std::uint64_t>(j));
    mix(0xfffffffffULL);
    if (w.fractionalItem >= 0) {
        mix(static_cast<std::uint64_t>(w.fractionalItem));
        mix(static_cast<std::uint64_t>(std::llround(w.fraction * 1e12)));
    }
    return h;
}

// Constraint generation on the kept-set form (LP (3) with the exact oracle, LP (4) with the
// fractional one). Columns: w_0..w_{n-1}, b, xi_0..xi_{m-1}; one row per cut.
SolveOut solveCuts(const Dataset& d, const DekelShamirAdversary& adv, const DekelShamirLpParams& p,
                   const RunControl& rc, double timeLimit) {
    const int m = d.rows(), n = d.features();
    const double P = adv.P(), g = p.gamma;
    const auto& v = adv.values();
    const auto oracle = oracleFor(p);
    Stopwatch clock;

    GlpkLp lp;
    lp.addColumns(n, -p.C, p.C);
    const int bCol = lp.addColumn(p.boxBias ? -p.C : -kLpInf, p.boxBias ? p.C : kLpInf);
    const int xi0 = lp.addColumns(m, 0.0, kLpInf, 1.0 / m);

    std::vector<std::unordered_set<std::uint64_t>> seen(static_cast<std::size_t>(m));
    std::vector<char> inS(static_cast<std::size_t>(n), 0);
    std::vector<int> cols;
    std::vector<double> vals;
    // Cut of example i for kept weights tau (1 outside S, 0 in S, 1 - f on the fractional item):
    //     y_i b + sum_j tau_j y_i x_ij w_j + xi_i >= gamma (sum_j tau_j v_j) / P.
    auto addCut = [&](int i, const DekelShamirAdversary::Worst& W) {
        const double y = d.y(i);
        double keptValue = adv.totalValue();
        for (int j : W.deleted) {
            inS[static_cast<std::size_t>(j)] = 1;
            keptValue -= v[static_cast<std::size_t>(j)];
        }
        if (W.fractionalItem >= 0) keptValue -= W.fraction * v[static_cast<std::size_t>(W.fractionalItem)];
        cols = {bCol, xi0 + i};
        vals = {y, 1.0};
        d.forEachNonZero(i, [&](int j, float x) {
            if (inS[static_cast<std::size_t>(j)]) return;
            const double tau = j == W.fractionalItem ? 1.0 - W.fraction : 1.0;
            cols.push_back(j);
            vals.push_back(tau * y * x);
        });
        for (int j : W.deleted) inS[static_cast<std::size_t>(j)] = 0;
        lp.addRow(cols, vals, g * keptValue / P, kLpInf);
        seen[static_cast<std::size_t>(i)].insert(cutHash(W));
    };

    // Start: each example's worst case at w = 0, b = 0 (nothing is worth deleting: J = [n]).
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
    for (int i = 0; i < m; ++i) addCut(i, adv.worst(i, zero, 0.0, oracle));

    LpSolveOptions o;
    o.method = LpMethod::DualSimplex;
    o.presolve = false;  // it would discard the warm-start basis
    o.scaling = p.scaling;
    o.shouldStop = [&rc] { return rc.cancelled(); };

    SolveOut out;
    out.w = zero;
    long totalSimplex = 0;
    for (long round = 1;; ++round) {
        if (timeLimit > 0) {
            o.timeLimit = timeLimit - clock.seconds();
            if (o.timeLimit <= 0) {
                out.status = Status::MaxIterations;
                out.message = "constraint generation: time limit reached";
                return out;
            }
        }
        const LpSolveReport rep = lp.solve(o);
        totalSimplex += rep.iterations;
        out.iterations = round;
        if (!rep.optimal()) {
            out.status = fromLp(rep.status);
            out.message = "constraint generation, round " + std::to_string(round) + ": " + rep.message;
            // Keep the previous round's model (w = 0 in round 1) and report its own loss.
            if (out.status != Status::Failed) out.objective = adv.averageLoss(out.w, out.b, oracle);
            return out;
        }
        const double lower = rep.objective;
        readModel(lp, n, p.C, out);

        // Separation: the adversary's best deletion is example i's most violated cut.
        int added = 0, stale = 0;
        double upper = 0.0, maxViolation = 0.0;
        for (int i = 0; i < m; ++i) {
            const auto W = adv.worst(i, out.w, out.b, oracle);
            upper += W.loss;
            const double violation = W.value - lp.value(xi0 + i);
            maxViolation = std::max(maxViolation, violation);
            if (violation <= p.tolerance) continue;
            if (seen[static_cast<std::size_t>(i)].count(cutHash(W))) {
                ++stale;  // already in the LP: violated only within GLPK's feasibility tolerance
                continue;
            }
            addCut(i, W);
            ++added;
        }
        upper /= m;
        out.objective = lower;
        out.gap = std::max(0.0, upper - lower);
        rc.report(-1.0, round,
                  "round " + std::to_string(round) + ": LP value " + num(lower) + ", loss of model " + num(upper) +
                      ", +" + std::to_string(added) + " cuts (" + std::to_string(lp.rows()) + " rows)");
        if (added == 0) {
            out.status = Status::Converged;
            out.message = "constraint generation: " + std::to_string(round) + " rounds, " +
                          std::to_string(lp.rows()) + " cuts, " + std::to_string(totalSimplex) +
                          " simplex iterations, max violation " + num(maxViolation) +
                          (stale ? " (" + std::to_string(stale) + " within GLPK's tolerance)" : std::string());
            return out;
        }
        // Not converged: the returned model's own objective is its loss (an upper bound).
        out.objective = upper;
        if (p.maxIterations > 0 && round >= p.maxIterations) {
            out.status = Status::MaxIterations;
            out.message = "constraint generation: " + std::to_string(round) + " rounds, gap " + num(out.gap);
            return out;
        }
        if (rc.cancelled()) {
            out.status = Status::Cancelled;
            out.message = "cancelled after " + std::to_string(round) + " rounds";
            return out;
        }
    }
}

// LP (4) in its "sum of the top N" form, with the hinge variables generated as needed.
// Substituting alpha_ij = lambda_i v_j - q_ij + beta_ij in LP (4) (beta_ij = [q_ij - lambda_i v_j]_+
// at an optimum) gives, with q_ij = y_i w_j x_ij - gamma v_j / P,
//     row i:      y_i (b + w.x_i) - N lambda_i - sum_j beta_ij + xi_i >= gamma V / P
//     row (i, j): beta_ij >= q_ij - lambda_i v_j,   beta_ij >= 0.
// Where x_ij = 0, q_ij < 0 and row (i, j) holds with beta_ij = 0: it is dropped (the same
// reduction as solveFull's). Of the others, only pixels the adversary would (fractionally)
// delete have beta_ij > 0: about N / v per example. So rows (i, j) enter only when violated:
// each round adds, per example, the most violated pixels (q_ij - lambda_i v_j > tolerance with no
// beta_ij yet) as a new row and column, and re-solves by dual simplex from the previous basis
// (the new row's slack is basic and the new column is non-basic with reduced cost 0, so the
// basis stays valid and dual feasible).
// Examples enter in stages too (100, then doubling; order shuffled with the seed): a new
// example's row i has a basic slack and its xi_i, lambda_i columns already exist (cost 1/m from
// the start), so the basis stays valid again; its first hinge rows are the pixels the adversary
// would delete against the current (w, b), which by then is close to the final one. Leaving
// rows out only relaxes the LP, so when every example is in and nothing is violated, the
// solution is feasible for the full LP (4) and optimal for a relaxation of it: LP (4)'s optimum.
SolveOut solveActiveSet(const Dataset& d, const DekelShamirAdversary& adv, const DekelShamirLpParams& p,
                        const RunControl& rc, double timeLimit) {
    const int m = d.rows(), n = d.features();
    const double P = adv.P(), g = p.gamma, V = adv.totalValue();
    const auto& v = adv.values();
    Stopwatch clock;

    GlpkLp lp;
    lp.addColumns(n, -p.C, p.C);
    const int bCol = lp.addColumn(p.boxBias ? -p.C : -kLpInf, p.boxBias ? p.C : kLpInf);
    const int xi0 = lp.addColumns(m, 0.0, kLpInf, 1.0 / m);
    const int la0 = lp.addColumns(m, 0.0, kLpInf);
    std::vector<int> rowOf(static_cast<std::size_t>(m), -1);
    std::vector<int> cols;
    std::vector<double> vals;
    // Per round and example, at most this many new pixels: a little more than the adversary can
    // delete, so that one round can complete an example's active set.
    const double vMin = *std::min_element(v.begin(), v.end());
    const std::size_t cap = static_cast<std::size_t>(std::max(8.0, std::ceil(p.N / vMin) + 4.0));
    std::vector<char> active(static_cast<std::size_t>(m) * static_cast<std::size_t>(n), 0);
    long betas = 0;
    std::vector<std::pair<double, int>> cand;
    struct Hinge {
        int i, j, row, col;
    };
    std::vector<Hinge> hinges;

    // Drops the hinge rows that are not binding (basic slack, beta_ij non-basic at 0): early
    // rounds add many pixels that the final model does not need, and every row costs in each
    // simplex iteration. The basis stays valid (one basic slack leaves with each row) and dual
    // feasible (the dual value of a non-binding row is 0). Returns how many were dropped.
    auto prune = [&]() -> long {
        std::vector<int> delRows, delCols;
        std::vector<Hinge> kept;
        for (const Hinge& h : hinges) {
            if (lp.rowIsBasic(h.row) && !lp.columnIsBasic(h.col) && lp.value(h.col) == 0.0) {
                delRows.push_back(h.row);
                delCols.push_back(h.col);
                active[static_cast<std::size_t>(h.i) * static_cast<std::size_t>(n) + static_cast<std::size_t>(h.j)] = 0;
            } else {
                kept.push_back(h);
            }
        }
        if (delRows.empty()) return 0;
        lp.deleteRows(delRows);
        lp.deleteColumns(delCols);
        // GLPK renumbers what follows a deleted row or column.
        std::sort(delRows.begin(), delRows.end());
        std::sort(delCols.begin(), delCols.end());
        auto shift = [](const std::vector<int>& del, int x) {
            return x - static_cast<int>(std::lower_bound(del.begin(), del.end(), x) - del.begin());
        };
        for (int& r : rowOf)
            if (r >= 0) r = shift(delRows, r);
        for (Hinge& h : kept) {
            h.row = shift(delRows, h.row);
            h.col = shift(delCols, h.col);
        }
        hinges = std::move(kept);
        betas = static_cast<long>(hinges.size());
        return static_cast<long>(delRows.size());
    };

    // Adds the most violated missing hinge rows of example i at (w, lambda_i); returns how many.
    auto separate = [&](int i, const Eigen::VectorXd& w, double lambda, double& maxViolation) {
        const double y = d.y(i);
        char* act = active.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(n);
        cand.clear();
        d.forEachNonZero(i, [&](int j, float x) {
            if (act[j]) return;
            const double vj = v[static_cast<std::size_t>(j)];
            const double viol = y * w(j) * x - g * vj / P - lambda * vj;
            if (viol > p.tolerance) cand.emplace_back(viol, j);
        });
        if (cand.size() > cap) {
            std::nth_element(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(cap), cand.end(),
                             [](const auto& a, const auto& b) { return a.first > b.first; });
            cand.resize(cap);
        }
        for (const auto& [viol, j] : cand) {
            maxViolation = std::max(maxViolation, viol);
            const double vj = v[static_cast<std::size_t>(j)];
            const int c[2] = {j, la0 + i};
            const double a[2] = {-y * static_cast<double>(d.value(i, j)), vj};
            const int r = lp.addRow(c, a, -g * vj / P, kLpInf);
            const int rr[2] = {rowOf[static_cast<std::size_t>(i)], r};
            const double av[2] = {-1.0, 1.0};
            const int col = lp.addColumn(0.0, kLpInf, 0.0, rr, av);
            hinges.push_back({i, j, r, col});
            act[j] = 1;
        }
        betas += static_cast<long>(cand.size());
        return static_cast<long>(cand.size());
    };

    std::vector<int> order(static_cast<std::size_t>(m));
    std::iota(order.begin(), order.end(), 0);
    const int firstStage = 100;
    if (m > firstStage) {
        Rng rng(p.seed);
        rng.shuffle(order);
    }

    LpSolveOptions o;
    o.method = LpMethod::DualSimplex;
    o.presolve = false;
    o.scaling = p.scaling;
    o.shouldStop = [&rc] { return rc.cancelled(); };

    SolveOut out;
    out.w = Eigen::VectorXd::Zero(n);
    long totalSimplex = 0, round = 0;
    int included = 0;
    while (included < m) {
        // Next stage: more examples, seeded with the adversary's deletions at the current model
        // (lambda = 0 makes every pixel with q_ij > 0 a candidate; the cap keeps the largest).
        const int target = included == 0 ? std::min(m, firstStage) : std::min(m, 2 * included);
        if (included > 0) prune();
        double unused = 0.0;
        for (int t = included; t < target; ++t) {
            const int i = order[static_cast<std::size_t>(t)];
            const double y = d.y(i);
            cols = {bCol, xi0 + i, la0 + i};
            vals = {y, 1.0, -p.N};
            d.forEachNonZero(i, [&](int j, float x) {
                cols.push_back(j);
                vals.push_back(y * x);
            });
            rowOf[static_cast<std::size_t>(i)] = lp.addRow(cols, vals, g * V / P, kLpInf);
            if (included > 0) separate(i, out.w, 0.0, unused);
        }
        included = target;

        for (;;) {
            ++round;
            if (timeLimit > 0) {
                o.timeLimit = timeLimit - clock.seconds();
                if (o.timeLimit <= 0) {
                    out.status = Status::MaxIterations;
                    out.message = "active set: time limit reached";
                    out.objective = adv.averageLoss(out.w, out.b, DekelShamirAdversary::Oracle::Fractional);
                    return out;
                }
            }
            const LpSolveReport rep = lp.solve(o);
            totalSimplex += rep.iterations;
            out.iterations = round;
            if (!rep.optimal()) {
                out.status = fromLp(rep.status);
                out.message = "active set, round " + std::to_string(round) + ": " + rep.message;
                if (out.status != Status::Failed)
                    out.objective = adv.averageLoss(out.w, out.b, DekelShamirAdversary::Oracle::Fractional);
                return out;
            }
            readModel(lp, n, p.C, out);
            long added = 0;
            double maxViolation = 0.0;
            for (int t = 0; t < included; ++t) {
                const int i = order[static_cast<std::size_t>(t)];
                added += separate(i, out.w, lp.value(la0 + i), maxViolation);
            }
            const bool last = included == m && added == 0;
            // The model's own loss on all m examples (an upper bound; equal at the optimum).
            const double upper = adv.averageLoss(out.w, out.b, DekelShamirAdversary::Oracle::Fractional);
            out.objective = last ? rep.objective : upper;
            out.gap = included == m ? std::max(0.0, upper - rep.objective) : -1.0;
            rc.report(static_cast<double>(included) / m * (added == 0 ? 1.0 : 0.9), round,
                      "round " + std::to_string(round) + " (" + std::to_string(included) + "/" + std::to_string(m) +
                          " examples): LP value " + num(rep.objective) + ", loss of model " + num(upper) + ", +" +
                          std::to_string(added) + " hinge terms (" + std::to_string(betas) + " in all)");
            if (added == 0) break;
            if (p.maxIterations > 0 && round >= p.maxIterations) {
                out.status = Status::MaxIterations;
                out.message = "active set: " + std::to_string(round) + " rounds, gap " + num(out.gap);
                out.objective = upper;
                return out;
            }
            if (rc.cancelled()) {
                out.status = Status::Cancelled;
                out.message = "cancelled after " + std::to_string(round) + " rounds";
                out.objective = upper;
                return out;
            }
        }
    }
    out.status = Status::Converged;
    out.message = "active set: " + std::to_string(round) + " rounds, " + std::to_string(betas) + " hinge terms kept (of " +
                  std::to_string(active.size()) + " pixels), " + std::to_string(totalSimplex) + " simplex iterations";
    return out;
}

// LP (4) by the structured interior-point method (dekel_shamir_ipm.h).
SolveOut solveIpm(const Dataset& d, const DekelShamirAdversary& adv, const DekelShamirLpParams& p,
                  const RunControl& rc, double timeLimit) {
    DekelShamirIpmParams ip;
    ip.tolerance = p.ipmTolerance;
    ip.timeLimit = timeLimit;
    ip.denseMaxFeatures = p.ipmDenseMaxFeatures;
    ip.cgMaxIterations = p.ipmCgMaxIterations;
    ip.cgBlockFeatures = p.ipmCgBlockFeatures;
    if (p.maxIterations > 0) ip.maxIterations = static_cast<int>(std::min(p.maxIterations, 100000L));
    const DekelShamirIpmResult r = solveDekelShamirIpm(d, adv.values(), p.gamma, p.N, p.C, p.boxBias, ip, rc);
    SolveOut out;
    out.w = r.w;
    out.b = r.b;
    out.iterations = r.iterations;
    out.status = r.status;
    out.message = r.message;
    // The model's own loss (exact, an upper bound on the optimum); the gap is measured against
    // the dual value (a lower bound up to the dual infeasibility, itself below the tolerance).
    const double upper = adv.averageLoss(out.w, out.b, DekelShamirAdversary::Oracle::Fractional);
    out.objective = r.status == Status::Converged ? r.primal : upper;
    out.gap = std::max(0.0, upper - r.dual);
    // Above ipmDenseMaxFeatures there is no exact fallback (solveWith): an interior point that
    // stalls near the optimum (the spam corpus at all 24,598 words, 4 bagged chunks: one chunk
    // at relative gap 1.9e-4 after 113 iterations) keeps its best iterate as a model that did not
    // reach the tolerance, instead of failing the whole learner. Its LP value is exact (the
    // adversary's loss of (w, b), above); the gap to the dual value is reported with it. Far from
    // the optimum (merit above kStalledButUsable) it still fails.
    constexpr double kStalledButUsable = 1e-3;
    if (r.status == Status::Failed && d.features() > p.ipmDenseMaxFeatures && r.merit <= kStalledButUsable &&
        std::isfinite(upper) && out.w.allFinite() && std::isfinite(out.b)) {
        out.status = Status::MaxIterations;
        out.message += "; its best iterate is kept as the model, short of the tolerance " + num(p.ipmTolerance) +
                       " (its LP value " + num(upper) + " is exact, and about that relative gap from the optimum)";
    }
    return out;
}

SolveOut solveWith(const Dataset& d, const DekelShamirAdversary& adv, const DekelShamirLpParams& p,
                   const RunControl& rc, double timeLimit) {
    switch (p.method) {
    case DekelShamirLpMethod::ConstraintGeneration: return solveCuts(d, adv, p, rc, timeLimit);
    case DekelShamirLpMethod::ActiveSet: return solveActiveSet(d, adv, p, rc, timeLimit);
    case DekelShamirLpMethod::StructuredInteriorPoint: {
        SolveOut s = solveIpm(d, adv, p, rc, timeLimit);
        // Above ipmDenseMaxFeatures (conjugate gradients) a failure is reported as it is: the
        // active set takes far longer there (full SpamAssassin: not finished in 300 s).
        if (s.status != Status::Failed || d.features() > p.ipmDenseMaxFeatures) return s;
        // Numerical breakdown (seen on the spam corpus with word values before the interior point
        // had centrality correctors; not seen since): the simplex route is exact.
        SolveOut a = solveActiveSet(d, adv, p, rc, timeLimit);
        a.message = s.message + "; solved by the active-set simplex instead: " + a.message;
        return a;
    }
    case DekelShamirLpMethod::Simplex:
    case DekelShamirLpMethod::InteriorPoint: break;
    }
    return solveFull(d, adv, p, rc, timeLimit);
}

SolveOut solveOne(const Dataset& d, const DekelShamirLpParams& p, const RunControl& rc, double timeLimit) {
    const DekelShamirAdversary adv(d, p.gamma, p.N, p.useImportance);
    return solveWith(d, adv, p, rc, timeLimit);
}

}  // namespace

FitResult fitDekelShamirLp(const Dataset& train, const DekelShamirLpParams& p, const RunControl& rc) {
    p.validate();
    if (!train.isBinary())
        throw std::invalid_argument("Dekel-Shamir LP: needs a binary dataset, got " +
                                    std::to_string(train.numClasses()) + " classes");
    if (train.rows() == 0) throw std::invalid_argument("Dekel-Shamir LP: empty training set");
    if (p.chunks > train.rows())
        bad("chunks", "= " + std::to_string(p.chunks) + " exceeds the " + std::to_string(train.rows()) +
                          " training examples");
    Stopwatch clock;
    // Checks N < V (naming N and V) and that LP (3) has an exact oracle, before any work.
    std::unique_ptr<DekelShamirAdversary> adv;
    try {
        adv = std::make_unique<DekelShamirAdversary>(train, p.gamma, p.N, p.useImportance);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("DekelShamirLpParams.") + e.what());
    }
    if (p.problem == DekelShamirLpProblem::Lp3 && !adv->equalValues() && adv->dpScale() <= 0.0)
        bad("problem", "= LP (3) needs feature values that are integers after scaling by 1, 10, 100 or 1000");

    FitResult r;
    if (p.chunks <= 1) {
        // One chunk is the whole set in its own order: the very same LP as no bagging.
        SolveOut s = solveOne(train, p, rc, p.timeLimit);
        r.model = LinearModel::binary(s.w, s.b, train.classNames);
        r.objective = s.objective;
        r.gap = s.gap;
        r.iterations = s.iterations;
        r.status = s.status;
        r.message = s.message;
        r.elapsed = clock.seconds();
        return r;
    }

    // Bagging: shuffled chunks of (almost) equal size, each solved alone, w and b averaged.
    std::vector<int> order(static_cast<std::size_t>(train.rows()));
    std::iota(order.begin(), order.end(), 0);
    Rng rng(p.seed);
    rng.shuffle(order);
    Eigen::VectorXd wSum = Eigen::VectorXd::Zero(train.features());
    double bSum = 0.0;
    int done = 0;
    long iterations = 0;
    Status status = Status::Converged;
    std::string message;
    const int m = train.rows();
    for (int c = 0; c < p.chunks; ++c) {
        const int lo = static_cast<int>(static_cast<long>(m) * c / p.chunks);
        const int hi = static_cast<int>(static_cast<long>(m) * (c + 1) / p.chunks);
        std::vector<int> idx(order.begin() + lo, order.begin() + hi);
        const Dataset chunk = train.subset(idx);
        double left = 0.0;
        if (p.timeLimit > 0) {
            left = p.timeLimit - clock.seconds();
            if (left <= 0) {
                status = Status::MaxIterations;
                message += std::string(message.empty() ? "" : "; ") + "time limit reached after " + std::to_string(done) + " chunks";
                break;
            }
        }
        const DekelShamirAdversary chunkAdv(chunk, p.gamma, p.N, p.useImportance);
        const RunControl quiet{{}, rc.stop};
        SolveOut s = solveWith(chunk, chunkAdv, p, quiet, left);
        iterations += s.iterations;
        if (s.status == Status::Failed) {
            r.status = Status::Failed;
            r.message = "chunk " + std::to_string(c + 1) + ": " + s.message;
            r.model = LinearModel::binary(Eigen::VectorXd::Zero(train.features()), 0.0, train.classNames);
            r.elapsed = clock.seconds();
            return r;
        }
        if (s.status == Status::Cancelled) {
            status = Status::Cancelled;
            message += std::string(message.empty() ? "" : "; ") + "cancelled in chunk " + std::to_string(c + 1);
            break;
        }
        if (s.status == Status::MaxIterations) {
            status = Status::MaxIterations;
            message += std::string(message.empty() ? "" : "; ") + "chunk " + std::to_string(c + 1) + ": " + s.message;
        }
        wSum += s.w;
        bSum += s.b;
        ++done;
        rc.report(static_cast<double>(done) / p.chunks, done,
                  "chunk " + std::to_string(done) + "/" + std::to_string(p.chunks) + ": LP value " + num(s.objective));
    }
    const Eigen::VectorXd w = done > 0 ? Eigen::VectorXd(wSum / done) : wSum;
    const double b = done > 0 ? bSum / done : 0.0;
    r.model = LinearModel::binary(w, b, train.classNames);
    r.objective = adv->averageLoss(w, b, oracleFor(p));
    r.iterations = iterations;
    r.status = status;
    r.message = "bagging: " + std::to_string(done) + " of " + std::to_string(p.chunks) + " chunks averaged" +
                (message.empty() ? std::string() : "; " + message);
    r.elapsed = clock.seconds();
    return r;
}

}  // namespace fdlab
