#include "core/attacks/random_deletion.h"

#include <algorithm>

namespace fdlab {

namespace {

// nz := the non-zero features of x, then `take` steps of a partial Fisher-Yates (take clamped to
// their count): nz[0..take) become a uniform random subset, in the order drawn. Step a draws
// rng.below(n - a) and swaps nz[a] with an entry at or after a, so the first K steps (the same
// draws from the same fresh stream) are the same for every take >= K and later steps never touch
// nz[0..K): the draw for K is the first K of the draw for any larger budget.
std::size_t drawNonZeros(const RowView& x, int take, Rng& rng, std::vector<int>& nz) {
    nz.clear();
    x.forEachNonZero([&](int j, float) { nz.push_back(j); });
    const std::size_t steps = std::min(nz.size(), static_cast<std::size_t>(std::max(take, 0)));
    for (std::size_t a = 0; a < steps; ++a) {
        const std::size_t b = a + static_cast<std::size_t>(rng.below(nz.size() - a));
        std::swap(nz[a], nz[b]);
    }
    return steps;
}

}  // namespace

std::vector<int> randomNonZeroDeletion(const RowView& x, int K, Rng& rng) {
    std::vector<int> nz;
    nz.resize(drawNonZeros(x, K, rng, nz));
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

// Each level deletes what the attack draws from row i's fresh stream (randomNonZeroDeletion):
// by drawNonZeros' prefix property that is the first K of one draw for the largest budget, so
// one draw per row serves all levels. Each level is scored in the one summation order of linear
// scores, so the curve is the attack's, bit for bit.
void randomDeletionLevels(const LinearModel& m, const Dataset& test, const AttackSpec& spec, const std::vector<int>& Ks,
                          const ScoreSink& sink) {
    const int most = Ks.empty() ? 0 : *std::max_element(Ks.begin(), Ks.end());
    std::vector<int> nz;
    scoreLinearDeletions(m, test, spec, Ks, sink,
                         [most, &nz](const RowView& x, int, std::span<const int> budgets, const Rng& stream,
                                     std::vector<std::vector<int>>& deleted) {
                             Rng rng = stream;
                             const std::size_t drawn = drawNonZeros(x, most, rng, nz);
                             sortedPrefixes(std::span<const int>(nz).first(drawn), budgets, deleted);
                         });
}

}  // namespace fdlab
