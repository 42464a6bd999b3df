#include "core/eval/label_noise_scene.h"

#include "core/attacks/label_flips.h"
#include "core/util/rng.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fdlab {

const char* toString(FlipKind k) {
    switch (k) {
    case FlipKind::None: return "none";
    case FlipKind::Random: return "random";
    case FlipKind::Adversarial: return "adversarial";
    }
    return "none";
}

void LabelNoiseSceneParams::validate() const {
    auto bad = [](const std::string& field, const std::string& msg) {
        throw std::invalid_argument("label noise view " + field + ": " + msg);
    };
    if (flips < 0) bad("flips", "must be >= 0");
    if (repeats < 1) bad("repeats", "must be >= 1");
    if (!(mu > 0.0 && mu <= 0.5)) bad("mu", "must be in (0, 0.5]");
    if (maxRows < 10) bad("maxRows", "must be >= 10");
    if (gridSize < 2 || gridSize > 1000) bad("gridSize", "must be in [2, 1000]");
    KernelSvmParams s = svm;
    s.mu = 0.0;
    s.validate();
}

namespace {

// A seeded sample of `keep` rows, the same share of each class, in ascending row order.
std::vector<int> thinnedRows(const Dataset& d, int keep, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<int> out;
    const std::vector<int> counts = d.classCounts();
    for (int c = 0; c < d.numClasses(); ++c) {
        std::vector<int> rows;
        for (int i = 0; i < d.rows(); ++i)
            if (d.labels[static_cast<std::size_t>(i)] == c) rows.push_back(i);
        rng.shuffle(rows);
        const auto take = static_cast<std::size_t>(std::lround(static_cast<double>(keep) * counts[static_cast<std::size_t>(c)] / d.rows()));
        rows.resize(std::min(rows.size(), std::max<std::size_t>(take, 1)));
        out.insert(out.end(), rows.begin(), rows.end());
    }
    std::sort(out.begin(), out.end());
    return out;
}

SvmPanelResult panel(const Dataset& tainted, const Dataset& clean, const KernelSvmParams& kp, const Projection2d& proj,
                     const Eigen::MatrixX2d& pts, int gridSize, const RunControl& rc, bool& cancelled) {
    SvmPanelResult r;
    KernelSvmResult fit = fitKernelSvm(tainted, kp, rc);
    if (fit.status == Status::Cancelled) {
        cancelled = true;
        return r;
    }
    if (fit.status == Status::Failed) throw std::runtime_error("label noise view: SVM training failed: " + fit.message);
    r.model = std::move(fit.model);
    r.supportVectors = r.model.supportIndices;
    std::sort(r.supportVectors.begin(), r.supportVectors.end());
    r.cleanTrainError = r.model.errorRate(clean);
    // the grid covers the points with a 10% margin on each side
    const double u0 = pts.col(0).minCoeff(), u1 = pts.col(0).maxCoeff(), v0 = pts.col(1).minCoeff(), v1 = pts.col(1).maxCoeff();
    const double pu = 0.1 * std::max(u1 - u0, 1e-6), pv = 0.1 * std::max(v1 - v0, 1e-6);
    r.grid = decisionGrid(r.model, proj, u0 - pu, u1 + pu, v0 - pv, v1 + pv, gridSize, gridSize, rc);
    if (r.grid.values.empty()) {
        cancelled = true;
        return r;
    }
    r.boundary = zeroContour(r.grid);
    return r;
}

}  // namespace

LabelNoiseScene computeLabelNoiseScene(const Dataset& d, const LabelNoiseSceneParams& p, const RunControl& rc) {
    Stopwatch clock;
    p.validate();
    if (!d.isBinary()) throw std::invalid_argument("label noise view: dataset '" + d.name + "' has " +
                                                   std::to_string(d.numClasses()) + " classes (two are needed)");
    d.requireNonEmptyClasses("label noise view");
    LabelNoiseScene s;
    s.data = d.rows() > p.maxRows ? d.subset(thinnedRows(d, p.maxRows, Rng(p.seed).split(0).next())) : d;
    Preprocessor::fit(s.data, p.scaling).apply(s.data);
    if (p.flips > s.data.rows())
        throw std::invalid_argument("label noise view flips: " + std::to_string(p.flips) + " flips for " +
                                    std::to_string(s.data.rows()) + " rows");
    auto cancelled = [&] {
        s.status = Status::Cancelled;
        s.message = "cancelled";
        s.elapsed = clock.seconds();
        return s;
    };

    // 1. taint
    const std::uint64_t flipSeed = Rng(p.seed).split(1).next();
    KernelSvmParams plain = p.svm;
    plain.mu = 0.0;
    LabelFlipResult flips;
    if (p.flipKind == FlipKind::Adversarial) {
        AdversarialLabelFlipParams ap;
        ap.flips = p.flips;
        ap.repeats = p.repeats;
        ap.svm = plain;
        ap.seed = flipSeed;
        flips = adversarialLabelFlips(s.data, ap, RunControl{{}, rc.stop});
        if (flips.status == Status::Cancelled) return cancelled();
    } else {
        flips = randomLabelFlips(s.data, p.flipKind == FlipKind::Random ? p.flips : 0, flipSeed);
    }
    s.flipped = flips.flipped;
    for (int i = 0; i < flips.tainted.rows(); ++i) s.y.push_back(flips.tainted.y(i));
    if (rc.cancelled()) return cancelled();

    // 2-3. both models, in the picture plane
    s.projection = projection2d(s.data);
    s.points = projectRows(s.data, s.projection);
    s.uTitle = s.projection.axisTitle(0, s.data);
    s.vTitle = s.projection.axisTitle(1, s.data);
    bool stop = false;
    const RunControl inner{{}, rc.stop};
    s.svm = panel(flips.tainted, s.data, plain, s.projection, s.points, p.gridSize, inner, stop);
    if (stop) return cancelled();
    rc.report(0.5, 1, "SVM trained");
    KernelSvmParams robust = plain;
    robust.mu = p.mu;
    s.robust = panel(flips.tainted, s.data, robust, s.projection, s.points, p.gridSize, inner, stop);
    if (stop) return cancelled();
    rc.report(1.0, 2, "LN-robust SVM trained");
    s.status = Status::Converged;
    s.message = p.flipKind == FlipKind::None ? "no flips, " + std::to_string(s.data.rows()) + " labels"
                                             : std::to_string(s.flipped.size()) + " " + toString(p.flipKind) + " flips of " +
                                                   std::to_string(s.data.rows()) + " labels";
    s.elapsed = clock.seconds();
    return s;
}

}  // namespace fdlab
