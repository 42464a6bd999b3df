#pragma once
// A small RAII wrapper over GLPK 5 for the linear programs FDLab builds (Dekel-Shamir LP (3)
// by constraint generation, LP (4) in full):
//
//     min (or max)  c . x + c0   s.t.  lo_r <= a_r . x <= hi_r  (rows),  l_j <= x_j <= u_j,
//
// built column by column and row by row with sparse coefficients, solved with primal or dual
// simplex (optionally GLPK's presolver and automatic scaling) or the interior-point method.
// Rows can be added (and basic rows deleted) after a solve; the next simplex solve starts from
// the previous basis (a warm start: rows added with a basic slack keep the basis valid and dual
// feasible, which is what dual simplex wants after adding cutting planes).
//
// GLPK never writes to the terminal from here: while a solve runs, a terminal hook routes its
// text to LpSolveOptions::onMessage (or drops it). Never route solver output to /dev/null
// through glpsol-style file options: a run with `glpsol -o /dev/null` once turned /dev/null into
// a regular file on the build machine (spec, "Measured").
//
// Limits and cancellation. GLPK's simplex has no user callback, so a simplex solve without
// presolve runs in slices of LpSolveOptions::pollIterations simplex iterations (GLPK's it_lim)
// and resumes from the basis it reached, checking shouldStop() and the overall time limit
// between slices. Slices are counted in iterations, not seconds, so that the pivoting path (and
// hence which of several optimal vertices is returned) does not depend on the machine's load;
// the time limit itself (GLPK's tm_lim) is the only wall-clock cut. With
// presolve on, a stopped run cannot be resumed (the presolved basis is lost), so it is one call
// with the overall time limit and cancellation is only seen afterwards. The interior-point
// solver takes no limits at all in GLPK 5: it runs to the end.
//
// GLPK aborts the process on invalid arguments (glp_error), so every index and bound is checked
// here first and bad input throws std::invalid_argument instead.

#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

struct glp_prob;  // GLPK's problem object (glpk.h stays out of the public header)

namespace fdlab {

inline constexpr double kLpInf = std::numeric_limits<double>::infinity();

enum class LpMethod { PrimalSimplex, DualSimplex, InteriorPoint };

enum class LpStatus { Optimal, Infeasible, Unbounded, IterationLimit, TimeLimit, Cancelled, Failed };

const char* toString(LpStatus s);

struct LpSolveOptions {
    /// Algorithm. Default PrimalSimplex. DualSimplex falls back to primal if dual fails
    /// (GLPK's GLP_DUALP).
    LpMethod method = LpMethod::PrimalSimplex;
    /// GLPK's LP presolver (simplex only). Default off: it discards the warm-start basis.
    bool presolve = false;
    /// Equilibration scaling (glp_scale_prob(GLP_SF_AUTO)) before the solve. Default on.
    bool scaling = true;
    /// Dual simplex: GLPK's long-step ("flip-flop") ratio test, which passes over many boxed
    /// variables per iteration. Default true.
    bool longStep = true;
    /// Simplex iteration limit, 0 = none. Default 0.
    long iterationLimit = 0;
    /// Wall-clock limit in seconds for this solve, 0 = none. Default 0.
    double timeLimit = 0.0;
    /// Simplex iterations per slice between cancellation checks (> 0). Default 2000.
    long pollIterations = 2000;
    /// Polled between simplex slices; returning true stops the solve (LpStatus::Cancelled).
    std::function<bool()> shouldStop;
    /// Receives GLPK's text output (one chunk per call, usually a line). Empty = silent.
    std::function<void(const std::string&)> onMessage;
    /// GLPK message level when onMessage is set: 1 errors only, 2 normal, 3 all. Default 2.
    int messageLevel = 2;
};

struct LpSolveReport {
    LpStatus status = LpStatus::Failed;
    double objective = 0.0;    ///< objective at the returned point (meaningful when Optimal)
    long iterations = 0;       ///< simplex iterations in this solve (0 for interior point)
    double seconds = 0.0;
    std::string message;       ///< e.g. "optimal", "GLPK simplex: singular basis (code 2)"

    bool optimal() const { return status == LpStatus::Optimal; }
};

class GlpkLp {
public:
    enum class Sense { Minimize, Maximize };

    explicit GlpkLp(Sense sense = Sense::Minimize);
    ~GlpkLp();
    GlpkLp(const GlpkLp&) = delete;
    GlpkLp& operator=(const GlpkLp&) = delete;
    GlpkLp(GlpkLp&& other) noexcept;
    GlpkLp& operator=(GlpkLp&& other) noexcept;

    int rows() const;
    int columns() const;

    /// Appends `count` columns with bounds [lower, upper] (+-kLpInf for none) and cost `cost`.
    /// Returns the 0-based index of the first one.
    int addColumns(int count, double lower, double upper, double cost = 0.0);
    int addColumn(double lower, double upper, double cost = 0.0) { return addColumns(1, lower, upper, cost); }
    /// Appends one column with bounds, cost and coefficients vals[k] in existing rows rows[k]
    /// (zeros dropped; duplicate or out-of-range rows throw). The column is non-basic at a bound,
    /// so an existing basis stays valid (and dual feasible when its reduced cost is >= 0).
    int addColumn(double lower, double upper, double cost, std::span<const int> rows, std::span<const double> vals);
    void setColumnBounds(int j, double lower, double upper);
    void setCost(int j, double cost);
    void setObjectiveConstant(double c0);

    /// Appends a row lower <= sum_k vals[k] x_{cols[k]} <= upper (+-kLpInf for none). Zero
    /// coefficients are dropped; duplicate or out-of-range columns throw. The new row's slack is
    /// basic, so an existing basis stays valid. Returns the row's 0-based index.
    int addRow(std::span<const int> cols, std::span<const double> vals, double lower, double upper);
    /// Deletes rows (0-based, any order, no duplicates). Rows after them move down. Deleting
    /// only rows whose slack is basic (rowIsBasic) keeps the basis valid for a warm start.
    void deleteRows(std::span<const int> rowIndices);

    /// Deletes columns (0-based, any order, no duplicates); later columns move down. Deleting
    /// only non-basic columns keeps the basis valid (together with as many basic rows).
    void deleteColumns(std::span<const int> columnIndices);

    /// Solves with the current basis as the starting point (simplex) or from scratch (interior
    /// point). Never throws for solver trouble: see the report's status and message.
    LpSolveReport solve(const LpSolveOptions& options = {});

    /// Results of the last solve (simplex or interior point, whichever ran last).
    double objective() const;
    double value(int j) const;
    std::vector<double> values() const;
    double rowActivity(int r) const;
    /// Dual value (shadow price) of row r.
    double rowDual(int r) const;
    /// Reduced cost of column j.
    double reducedCost(int j) const;
    /// True when row r's slack is basic in the current simplex basis (the row is not binding).
    bool rowIsBasic(int r) const;
    /// True when column j is basic in the current simplex basis.
    bool columnIsBasic(int j) const;

private:
    void checkColumn(int j, const char* where) const;
    void checkRow(int r, const char* where) const;

    glp_prob* m_lp = nullptr;
    bool m_lastInterior = false;
    std::vector<int> m_ind;        // 1-based scratch for GLPK calls
    std::vector<double> m_val;
    std::vector<int> m_mark;       // duplicate-column check
};

}  // namespace fdlab
