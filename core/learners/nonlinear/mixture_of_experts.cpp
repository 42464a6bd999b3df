#include "core/learners/nonlinear/mixture_of_experts.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace fdlab {

const char* toString(VoteRule v) { return v == VoteRule::Majority ? "majority" : "weighted"; }

void MixtureParams::validate() const {
    base.validate();
    if (members < 1 || members > 1000)
        throw std::invalid_argument("members: must be in 1..1000, got " + std::to_string(members));
    if (!(subsetFraction > 0.0 && subsetFraction <= 1.0))
        throw std::invalid_argument("mixture of experts: subset fraction: must be in (0, 1]");
}

ModelFit<VotingEnsemble> fitMixtureOfExperts(const Dataset& d, const MixtureParams& p, const RunControl& rc) {
    Stopwatch clock;
    p.validate();
    if (d.rows() < 1) throw std::invalid_argument("mixture-of-experts: empty training set");
    if (d.numClasses() < 2) throw std::invalid_argument("mixture-of-experts: needs at least two classes");
    const int n = d.features();
    const int size = std::max(1, static_cast<int>(std::lround(p.subsetFraction * n)));
    const RunControl inner{{}, rc.stop};
    const Rng base(p.seed);

    ModelFit<VotingEnsemble> r;
    r.status = Status::Converged;
    std::vector<EnsembleMember> members;
    for (int t = 0; t < p.members; ++t) {
        if (rc.cancelled()) {
            r.status = Status::Cancelled;
            break;
        }
        Rng rng = base.split(static_cast<std::uint64_t>(t));
        std::vector<int> all(static_cast<std::size_t>(n));
        std::iota(all.begin(), all.end(), 0);
        rng.shuffle(all);
        std::vector<int> cols(all.begin(), all.begin() + size);
        std::sort(cols.begin(), cols.end());
        Dataset sub;
        sub.classNames = d.classNames;
        sub.labels = d.labels;
        sub.X.resize(d.rows(), size);
        for (int c = 0; c < size; ++c) sub.X.col(c) = d.X.col(cols[static_cast<std::size_t>(c)]);
        BaseFitOptions opt;
        opt.seed = rng.next();
        const ClassifierFit h = fitBaseLearner(sub, p.base, opt, inner);
        if (!h.model || h.status == Status::Cancelled) {
            r.status = Status::Cancelled;
            break;
        }
        const double w = p.vote == VoteRule::Majority ? 1.0 : boostingWeight(h.trainingError, d.numClasses());
        members.push_back({h.model, w, std::move(cols), {}});
        rc.report(static_cast<double>(t + 1) / p.members, t + 1, "member " + std::to_string(t + 1));
    }
    r.iterations = static_cast<long>(members.size());
    r.message = std::to_string(members.size()) + " members on " + std::to_string(size) + " of " + std::to_string(n) +
                " features, " + toString(p.vote) + " vote" + (r.status == Status::Cancelled ? " (cancelled)" : "");
    if (!members.empty()) {
        auto model = std::make_shared<VotingEnsemble>("mixture-of-experts", n, d.classNames, std::move(members));
        r.trainingError = model->errorRate(d);
        r.model = std::move(model);
    } else if (r.status != Status::Cancelled) {
        r.status = Status::Failed;
    }
    r.elapsed = clock.seconds();
    return r;
}

}  // namespace fdlab
