#include "core/solvers/glpk_lp.h"

#include "core/util/run_control.h"

#include <glpk.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace fdlab {

const char* toString(LpStatus s) {
    switch (s) {
    case LpStatus::Optimal: return "optimal";
    case LpStatus::Infeasible: return "infeasible";
    case LpStatus::Unbounded: return "unbounded";
    case LpStatus::IterationLimit: return "iteration limit";
    case LpStatus::TimeLimit: return "time limit";
    case LpStatus::Cancelled: return "cancelled";
    case LpStatus::Failed: return "failed";
    }
    return "?";
}

namespace {

// GLPK's terminal hook: forward the text to the caller's callback (never let an exception cross
// GLPK's C frames) and return 1 so that GLPK prints nothing itself.
int termHook(void* info, const char* s) {
    auto* cb = static_cast<const std::function<void(const std::string&)>*>(info);
    if (cb && *cb && s) {
        try {
            (*cb)(std::string(s));
        } catch (...) {
        }
    }
    return 1;
}

// Installs the hook for the lifetime of one solve. The hook is per GLPK environment (thread
// local in GLPK 5), so concurrent solves in other threads are unaffected.
class TermHookGuard {
public:
    explicit TermHookGuard(const std::function<void(const std::string&)>* cb) {
        glp_term_hook(termHook, const_cast<void*>(static_cast<const void*>(cb)));
    }
    ~TermHookGuard() { glp_term_hook(nullptr, nullptr); }
    TermHookGuard(const TermHookGuard&) = delete;
    TermHookGuard& operator=(const TermHookGuard&) = delete;
};

int boundType(double lo, double hi) {
    const bool hasLo = std::isfinite(lo), hasHi = std::isfinite(hi);
    if (hasLo && hasHi) return lo == hi ? GLP_FX : GLP_DB;
    if (hasLo) return GLP_LO;
    if (hasHi) return GLP_UP;
    return GLP_FR;
}

void checkBounds(double lo, double hi, const char* where) {
    if (std::isnan(lo) || std::isnan(hi) || lo == kLpInf || hi == -kLpInf || lo > hi)
        throw std::invalid_argument(std::string(where) + ": invalid bounds [" + std::to_string(lo) + ", " +
                                    std::to_string(hi) + "]");
}

std::string simplexCode(int ret) {
    switch (ret) {
    case GLP_EBADB: return "invalid initial basis";
    case GLP_ESING: return "singular basis matrix";
    case GLP_ECOND: return "ill-conditioned basis matrix";
    case GLP_EBOUND: return "incorrect bounds";
    case GLP_EFAIL: return "solver failure (empty problem?)";
    case GLP_EOBJLL: return "objective lower limit reached";
    case GLP_EOBJUL: return "objective upper limit reached";
    case GLP_ENOPFS: return "no primal feasible solution (presolver)";
    case GLP_ENODFS: return "no dual feasible solution (presolver)";
    case GLP_ENOCVG: return "no convergence";
    case GLP_EINSTAB: return "numerical instability";
    default: return "error code " + std::to_string(ret);
    }
}

}  // namespace

GlpkLp::GlpkLp(Sense sense) {
    m_lp = glp_create_prob();
    glp_set_obj_dir(m_lp, sense == Sense::Minimize ? GLP_MIN : GLP_MAX);
}

GlpkLp::~GlpkLp() {
    if (m_lp) glp_delete_prob(m_lp);
}

GlpkLp::GlpkLp(GlpkLp&& other) noexcept
    : m_lp(std::exchange(other.m_lp, nullptr)), m_lastInterior(other.m_lastInterior) {}

GlpkLp& GlpkLp::operator=(GlpkLp&& other) noexcept {
    if (this != &other) {
        if (m_lp) glp_delete_prob(m_lp);
        m_lp = std::exchange(other.m_lp, nullptr);
        m_lastInterior = other.m_lastInterior;
    }
    return *this;
}

int GlpkLp::rows() const { return glp_get_num_rows(m_lp); }
int GlpkLp::columns() const { return glp_get_num_cols(m_lp); }

void GlpkLp::checkColumn(int j, const char* where) const {
    if (j < 0 || j >= columns())
        throw std::invalid_argument(std::string(where) + ": column " + std::to_string(j) + " out of range [0, " +
                                    std::to_string(columns()) + ")");
}

void GlpkLp::checkRow(int r, const char* where) const {
    if (r < 0 || r >= rows())
        throw std::invalid_argument(std::string(where) + ": row " + std::to_string(r) + " out of range [0, " +
                                    std::to_string(rows()) + ")");
}

