#include "core/learners/registry.h"

#include "core/learners/dekel_shamir_lp.h"
#include "core/learners/dekel_shamir_perceptron.h"
#include "core/learners/fdrop.h"
#include "core/learners/liblinear_baseline.h"
#include "core/learners/mcf.h"
#include "core/learners/one_vs_rest.h"

#include <cmath>
#include <stdexcept>

namespace fdlab {

namespace {

using Type = ParamInfo::Type;
using json = nlohmann::json;

ParamInfo real(std::string name, double def, double lo, double hi, std::string doc, bool log = false) {
    return {std::move(name), Type::Real, def, lo, hi, {}, std::move(doc), log};
}
ParamInfo integer(std::string name, int def, int lo, int hi, std::string doc) {
    return {std::move(name), Type::Integer, def, static_cast<double>(lo), static_cast<double>(hi), {}, std::move(doc), false};
}
ParamInfo boolean(std::string name, bool def, std::string doc) {
    return {std::move(name), Type::Bool, def, 0, 1, {}, std::move(doc), false};
}
ParamInfo choice(std::string name, std::string def, std::vector<std::string> choices, std::string doc) {
    return {std::move(name), Type::Choice, std::move(def), 0, 0, std::move(choices), std::move(doc), false};
}

// Binary learners run one-vs-rest on multi-class data.
TrainedModel linearFit(const Dataset& train, const RunControl& rc, const BinaryFit& fit) {
    return wrapLinear(train.numClasses() > 2 ? fitOneVsRest(train, fit, rc) : fit(train, rc));
}

std::vector<LearnerInfo> buildCatalogue() {
    std::vector<LearnerInfo> c;

    c.push_back({"svm", "Linear SVM (liblinear)", "Fan et al., LIBLINEAR, JMLR 9 (2008); -s 3 -B 1",
                 "min 1/2||w||^2 + C sum_i [1 - y_i (w.x_i + b)]_+", true, true,
                 {real("C", 1.0, 1e-6, 1e6, "C: weight of the hinge loss", true)},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     LiblinearParams lp;
                     lp.solver = LiblinearSolver::HingeSvmDual;
                     lp.C = p.at("C");
                     return linearFit(d, rc, [lp](const Dataset& t, const RunControl& r) { return fitLiblinear(t, lp, r); });
                 }});

    c.push_back({"logreg", "Logistic regression (liblinear)", "Fan et al., LIBLINEAR, JMLR 9 (2008); -s 0 -B 1",
                 "min 1/2||w||^2 + C sum_i log(1 + exp(-y_i (w.x_i + b)))", true, true,
                 {real("C", 1.0, 1e-6, 1e6, "C: weight of the logistic loss", true)},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     LiblinearParams lp;
                     lp.solver = LiblinearSolver::LogisticRegression;
                     lp.C = p.at("C");
                     return linearFit(d, rc, [lp](const Dataset& t, const RunControl& r) { return fitLiblinear(t, lp, r); });
                 }});

