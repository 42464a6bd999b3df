#include "core/attacks/corruption.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace fdlab {

namespace {

[[noreturn]] void badGroups(const std::string& field, const std::string& msg) {
    throw std::invalid_argument("attack " + field + ": " + msg);
}

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

std::vector<FeatureGroup> groupCorruptionGroups(const nlohmann::json& params, const Dataset& d) {
    const std::vector<int> regions = params.value("regions", std::vector<int>{});
    if (!regions.empty()) {
        if (regions.size() != 2) badGroups("regions", "expected [rows, cols] of pixels per region, both >= 1");
        if (!d.imageShape) badGroups("regions", "image regions need image data (dataset '" + d.name + "' has no image shape)");
        return imageRegionGroups(*d.imageShape, regions[0], regions[1]);
    }
    std::vector<FeatureGroup> out;
    const nlohmann::json groups = params.value("groups", nlohmann::json::array());
    if (!groups.is_array()) badGroups("groups", "expected a list of {name, begin, end} or {name, features}");
    for (const nlohmann::json& g : groups) {
        if (!g.is_object()) badGroups("groups", "expected {name, begin, end} or {name, features}, got " + g.dump());
        FeatureGroup fg;
        try {
            fg.name = g.value("name", std::string());
            fg.begin = g.value("begin", 0);
            fg.end = g.value("end", 0);
            fg.features = g.value("features", std::vector<int>{});
        } catch (const nlohmann::json::exception&) {
            badGroups("groups", "group " + g.dump() + ": name is a string, begin/end whole numbers, features a list of them");
        }
        out.push_back(std::move(fg));
    }
    return out;
}

}  // namespace fdlab
