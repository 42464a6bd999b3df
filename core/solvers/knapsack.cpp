#include "core/solvers/knapsack.h"

#include <algorithm>
#include <limits>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace fdlab {

void checkKnapsackInput(const std::vector<double>& profit, const std::vector<double>& weight, double capacity,
                        const char* who) {
    if (weight.size() != profit.size())
        throw std::invalid_argument(std::string(who) + ": weight has " + std::to_string(weight.size()) +
                                    " entries, profit " + std::to_string(profit.size()));
    for (std::size_t j = 0; j < weight.size(); ++j)
        if (!(weight[j] > 0.0) || !std::isfinite(weight[j]))
            throw std::invalid_argument(std::string(who) + ": weight[" + std::to_string(j) +
                                        "] must be finite and > 0");
    if (!(capacity >= 0.0) || !std::isfinite(capacity))
        throw std::invalid_argument(std::string(who) + ": capacity must be finite and >= 0");
}

namespace {

/// Whether an item of weight v fits next to `used` in `capacity`. Weights are summed in floating
/// point, where 0.1 + 0.1 + 0.1 > 0.3: a set fits when its summed weight exceeds the capacity by at
/// most kBudgetTolerance relative to it (rounding), never by a whole item. Relative, so a budget of
/// 0 admits nothing however small the weights are. The DP's integer capacity applies the same rule.
bool fits(double used, double v, double capacity) { return used + v <= budgetLimit(capacity); }

/// The DP's limits: weights in whole units of 1/scale, a table of at most kMaxDpUnits columns.
constexpr double kMaxDpUnits = 1e7;
bool wholeUnit(double scaled) { return std::abs(scaled - std::round(scaled)) <= 1e-9; }

/// Indices of the positive profits, ordered by ratio p_j / v_j descending (ties: lower index first).
std::vector<int> byRatio(const std::vector<double>& profit, const std::vector<double>& weight) {
    std::vector<int> idx;
    for (std::size_t j = 0; j < profit.size(); ++j)
        if (profit[j] > 0.0) idx.push_back(static_cast<int>(j));
    // Compare p_a v_b with p_b v_a rather than the ratios, so equal ratios compare equal exactly
    // when the products agree (keeps the tie rule meaningful for v_j = 1).
    std::sort(idx.begin(), idx.end(), [&](int a, int b) {
        const double ra = profit[static_cast<std::size_t>(a)] * weight[static_cast<std::size_t>(b)];
        const double rb = profit[static_cast<std::size_t>(b)] * weight[static_cast<std::size_t>(a)];
        if (ra != rb) return ra > rb;
        return a < b;
    });
    return idx;
}

}  // namespace

// Every solver sums its set this way (increasing index order), so the same set has the same value
// whichever solver found it (the LP bound is never below the exact optimum by a rounding when both
// take the same items).
double valueOf(const std::vector<double>& profit, std::span<const int> chosen) {
    double s = 0.0;
    for (int j : chosen) s += profit[static_cast<std::size_t>(j)];
    return s;
}

void rankPositiveProfits(const std::vector<double>& profit, std::size_t top, std::vector<int>& ranked) {
    ranked.clear();
    for (std::size_t j = 0; j < profit.size(); ++j)
        if (profit[j] > 0.0) ranked.push_back(static_cast<int>(j));
    auto better = [&](int a, int b) {
        const double pa = profit[static_cast<std::size_t>(a)], pb = profit[static_cast<std::size_t>(b)];
        if (pa != pb) return pa > pb;
        return a < b;
    };
    // A partial sort is enough when top < n: O(n log top) instead of O(n log n).
    if (top < ranked.size())
        std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(top), ranked.end(), better);
    else
        std::sort(ranked.begin(), ranked.end(), better);
}

KnapsackResult topKProfits(const std::vector<double>& profit, int K) {
    if (K < 0) throw std::invalid_argument("worst-case deletion: K must be >= 0, got " + std::to_string(K));
    KnapsackResult r;
    if (K == 0) return r;
    std::vector<int> idx;
    rankPositiveProfits(profit, static_cast<std::size_t>(K), idx);
    idx.resize(std::min(idx.size(), static_cast<std::size_t>(K)));
    std::sort(idx.begin(), idx.end());
    r.value = valueOf(profit, idx);
    r.chosen = std::move(idx);
    return r;
}

KnapsackResult greedyKnapsack(const std::vector<double>& profit, const std::vector<double>& weight,
                              double capacity) {
    checkKnapsackInput(profit, weight, capacity, "greedy knapsack");
    KnapsackResult r;
    double used = 0.0;
    for (int j : byRatio(profit, weight)) {
        const double v = weight[static_cast<std::size_t>(j)];
        if (fits(used, v, capacity)) {
            used += v;
            r.chosen.push_back(j);
        }
    }
    std::sort(r.chosen.begin(), r.chosen.end());
    r.value = valueOf(profit, r.chosen);
    return r;
}