int GlpkLp::addColumns(int count, double lower, double upper, double cost) {
    if (count <= 0) throw std::invalid_argument("GlpkLp::addColumns: count must be positive");
    checkBounds(lower, upper, "GlpkLp::addColumns");
    if (!std::isfinite(cost)) throw std::invalid_argument("GlpkLp::addColumns: cost must be finite");
    const int first = glp_add_cols(m_lp, count);
    const int type = boundType(lower, upper);
    for (int j = first; j < first + count; ++j) {
        glp_set_col_bnds(m_lp, j, type, std::isfinite(lower) ? lower : 0.0, std::isfinite(upper) ? upper : 0.0);
        if (cost != 0.0) glp_set_obj_coef(m_lp, j, cost);
    }
    return first - 1;
}

int GlpkLp::addColumn(double lower, double upper, double cost, std::span<const int> rowIdx,
                      std::span<const double> vals) {
    if (rowIdx.size() != vals.size())
        throw std::invalid_argument("GlpkLp::addColumn: " + std::to_string(rowIdx.size()) + " rows but " +
                                    std::to_string(vals.size()) + " values");
    const int m = rows();
    std::vector<int> ind(1, 0);
    std::vector<double> val(1, 0.0);
    for (std::size_t k = 0; k < rowIdx.size(); ++k) {
        const int r = rowIdx[k];
        if (r < 0 || r >= m)
            throw std::invalid_argument("GlpkLp::addColumn: row " + std::to_string(r) + " out of range [0, " +
                                        std::to_string(m) + ")");
        if (!std::isfinite(vals[k]))
            throw std::invalid_argument("GlpkLp::addColumn: non-finite coefficient for row " + std::to_string(r));
        if (vals[k] == 0.0) continue;
        if (std::find(ind.begin() + 1, ind.end(), r + 1) != ind.end())
            throw std::invalid_argument("GlpkLp::addColumn: row " + std::to_string(r) + " appears twice");
        ind.push_back(r + 1);
        val.push_back(vals[k]);
    }
    const int j = addColumns(1, lower, upper, cost);
    glp_set_mat_col(m_lp, j + 1, static_cast<int>(ind.size()) - 1, ind.data(), val.data());
    return j;
}

void GlpkLp::setColumnBounds(int j, double lower, double upper) {
    checkColumn(j, "GlpkLp::setColumnBounds");
    checkBounds(lower, upper, "GlpkLp::setColumnBounds");
    glp_set_col_bnds(m_lp, j + 1, boundType(lower, upper), std::isfinite(lower) ? lower : 0.0,
                     std::isfinite(upper) ? upper : 0.0);
}

void GlpkLp::setCost(int j, double cost) {
    checkColumn(j, "GlpkLp::setCost");
    if (!std::isfinite(cost)) throw std::invalid_argument("GlpkLp::setCost: cost must be finite");
    glp_set_obj_coef(m_lp, j + 1, cost);
}

void GlpkLp::setObjectiveConstant(double c0) {
    if (!std::isfinite(c0)) throw std::invalid_argument("GlpkLp::setObjectiveConstant: must be finite");
    glp_set_obj_coef(m_lp, 0, c0);
}

int GlpkLp::addRow(std::span<const int> cols, std::span<const double> vals, double lower, double upper) {
    if (cols.size() != vals.size())
        throw std::invalid_argument("GlpkLp::addRow: " + std::to_string(cols.size()) + " columns but " +
                                    std::to_string(vals.size()) + " values");
    checkBounds(lower, upper, "GlpkLp::addRow");
    const int n = columns();
    m_mark.resize(static_cast<std::size_t>(n) + 1, 0);
    m_ind.assign(1, 0);
    m_val.assign(1, 0.0);
    for (std::size_t k = 0; k < cols.size(); ++k) {
        const int j = cols[k];
        if (j < 0 || j >= n) {
            for (std::size_t t = 1; t < m_ind.size(); ++t) m_mark[static_cast<std::size_t>(m_ind[t])] = 0;
            throw std::invalid_argument("GlpkLp::addRow: column " + std::to_string(j) + " out of range [0, " +
                                        std::to_string(n) + ")");
        }
        if (!std::isfinite(vals[k])) {
            for (std::size_t t = 1; t < m_ind.size(); ++t) m_mark[static_cast<std::size_t>(m_ind[t])] = 0;
            throw std::invalid_argument("GlpkLp::addRow: non-finite coefficient for column " + std::to_string(j));
        }
        if (vals[k] == 0.0) continue;
        if (m_mark[static_cast<std::size_t>(j) + 1]) {
            for (std::size_t t = 1; t < m_ind.size(); ++t) m_mark[static_cast<std::size_t>(m_ind[t])] = 0;
            throw std::invalid_argument("GlpkLp::addRow: column " + std::to_string(j) + " appears twice");
        }
        m_mark[static_cast<std::size_t>(j) + 1] = 1;
        m_ind.push_back(j + 1);
        m_val.push_back(vals[k]);
    }
    for (std::size_t t = 1; t < m_ind.size(); ++t) m_mark[static_cast<std::size_t>(m_ind[t])] = 0;

    const int r = glp_add_rows(m_lp, 1);
    glp_set_row_bnds(m_lp, r, boundType(lower, upper), std::isfinite(lower) ? lower : 0.0,
                     std::isfinite(upper) ? upper : 0.0);
    glp_set_mat_row(m_lp, r, static_cast<int>(m_ind.size()) - 1, m_ind.data(), m_val.data());
    return r - 1;
}

