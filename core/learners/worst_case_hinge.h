#pragma once
// The FDROP empirical risk as a cutting-plane oracle for the bundle method.
// Globerson & Roweis, "Nightmare at test time" (eq. 1.2, 1.19-1.21); spec sections 1 and 3.
//
//     R(w, b) = sum_i h_i,   h_i = [1 - y_i (w.x_i + b) + s_i(w)]_+
//
// s_i(w) is the adversary's damage on instance i, with profits p_ij = y_i w_j x_ij:
//   count budget K:  s_i = sum of the K largest positive p_ij (exact, by partial selection);
//   value budget N:  s_i = max { sum_j alpha_j p_ij : alpha in [0,1]^n, sum_j alpha_j v_j <= N },
//                    the FRACTIONAL knapsack (LP relaxation of the 0/1 knapsack). This is what the
//                    spec's weighted QP (t_i >= N z_i + sum_j u_ij, z_i v_j + u_ij >= y_i x_ij w_j)
//                    optimises: that QP is the LP dual of this relaxation. It is convex in w (a max
//                    of linear functions) and an upper bound on the 0/1 damage; with v_j = 1 and
//                    integer N = K it equals the count budget exactly.
// The bias b (last coordinate of the parameter vector when enabled) is a constant feature that
// the adversary can never delete.
//
// Subgradient (eq. 1.20): sum over instances with h_i > 0 of -y_i x_i o (1 - alpha_i), alpha_i the
// adversary's optimal choice (1 on deleted features, the fraction on the fractional one), and
// -y_i for the bias. One pass over the non-zeros per evaluation; the selection uses
// std::nth_element over the positive profits only.
//
// Storage: a sparse Dataset's CSR arrays are read in place (no copy: on a large text set the data
// is the solver's main memory), so the oracle must not outlive the Dataset nor see it change; a
// dense Dataset is copied once into CSR form (its non-zeros, 8 bytes an entry).

#include "core/data/dataset.h"
#include "core/solvers/bundle_method.h"

#include <Eigen/Core>

#include <cstdint>
#include <memory>
#include <vector>

namespace fdlab {

class WorstCaseHingeOracle : public CuttingPlaneOracle {
public:
    /// Count budget: the adversary deletes up to K >= 0 features per instance.
    /// d must be binary; bias appends the constant feature (parameter vector size n + 1).
    WorstCaseHingeOracle(const Dataset& d, int K, bool bias);
    /// Value budget: weights v (size n, each > 0), capacity N >= 0 (fractional knapsack).
    WorstCaseHingeOracle(const Dataset& d, std::vector<double> v, double N, bool bias);

    /// Size of the parameter vector: n, plus 1 with bias (the bias is the last coordinate).
    int dimension() const { return m_n + (m_bias ? 1 : 0); }

    double evaluate(const Eigen::VectorXd& w, Eigen::VectorXd& subgradient) override;

    /// Exact line search when the adversary has no budget (K = 0 or N = 0: the plain hinge),
    /// by sorting the hinges' breakpoints on the line (as in OCAS); false otherwise.
    bool lineSearch(const Eigen::VectorXd& wb, const Eigen::VectorXd& d, double C, double& t, double& value) override;

    /// Reuses the last line search's outputs: no dot products, one pass over the active rows.
    double evaluateOnLine(double s, const Eigen::VectorXd& w, Eigen::VectorXd& subgradient) override;

    /// h_i at parameter vector w (size dimension()). Not thread-safe (scratch buffers).
    double loss(int i, const Eigen::VectorXd& w) const;
    /// 1 - y_i (w.x_i + b) + s_i(w): h_i before the clip at 0 (its sign says whether the worst-case
    /// margin is below 1). One pass over the row.
    double hingeArgument(int i, const Eigen::VectorXd& w) const;
    /// Sum of h_i, without a subgradient.
    double risk(const Eigen::VectorXd& w) const;

    /// Damage s_i at w and, if `deleted` is non-null, the adversary's best response appended as
    /// (CSR position, fraction in (0, 1]). Not thread-safe (shares a scratch buffer). Positions are 64-bit: a CSR can hold more than 2^31 non-zeros.
    double damage(int i, const Eigen::VectorXd& w, std::vector<std::pair<std::int64_t, double>>* deleted) const;

    // Read access to the data as the oracle holds it (CSR rows, labels in {-1,+1}, the budget),
    // for solvers of the same problem that work on the dual (core/learners/fdrop_dual.h).
    int rows() const { return m_m; }
    int features() const { return m_n; }
    bool hasBias() const { return m_bias; }
    long rowBegin(int i) const { return m_rowStart[i]; }
    long rowEnd(int i) const { return m_rowStart[i + 1]; }
    const int* columns() const { return m_col; }
    const float* values() const { return m_val; }
    double label(int i) const { return m_y[static_cast<std::size_t>(i)]; }
    /// The adversary's cost of deleting feature j: v_j (value budget) or 1 (count budget).
    double cost(int j) const { return m_valueBudget ? m_v[static_cast<std::size_t>(j)] : 1.0; }
    /// The adversary's budget per instance: N (value budget) or K (count budget).
    double capacity() const { return m_valueBudget ? m_N : static_cast<double>(m_K); }

private:
    void build(const Dataset& d);
    /// w.x_i + b for every row.
    void outputs(const Eigen::VectorXd& w, std::vector<double>& f) const;

    int m_m = 0, m_n = 0;
    bool m_bias = true;
    bool m_valueBudget = false;
    int m_K = 0;
    std::vector<double> m_v;
    double m_N = 0.0;
    // X as CSR: the sparse Dataset's own arrays, or (dense data) a CSR copy of its non-zeros,
    // immutable and shared by copies of the oracle, so that the pointers below stay valid.
    std::shared_ptr<const SparseRows> m_denseAsCsr;
    const std::int64_t* m_rowStart = nullptr;
    const std::int32_t* m_col = nullptr;
    const float* m_val = nullptr;
    std::vector<double> m_y;
    /// Evaluation given the outputs f_i = w.x_i + b (null: computed here).
    double evaluateWith(const Eigen::VectorXd& w, const double* f, Eigen::VectorXd& subgradient);
    // Line-search cache (OCAS): outputs at the line's origin and direction, and at its minimiser.
    std::vector<double> m_fb, m_fd, m_fBest, m_fTmp;
    Eigen::VectorXd m_wBest;
    bool m_hasLine = false;
    // Selection scratch (profit or ratio, CSR position); the oracle is single-threaded.
    mutable std::vector<std::pair<double, std::int64_t>> m_buf;
    mutable std::vector<double> m_profits;   // loss(): profit values only
};

}  // namespace fdlab