    c.push_back({"fdrop", "FDROP (Globerson & Roweis)",
                 "Globerson & Roweis, Nightmare at test time: robust learning by feature deletion, ICML 2006",
                 "min 1/2||w||^2 + C sum_i [1 - y_i w.x_i + (sum of the K largest y_i w_j x_ij)]_+", true, true,
                 {real("C", 1.0, 1e-6, 1e6, "C: weight of the worst-case hinge", true),
                  integer("K", 0, 0, 100000, "K: features the adversary deletes per instance"),
                  boolean("useImportance", false, "value budget: importance v_j with budget N instead of K"),
                  real("N", 0.0, 0.0, 1e12, "N: value budget (with useImportance)"),
                  real("epsilon", 1e-4, 1e-12, 1.0, "bundle method: relative gap tolerance", true)},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     FdropParams fp;
                     fp.C = p.at("C");
                     fp.K = p.at("K");
                     fp.useImportance = p.at("useImportance");
                     fp.N = p.at("N");
                     fp.epsilon = p.at("epsilon");
                     return linearFit(d, rc, [fp](const Dataset& t, const RunControl& r) { return fitFdrop(t, fp, r); });
                 }});

    c.push_back({"ds-lp", "Dekel-Shamir LP",
                 "Dekel & Shamir, Learning to classify with missing and corrupted features, ICML 2008",
                 "min (1/m) sum_i xi_i s.t. y_i(b + sum_{j in J} w_j x_ij) >= gamma V(J)/P - xi_i for every kept set J, "
                 "||w||_inf <= C",
                 true, true,
                 {real("gamma", 1.0, 1e-9, 1e9, "gamma: margin parameter", true),
                  real("C", 1.0, 1e-9, 1e9, "C: box on the weights, |w_j| <= C", true),
                  real("N", 0.0, 0.0, 1e12, "N: value the adversary may delete (N < V)"),
                  boolean("useImportance", true, "use the importance values v_j (else v_j = 1)"),
                  choice("method", "active-set", {"active-set", "constraint-generation", "simplex", "interior-point"},
                         "how GLPK solves LP (4): active-set generation of the deleted-feature rows (default), "
                         "cutting planes on LP (3), or the whole LP"),
                  integer("chunks", 0, 0, 1000, "bagging variant: train on this many chunks and average (0 = off)")},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     DekelShamirLpParams lp;
                     lp.gamma = p.at("gamma");
                     lp.C = p.at("C");
                     lp.N = p.at("N");
                     lp.useImportance = p.at("useImportance");
                     const std::string m = p.at("method");
                     lp.method = m == "simplex"                 ? DekelShamirLpMethod::Simplex
                                 : m == "interior-point"        ? DekelShamirLpMethod::InteriorPoint
                                 : m == "constraint-generation" ? DekelShamirLpMethod::ConstraintGeneration
                                                                : DekelShamirLpMethod::ActiveSet;
                     lp.chunks = p.at("chunks");
                     return linearFit(d, rc, [lp](const Dataset& t, const RunControl& r) { return fitDekelShamirLp(t, lp, r); });
                 }});

    c.push_back({"ds-perceptron", "Dekel-Shamir online Perceptron",
                 "Dekel & Shamir, Learning to classify with missing and corrupted features, ICML 2008",
                 "w_J <- clip_C(w_J + tau y x_J) on examples with worst-case loss > 0; output the average iterate",
                 true, true,
                 {real("gamma", 1.0, 1e-9, 1e9, "gamma: margin parameter", true),
                  real("C", 1.0, 1e-9, 1e9, "C: cube [-C, C] the iterates are projected on", true),
                  real("N", 0.0, 0.0, 1e12, "N: value the adversary may delete (N < V)"),
                  boolean("useImportance", true, "use the importance values v_j (else v_j = 1)"),
                  real("tau", 0.0, 0.0, 1e9, "tau: step size (0 = 2C/sqrt(m))"),
                  integer("epochs", 1, 1, 1000, "passes over the shuffled data"),
                  integer("seed", 1, 0, 2147483647, "shuffle seed")},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     DekelShamirPerceptronParams pp;
                     pp.gamma = p.at("gamma");
                     pp.C = p.at("C");
                     pp.N = p.at("N");
                     pp.useImportance = p.at("useImportance");
                     pp.tau = p.at("tau");
                     pp.epochs = p.at("epochs");
                     pp.seed = p.at("seed").get<std::uint64_t>();
                     return linearFit(d, rc, [pp](const Dataset& t, const RunControl& r) {
                         return fitDekelShamirPerceptron(t, pp, r);
                     });
                 }});

    c.push_back({"mcf", "Marginalized corrupted features (MCF)",
                 "van der Maaten, Chen, Tyree & Weinberger, Learning with marginalized corrupted features, ICML 2013",
                 "min sum_n E_{x~ ~ p(x~|x_n)}[L(x~_n, y_n; w)] + l2 ||w||^2 (expectation in closed form or bounded)",
                 true, false,
                 {choice("loss", "logistic", {"quadratic", "exponential", "logistic"}, "loss L"),
                  choice("noise", "blankout", {"blankout", "gaussian", "laplace", "poisson"}, "corrupting distribution"),
                  real("q", 0.5, 0.0, 0.99, "blankout probability q"),
                  real("sigma", 0.1, 0.0, 1e6, "Gaussian noise standard deviation"),
                  real("laplaceScale", 0.1, 0.0, 1e6, "Laplace noise scale lambda"),
                  real("l2", 0.5, 0.0, 1e9, "l2 regularisation weight")},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     McfParams mp;
                     mp.loss = mcfLossFromString(p.at("loss"));
                     mp.noise = mcfNoiseFromString(p.at("noise"));
                     mp.q = p.at("q");
                     mp.sigma = p.at("sigma");
                     mp.laplaceScale = p.at("laplaceScale");
                     mp.l2 = p.at("l2");
                     return wrapLinear(fitMcf(d, mp, rc));
                 }});
    return c;
}

}  // namespace

