#include "core/eval/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace fdlab {

double rocAuc(const std::vector<double>& scores, const std::vector<int>& labels) {
    const std::size_t m = scores.size();
    std::vector<std::size_t> idx(m);
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return scores[a] < scores[b]; });
    double rankSumPos = 0.0;
    std::size_t pos = 0;
    for (std::size_t a = 0; a < m;) {
        std::size_t b = a;
        while (b < m && scores[idx[b]] == scores[idx[a]]) ++b;
        const double avgRank = 0.5 * static_cast<double>(a + 1 + b);   // ranks a+1..b
        for (std::size_t k = a; k < b; ++k)
            if (labels[idx[k]] == 1) {
                rankSumPos += avgRank;
                ++pos;
            }
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
