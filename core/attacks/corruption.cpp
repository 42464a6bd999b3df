#include "core/attacks/corruption.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace fdlab {

namespace {

// k distinct indices out of [0, n), increasing.
std::vector<int> choose(int n, int k, Rng& rng) {
    std::vector<int> idx(static_cast<std::size_t>(n));
    std::iota(idx.begin(), idx.end(), 0);
    for (int a = 0; a < k; ++a) std::swap(idx[static_cast<std::size_t>(a)], idx[static_cast<std::size_t>(a + static_cast<int>(rng.below(static_cast<std::uint64_t>(n - a))))]);
    idx.resize(static_cast<std::size_t>(k));
    std::sort(idx.begin(), idx.end());
    return idx;
}

int donorRow(const Dataset& donors, int self, Rng& rng) {
    const int m = donors.rows();
    if (m <= 1 || self < 0 || self >= m) return static_cast<int>(rng.below(static_cast<std::uint64_t>(m)));
    // Uniform over the other m - 1 rows.
    int r = static_cast<int>(rng.below(static_cast<std::uint64_t>(m - 1)));
    return r >= self ? r + 1 : r;
}

int countFor(double fraction, int total) {
    return std::clamp(static_cast<int>(std::lround(fraction * total)), 0, total);
}

}  // namespace

std::vector<int> corruptFeatures(std::span<float> x, double fraction, const Dataset& donors, int self, Rng& rng) {
    const int n = static_cast<int>(x.size());
    std::vector<int> chosen = choose(n, countFor(fraction, n), rng);
    for (int j : chosen) x[static_cast<std::size_t>(j)] = donors.value(donorRow(donors, self, rng), j);
    return chosen;
}

std::vector<int> corruptGroups(std::span<float> x, double fraction, const std::vector<FeatureGroup>& groups,
                               const Dataset& donors, int self, Rng& rng) {
    const int G = static_cast<int>(groups.size());
    std::vector<int> features;
    for (int g : choose(G, countFor(fraction, G), rng)) {
        const FeatureGroup& grp = groups[static_cast<std::size_t>(g)];
        const int donor = donorRow(donors, self, rng);
        for (int j : grp.members()) {
            x[static_cast<std::size_t>(j)] = donors.value(donor, j);
            features.push_back(j);
        }
    }
    std::sort(features.begin(), features.end());
    return features;
}

}  // namespace fdlab