void GlpkLp::deleteRows(std::span<const int> rowIndices) {
    if (rowIndices.empty()) return;
    std::vector<int> num(1, 0);
    std::vector<char> seen(static_cast<std::size_t>(rows()), 0);
    for (int r : rowIndices) {
        checkRow(r, "GlpkLp::deleteRows");
        if (seen[static_cast<std::size_t>(r)])
            throw std::invalid_argument("GlpkLp::deleteRows: row " + std::to_string(r) + " listed twice");
        seen[static_cast<std::size_t>(r)] = 1;
        num.push_back(r + 1);
    }
    glp_del_rows(m_lp, static_cast<int>(num.size()) - 1, num.data());
}

void GlpkLp::deleteColumns(std::span<const int> columnIndices) {
    if (columnIndices.empty()) return;
    std::vector<int> num(1, 0);
    std::vector<char> seen(static_cast<std::size_t>(columns()), 0);
    for (int j : columnIndices) {
        checkColumn(j, "GlpkLp::deleteColumns");
        if (seen[static_cast<std::size_t>(j)])
            throw std::invalid_argument("GlpkLp::deleteColumns: column " + std::to_string(j) + " listed twice");
        seen[static_cast<std::size_t>(j)] = 1;
        num.push_back(j + 1);
    }
    glp_del_cols(m_lp, static_cast<int>(num.size()) - 1, num.data());
}