// Wraps a linear fit into a TrainedModel; the scorer refers to the model it shares ownership with.
TrainedModel wrapLinear(FitResult fit) {
    struct Holder {
        explicit Holder(LinearModel m) : model(std::move(m)), scorer(model) {}
        LinearModel model;
        LinearScorer scorer;
    };
    TrainedModel t;
    if (fit.ok() || fit.status == Status::Cancelled) {
        auto h = std::make_shared<Holder>(fit.model);
        t.linear = std::shared_ptr<const LinearModel>(h, &h->model);
        t.scorer = std::shared_ptr<const Scorer>(h, &h->scorer);
    }
    t.fit = std::move(fit);
    return t;
}

const std::vector<LearnerInfo>& learnerCatalogue() {
    static const std::vector<LearnerInfo> catalogue = buildCatalogue();
    return catalogue;
}

const LearnerInfo& learnerInfo(const std::string& name) {
    for (const auto& l : learnerCatalogue())
        if (l.name == name) return l;
    std::string names;
    for (const auto& l : learnerCatalogue()) names += (names.empty() ? "" : ", ") + l.name;
    throw std::invalid_argument("unknown learner '" + name + "' (known: " + names + ")");
}

json completeParams(const std::string& learner, const json& params) {
    const LearnerInfo& info = learnerInfo(learner);
    if (!params.is_null() && !params.is_object())
        throw std::invalid_argument("learner " + learner + ": params must be a JSON object");
    auto fail = [&](const std::string& name, const std::string& msg) {
        throw std::invalid_argument("learner " + learner + " parameter " + name + ": " + msg);
    };
    if (params.is_object())
        for (const auto& [key, value] : params.items()) {
            bool known = false;
            for (const auto& pi : info.params) known = known || pi.name == key;
            if (!known) fail(key, "unknown parameter");
        }
    json out = json::object();
    for (const ParamInfo& pi : info.params) {
        const json v = params.is_object() && params.contains(pi.name) ? params.at(pi.name) : pi.defaultValue;
        switch (pi.type) {
        case Type::Real:
        case Type::Integer: {
            if (!v.is_number()) fail(pi.name, "expected a number, got " + v.dump());
            const double x = v.get<double>();
            if (!std::isfinite(x) || x < pi.min || x > pi.max)
                fail(pi.name, "value " + v.dump() + " outside [" + json(pi.min).dump() + ", " + json(pi.max).dump() + "]");
            if (pi.type == Type::Integer) {
                if (x != std::floor(x)) fail(pi.name, "expected a whole number, got " + v.dump());
                out[pi.name] = static_cast<long long>(x);
            } else {
                out[pi.name] = x;
            }
            break;
        }
        case Type::Bool:
            if (!v.is_boolean()) fail(pi.name, "expected true or false, got " + v.dump());
            out[pi.name] = v;
            break;
        case Type::Choice: {
            if (!v.is_string()) fail(pi.name, "expected a string, got " + v.dump());
            bool ok = false;
            for (const auto& ch : pi.choices) ok = ok || ch == v.get<std::string>();
            if (!ok) {
                std::string all;
                for (const auto& ch : pi.choices) all += (all.empty() ? "" : ", ") + ch;
                fail(pi.name, "'" + v.get<std::string>() + "' is not one of: " + all);
            }
            out[pi.name] = v;
            break;
        }
        }
    }
    return out;
}

TrainedModel trainLearner(const std::string& learner, const Dataset& train, const json& params, const RunControl& rc) {
    const LearnerInfo& info = learnerInfo(learner);
    const json complete = completeParams(learner, params);
    return info.train(train, complete, rc);
}

}  // namespace fdlab
