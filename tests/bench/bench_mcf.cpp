// Benchmark (run by hand): MCF-logistic with blankout against liblinear's logistic regression.
//
// On MNIST 3 vs 5, all ten MNIST digits and Spambase (70/30 stratified split, seed 1; Spambase
// scaled to [0, 1] on the training part): training time of MCF-logistic (blankout q = 0.5,
// l2 = 0.5, i.e. the regulariser of liblinear with C = 1) versus liblinear -s 0 with C = 1
// (one-vs-rest for the ten digits: liblinear's own multi-class scheme), clean test accuracy, and
// test accuracy when 50% of the test features (pixels) are blanked out (set to zero, each
// independently, seed 7). Plain logistic regression through MCF with q = 0 is listed too, so
// the blankout effect is measured with the same loss and solver. The default MCF row runs the
// default solver (trust-region Newton with liblinear's stopping rule on binary data, L-BFGS on
// the ten digits); the L-BFGS row shows the previous solver under the same rule. Issue target:
// MCF time at most 3x liblinear's.
//
// Usage: bench_mcf [q]   (FDLAB_DATA_DIR selects the datasets directory)
//
// bench_mcf fashion [DIR]: memory and time of the ten-class MCF-logistic fit (the registry's
// defaults: blankout q = 0.5, Newton) against the registry's logreg learner on Fashion-MNIST's
// 60,000 training images (Debian dataset-fashion-mnist, DIR default
// /usr/share/datasets/fashion-mnist; 70/30 stratified split, seed 1). Each fit runs in a forked
// child, so its peak resident memory (which includes the data it inherits) is its own; issue
// target: MCF peak under 1.5 GB and time under 2x logreg.

#include "core/data/bundled.h"
#include "core/data/preprocess.h"
#include "core/data/split.h"
#include "core/data/task.h"
#include "core/eval/level_evaluation.h"
#include "core/data/loaders.h"
#include "core/learners/liblinear_baseline.h"
#include "core/learners/registry.h"
#include "core/learners/mcf.h"
#include "core/learners/one_vs_rest.h"
#include "core/util/rng.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace fdlab;

