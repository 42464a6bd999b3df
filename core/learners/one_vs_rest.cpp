#include "core/learners/one_vs_rest.h"

#include "core/data/task.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fdlab {

FitResult fitOneVsRest(const Dataset& train, const BinaryFit& fit, const RunControl& rc) {
    if (!fit) throw std::invalid_argument("one-vs-rest training: no binary fit function");
    if (train.numClasses() < 2)
        throw std::invalid_argument("one-vs-rest training: the dataset needs at least 2 classes, has " +
                                    std::to_string(train.numClasses()));
    if (train.isBinary()) return fit(train, rc);

    Stopwatch sw;
    const int K = train.numClasses();
    FitResult r;
    r.model.W = Eigen::MatrixXd::Zero(train.features(), K);
    r.model.b = Eigen::VectorXd::Zero(K);
    r.model.classNames = train.classNames;
    r.status = Status::Converged;
    bool anyMaxIter = false;
    for (int k = 0; k < K; ++k) {
        const std::string& name = train.classNames[static_cast<std::size_t>(k)];
        if (rc.cancelled()) {
            r.status = Status::Cancelled;
            r.message = "cancelled after " + std::to_string(k) + " of " + std::to_string(K) + " classes";
            break;
        }
        const Dataset sub = oneVsRest(train, name);
        RunControl subRc;
        subRc.stop = rc.stop;
        if (rc.onProgress)
            subRc.onProgress = [&rc, k, K, &name](const Progress& p) {
                const double f = p.fraction < 0 ? 0.0 : std::min(1.0, p.fraction);
                rc.report((k + f) / K, p.iteration, "class " + name + " vs rest: " + p.message);
            };
        const FitResult s = fit(sub, subRc);
        if (s.model.W.rows() != train.features() || s.model.W.cols() != 1 || s.model.b.size() != 1)
            throw std::logic_error("one-vs-rest training: the binary learner returned a model of the wrong shape");
        r.objective += s.objective;
        r.iterations += s.iterations;
        r.gap = std::max(r.gap, s.gap);
        if (s.status == Status::Cancelled) {
            // Keep the cancelled sub-model's best-so-far column: it is the caller's best guess.
            r.model.W.col(k) = s.model.W.col(0);
            r.model.b(k) = s.model.b(0);
            r.status = Status::Cancelled;
            r.message = "cancelled in class " + name + " (" + std::to_string(k + 1) + " of " + std::to_string(K) + ")";
            break;
        }
        if (s.status == Status::Failed) {
            r.status = Status::Failed;
            r.message = "class " + name + " vs rest failed: " + s.message;
            break;
        }
        r.model.W.col(k) = s.model.W.col(0);
        r.model.b(k) = s.model.b(0);
        if (s.status == Status::MaxIterations) anyMaxIter = true;
        rc.report(static_cast<double>(k + 1) / K, k + 1, "class " + name + " vs rest: " + s.message);
    }
    if (r.status == Status::Converged) {
        if (anyMaxIter) r.status = Status::MaxIterations;
        r.message = std::to_string(K) + " one-vs-rest models" +
                    (anyMaxIter ? " (some hit the iteration limit)" : "");
    }
    r.elapsed = sw.seconds();
    return r;
}

}  // namespace fdlab
