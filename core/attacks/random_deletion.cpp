#include "core/attacks/random_deletion.h"

#include <algorithm>

namespace fdlab {

std::vector<int> randomNonZeroDeletion(const RowView& x, int K, Rng& rng) {
    std::vector<int> nz;
    x.forEachNonZero([&](int j, float) { nz.push_back(j); });
    const std::size_t take = std::min(nz.size(), static_cast<std::size_t>(std::max(K, 0)));
    // Partial Fisher-Yates: the first `take` entries become a uniform random subset.
    for (std::size_t a = 0; a < take; ++a) {
        const std::size_t b = a + static_cast<std::size_t>(rng.below(nz.size() - a));
        std::swap(nz[a], nz[b]);
    }
    nz.resize(take);
    std::sort(nz.begin(), nz.end());
    return nz;
}

std::vector<int> randomNonZeroBlankout(const RowView& x, double p, Rng& rng) {
    std::vector<int> del;
    x.forEachNonZero([&](int j, float) {
        if (rng.bernoulli(p)) del.push_back(j);
    });
    return del;
}

std::vector<int> randomFeatureDrop(int feature, double p, Rng& rng) {
    if (rng.bernoulli(p)) return {feature};
    return {};
}

// Random deletion: one random permutation of the non-zeros per instance (the attack's own
// stream), deletion at budget K = its first K entries; scores summed from the survivors.
void randomDeletionLevels(const LinearModel& m, const Dataset& test, const AttackSpec& spec, const std::vector<int>& Ks,
                          const ScoreSink& sink) {
    const auto outs = static_cast<std::size_t>(m.W.cols());
    const Rng base(spec.seed);
    const int maxK = Ks.empty() ? 0 : *std::max_element(Ks.begin(), Ks.end());
    std::vector<double> after(outs);
    std::vector<std::pair<int, float>> nz;
    std::vector<double> suffix;   // (nnz+1) x outs: suffix[a] = sum over nz[a..] of W x
    for (int i = 0; i < test.rows(); ++i) {
        nz.clear();
        test.forEachNonZero(i, [&](int j, float v) { nz.emplace_back(j, v); });
        Rng rng = base.split(static_cast<std::uint64_t>(i));
        const bool hit = spec.attacks(test.labels[static_cast<std::size_t>(i)]);
        const std::size_t take = hit ? std::min(nz.size(), static_cast<std::size_t>(maxK)) : 0;
        for (std::size_t a = 0; a < take; ++a) {
            const std::size_t b = a + static_cast<std::size_t>(rng.below(nz.size() - a));
            std::swap(nz[a], nz[b]);
        }
        suffix.assign((nz.size() + 1) * outs, 0.0);
        for (std::size_t a = nz.size(); a > 0; --a)
            for (std::size_t k = 0; k < outs; ++k)
                suffix[(a - 1) * outs + k] = suffix[a * outs + k] +
                    m.W(nz[a - 1].first, static_cast<Eigen::Index>(k)) * static_cast<double>(nz[a - 1].second);
        for (std::size_t l = 0; l < Ks.size(); ++l) {
            const std::size_t K = std::min(take, static_cast<std::size_t>(Ks[l]));
            for (std::size_t k = 0; k < outs; ++k) after[k] = m.b(static_cast<Eigen::Index>(k)) + suffix[K * outs + k];
            sink(i, l, after);
        }
    }
}

}  // namespace fdlab
