#include "core/eval/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace fdlab {

double rocAuc(const std::vector<double>& scores, const std::vector<int>& labels) {
    // Sort (score, is-positive) pairs directly: an index sort through a comparator lambda is
    // several times slower, and the curves engine computes one AUC per level and repetition.
    const std::size_t m = scores.size();
    std::vector<std::pair<double, int>> v(m);
    for (std::size_t i = 0; i < m; ++i) v[i] = {scores[i], labels[i] == 1 ? 1 : 0};
    std::sort(v.begin(), v.end());
    double rankSumPos = 0.0;
    std::size_t pos = 0;
    for (std::size_t a = 0; a < m;) {
        std::size_t b = a, posHere = 0;
        while (b < m && v[b].first == v[a].first) posHere += static_cast<std::size_t>(v[b++].second);
        rankSumPos += 0.5 * static_cast<double>(a + 1 + b) * static_cast<double>(posHere);   // average rank of a+1..b
        pos += posHere;
        a = b;
    }
    const std::size_t neg = m - pos;
    if (pos == 0 || neg == 0) return std::numeric_limits<double>::quiet_NaN();
    const double p = static_cast<double>(pos);
    return (rankSumPos - p * (p + 1) / 2) / (p * static_cast<double>(neg));
}

MeanSe meanAndStandardError(const std::vector<double>& values) {
    MeanSe r;
    double sum = 0.0;
    for (double v : values)
        if (std::isfinite(v)) {
            sum += v;
            ++r.n;
        }
    if (r.n == 0) {
        r.mean = std::numeric_limits<double>::quiet_NaN();
        return r;
    }
    r.mean = sum / r.n;
    if (r.n > 1) {
        double ss = 0.0;
        for (double v : values)
            if (std::isfinite(v)) ss += (v - r.mean) * (v - r.mean);
        r.se = std::sqrt(ss / (r.n - 1)) / std::sqrt(static_cast<double>(r.n));
    }
    return r;
}

}  // namespace fdlab
