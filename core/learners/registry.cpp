#include "core/learners/registry.h"

#include "core/learners/dekel_shamir_lp.h"
#include "core/learners/dekel_shamir_perceptron.h"
#include "core/learners/fdrop.h"
#include "core/learners/liblinear_baseline.h"
#include "core/learners/mcf.h"
#include "core/learners/kernel_svm.h"
#include "core/learners/nonlinear/adaboost.h"
#include "core/learners/nonlinear/decision_tree.h"
#include "core/learners/nonlinear/feature_boost.h"
#include "core/learners/nonlinear/knn.h"
#include "core/learners/nonlinear/mixture_of_experts.h"
#include "core/learners/nonlinear/neural_net.h"
#include "core/learners/one_vs_rest.h"

#include <cmath>
#include <stdexcept>

namespace fdlab {

namespace {

using Type = ParamInfo::Type;
using json = nlohmann::json;

/// An enum parameter declared once: its names and values. The ParamInfo's choices come from the
/// table and its default is the params struct's own default, so the two cannot disagree; reading
/// a name the table does not have is an error, never a silent fallback to some value.
template <class E>
struct Choices {
    std::string name;
    std::vector<std::pair<std::string, E>> table;

    ParamInfo info(E def, std::string doc) const {
        std::vector<std::string> names;
        const std::string* defName = nullptr;
        for (const auto& [n, e] : table) {
            names.push_back(n);
            if (e == def) defName = &n;
        }
        if (!defName) throw std::logic_error("parameter " + name + ": the struct's default has no name");
        return choiceParam(name, *defName, std::move(names), std::move(doc));
    }
    E from(const json& p) const {
        const std::string v = p.at(name);
        for (const auto& [n, e] : table)
            if (n == v) return e;
        std::string all;
        for (const auto& entry : table) all += (all.empty() ? "" : ", ") + entry.first;
        throw std::invalid_argument("parameter " + name + ": '" + v + "' is not one of: " + all);
    }
};

// The enum parameters, built on first use (the catalogue may be built while other files are
// initialised).
struct EnumParams {
    Choices<BaseLearner> base{"base",
                              {{"tree", BaseLearner::DecisionTree}, {"knn", BaseLearner::Knn}, {"net", BaseLearner::NeuralNet}}};
    Choices<SvmKernel> kernel{"kernel", {{"linear", SvmKernel::Linear}, {"rbf", SvmKernel::Rbf}}};
    Choices<SplitCriterion> criterion{"criterion", {{"gini", SplitCriterion::Gini}, {"entropy", SplitCriterion::Entropy}}};
    Choices<DekelShamirLpMethod> lpMethod{"method",
                                          {{"structured-ipm", DekelShamirLpMethod::StructuredInteriorPoint},
                                           {"active-set", DekelShamirLpMethod::ActiveSet},
                                           {"constraint-generation", DekelShamirLpMethod::ConstraintGeneration},
                                           {"simplex", DekelShamirLpMethod::Simplex},
                                           {"interior-point", DekelShamirLpMethod::InteriorPoint}}};
    Choices<FeatureBoostVariant> variant{"variant",
                                         {{"hard", FeatureBoostVariant::Hard},
                                          {"soft-noise", FeatureBoostVariant::SoftNoise},
                                          {"soft-scale", FeatureBoostVariant::SoftScale}}};
    Choices<ImportanceMeasure> importance{"importance",
                                          {{"error-change", ImportanceMeasure::ErrorChange},
                                           {"margin-change", ImportanceMeasure::MarginChange}}};
};

const EnumParams& enums() {
    static const EnumParams e;
    return e;
}

// Binary learners run one-vs-rest on multi-class data.
TrainedModel linearFit(const Dataset& train, const RunControl& rc, const BinaryFit& fit) {
    return wrapLinear(train.numClasses() > 2 ? fitOneVsRest(train, fit, rc) : fit(train, rc));
}

// FDROP from the registry's params. The warm start (binary data only: one-vs-rest fits several
// problems) carries the dual solver's point from fit to fit.
TrainedModel trainFdrop(const Dataset& d, const json& p, const RunControl& rc, const WarmStart* start, WarmStart* end) {
    FdropParams fp;
    fp.solver = fdropSolverFromString(p.at("solver"));
    fp.C = p.at("C");
    fp.K = p.at("K");
    fp.useImportance = p.at("useImportance");
    fp.N = p.at("N");
    fp.epsilon = p.at("epsilon");
    fp.maxIterations = p.at("maxIterations");
    if (end) *end = WarmStart{};
    if (d.numClasses() > 2 || (!start && !end))
        return linearFit(d, rc, [fp](const Dataset& t, const RunControl& r) { return fitFdrop(t, fp, r); });
    fp.start = start ? &start->fdropDual : nullptr;
    return wrapLinear(fitFdrop(d, fp, rc, end ? &end->fdropDual : nullptr));
}

// A non-linear fit (tree, kNN, net, ensembles) as a TrainedModel: no linear view.
// fixedRounds: ensembles report MaxIterations after their T rounds; T is the model's size, not
// a solver limit that was hit, so that is a normal completion here.
template <class M>
TrainedModel wrapClassifier(const ModelFit<M>& f, bool fixedRounds = false) {
    TrainedModel t;
    t.scorer = f.model;
    t.fit.status = fixedRounds && f.status == Status::MaxIterations ? Status::Converged : f.status;
    t.fit.message = f.message;
    t.fit.iterations = f.iterations;
    t.fit.elapsed = f.elapsed;
    t.fit.objective = f.trainingError;   // no training objective: the training error instead
    return t;
}

// The base learner of the meta-learners, from the shared "base"/"depth"/"k"/"hidden" params.
BaseLearnerParams baseFrom(const json& p) {
    BaseLearnerParams b;
    b.kind = enums().base.from(p);
    b.tree.maxDepth = p.at("depth");
    b.knn.k = p.at("k");
    b.net.hidden = p.at("hidden");
    return b;
}

std::vector<ParamInfo> baseParams() {
    return {enums().base.info(BaseLearnerParams{}.kind, "base learner L"),
            // Weak learners: shallower than a standalone tree (BaseLearnerParams keeps the tree's 8).
            integerParam("depth", 3, 1, 64, "tree depth (base = tree)"),
            integerParam("k", BaseLearnerParams{}.knn.k, 1, 1000, "neighbours (base = knn)"),
            integerParam("hidden", BaseLearnerParams{}.net.hidden, 1, 4096, "hidden units (base = net)"),
            integerParam("seed", 1, 0, 2147483647, "seed of every random draw")};
}

std::vector<ParamInfo> concat(std::vector<ParamInfo> a, const std::vector<ParamInfo>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// The two liblinear baselines differ only in the solver.
TrainedModel liblinearFit(LiblinearSolver solver, const Dataset& d, const json& p, const RunControl& rc) {
    LiblinearParams lp;
    lp.solver = solver;
    lp.C = p.at("C");
    return linearFit(d, rc, [lp](const Dataset& t, const RunControl& r) { return fitLiblinear(t, lp, r); });
}

std::vector<LearnerInfo> buildCatalogue() {
    std::vector<LearnerInfo> c;

    c.push_back({"svm", "Linear SVM (liblinear)", "Fan et al., LIBLINEAR, JMLR 9 (2008); -s 3 -B 1",
                 "min 1/2(||w||^2 + b^2) + C sum_i [1 - y_i (w.x_i + b)]_+", true, true,
                 {realParam("C", LiblinearParams{}.C, 1e-6, 1e6, "C: weight of the hinge loss", true)},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     return liblinearFit(LiblinearSolver::HingeSvmDual, d, p, rc);
                 }});

    c.push_back({"logreg", "Logistic regression (liblinear)", "Fan et al., LIBLINEAR, JMLR 9 (2008); -s 0 -B 1",
                 "min 1/2(||w||^2 + b^2) + C sum_i log(1 + exp(-y_i (w.x_i + b)))", true, true,
                 {realParam("C", LiblinearParams{}.C, 1e-6, 1e6, "C: weight of the logistic loss", true)},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     return liblinearFit(LiblinearSolver::LogisticRegression, d, p, rc);
                 }});

