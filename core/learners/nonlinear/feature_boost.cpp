#include "core/learners/nonlinear/feature_boost.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace fdlab {

const char* toString(FeatureBoostVariant v) {
    switch (v) {
    case FeatureBoostVariant::Hard: return "hard";
    case FeatureBoostVariant::SoftNoise: return "soft-noise";
    case FeatureBoostVariant::SoftScale: return "soft-scale";
    }
    return "?";
}

const char* toString(ImportanceMeasure m) { return m == ImportanceMeasure::ErrorChange ? "error-change" : "margin-change"; }

void FeatureBoostParams::validate() const {
    base.validate();
    auto bad = [](const char* f, const std::string& w) { throw std::invalid_argument(std::string(f) + ": " + w); };
    if (rounds < 1 || rounds > 1000) bad("rounds", "must be in 1..1000, got " + std::to_string(rounds));
    if (marginalisationSamples < 1) bad("marginalisationSamples", "must be >= 1");
    if (importanceSamples < 1) bad("importanceSamples", "must be >= 1");
    if (!(thresholdFraction >= 0.0 && thresholdFraction <= 1.0)) bad("thresholdFraction", "must be in [0, 1]");
    if (!(softStrength >= 0.0 && softStrength <= 1.0)) bad("softStrength", "must be in [0, 1]");
    if (!(updateScale >= 0.0) || !std::isfinite(updateScale)) bad("updateScale", "must be finite and >= 0");
    if (!(distributionFloor >= 0.0 && distributionFloor <= 1.0)) bad("distributionFloor", "must be in [0, 1]");
}

namespace {

/// A random row != i (any row when m == 1).
int donorRow(int m, int i, Rng& rng) {
    if (m <= 1) return 0;
    int r = static_cast<int>(rng.below(static_cast<std::uint64_t>(m - 1)));
    return r >= i ? r + 1 : r;
}

/// All n features in a random order, drawn without replacement with probabilities proportional
/// to R (Efraimidis & Spirakis 2006: sort by log(u) / R_f, descending).
std::vector<int> weightedOrder(const std::vector<double>& R, Rng& rng) {
    const int n = static_cast<int>(R.size());
    std::vector<std::pair<double, int>> key(static_cast<std::size_t>(n));
    for (int f = 0; f < n; ++f) {
        const double u = std::max(rng.uniform(), 1e-300);
        key[static_cast<std::size_t>(f)] = {std::log(u) / R[static_cast<std::size_t>(f)], f};
    }
    std::sort(key.begin(), key.end(), [](const auto& a, const auto& b) {
        return a.first > b.first || (a.first == b.first && a.second < b.second);
    });
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int f = 0; f < n; ++f) order[static_cast<std::size_t>(f)] = key[static_cast<std::size_t>(f)].second;
    return order;
}

/// A copy of d holding only X and labels (for scoring transformed rows).
Dataset bare(const Dataset& d) {
    Dataset out;
    out.classNames = d.classNames;
    out.labels = d.labels;
    out.X = d.X;
    return out;
}

double errorOf(const Classifier& h, const Dataset& d) { return h.errorRate(d); }

}  // namespace

std::vector<double> sensitivityImportance(const Classifier& model, const Dataset& d, int samples,
                                          ImportanceMeasure measure, Rng& rng) {
    const int m = d.rows(), n = d.features();
    std::vector<double> imp(static_cast<std::size_t>(n), 0.0);
    std::vector<double> s(static_cast<std::size_t>(model.outputs())), s2(s.size());
    for (int a = 0; a < samples; ++a) {
        const int i = static_cast<int>(rng.below(static_cast<std::uint64_t>(m)));
        const int y = d.labels[static_cast<std::size_t>(i)];
        const std::span<const float> x = rowSpan(d, i);
        model.scores(x, s);
        const double margin0 = Scorer::marginOf(s, y);
        const double err0 = margin0 <= 0.0 ? 1.0 : 0.0;
        for (int f = 0; f < n; ++f) {
            const int r = donorRow(m, i, rng);
            const float v = d.value(r, f);
            if (v == x[static_cast<std::size_t>(f)]) continue;   // no change
            model.scoresWithChange(x, f, v, s, s2);
            const double margin1 = Scorer::marginOf(s2, y);
            imp[static_cast<std::size_t>(f)] +=
                measure == ImportanceMeasure::ErrorChange ? (margin1 <= 0.0 ? 1.0 : 0.0) - err0 : margin0 - margin1;
        }
    }
    double mx = 0.0;
    for (double& v : imp) {
        v = std::max(0.0, v / samples);
        mx = std::max(mx, v);
    }
    if (mx > 0.0)
        for (double& v : imp) v /= mx;
    return imp;
}

