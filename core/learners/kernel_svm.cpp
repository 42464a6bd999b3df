#include "core/learners/kernel_svm.h"

#include <svm.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace fdlab {

namespace {

// libsvm prints through one global hook. We install a hook that appends to a per-thread buffer
// (null: discard), so concurrent trainings neither print nor mix their logs.
thread_local std::string* t_svmLog = nullptr;

void captureSvmPrint(const char* s) {
    if (t_svmLog) t_svmLog->append(s);
}

std::mutex& svmHookMutex() {
    static std::mutex m;
    return m;
}

void installSvmHook() {
    std::lock_guard<std::mutex> lock(svmHookMutex());
    svm_set_print_string_function(&captureSvmPrint);
}

struct ModelDeleter {
    void operator()(svm_model* m) const {
        if (m) svm_free_and_destroy_model(&m);
    }
};

long parseIterations(const std::string& log) {
    long total = 0;
    std::size_t pos = 0;
    const std::string key = "#iter = ";
    while ((pos = log.find(key, pos)) != std::string::npos) {
        pos += key.size();
        total += std::strtol(log.c_str() + pos, nullptr, 10);
    }
    return total;
}

double kernelRaw(SvmKernel kernel, double gamma, const double* x, const double* z, int n) {
    if (kernel == SvmKernel::Linear) {
        double s = 0.0;
        for (int k = 0; k < n; ++k) s += x[k] * z[k];
        return s;
    }
    double d2 = 0.0;
    for (int k = 0; k < n; ++k) {
        const double t = x[k] - z[k];
        d2 += t * t;
    }
    return std::exp(-gamma * d2);
}

void requireFiniteParam(double v, const char* name) {
    if (!std::isfinite(v)) throw std::invalid_argument(std::string("KernelSvmParams.") + name + " must be finite");
}

}  // namespace

const char* toString(SvmKernel k) {
    return k == SvmKernel::Linear ? "linear" : "rbf";
}

SvmKernel svmKernelFromString(const std::string& name) {
    if (name == "linear") return SvmKernel::Linear;
    if (name == "rbf") return SvmKernel::Rbf;
    throw std::invalid_argument("unknown SVM kernel '" + name + "' (expected linear or rbf)");
}

void KernelSvmParams::validate() const {
    requireFiniteParam(C, "C");
    requireFiniteParam(gamma, "gamma");
    requireFiniteParam(mu, "mu");
    requireFiniteParam(eps, "eps");
    requireFiniteParam(cacheMb, "cacheMb");
    if (C <= 0) throw std::invalid_argument("KernelSvmParams.C must be > 0 (got " + std::to_string(C) + ")");
    if (gamma <= 0)
        throw std::invalid_argument("KernelSvmParams.gamma must be > 0 (got " + std::to_string(gamma) + ")");
    if (mu < 0 || mu > 0.5)
        throw std::invalid_argument("KernelSvmParams.mu must be in [0, 0.5] (got " + std::to_string(mu) + ")");
    if (eps <= 0) throw std::invalid_argument("KernelSvmParams.eps must be > 0 (got " + std::to_string(eps) + ")");
    if (cacheMb <= 0)
        throw std::invalid_argument("KernelSvmParams.cacheMb must be > 0 (got " + std::to_string(cacheMb) + ")");
}

// ---------------------------------------------------------------------------------------------
// Kernels

double kernelValue(SvmKernel kernel, double gamma, std::span<const double> x, std::span<const double> z) {
    if (x.size() != z.size()) throw std::invalid_argument("kernel: vectors of different lengths");
    return kernelRaw(kernel, gamma, x.data(), z.data(), static_cast<int>(x.size()));
}

Eigen::MatrixXd kernelMatrix(const Dataset& d, SvmKernel kernel, double gamma) {
    // Row-major double copy so that every entry is computed by the same scalar loop as
    // KernelSvmModel::score (training and prediction then agree to the last bit for mu = 0).
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> X = d.denseCopy("the kernel matrix").cast<double>();
    const int m = d.rows(), n = d.features();
    Eigen::MatrixXd K(m, m);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j <= i; ++j) K(i, j) = K(j, i) = kernelRaw(kernel, gamma, X.row(i).data(), X.row(j).data(), n);
    return K;
}

Eigen::MatrixXd labelNoiseCorrectedKernel(const Eigen::MatrixXd& K, double mu) {
    if (!(mu >= 0.0 && mu <= 1.0))
        throw std::invalid_argument("LN-robust SVM: mu must be in [0, 1] (got " + std::to_string(mu) + ")");
    const double S = 4.0 * mu * (1.0 - mu);
    Eigen::MatrixXd Kc = (1.0 - S) * K;
    Kc.diagonal() = K.diagonal();
    return Kc;
}

