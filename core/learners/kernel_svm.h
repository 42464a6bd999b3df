#pragma once
// Kernel SVMs (linear and RBF) through libsvm 3.24 (Chang & Lin; Debian libsvm-dev), and the
// label-noise robust ("LN-robust") SVM of Biggio, Nelson & Laskov, "Support Vector Machines
// Under Adversarial Label Noise", ACML 2011, section 3 (spec ../shared/spec/ALGORITHMS.md, 5).
//
// Standard C-SVM dual (libsvm's C_SVC), labels y_i in {-1,+1}:
//     min_alpha  1/2 alpha^T Q alpha - 1^T alpha   s.t.  0 <= alpha_i <= C,  y^T alpha = 0,
//     Q_ij = y_i y_j K_ij,   decision  g(x) = sum_i y_i alpha_i K(x_i, x) + b.
// Kernels: linear K(x, z) = x.z; RBF K(x, z) = exp(-gamma ||x - z||^2).
//
// LN-robust SVM. If every training label flips independently with probability mu (eps_i ~
// Bernoulli(mu), y'_i = y_i (1 - 2 eps_i)), the expectation of Q'_ij = y_i y_j K_ij (1 - 2 eps_i)
// (1 - 2 eps_j) is Q_ij (1 - S) for i != j and Q_ii for i = j, S = 4 mu (1 - mu) (paper eq. 5).
// Training the standard dual on that expectation is training on the corrected kernel
//     K o M,   M = (1 - S) 11^T + S I      (Hadamard product; still positive semi-definite),
// after which the expansion coefficients y_i alpha_i and b are multiplied by (1 - 2 mu) (their
// expectation under the noise model). Test points use the plain kernel K. mu = 0 is the plain
// SVM; mu and 1 - mu give the same dual and opposite signs; mu = 0.5 would give w = 0, so it is
// replaced by 0.5 - 0.001 (the paper's convention, section 5).
//
// Implementation. Both cases go through ONE code path: the n x n (corrected) kernel matrix is
// computed here and handed to libsvm as a PRECOMPUTED kernel (node 0 of row i holds the 1-based
// serial number i + 1, node j holds K(i, j - 1)). This costs O(n^2) memory (n = training rows;
// fine up to a few thousand). libsvm is deterministic for C_SVC (it draws random numbers only
// for probability estimates, which we never request). Its printing goes through a global hook:
// every training call sets a capturing hook under a mutex, so nothing reaches stdout and the
// iteration count can be read back; training itself runs outside that lock.
//
// Sign convention: libsvm's decision value is positive for the label of the first training
// row; we flip it when needed so that score > 0 always means class index 1 (y = +1).

#include "core/data/dataset.h"
#include "core/learners/fit_result.h"
#include "core/learners/linear_model.h"
#include "core/learners/scorer.h"
#include "core/util/run_control.h"

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <vector>

namespace fdlab {

enum class SvmKernel { Linear, Rbf };

/// "linear" / "rbf".
const char* toString(SvmKernel k);
/// Inverse of toString; throws std::invalid_argument on an unknown name.
SvmKernel svmKernelFromString(const std::string& name);

struct KernelSvmParams {
    /// Kernel. Default Linear.
    SvmKernel kernel = SvmKernel::Linear;
    /// Loss weight (box constraint of the dual). Default 1; finite, > 0.
    double C = 1.0;
    /// RBF width: K(x, z) = exp(-gamma ||x - z||^2). Default 1; finite, > 0 (ignored for Linear).
    double gamma = 1.0;
    /// Assumed label-flip probability of the LN-robust SVM. Default 0 (the plain SVM); in
    /// [0, 0.5]; 0.5 is trained as 0.5 - 0.001.
    double mu = 0.0;
    /// libsvm stopping tolerance on the KKT violation (-e). Default 1e-3; finite, > 0.
    double eps = 1e-3;
    /// libsvm kernel cache in MB (-m). Default 100; > 0.
    double cacheMb = 100.0;

    /// Throws std::invalid_argument naming the offending field.
    void validate() const;
};

/// A trained kernel SVM: score(x) = sum_k coef_k K(sv_k, x) + b, class 1 iff score > 0.
/// For the LN-robust SVM coef and b already include the factor (1 - 2 mu).
struct KernelSvmModel : public Scorer {
    SvmKernel kernel = SvmKernel::Linear;
    double gamma = 1.0;                    ///< RBF width (unused for Linear)
    double C = 1.0;                        ///< training setting, kept for the record
    double mu = 0.0;                       ///< training setting (as given, before 0.5 -> 0.499)
    Eigen::MatrixXd supportVectors;        ///< nSV x n
    Eigen::VectorXd coef;                  ///< nSV: (1 - 2 mu) y_i alpha_i
    double b = 0.0;
    std::vector<int> supportIndices;       ///< training row of each support vector
    std::vector<std::string> classNames;   ///< of the training data (2)