    c.push_back({"fdrop", "FDROP (Globerson & Roweis)",
                 "Globerson & Roweis, Nightmare at test time: robust learning by feature deletion, ICML 2006",
                 "min 1/2(||w||^2 + b^2) + C sum_i [1 - y_i (w.x_i + b) + (sum of the K largest y_i w_j x_ij)]_+", true, true,
                 {realParam("C", FdropParams{}.C, 1e-6, 1e6, "C: weight of the worst-case hinge", true),
                  integerParam("K", FdropParams{}.K, 0, 100000, "K: features the adversary deletes per instance"),
                  boolParam("useImportance", FdropParams{}.useImportance, "value budget: importance v_j with budget N instead of K"),
                  realParam("N", FdropParams{}.N, 0.0, 1e12, "N: value budget (with useImportance)"),
                  realParam("epsilon", FdropParams{}.epsilon, 1e-12, 1.0, "relative duality-gap tolerance", true),
                  choiceParam("solver", "auto", {"auto", "dual-cd", "bundle"},
                         "solver: auto (bundle method for K = 0, dual coordinate ascent for K > 0), "
                         "dual coordinate ascent, or the bundle method (BMRM)"),
                  integerParam("maxIterations", FdropParams{}.maxIterations, 1, 10000000,
                          "iteration limit: epochs of dual coordinate ascent, or bundle iterations")},
                 [](const Dataset& d, const json& p, const RunControl& rc) { return trainFdrop(d, p, rc, nullptr, nullptr); },
                 trainFdrop});