// ---------------------------------------------------------------------------------------------
// The dual through libsvm's precomputed kernel

KernelSvmDual solveKernelSvmDual(const Eigen::MatrixXd& K, std::span<const int> y, double C, double mu, double eps,
                                 double cacheMb) {
    const int n = static_cast<int>(K.rows());
    if (K.cols() != n) throw std::invalid_argument("kernel SVM: kernel matrix is not square");
    if (static_cast<int>(y.size()) != n)
        throw std::invalid_argument("kernel SVM: " + std::to_string(y.size()) + " labels for " +
                                    std::to_string(n) + " kernel rows");
    if (n == 0) throw std::invalid_argument("kernel SVM: no training rows");
    for (int v : y)
        if (v != 1 && v != -1) throw std::invalid_argument("kernel SVM: labels must be -1 or +1");
    if (!(C > 0) || !std::isfinite(C)) throw std::invalid_argument("kernel SVM: C must be finite and > 0");
    if (!(mu >= 0.0 && mu <= 1.0)) throw std::invalid_argument("kernel SVM: mu must be in [0, 1]");
    if (!K.allFinite()) throw std::invalid_argument("kernel SVM: kernel matrix has non-finite entries");

    const double muEff = (mu == 0.5) ? 0.5 - 0.001 : mu;
    const Eigen::MatrixXd Kc = muEff == 0.0 ? K : labelNoiseCorrectedKernel(K, muEff);
    const double scale = 1.0 - 2.0 * muEff;

    // Precomputed-kernel rows: [0:serial] [1:K_i0] ... [n:K_i,n-1] [-1].
    const std::size_t stride = static_cast<std::size_t>(n) + 2;
    std::vector<svm_node> nodes(stride * static_cast<std::size_t>(n));
    std::vector<svm_node*> rows(static_cast<std::size_t>(n));
    std::vector<double> labels(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        svm_node* r = nodes.data() + stride * static_cast<std::size_t>(i);
        r[0].index = 0;
        r[0].value = i + 1;
        for (int j = 0; j < n; ++j) {
            r[j + 1].index = j + 1;
            r[j + 1].value = Kc(i, j);
        }
        r[n + 1].index = -1;
        r[n + 1].value = 0;
        rows[static_cast<std::size_t>(i)] = r;
        labels[static_cast<std::size_t>(i)] = y[static_cast<std::size_t>(i)];
    }
    svm_problem prob{};
    prob.l = n;
    prob.y = labels.data();
    prob.x = rows.data();

    svm_parameter param{};
    param.svm_type = C_SVC;
    param.kernel_type = PRECOMPUTED;
    param.cache_size = cacheMb;
    param.eps = eps;
    param.C = C;
    param.shrinking = 1;
    param.probability = 0;
    param.nr_weight = 0;
    if (const char* err = svm_check_parameter(&prob, &param))
        throw std::runtime_error(std::string("libsvm rejected the problem: ") + err);

    installSvmHook();
    std::string log;
    t_svmLog = &log;
    std::unique_ptr<svm_model, ModelDeleter> model(svm_train(&prob, &param));
    t_svmLog = nullptr;
    if (!model) throw std::runtime_error("libsvm: svm_train returned no model");

    KernelSvmDual out;
    out.alpha = Eigen::VectorXd::Zero(n);
    out.coef = Eigen::VectorXd::Zero(n);
    out.iterations = parseIterations(log);
    if (model->nr_class < 2) {
        // One class only: libsvm returns a constant classifier (no support vectors).
        out.b = scale * (model->label[0] == 1 ? 1.0 : -1.0);
        return out;
    }
    const double s = model->label[0] == 1 ? 1.0 : -1.0;  // libsvm: positive = label[0]
    for (int k = 0; k < model->l; ++k) {
        const int i = model->sv_indices[k] - 1;
        const double c = model->sv_coef[0][k];  // = y_i alpha_i with y = +1 for label[0]
        out.alpha(i) = std::abs(c);
        out.coef(i) = scale * s * c;
    }
    out.b = -scale * s * model->rho[0];

    // Dual objective on the corrected kernel (libsvm only prints it).
    Eigen::VectorXd ya(n);
    for (int i = 0; i < n; ++i) ya(i) = y[static_cast<std::size_t>(i)] * out.alpha(i);
    out.objective = 0.5 * ya.dot(Kc * ya) - out.alpha.sum();
    out.maxIterationsReached = log.find("reaching max number of iterations") != std::string::npos;
    return out;
}

// ---------------------------------------------------------------------------------------------
// Fitting