    int outputs() const override { return 1; }
    int features() const override { return static_cast<int>(supportVectors.cols()); }
    void scores(std::span<const float> x, std::span<double> out) const override;

    /// The decision value of x (length features()).
    double score(std::span<const float> x) const;
    /// The decision value of row i of d.
    double score(const Dataset& d, int i) const;
    /// Fraction of rows of d (binary, same features) with margin y_i score_i <= 0.
    double errorRate(const Dataset& d) const;
    int supportVectorCount() const { return static_cast<int>(coef.size()); }

    /// Linear kernel only: w = sum_k coef_k sv_k and b as a LinearModel (throws
    /// std::logic_error for RBF).
    LinearModel linearModel() const;

    /// {"type": "kernel-svm", "kernel", "gamma", "C", "mu", "b", "classes", "features",
    ///  "supportIndices", "coef", "supportVectors" (rows)}. Doubles round-trip exactly.
    nlohmann::json toJson() const;
    /// Inverse of toJson; throws std::invalid_argument "SOURCE: <field>: <problem>".
    static KernelSvmModel fromJson(const nlohmann::json& j, const std::string& source = "model");
};

struct KernelSvmResult {
    KernelSvmModel model;
    /// Raw libsvm dual variables alpha_i in [0, C] of every training row (0 off the support);
    /// Algorithm 1 of the label-flip attack reads them.
    Eigen::VectorXd alpha;
    double objective = 0.0;   ///< dual objective 1/2 a^T Q~ a - 1^T a on the (corrected) kernel
    long iterations = 0;      ///< libsvm's SMO iterations (0 if its log was not seen)
    double elapsed = 0.0;     ///< seconds
    Status status = Status::Failed;
    std::string message;

    bool ok() const { return status == Status::Converged || status == Status::MaxIterations; }
};

/// The n x n kernel matrix of the rows of d under (kernel, gamma).
Eigen::MatrixXd kernelMatrix(const Dataset& d, SvmKernel kernel, double gamma);
/// K(x, z) for two feature vectors of equal length.
double kernelValue(SvmKernel kernel, double gamma, std::span<const double> x, std::span<const double> z);

/// K o M with M = (1 - S) 11^T + S I, S = 4 mu (1 - mu): off-diagonal entries times (1 - S),
/// diagonal unchanged. mu in [0, 1] (throws std::invalid_argument otherwise).
Eigen::MatrixXd labelNoiseCorrectedKernel(const Eigen::MatrixXd& K, double mu);

/// The dual solution on an explicit kernel matrix, the core every other function calls.
struct KernelSvmDual {
    Eigen::VectorXd alpha;   ///< n, raw libsvm alpha in [0, C]
    Eigen::VectorXd coef;    ///< n, (1 - 2 mu) y_i alpha_i (0 off the support)
    double b = 0.0;          ///< (1 - 2 mu) times libsvm's -rho, sign-corrected
    double objective = 0.0;
    long iterations = 0;
    bool maxIterationsReached = false;   ///< libsvm warned that it hit its iteration limit
};
/// Solves the LN-robust dual for kernel matrix K (n x n, symmetric), labels y in {-1,+1},
/// box C, noise rate mu in [0, 1] (mu = 0.5 is trained as 0.499, mu > 0.5 is allowed here to
/// expose the paper's mu <-> 1 - mu symmetry; KernelSvmParams restricts it to [0, 0.5]).
/// Decision on training row i: sum_j coef_j K_ij + b (plain K). Throws std::invalid_argument on
/// bad sizes or labels, std::runtime_error if libsvm rejects the problem.
KernelSvmDual solveKernelSvmDual(const Eigen::MatrixXd& K, std::span<const int> y, double C, double mu,
                                 double eps = 1e-3, double cacheMb = 100.0);

/// Trains on a binary dataset (throws std::invalid_argument otherwise or when a class is empty).
/// Cancellation is checked before training only (libsvm cannot be interrupted).
KernelSvmResult fitKernelSvm(const Dataset& train, const KernelSvmParams& p, const RunControl& rc = {});

/// The linear-kernel LN-robust SVM as the shared learner shape: p.kernel must be Linear (throws
/// std::invalid_argument otherwise); model = (w, b) of KernelSvmModel::linearModel().
FitResult fitLnRobustLinearSvm(const Dataset& train, const KernelSvmParams& p, const RunControl& rc = {});

}  // namespace fdlab