namespace {

Dataset blankOut(const Dataset& d, double fraction, std::uint64_t seed) {
    Dataset out = d;
    Rng rng(seed);
    for (int i = 0; i < out.rows(); ++i)
        for (int j = 0; j < out.features(); ++j)
            if (rng.uniform() < fraction) out.X(i, j) = 0.0f;
    return out;
}

struct Row {
    std::string name;
    double seconds = 0, clean = 0, blanked = 0;
    std::string status;
};

Row evaluate(const std::string& name, const FitResult& r, const Dataset& test, const Dataset& blanked) {
    Row row;
    row.name = name;
    row.seconds = r.elapsed;
    row.clean = 1.0 - r.model.errorRate(test);
    row.blanked = 1.0 - r.model.errorRate(blanked);
    row.status = std::string(toString(r.status)) + " (" + std::to_string(r.iterations) + " it)";
    return row;
}

void runTask(const std::string& title, Dataset data, bool scale, double q) {
    const TrainTest split = stratifiedSplit(data, 0.3, 1);
    Dataset train = data.subset(split.train), test = data.subset(split.test);
    if (scale) {
        const Preprocessor pre = Preprocessor::fit(train, Scaling::ZeroOne);
        pre.apply(train);
        pre.apply(test);
    }
    const Dataset blanked = blankOut(test, 0.5, 7);

    LiblinearParams lp;
    lp.solver = LiblinearSolver::LogisticRegression;
    lp.C = 1.0;
    const BinaryFit liblinear = [&](const Dataset& d, const RunControl& rc) { return fitLiblinear(d, lp, rc); };
    const FitResult lib = fitOneVsRest(train, liblinear);

    McfParams mp;
    mp.loss = McfLoss::Logistic;
    mp.noise = McfNoise::Blankout;
    mp.q = q;
    mp.l2 = 0.5;
    const FitResult mcf = fitMcf(train, mp);
    McfParams plain = mp;
    plain.q = 0.0;
    const FitResult lr = fitMcf(train, plain);

    // liblinear -s 0 stops when ||grad f|| <= 0.01 min(#pos, #neg) / N ||grad f(0)||; the same
    // absolute rule on our J / N (J = liblinear's f with l2 = 0.5 up to the bias term).
    McfParams matched = mp;
    matched.solver = McfSolver::Lbfgs;
    {
        const McfObjective obj(train, mp);
        Eigen::VectorXd g;
        obj(Eigen::VectorXd::Zero(obj.dimension()), g);
        const auto counts = train.classCounts();
        const double minCount = *std::min_element(counts.begin(), counts.end());
        const double N = train.rows();
        matched.lbfgs.epsilon = 0.01 * minCount / N * g.norm() / N;
        matched.lbfgs.epsilonRel = 0.0;
    }
    const FitResult mcfMatched = fitMcf(train, matched);

    // Multi-class: MCF one-vs-rest with the binary Newton solver, liblinear's own scheme.
    FitResult ovr;
    if (train.numClasses() > 2) {
        const BinaryFit mcfBinary = [&](const Dataset& d, const RunControl& rc) { return fitMcf(d, mp, rc); };
        ovr = fitOneVsRest(train, mcfBinary);
    }

    std::vector<Row> rows = {evaluate("liblinear -s 0 (C=1)", lib, test, blanked),
                        evaluate("MCF logistic q=" + std::to_string(q).substr(0, 4), mcf, test, blanked),
                        evaluate("MCF logistic q=" + std::to_string(q).substr(0, 4) + ", L-BFGS, liblinear's stopping rule",
                                 mcfMatched, test, blanked),
                        evaluate("MCF logistic q=0 (plain)", lr, test, blanked)};
    if (train.numClasses() > 2)
        rows.push_back(evaluate("MCF logistic q=" + std::to_string(q).substr(0, 4) + ", one-vs-rest (Newton)", ovr, test, blanked));
    std::printf("\n## %s: %d train, %d test, %d features, %d classes\n", title.c_str(), train.rows(), test.rows(),
                train.features(), train.numClasses());
    std::printf("| learner | train s | x liblinear | clean acc | acc, 50%% blanked | status |\n|---|---|---|---|---|---|\n");
    for (const Row& r : rows)
        std::printf("| %s | %.3f | %.2f | %.4f | %.4f | %s |\n", r.name.c_str(), r.seconds, r.seconds / rows[0].seconds,
                    r.clean, r.blanked, r.status.c_str());
    const double errPlain = 1 - rows[3].blanked, errMcf = 1 - rows[1].blanked;
    std::printf("blanked-test error: plain %.4f -> MCF %.4f (%.0f%% reduction)\n", errPlain, errMcf,
                100.0 * (errPlain - errMcf) / errPlain);
    std::fflush(stdout);
}

// Trains `learner` in a forked child; prints its time, test error and peak RSS. Returns seconds.
double forkedFit(const std::string& learner, const Dataset& train, const Dataset& test) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        double out[2] = {-1, -1};
        try {
            const TrainedModel m = trainLearner(learner, train, nlohmann::json::object());
            out[0] = m.fit.elapsed;
            out[1] = scoreDataset(*m.scorer, test).error;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: %s\n", learner.c_str(), e.what());
        }
        if (write(fds[1], out, sizeof out) != sizeof out) _exit(2);
        _exit(0);
    }
    close(fds[1]);
    double out[2] = {-1, -1};
    const bool got = read(fds[0], out, sizeof out) == sizeof out;
    close(fds[0]);
    int status = 0;
    rusage u{};
    wait4(pid, &status, 0, &u);
    std::printf("| %s | %.1f | %.4f | %.0f |\n", learner.c_str(), got ? out[0] : -1.0, got ? out[1] : -1.0,
                static_cast<double>(u.ru_maxrss) / 1024.0);
    std::fflush(stdout);
    return got ? out[0] : -1.0;
}

int fashion(const std::string& dir) {
    const Dataset all = loadDataFile(dir + "/train-images-idx3-ubyte.gz");
    const TrainTest split = stratifiedSplit(all, 0.3, 1);
    const Dataset train = all.subset(split.train), test = all.subset(split.test);
    std::printf("## Fashion-MNIST: %d train, %d test, %d features, %lld stored training values\n", train.rows(),
                test.rows(), train.features(), static_cast<long long>(train.storedValues()));
    std::printf("| learner | train s | test error | peak RSS MB (process, data included) |\n|---|---|---|---|\n");
    std::fflush(stdout);
    const double lr = forkedFit("logreg", train, test);
    const double mcf = forkedFit("mcf", train, test);
    std::printf("MCF / logreg time: %.2fx\n", lr > 0 ? mcf / lr : 0.0);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "fashion")
        return fashion(argc > 2 ? argv[2] : "/usr/share/datasets/fashion-mnist");
    const double q = argc > 1 ? std::atof(argv[1]) : 0.5;
    try {
        const Dataset mnist = loadBundled("mnist");
        runTask("MNIST 3 vs 5", binaryView(mnist, {"3"}, {"5"}), false, q);
        runTask("Spambase", loadBundled("spambase"), true, q);
        runTask("MNIST, all ten digits", mnist, false, q);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_mcf: %s\n", e.what());
        return 1;
    }
    return 0;
}