KernelSvmResult fitKernelSvm(const Dataset& train, const KernelSvmParams& p, const RunControl& rc) {
    p.validate();
    if (!train.isBinary())
        throw std::invalid_argument("kernel SVM: needs a binary dataset (got " +
                                    std::to_string(train.numClasses()) + " classes)");
    train.requireNonEmptyClasses("kernel SVM");
    Stopwatch sw;
    KernelSvmResult r;
    r.model.kernel = p.kernel;
    r.model.gamma = p.gamma;
    r.model.C = p.C;
    r.model.mu = p.mu;
    r.model.classNames = train.classNames;
    if (rc.cancelled()) {
        r.status = Status::Cancelled;
        r.message = "cancelled before training";
        r.model.supportVectors.resize(0, train.features());
        return r;
    }

    const Eigen::MatrixXd K = kernelMatrix(train, p.kernel, p.gamma);
    const std::vector<int> y = train.signedLabels();
    const KernelSvmDual dual = solveKernelSvmDual(K, y, p.C, p.mu, p.eps, p.cacheMb);
    const bool maxIter = dual.maxIterationsReached;

    int nsv = 0;
    for (int i = 0; i < train.rows(); ++i)
        if (dual.alpha(i) != 0.0) ++nsv;
    r.model.supportVectors.setZero(nsv, train.features());
    r.model.coef.resize(nsv);
    r.model.supportIndices.clear();
    for (int i = 0, k = 0; i < train.rows(); ++i) {
        if (dual.alpha(i) == 0.0) continue;
        train.forEachNonZero(i, [&](int j, float x) { r.model.supportVectors(k, j) = static_cast<double>(x); });
        r.model.coef(k) = dual.coef(i);
        r.model.supportIndices.push_back(i);
        ++k;
    }
    r.model.b = dual.b;
    r.alpha = dual.alpha;
    r.objective = dual.objective;
    r.iterations = dual.iterations;
    r.elapsed = sw.seconds();
    r.status = maxIter ? Status::MaxIterations : Status::Converged;
    r.message = std::string(maxIter ? "libsvm reached its iteration limit" : "libsvm converged") + ", " +
                std::to_string(nsv) + " support vectors";
    rc.report(1.0, r.iterations, r.message);
    return r;
}

FitResult fitLnRobustLinearSvm(const Dataset& train, const KernelSvmParams& p, const RunControl& rc) {
    if (p.kernel != SvmKernel::Linear)
        throw std::invalid_argument("LN-robust linear SVM: the kernel must be linear");
    KernelSvmResult k = fitKernelSvm(train, p, rc);
    FitResult r;
    r.status = k.status;
    r.message = k.message;
    r.objective = k.objective;
    r.iterations = k.iterations;
    r.elapsed = k.elapsed;
    if (k.status == Status::Cancelled)
        r.model = LinearModel::binary(Eigen::VectorXd::Zero(train.features()), 0.0, train.classNames);
    else
        r.model = k.model.linearModel();
    return r;
}

// ---------------------------------------------------------------------------------------------
// The model

double KernelSvmModel::score(std::span<const float> x) const {
    const int n = features();
    if (static_cast<int>(x.size()) != n)
        throw std::invalid_argument("KernelSvmModel: input has " + std::to_string(x.size()) + " features, model " +
                                    std::to_string(n));
    thread_local std::vector<double> xd;
    xd.assign(x.begin(), x.end());
    // supportVectors is column-major: copy each row once into a contiguous buffer.
    thread_local std::vector<double> sv;
    sv.resize(static_cast<std::size_t>(n));
    double s = b;
    for (int k = 0; k < supportVectorCount(); ++k) {
        for (int j = 0; j < n; ++j) sv[static_cast<std::size_t>(j)] = supportVectors(k, j);
        s += coef(k) * kernelRaw(kernel, gamma, sv.data(), xd.data(), n);
    }
    return s;
}

void KernelSvmModel::scores(std::span<const float> x, std::span<double> out) const {
    out[0] = score(x);
}

double KernelSvmModel::score(const Dataset& d, int i) const {
    double s = 0.0;
    scoresRow(d.row(i), {&s, 1});
    return s;
}

double KernelSvmModel::errorRate(const Dataset& d) const {
    if (!d.isBinary()) throw std::invalid_argument("KernelSvmModel::errorRate: needs a binary dataset");
    if (d.rows() == 0) return 0.0;
    int errors = 0;
    for (int i = 0; i < d.rows(); ++i)
        if (d.y(i) * score(d, i) <= 0.0) ++errors;
    return static_cast<double>(errors) / d.rows();
}