LpSolveReport GlpkLp::solve(const LpSolveOptions& o) {
    if (o.pollIterations <= 0) throw std::invalid_argument("LpSolveOptions.pollIterations must be > 0");
    if (o.timeLimit < 0.0) throw std::invalid_argument("LpSolveOptions.timeLimit must be >= 0");
    if (o.iterationLimit < 0) throw std::invalid_argument("LpSolveOptions.iterationLimit must be >= 0");

    Stopwatch clock;
    LpSolveReport rep;
    TermHookGuard hook(&o.onMessage);
    const int msgLev = o.onMessage ? std::clamp(o.messageLevel, 1, 3) : GLP_MSG_OFF;

    if (rows() == 0 || columns() == 0) {
        rep.status = LpStatus::Failed;
        rep.message = "empty problem (" + std::to_string(rows()) + " rows, " + std::to_string(columns()) + " columns)";
        return rep;
    }

    if (o.scaling)
        glp_scale_prob(m_lp, GLP_SF_AUTO);
    else
        glp_unscale_prob(m_lp);

    if (o.method == LpMethod::InteriorPoint) {
        glp_iptcp ip;
        glp_init_iptcp(&ip);
        ip.msg_lev = msgLev;
        ip.ord_alg = GLP_ORD_AMD;
        const int ret = glp_interior(m_lp, &ip);
        m_lastInterior = true;
        rep.seconds = clock.seconds();
        if (ret != 0) {
            rep.status = ret == GLP_EITLIM ? LpStatus::IterationLimit : LpStatus::Failed;
            rep.message = "GLPK interior point: " + simplexCode(ret);
            return rep;
        }
        const int st = glp_ipt_status(m_lp);
        if (st == GLP_OPT) {
            rep.status = LpStatus::Optimal;
            rep.message = "optimal (interior point)";
        } else if (st == GLP_NOFEAS) {
            rep.status = LpStatus::Infeasible;
            rep.message = "no feasible solution (interior point)";
        } else {
            rep.status = LpStatus::Failed;
            rep.message = "interior point ended without an optimal solution";
        }
        rep.objective = glp_ipt_obj_val(m_lp);
        return rep;
    }

    m_lastInterior = false;
    glp_smcp sm;
    glp_init_smcp(&sm);
    sm.msg_lev = msgLev;
    sm.meth = o.method == LpMethod::DualSimplex ? GLP_DUALP : GLP_PRIMAL;
    sm.presolve = o.presolve ? GLP_ON : GLP_OFF;
    sm.out_frq = 1000;
    if (o.method == LpMethod::DualSimplex && o.longStep) sm.r_test = GLP_RT_FLIP;

    const int startIt = glp_get_it_cnt(m_lp);
    bool retried = false;
    for (;;) {
        // One slice: pollIterations (with presolve, which cannot resume, everything in one go).
        const long done = glp_get_it_cnt(m_lp) - startIt;
        long slice = o.presolve ? 0 : o.pollIterations;
        if (o.iterationLimit > 0) slice = slice > 0 ? std::min(slice, o.iterationLimit - done) : o.iterationLimit - done;
        sm.it_lim = slice > 0 ? static_cast<int>(std::min(slice, static_cast<long>(INT_MAX))) : INT_MAX;
        sm.tm_lim = INT_MAX;
        if (o.timeLimit > 0)
            sm.tm_lim = std::max(1, static_cast<int>(std::lround(std::max(0.0, o.timeLimit - clock.seconds()) * 1000.0)));
        const int ret = glp_simplex(m_lp, &sm);
        rep.iterations = glp_get_it_cnt(m_lp) - startIt;
        if (ret == GLP_ETMLIM) {
            rep.status = LpStatus::TimeLimit;
            rep.message = "time limit of " + std::to_string(o.timeLimit) + " s reached";
            break;
        }
        if (ret == GLP_EITLIM) {
            if (o.iterationLimit > 0 && rep.iterations >= o.iterationLimit) {
                rep.status = LpStatus::IterationLimit;
                rep.message = "iteration limit of " + std::to_string(o.iterationLimit) + " reached";
                break;
            }
            if (o.shouldStop && o.shouldStop()) {
                rep.status = LpStatus::Cancelled;
                rep.message = "cancelled";
                break;
            }
            continue;  // resume from the basis reached so far
        }
        if ((ret == GLP_EBADB || ret == GLP_ESING || ret == GLP_ECOND) && !retried) {
            // GLPK's own advice: restart from an advanced basis.
            retried = true;
            glp_adv_basis(m_lp, 0);
            continue;
        }
        if (ret == GLP_ENOPFS) {
            rep.status = LpStatus::Infeasible;
            rep.message = "no primal feasible solution";
            break;
        }
        if (ret == GLP_ENODFS) {
            rep.status = LpStatus::Unbounded;
            rep.message = "no dual feasible solution (unbounded or infeasible)";
            break;
        }
        if (ret != 0) {
            rep.status = LpStatus::Failed;
            rep.message = "GLPK simplex: " + simplexCode(ret) + " (code " + std::to_string(ret) + ")";
            break;
        }
        const int st = glp_get_status(m_lp);
        if (st == GLP_OPT) {
            rep.status = LpStatus::Optimal;
            rep.message = "optimal";
        } else if (st == GLP_NOFEAS) {
            rep.status = LpStatus::Infeasible;
            rep.message = "no primal feasible solution";
        } else if (st == GLP_UNBND || glp_get_dual_stat(m_lp) == GLP_NOFEAS) {
            rep.status = LpStatus::Unbounded;
            rep.message = "unbounded";
        } else {
            rep.status = LpStatus::Failed;
            rep.message = "simplex ended with status code " + std::to_string(st);
        }
        break;
    }
    rep.objective = glp_get_obj_val(m_lp);
    rep.seconds = clock.seconds();
    return rep;
}

double GlpkLp::objective() const { return m_lastInterior ? glp_ipt_obj_val(m_lp) : glp_get_obj_val(m_lp); }

double GlpkLp::value(int j) const {
    checkColumn(j, "GlpkLp::value");
    return m_lastInterior ? glp_ipt_col_prim(m_lp, j + 1) : glp_get_col_prim(m_lp, j + 1);
}

std::vector<double> GlpkLp::values() const {
    const int n = columns();
    std::vector<double> x(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j)
        x[static_cast<std::size_t>(j)] = m_lastInterior ? glp_ipt_col_prim(m_lp, j + 1) : glp_get_col_prim(m_lp, j + 1);
    return x;
}

double GlpkLp::rowActivity(int r) const {
    checkRow(r, "GlpkLp::rowActivity");
    return m_lastInterior ? glp_ipt_row_prim(m_lp, r + 1) : glp_get_row_prim(m_lp, r + 1);
}

double GlpkLp::rowDual(int r) const {
    checkRow(r, "GlpkLp::rowDual");
    return m_lastInterior ? glp_ipt_row_dual(m_lp, r + 1) : glp_get_row_dual(m_lp, r + 1);
}

double GlpkLp::reducedCost(int j) const {
    checkColumn(j, "GlpkLp::reducedCost");
    return m_lastInterior ? glp_ipt_col_dual(m_lp, j + 1) : glp_get_col_dual(m_lp, j + 1);
}

bool GlpkLp::rowIsBasic(int r) const {
    checkRow(r, "GlpkLp::rowIsBasic");
    return glp_get_row_stat(m_lp, r + 1) == GLP_BS;
}

bool GlpkLp::columnIsBasic(int j) const {
    checkColumn(j, "GlpkLp::columnIsBasic");
    return glp_get_col_stat(m_lp, j + 1) == GLP_BS;
}

}  // namespace fdlab