    c.push_back({"ds-lp", "Dekel-Shamir LP",
                 "Dekel & Shamir, Learning to classify with missing and corrupted features, ICML 2008",
                 "min (1/m) sum_i xi_i s.t. y_i(b + sum_{j in J} w_j x_ij) >= gamma V(J)/P - xi_i for every kept set J, "
                 "||w||_inf <= C",
                 true, true,
                 // The experiments' default margin (the solver's tests and benches use the struct's 1).
                 {realParam("gamma", 0.1, 1e-9, 1e9, "gamma: margin parameter", true),
                  realParam("C", DekelShamirLpParams{}.C, 1e-9, 1e9, "C: box on the weights, |w_j| <= C", true),
                  realParam("N", DekelShamirLpParams{}.N, 0.0, 1e12, "N: value the adversary may delete (N < V)"),
                  boolParam("useImportance", DekelShamirLpParams{}.useImportance, "use the importance values v_j (else v_j = 1)"),
                  enums().lpMethod.info(DekelShamirLpParams{}.method,
                                        "how LP (4) is solved: FDLab's structured interior point (default, fastest), or "
                                        "GLPK: active-set generation of the deleted-feature rows, cutting planes, the whole LP"),
                  integerParam("chunks", DekelShamirLpParams{}.chunks, 0, 1000, "bagging variant: train on this many chunks and average (0 = off)")},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     DekelShamirLpParams lp;
                     lp.gamma = p.at("gamma");
                     lp.C = p.at("C");
                     lp.N = p.at("N");
                     lp.useImportance = p.at("useImportance");
                     lp.method = enums().lpMethod.from(p);
                     lp.chunks = p.at("chunks");
                     return linearFit(d, rc, [lp](const Dataset& t, const RunControl& r) { return fitDekelShamirLp(t, lp, r); });
                 }});