FeatureBoostFit fitFeatureBoost(const Dataset& d, const FeatureBoostParams& p, const RunControl& rc) {
    Stopwatch clock;
    p.validate();
    const int m = d.rows(), n = d.features(), K = d.numClasses(), T = p.rounds;
    if (m < 2) throw std::invalid_argument("feature-boost: needs at least two training rows");
    if (K < 2) throw std::invalid_argument("feature-boost: needs at least two classes");
    if (p.variant == FeatureBoostVariant::Hard && n < 2)
        throw std::invalid_argument("feature-boost: the hard variant needs at least two features");
    const RunControl inner{{}, rc.stop};
    const Rng base(p.seed);
    const bool scaleInputs = p.variant == FeatureBoostVariant::SoftScale && p.base.kind != BaseLearner::DecisionTree;

    FeatureBoostFit r;
    r.status = Status::MaxIterations;
    std::vector<EnsembleMember> members;
    std::vector<double> D(static_cast<std::size_t>(n), 1.0 / n);
    std::vector<std::vector<double>> impRows, distRows;
    std::shared_ptr<const Classifier> prev;   // h_t-1 (Hard variant; never input-scaled)
    double prevError = 0.0;

    for (int t = 1; t <= T; ++t) {
        if (rc.cancelled()) {
            r.status = Status::Cancelled;
            break;
        }
        // Independent streams per round and purpose.
        const Rng roundRng = base.split(static_cast<std::uint64_t>(t));
        Rng rngData = roundRng.split(1), rngMarg = roundRng.split(2), rngImp = roundRng.split(3);
        const double maxD = *std::max_element(D.begin(), D.end());

        // 1. The training set S_t (and the member's input transform).
        Dataset St = bare(d);
        BaseFitOptions opt;
        opt.seed = roundRng.split(4).next();
        std::vector<double> memberScale;
        int k = 0;
        double theta = 0.0;
        switch (p.variant) {
        case FeatureBoostVariant::Hard: {
            if (t == 1 || !prev) break;
            std::vector<double> R(static_cast<std::size_t>(n));
            for (int f = 0; f < n; ++f) R[static_cast<std::size_t>(f)] = 1.0 / D[static_cast<std::size_t>(f)];
            const int Ns = p.marginalisationSamples;
            // Common random numbers: rows, feature orders and donors, shared by every k.
            std::vector<int> rows(static_cast<std::size_t>(Ns));
            std::vector<std::vector<int>> orders(static_cast<std::size_t>(Ns));
            Dataset probe;
            probe.classNames = d.classNames;
            probe.labels.resize(static_cast<std::size_t>(Ns));
            probe.X.resize(Ns, n);
            Dataset::Matrix donorValues(Ns, n);
            for (int s = 0; s < Ns; ++s) {
                const int i = static_cast<int>(rngMarg.below(static_cast<std::uint64_t>(m)));
                rows[static_cast<std::size_t>(s)] = i;
                probe.labels[static_cast<std::size_t>(s)] = d.labels[static_cast<std::size_t>(i)];
                orders[static_cast<std::size_t>(s)] = weightedOrder(R, rngMarg);
                for (int f = 0; f < n; ++f) donorValues(s, f) = d.value(donorRow(m, i, rngMarg), f);
            }
            auto marginalised = [&](int kk) {
                for (int s = 0; s < Ns; ++s) {
                    probe.X.row(s) = d.X.row(rows[static_cast<std::size_t>(s)]);
                    const auto& o = orders[static_cast<std::size_t>(s)];
                    for (int a = 0; a < kk; ++a) {
                        const int f = o[static_cast<std::size_t>(a)];
                        probe.X(s, f) = donorValues(s, f);
                    }
                }
                return errorOf(*prev, probe);
            };
            const double Efull = marginalised(n);   // every feature from its own donor row
            theta = prevError + p.thresholdFraction * static_cast<double>(t - 1) / T * (Efull - prevError);
            int lo = 1, hi = n - 1;
            if (marginalised(hi) < theta) {
                k = hi;
            } else {
                while (lo < hi) {   // smallest k with Marginalise(k) >= theta
                    const int mid = lo + (hi - lo) / 2;
                    if (marginalised(mid) >= theta) hi = mid;
                    else lo = mid + 1;
                }
                k = lo;
            }
            // Marginalise k features of every training row, drawn by R.
            for (int i = 0; i < m; ++i) {
                const std::vector<int> o = weightedOrder(R, rngData);
                for (int a = 0; a < k; ++a) {
                    const int f = o[static_cast<std::size_t>(a)];
                    St.X(i, f) = d.value(donorRow(m, i, rngData), f);
                }
            }
            break;
        }
        case FeatureBoostVariant::SoftNoise: {
            for (int f = 0; f < n; ++f) {
                const double q = p.softStrength * (1.0 - D[static_cast<std::size_t>(f)] / maxD);
                if (q <= 0.0) continue;
                for (int i = 0; i < m; ++i)
                    if (rngData.uniform() < q) St.X(i, f) = d.value(donorRow(m, i, rngData), f);
            }
            break;
        }
        case FeatureBoostVariant::SoftScale: {
            std::vector<double> c(static_cast<std::size_t>(n));
            for (int f = 0; f < n; ++f) c[static_cast<std::size_t>(f)] = D[static_cast<std::size_t>(f)] / maxD;
            if (scaleInputs) {
                for (int i = 0; i < m; ++i)
                    for (int f = 0; f < n; ++f)
                        St.X(i, f) = static_cast<float>(d.value(i, f) * c[static_cast<std::size_t>(f)]);
                memberScale = c;
            } else {
                opt.gainScale = c;
            }
            break;
        }
        }

        // 2. Train h_t; its clean error and weight.
        const ClassifierFit h = fitBaseLearner(St, p.base, opt, inner);
        if (!h.model || h.status == Status::Cancelled) {
            r.status = Status::Cancelled;
            break;
        }
        // The clean training set as h_t sees it (scaled for SoftScale kNN / net).
        Dataset clean = bare(d);
        if (!memberScale.empty())
            for (int i = 0; i < m; ++i)
                for (int f = 0; f < n; ++f)
                    clean.X(i, f) = static_cast<float>(d.value(i, f) * memberScale[static_cast<std::size_t>(f)]);
        const double eps = errorOf(*h.model, clean);
        const double alpha = eps >= 1.0 - 1.0 / K ? 0.0 : boostingWeight(eps, K);

        // 3. Sensitivity analysis (marginalising a scaled feature = scaling a marginalised one).
        const std::vector<double> I = sensitivityImportance(*h.model, clean, p.importanceSamples, p.importance, rngImp);

        r.memberErrors.push_back(eps);
        r.alphas.push_back(alpha);
        if (p.variant == FeatureBoostVariant::Hard) {
            r.removed.push_back(k);
            r.thresholds.push_back(theta);
        }
        impRows.push_back(I);
        distRows.push_back(D);
        members.push_back({h.model, alpha, {}, memberScale});
        if (!scaleInputs) {
            prev = h.model;
            prevError = eps;
        }

        // 4. Move D away from the features h_t relied on.
        double Z = 0.0;
        for (int f = 0; f < n; ++f) {
            auto& df = D[static_cast<std::size_t>(f)];
            df *= std::exp(-p.updateScale * alpha * I[static_cast<std::size_t>(f)]);
            Z += df;
        }
        const double floor = p.distributionFloor / n;
        double Z2 = 0.0;
        for (auto& df : D) {
            df = std::max(df / Z, floor);
            Z2 += df;
        }
        for (auto& df : D) df /= Z2;

        rc.report(static_cast<double>(t) / T, t,
                  "round " + std::to_string(t) + ": error " + std::to_string(eps) +
                      (p.variant == FeatureBoostVariant::Hard ? ", removed " + std::to_string(k) : std::string()));
    }

    const auto rounds = static_cast<Eigen::Index>(impRows.size());
    r.importance.resize(rounds, n);
    r.distribution.resize(rounds, n);
    for (Eigen::Index a = 0; a < rounds; ++a)
        for (int f = 0; f < n; ++f) {
            r.importance(a, f) = impRows[static_cast<std::size_t>(a)][static_cast<std::size_t>(f)];
            r.distribution(a, f) = distRows[static_cast<std::size_t>(a)][static_cast<std::size_t>(f)];
        }
    r.iterations = static_cast<long>(rounds);
    r.message = std::to_string(rounds) + " rounds, " + toString(p.variant) +
                (r.status == Status::Cancelled ? " (cancelled)" : "");
    if (!members.empty()) {
        auto model = std::make_shared<VotingEnsemble>("feature-boost", n, d.classNames, std::move(members));
        model->setRecord(r.importance, r.distribution);
        r.trainingError = model->errorRate(d);
        r.model = std::move(model);
    } else if (r.status != Status::Cancelled) {
        r.status = Status::Failed;
    }
    r.elapsed = clock.seconds();
    return r;
}

}  // namespace fdlab
