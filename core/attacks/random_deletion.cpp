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

// Each level draws what the attack draws (randomNonZeroDeletion from row i's stream) and is scored
// in the one summation order of linear scores, so the curve is the attack's, bit for bit.
void randomDeletionLevels(const LinearModel& m, const Dataset& test, const AttackSpec& spec, const std::vector<int>& Ks,
                          const ScoreSink& sink) {
    scoreLinearDeletions(m, test, spec, Ks, sink,
                         [](const RowView& x, int, int K, Rng& rng) { return randomNonZeroDeletion(x, K, rng); });
}

}  // namespace fdlab