    c.push_back({"ds-perceptron", "Dekel-Shamir online Perceptron",
                 "Dekel & Shamir, Learning to classify with missing and corrupted features, ICML 2008",
                 "w_J <- clip_C(w_J + tau y x_J) on examples with worst-case loss > 0; output the average iterate",
                 true, true,
                 {realParam("gamma", DekelShamirPerceptronParams{}.gamma, 1e-9, 1e9, "gamma: margin parameter", true),
                  realParam("C", DekelShamirPerceptronParams{}.C, 1e-9, 1e9, "C: cube [-C, C] the iterates are projected on", true),
                  realParam("N", DekelShamirPerceptronParams{}.N, 0.0, 1e12, "N: value the adversary may delete (N < V)"),
                  boolParam("useImportance", DekelShamirPerceptronParams{}.useImportance, "use the importance values v_j (else v_j = 1)"),
                  realParam("tau", DekelShamirPerceptronParams{}.tau, 0.0, 1e9, "tau: step size (0 = 2C/sqrt(m))"),
                  integerParam("epochs", DekelShamirPerceptronParams{}.epochs, 1, 1000, "passes over the shuffled data"),
                  integerParam("seed", static_cast<int>(DekelShamirPerceptronParams{}.seed), 0, 2147483647, "shuffle seed")},
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
                 {choiceParam("loss", "logistic", {"quadratic", "exponential", "logistic"}, "loss L"),
                  choiceParam("noise", "blankout", {"blankout", "gaussian", "laplace", "poisson"}, "corrupting distribution"),
                  realParam("q", McfParams{}.q, 0.0, 0.99, "blankout probability q"),
                  realParam("sigma", McfParams{}.sigma, 0.0, 1e6, "Gaussian noise standard deviation"),
                  realParam("laplaceScale", McfParams{}.laplaceScale, 0.0, 1e6, "Laplace noise scale lambda"),
                  realParam("l2", McfParams{}.l2, 0.0, 1e9, "l2 regularisation weight"),
                  realParam("testBlankout", McfParams{}.testBlankout, 0.0, 0.99,
                       "expected blankout rate at test time: the bias is returned scaled by (1 - p) to match w.x of a "
                       "blanked instance (0: the paper's model, bias never corrupted)")},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     McfParams mp;
                     mp.loss = mcfLossFromString(p.at("loss"));
                     mp.noise = mcfNoiseFromString(p.at("noise"));
                     mp.q = p.at("q");
                     mp.sigma = p.at("sigma");
                     mp.laplaceScale = p.at("laplaceScale");
                     mp.l2 = p.at("l2");
                     mp.testBlankout = p.at("testBlankout");
                     return wrapLinear(fitMcf(d, mp, rc));
                 }});

    c.push_back({"kernel-svm", "Kernel SVM / LN-robust SVM (libsvm)",
                 "Biggio, Nelson & Laskov, Support vector machines under adversarial label noise, ACML 2011",
                 "SVM dual on K o M, M = (1 - S) 11^T + S I, S = 4 mu (1 - mu); alpha, b scaled by (1 - 2 mu); mu = 0: plain SVM",
                 false, true,
                 {enums().kernel.info(KernelSvmParams{}.kernel, "kernel K"),
                  realParam("C", KernelSvmParams{}.C, 1e-6, 1e6, "C: box on the dual variables", true),
                  realParam("gamma", KernelSvmParams{}.gamma, 1e-6, 1e6, "RBF width: K = exp(-gamma ||x - x'||^2)", true),
                  realParam("mu", KernelSvmParams{}.mu, 0.0, 0.5, "assumed label-flip probability (0 = standard SVM)")},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     if (!d.isBinary()) throw std::invalid_argument("kernel-svm: binary data only (multi-class data is refused: use a binary task)");
                     KernelSvmParams kp;
                     kp.kernel = enums().kernel.from(p);
                     kp.C = p.at("C");
                     kp.gamma = p.at("gamma");
                     kp.mu = p.at("mu");
                     KernelSvmResult r = fitKernelSvm(d, kp, rc);
                     TrainedModel t;
                     t.fit.status = r.status;
                     t.fit.message = r.message;
                     t.fit.objective = r.objective;
                     t.fit.iterations = r.iterations;
                     t.fit.elapsed = r.elapsed;
                     if (r.status != Status::Failed) t.scorer = std::make_shared<KernelSvmModel>(std::move(r.model));
                     return t;
                 }});

    c.push_back({"tree", "Decision tree (CART)", "Breiman et al., Classification and Regression Trees, 1984",
                 "greedy binary splits minimising Gini impurity or entropy", false, false,
                 {integerParam("depth", DecisionTreeParams{}.maxDepth, 1, 64, "maximum depth"), integerParam("minLeaf", DecisionTreeParams{}.minLeaf, 1, 100000, "minimum leaf size"),
                  enums().criterion.info(DecisionTreeParams{}.criterion, "split criterion")},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     DecisionTreeParams tp;
                     tp.maxDepth = p.at("depth");
                     tp.minLeaf = p.at("minLeaf");
                     tp.criterion = enums().criterion.from(p);
                     return wrapClassifier(fitDecisionTree(d, tp, rc));
                 }});

    c.push_back({"knn", "k nearest neighbours", "Cover & Hart, Nearest neighbor pattern classification, 1967",
                 "majority vote of the k nearest training points (unweighted Euclidean distance)", false, false,
                 {integerParam("k", KnnParams{}.k, 1, 1000, "neighbours")},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     KnnParams kp;
                     kp.k = p.at("k");
                     return wrapClassifier(fitKnn(d, kp, rc));
                 }});

    c.push_back({"net", "Neural net (one hidden layer)", "Rumelhart, Hinton & Williams, 1986",
                 "softmax(W2 tanh(W1 x + b1) + b2), cross-entropy, early stopping on a holdout", false, false,
                 {integerParam("hidden", NeuralNetParams{}.hidden, 1, 4096, "hidden units"), integerParam("maxEpochs", NeuralNetParams{}.maxEpochs, 1, 100000, "epochs"),
                  realParam("learningRate", NeuralNetParams{}.learningRate, 1e-6, 10.0, "SGD step", true), integerParam("seed", static_cast<int>(NeuralNetParams{}.seed), 0, 2147483647, "seed")},
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     NeuralNetParams np;
                     np.hidden = p.at("hidden");
                     np.maxEpochs = p.at("maxEpochs");
                     np.learningRate = p.at("learningRate");
                     np.seed = p.at("seed").get<std::uint64_t>();
                     return wrapClassifier(fitNeuralNet(d, np, rc));
                 }});

    c.push_back({"adaboost", "AdaBoost (SAMME)", "Freund & Schapire 1997; Zhu et al., Multi-class AdaBoost, 2009",
                 "weighted vote of base learners trained on reweighted examples", false, false,
                 concat({integerParam("rounds", AdaBoostParams{}.rounds, 1, 10000, "boosting rounds T")}, baseParams()),
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     AdaBoostParams ap;
                     ap.base = baseFrom(p);
                     ap.rounds = p.at("rounds");
                     ap.seed = p.at("seed").get<std::uint64_t>();
                     return wrapClassifier(fitAdaBoost(d, ap, rc), true);
                 }});

    c.push_back({"mixture", "Mixture of experts (random feature subsets)",
                 "Sullivan, Langford, Caruana & Blum, FeatureBoost, ICML 2000 (baseline)",
                 "vote of members each trained on a random subset of the features", false, false,
                 concat({integerParam("members", MixtureParams{}.members, 1, 1000, "members M"),
                         realParam("subsetFraction", MixtureParams{}.subsetFraction, 0.01, 1.0, "fraction of the features each member sees")},
                        baseParams()),
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     MixtureParams mp;
                     mp.base = baseFrom(p);
                     mp.members = p.at("members");
                     mp.subsetFraction = p.at("subsetFraction");
                     mp.seed = p.at("seed").get<std::uint64_t>();
                     return wrapClassifier(fitMixtureOfExperts(d, mp, rc), true);
                 }});

    c.push_back({"featureboost", "FeatureBoost", "Sullivan, Langford, Caruana & Blum, FeatureBoost, ICML 2000",
                 "boosting over features: D over features, members trained with de-emphasised features, weighted vote",
                 false, false,
                 concat({integerParam("rounds", FeatureBoostParams{}.rounds, 1, 1000, "rounds T"),
                         enums().variant.info(FeatureBoostParams{}.variant,
                                              "hard = progressive feature removal; soft = noise or scaling"),
                         realParam("thresholdFraction", FeatureBoostParams{}.thresholdFraction, 0.0, 1.0, "phi: hard removal threshold schedule"),
                         realParam("softStrength", FeatureBoostParams{}.softStrength, 0.0, 1.0, "s: largest marginalisation probability (soft-noise)"),
                         realParam("updateScale", FeatureBoostParams{}.updateScale, 0.0, 100.0, "u: step of the feature distribution update"),
                         realParam("distributionFloor", FeatureBoostParams{}.distributionFloor, 0.0, 1.0, "every D(f) >= floor / n"),
                         enums().importance.info(FeatureBoostParams{}.importance, "sensitivity analysis measure")},
                        baseParams()),
                 [](const Dataset& d, const json& p, const RunControl& rc) {
                     FeatureBoostParams fp;
                     fp.base = baseFrom(p);
                     fp.rounds = p.at("rounds");
                     fp.variant = enums().variant.from(p);
                     fp.thresholdFraction = p.at("thresholdFraction");
                     fp.softStrength = p.at("softStrength");
                     fp.updateScale = p.at("updateScale");
                     fp.distributionFloor = p.at("distributionFloor");
                     fp.importance = enums().importance.from(p);
                     fp.seed = p.at("seed").get<std::uint64_t>();
                     const FeatureBoostFit f = fitFeatureBoost(d, fp, rc);
                     TrainedModel t = wrapClassifier(f, true);
                     t.rounds = {f.importance, f.distribution, f.alphas, f.memberErrors, f.removed};
                     return t;
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
    return completeParamValues(learnerInfo(learner).params, params, "learner " + learner);
}

std::string multiClassHandling(const LearnerInfo& info) {
    return !info.binaryOnly ? "native" : info.linear ? "one-vs-rest" : "refused";
}

namespace {

/// A classifier needs instances of two classes: said in the user's terms, before a learner's
/// own check could name an internal function ("fitLiblinear: ...").
void requireTwoClasses(const LearnerInfo& info, const Dataset& train) {
    const std::vector<int> counts = train.classCounts();
    int present = 0, only = -1;
    for (std::size_t c = 0; c < counts.size(); ++c)
        if (counts[c] > 0) ++present, only = static_cast<int>(c);
    if (present >= 2) return;
    throw std::invalid_argument(
        "learner " + info.name + ": the training set" + (train.name.empty() ? "" : " of '" + train.name + "'") +
        (present == 0 ? " is empty" : " has instances of one class only ('" + train.classNames[static_cast<std::size_t>(only)] + "', " +
                                          std::to_string(counts[static_cast<std::size_t>(only)]) + ")") +
        "; a classifier needs instances of at least two classes (choose a split or task that keeps both)");
}

}  // namespace

TrainedModel trainLearner(const std::string& learner, const Dataset& train, const json& params, const RunControl& rc) {
    const LearnerInfo& info = learnerInfo(learner);
    const json complete = completeParams(learner, params);
    requireTwoClasses(info, train);
    // The linear learners iterate over stored entries; the others (trees, kNN, nets, kernels,
    // ensembles) see a dense copy of a sparse set, refused above Dataset::kMaxDensifyValues.
    if (train.isSparse() && !info.linear) return info.train(train.toDense(info.title), complete, rc);
    return info.train(train, complete, rc);
}

TrainedModel trainLearner(const std::string& learner, const Dataset& train, const json& params, const RunControl& rc,
                          const WarmStart* start, WarmStart* end) {
    const LearnerInfo& info = learnerInfo(learner);
    if (!info.trainWarm) {
        if (end) *end = WarmStart{};
        return trainLearner(learner, train, params, rc);
    }
    requireTwoClasses(info, train);
    return info.trainWarm(train, completeParams(learner, params), rc, start, end);
}

}  // namespace fdlab