KnapsackResult fractionalKnapsack(const std::vector<double>& profit, const std::vector<double>& weight,
                                  double capacity) {
    checkKnapsackInput(profit, weight, capacity, "fractional knapsack");
    KnapsackResult r;
    double used = 0.0;
    for (int j : byRatio(profit, weight)) {
        const double v = weight[static_cast<std::size_t>(j)];
        if (fits(used, v, capacity)) {
            used += v;
            r.chosen.push_back(j);
        } else {
            // The LP optimum takes the first item that does not fit in part, and stops.
            if (used < capacity) {
                r.fractionalItem = j;
                r.fraction = (capacity - used) / v;
            }
            break;
        }
    }
    std::sort(r.chosen.begin(), r.chosen.end());
    r.value = valueOf(profit, r.chosen);
    if (r.fractionalItem >= 0) r.value += r.fraction * profit[static_cast<std::size_t>(r.fractionalItem)];
    return r;
}

long knapsackCapacityUnits(double capacity, double scale) {
    // The same tolerance as fits(): a capacity of 0.29 at scale 100 is 28.999999999999996 units.
    const double units = std::floor(capacity * scale * (1.0 + kBudgetTolerance));
    if (!(units < 1e18)) return units > 0 ? std::numeric_limits<long>::max() : 0;   // no undefined conversion
    return std::max(0L, static_cast<long>(units));
}

bool dpAccepts(const std::vector<double>& weight, double capacity, double scale) {
    if (!(scale > 0.0) || !std::isfinite(scale) || !(capacity * scale <= kMaxDpUnits)) return false;
    // A price below half a unit would round to a free deletion: not on the grid.
    return std::all_of(weight.begin(), weight.end(),
                       [scale](double w) { return wholeUnit(w * scale) && std::round(w * scale) >= 1.0; });
}

KnapsackResult exactKnapsack(const std::vector<double>& profit, const std::vector<double>& weight, double capacity,
                             double scale) {
    checkKnapsackInput(profit, weight, capacity, "exact knapsack");
    if (!(scale > 0.0) || !std::isfinite(scale))
        throw std::invalid_argument("value-budget knapsack: scale must be finite and > 0");
    const double capScaled = capacity * scale;
    if (capScaled > kMaxDpUnits)
        throw std::invalid_argument("value-budget knapsack: capacity*scale = " + std::to_string(capScaled) +
                                    " exceeds 10^7 (DP table too large)");
    const long W = knapsackCapacityUnits(capacity, scale);

    // Only positive profits that fit on their own can be part of an optimum.
    std::vector<int> items;
    std::vector<long> w;
    for (std::size_t j = 0; j < profit.size(); ++j) {
        const double s = weight[j] * scale;
        const double rs = std::round(s);
        if (!wholeUnit(s) || rs < 1.0)
            throw std::invalid_argument("value-budget knapsack: weight[" + std::to_string(j) + "]*scale = " +
                                        std::to_string(s) + " is not a whole number of units >= 1");
        // Compared as doubles: a price of 1e19 units is a whole number too, but converting it to
        // long is undefined (it came out as LONG_MIN, "fitted" and indexed before the table).
        if (profit[j] > 0.0 && rs <= static_cast<double>(W)) {
            items.push_back(static_cast<int>(j));
            w.push_back(static_cast<long>(rs));
        }
    }
    const std::size_t cols = static_cast<std::size_t>(W) + 1;
    std::vector<double> best(cols, 0.0);
    // take[k * cols + c]: item k improves the optimum of capacity c among items 0..k.
    std::vector<char> take(items.size() * cols, 0);
    for (std::size_t k = 0; k < items.size(); ++k) {
        const double p = profit[static_cast<std::size_t>(items[k])];
        const long wk = w[k];
        for (long c = W; c >= wk; --c) {
            const double cand = best[static_cast<std::size_t>(c - wk)] + p;
            if (cand > best[static_cast<std::size_t>(c)]) {
                best[static_cast<std::size_t>(c)] = cand;
                take[k * cols + static_cast<std::size_t>(c)] = 1;
            }
        }
    }
    KnapsackResult r;
    long c = W;
    for (std::size_t k = items.size(); k-- > 0;) {
        if (take[k * cols + static_cast<std::size_t>(c)]) {
            r.chosen.push_back(items[k]);
            c -= w[k];
        }
    }
    std::sort(r.chosen.begin(), r.chosen.end());
    r.value = valueOf(profit, r.chosen);
    return r;
}

}  // namespace fdlab