LinearModel KernelSvmModel::linearModel() const {
    if (kernel != SvmKernel::Linear) throw std::logic_error("KernelSvmModel::linearModel: the kernel is not linear");
    Eigen::VectorXd w = supportVectors.transpose() * coef;
    return LinearModel::binary(std::move(w), b, classNames);
}

nlohmann::json KernelSvmModel::toJson() const {
    nlohmann::json j;
    j["type"] = "kernel-svm";
    j["kernel"] = toString(kernel);
    j["gamma"] = gamma;
    j["C"] = C;
    j["mu"] = mu;
    j["b"] = b;
    j["classes"] = classNames;
    j["features"] = features();
    j["supportIndices"] = supportIndices;
    j["coef"] = std::vector<double>(coef.data(), coef.data() + coef.size());
    nlohmann::json svs = nlohmann::json::array();
    for (int k = 0; k < supportVectorCount(); ++k) {
        std::vector<double> row(static_cast<std::size_t>(features()));
        for (int c = 0; c < features(); ++c) row[static_cast<std::size_t>(c)] = supportVectors(k, c);
        svs.push_back(std::move(row));
    }
    j["supportVectors"] = std::move(svs);
    return j;
}

KernelSvmModel KernelSvmModel::fromJson(const nlohmann::json& j, const std::string& source) {
    auto fail = [&](const std::string& field, const std::string& what) -> std::invalid_argument {
        return std::invalid_argument(source + ": " + field + ": " + what);
    };
    auto need = [&](const char* field) -> const nlohmann::json& {
        if (!j.is_object() || !j.contains(field)) throw fail(field, "missing");
        return j.at(field);
    };
    auto number = [&](const char* field) {
        const auto& v = need(field);
        if (!v.is_number()) throw fail(field, "not a number");
        const double d = v.get<double>();
        if (!std::isfinite(d)) throw fail(field, "not finite");
        return d;
    };
    if (!need("type").is_string() || j.at("type").get<std::string>() != "kernel-svm")
        throw fail("type", "expected \"kernel-svm\"");
    KernelSvmModel m;
    try {
        m.kernel = svmKernelFromString(need("kernel").get<std::string>());
        m.classNames = need("classes").get<std::vector<std::string>>();
        m.supportIndices = need("supportIndices").get<std::vector<int>>();
    } catch (const nlohmann::json::exception& e) {
        throw fail("kernel/classes/supportIndices", e.what());
    } catch (const std::invalid_argument& e) {
        throw fail("kernel", e.what());
    }
    m.gamma = number("gamma");
    m.C = number("C");
    m.mu = number("mu");
    m.b = number("b");
    if (m.classNames.size() != 2) throw fail("classes", "expected 2 class names");
    if (m.kernel == SvmKernel::Rbf && !(m.gamma > 0)) throw fail("gamma", "must be > 0 for the RBF kernel");
    if (!(m.C > 0)) throw fail("C", "must be > 0");
    if (!(m.mu >= 0 && m.mu <= 0.5)) throw fail("mu", "must be in [0, 0.5]");
    for (int i : m.supportIndices)
        if (i < 0) throw fail("supportIndices", "negative index " + std::to_string(i));
    const double nf = number("features");
    if (nf < 0 || nf != std::floor(nf)) throw fail("features", "not a non-negative integer");
    const int n = static_cast<int>(nf);
    const auto& coef = need("coef");
    const auto& svs = need("supportVectors");
    if (!coef.is_array() || !svs.is_array() || coef.size() != svs.size())
        throw fail("coef", "must be an array as long as supportVectors");
    const int nsv = static_cast<int>(coef.size());
    if (static_cast<int>(m.supportIndices.size()) != nsv) throw fail("supportIndices", "length differs from coef");
    m.coef.resize(nsv);
    m.supportVectors.resize(nsv, n);
    for (int k = 0; k < nsv; ++k) {
        const auto& c = coef[static_cast<std::size_t>(k)];
        if (!c.is_number() || !std::isfinite(c.get<double>()))
            throw fail("coef[" + std::to_string(k) + "]", "not a finite number");
        m.coef(k) = c.get<double>();
        const auto& row = svs[static_cast<std::size_t>(k)];
        if (!row.is_array() || static_cast<int>(row.size()) != n)
            throw fail("supportVectors[" + std::to_string(k) + "]", "expected " + std::to_string(n) + " numbers");
        for (int c2 = 0; c2 < n; ++c2) {
            const auto& v = row[static_cast<std::size_t>(c2)];
            if (!v.is_number() || !std::isfinite(v.get<double>()))
                throw fail("supportVectors[" + std::to_string(k) + "]", "not a finite number");
            m.supportVectors(k, c2) = v.get<double>();
        }
    }
    return m;
}

}  // namespace fdlab
