#include "core/solvers/knapsack_bb.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>

namespace fdlab {

void BranchAndBoundParams::validate() const {
    if (maxNodes < 1) throw std::invalid_argument("branch and bound: maxNodes must be >= 1");
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A branch whose bound ties the best set found so far, up to this relative rounding, is pruned:
/// one optimal set is all the search needs, and equal sets summed in another order differ in
/// their last bits (5 x 0.7 in one sum is not 3 x 0.7 + 2 x 0.7), which without it kept the search
/// going through every arrangement of equal items.
constexpr double kTie = 1e-13;

// The candidate items grouped by equal (p_j, v_j), groups ordered by p/v largest first, with
// prefix sums over whole groups for the fractional bounds.
struct Groups {
    std::vector<double> p, v;                ///< per group: one item's profit and weight
    std::vector<std::vector<int>> items;     ///< per group: its item indices, increasing
    std::vector<double> W, P, C;             ///< W[g], P[g], C[g]: weight, profit, items of groups 0..g-1
    /// sameWeight[g]: the weight every item of groups g..G-1 has, else 0. From there on the
    /// ratio order is the profit order and a set's weight is its size times it, so the bounds
    /// count whole items (the fractional bound alone cannot prove "k items" optimal when k + 0.3
    /// fit, and the search would try every set of k near-equal items: sorting is exact there).
    std::vector<double> sameWeight;
    int size() const { return static_cast<int>(p.size()); }
    double count(int g) const { return static_cast<double>(items[static_cast<std::size_t>(g)].size()); }
};

template <class Keep>
Groups groupsByRatio(const std::vector<double>& profit, const std::vector<double>& weight, Keep keep) {
    std::vector<int> idx;
    for (std::size_t j = 0; j < profit.size(); ++j)
        if (profit[j] > 0.0 && keep(j)) idx.push_back(static_cast<int>(j));
    const auto at = [](const std::vector<double>& a, int j) { return a[static_cast<std::size_t>(j)]; };
    // The ratio as one double gives a strict weak order (cross products need not); ties by
    // profit, weight, index put equal items next to each other, lowest index first.
    std::sort(idx.begin(), idx.end(), [&](int a, int b) {
        const double ra = at(profit, a) / at(weight, a), rb = at(profit, b) / at(weight, b);
        if (ra != rb) return ra > rb;
        if (at(profit, a) != at(profit, b)) return at(profit, a) > at(profit, b);
        if (at(weight, a) != at(weight, b)) return at(weight, a) < at(weight, b);
        return a < b;
    });
    Groups g;
    for (int j : idx) {
        if (g.p.empty() || g.p.back() != at(profit, j) || g.v.back() != at(weight, j)) {
            g.p.push_back(at(profit, j));
            g.v.push_back(at(weight, j));
            g.items.emplace_back();
        }
        g.items.back().push_back(j);
    }
    g.W.assign(1, 0.0);
    g.P.assign(1, 0.0);
    g.C.assign(1, 0.0);
    for (int k = 0; k < g.size(); ++k) {
        g.W.push_back(g.W.back() + g.count(k) * g.v[static_cast<std::size_t>(k)]);
        g.P.push_back(g.P.back() + g.count(k) * g.p[static_cast<std::size_t>(k)]);
        g.C.push_back(g.C.back() + g.count(k));
    }
    g.sameWeight.assign(g.p.size() + 1, 0.0);
    for (int k = g.size() - 1; k >= 0; --k) {
        const auto at = static_cast<std::size_t>(k);
        g.sameWeight[at] = k == g.size() - 1 || g.sameWeight[at + 1] == g.v[at] ? g.v[at] : 0.0;
    }
    return g;
}

// Depth-first search over "how many items of group g", shared by both problems. Node g's state
// (weight and profit of the choices for groups 0..g-1) is kept per depth, so backtracking
// recomputes it from the level above instead of subtracting (no drift). The problem supplies:
//   first(g, weight, profit): the count to try first at group g (the greedy choice);
//   done(weight, profit): whether this partial set is a complete answer (a leaf);
//   hopeless(g, weight, profit): the fractional bound says nothing better lies below;
//   record(g, weight, profit): a leaf at depth g; its set is take[0..g-1] (the counts of
//   deeper groups are left over from other branches: see prefixOf).
// Counts are tried from first() down to 0. Returns false when the node budget ran out.
template <class First, class Done, class Hopeless, class Record>
bool depthFirst(const Groups& gs, long maxNodes, std::vector<int>& take, First first, Done done, Hopeless hopeless,
                Record record) {
    const int G = gs.size();
    const auto u = [](int g) { return static_cast<std::size_t>(g); };
    take.assign(u(G), 0);
    std::vector<double> wAt(u(G) + 1, 0.0), pAt(u(G) + 1, 0.0);
    long nodes = 0;
    int g = 0;
    bool down = true;
    while (true) {
        if (down) {
            if (done(g, wAt[u(g)], pAt[u(g)])) {
                record(g, wAt[u(g)], pAt[u(g)]);
                down = false;
            } else if (g == G || hopeless(g, wAt[u(g)], pAt[u(g)])) {
                down = false;
            } else {
                take[u(g)] = first(g, wAt[u(g)], pAt[u(g)]);
            }
        } else {
            // back to the deepest group with something left to give up
            int h = g - 1;
            while (h >= 0 && take[u(h)] == 0) --h;
            if (h < 0) return true;
            --take[u(h)];
            g = h;
            down = true;
        }
        if (down) {
            if (++nodes > maxNodes) return false;
            const double t = take[u(g)];
            wAt[u(g) + 1] = wAt[u(g)] + t * gs.v[u(g)];
            pAt[u(g) + 1] = pAt[u(g)] + t * gs.p[u(g)];
            ++g;
        }
    }
}

// A leaf's counts at depth g: take[0..g-1], nothing from the deeper groups.
std::vector<int> prefixOf(const std::vector<int>& take, int g) {
    std::vector<int> t(take.begin(), take.begin() + g);
    t.resize(take.size(), 0);
    return t;
}

std::vector<int> chosenOf(const Groups& gs, const std::vector<int>& take) {
    std::vector<int> chosen;
    for (std::size_t g = 0; g < take.size(); ++g)
        chosen.insert(chosen.end(), gs.items[g].begin(), gs.items[g].begin() + take[g]);
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

std::string shortNumber(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", x);
    return buf;
}

std::string tooLong(long maxNodes, int groups, const std::string& what) {
    return "the exact value-budget adversary gave up after " + std::to_string(maxNodes) +
           " search steps on one instance (" + std::to_string(groups) + " distinct feature damages and prices, " +
           what + "): many features trade damage for price almost equally, and proving the optimum would take too " +
           "long. Use the greedy adversary (worst-case-value-greedy), or prices that are whole multiples of " +
           "1/knapsack_scale, for which an exact table is used";
}

}  // namespace

double coverSum(const std::vector<double>& profit, const std::vector<int>& chosen) {
    std::vector<double> values;
    values.reserve(chosen.size());
    for (int j : chosen) values.push_back(profit[static_cast<std::size_t>(j)]);
    std::sort(values.begin(), values.end(), std::greater<>());
    double s = 0.0;
    for (double v : values) s += v;
    return s;
}

KnapsackResult branchAndBoundKnapsack(const std::vector<double>& profit, const std::vector<double>& weight,
                                      double capacity, const BranchAndBoundParams& params) {
    checkKnapsackInput(profit, weight, capacity, "branch-and-bound knapsack");
    params.validate();
    const double limit = budgetLimit(capacity);
    const Groups gs = groupsByRatio(profit, weight, [&](std::size_t j) { return weight[j] <= limit; });
    const int G = gs.size();
    const auto u = [](int g) { return static_cast<std::size_t>(g); };
    // lightest[g]: the lightest item of groups g..G-1; nothing fits once the room is below it
    std::vector<double> lightest(u(G) + 1, kInf);
    for (int g = G - 1; g >= 0; --g) lightest[u(g)] = std::min(lightest[u(g) + 1], gs.v[u(g)]);

    double best = 0.0;   // the empty set
    std::vector<int> take, bestTake;
    const auto first = [&](int g, double w, double) {
        const double v = gs.v[u(g)];
        int t = static_cast<int>(std::min(gs.count(g), std::floor((limit - w) / v)));
        while (t > 0 && w + t * v > limit) --t;   // the division may round up
        return std::max(t, 0);
    };
    const auto done = [&](int g, double w, double) { return g == G || w + lightest[u(g)] > limit; };
    // Dantzig's bound: whole groups by ratio while they fit, then a fraction of the next one.
    // With one weight left: the most profitable items that fit whole (rounded up a hair, so it
    // stays an upper bound).
    const auto hopeless = [&](int g, double w, double p) {
        const double room = limit - w, same = gs.sameWeight[u(g)];
        if (same > 0.0) {
            const double t = std::min(gs.C[u(G)] - gs.C[u(g)], std::floor(room / same * (1.0 + 1e-12)));
            const auto end = std::upper_bound(gs.C.begin() + g, gs.C.end(), gs.C[u(g)] + t);
            const int k = static_cast<int>(end - gs.C.begin()) - 1;   // groups g..k-1 whole
            double bound = p + (gs.P[u(k)] - gs.P[u(g)]);
            if (k < G) bound += (t - (gs.C[u(k)] - gs.C[u(g)])) * gs.p[u(k)];
            return bound <= best * (1.0 + kTie);
        }
        const auto end = std::upper_bound(gs.W.begin() + g, gs.W.end(), gs.W[u(g)] + room);
        const int k = static_cast<int>(end - gs.W.begin()) - 1;   // groups g..k-1 fit whole
        double bound = p + (gs.P[u(k)] - gs.P[u(g)]);
        if (k < G) bound += (room - (gs.W[u(k)] - gs.W[u(g)])) * (gs.p[u(k)] / gs.v[u(k)]);
        return bound <= best * (1.0 + kTie);
    };
    const auto record = [&](int g, double, double p) {
        if (p > best) {
            best = p;
            bestTake = prefixOf(take, g);
        }
    };
    if (!depthFirst(gs, params.maxNodes, take, first, done, hopeless, record))
        throw std::invalid_argument(tooLong(params.maxNodes, G, "budget N = " + shortNumber(capacity)));
    KnapsackResult r;
    if (!bestTake.empty()) r.chosen = chosenOf(gs, bestTake);
    r.value = valueOf(profit, r.chosen);
    return r;
}

CoverResult branchAndBoundCover(const std::vector<double>& profit, const std::vector<double>& weight, double demand,
                                const BranchAndBoundParams& params, const CoverAccept& accept, double sure) {
    checkKnapsackInput(profit, weight, 0.0, "branch-and-bound cover");
    if (!std::isfinite(demand)) throw std::invalid_argument("branch-and-bound cover: the demand must be finite");
    if (!(sure >= 0.0) || !std::isfinite(sure))
        throw std::invalid_argument("branch-and-bound cover: the sure margin must be finite and >= 0");
    params.validate();
    CoverResult r;
    if (demand <= 0.0 && (!accept || demand + sure <= 0.0 || accept({}))) {
        r.cost = 0.0;
        return r;
    }
    double best = kInf;
    std::vector<int> take, bestTake;
    const Groups gs = groupsByRatio(profit, weight, [](std::size_t) { return true; });
    const int G = gs.size();
    const auto u = [](int g) { return static_cast<std::size_t>(g); };
    // Whether a set covers the demand is decided on coverSum, which every choice of the same
    // counts per group gives to the last bit (the group's items have one profit), so searching
    // counts instead of members loses no set. The search sums in its own order and from prefix
    // sums, within `slack` of coverSum (rounding is below n * 2^-53 of the summed profits, far
    // below 1e-10 of them); only a sum that close to the demand needs the set summed again, and
    // only a shortfall beyond it makes a branch hopeless.
    const double slack = 1e-10 * (demand + gs.P[u(G)]);
    // The greedy choice: as many items as surely cover what the demand still needs, no more
    // (counts below are tried next, down to 0).
    // With `accept`: as many as surely need no asking (more would only cost more than an accepted
    // set), so every count a refusal may call for is tried below it.
    const double target = demand + slack + (accept ? sure : 0.0);
    const auto first = [&](int g, double, double p) {
        const double each = gs.p[u(g)];
        int t = static_cast<int>(std::min(gs.count(g), std::ceil((target - p) / each)));
        while (t < gs.count(g) && p + t * each < target) ++t;   // the division may round down
        while (t > 0 && p + (t - 1) * each >= target) --t;
        return std::max(t, 0);
    };
    std::vector<int> refused;   // the last set `accept` refused (met again along zero counts)
    const auto done = [&](int g, double, double p) {
        const bool covers = p >= demand + slack || p < demand - slack
                                ? p >= demand
                                : coverSum(profit, chosenOf(gs, prefixOf(take, g))) >= demand;
        if (!covers || !accept || p >= demand + sure + slack) return covers;
        std::vector<int> set = chosenOf(gs, prefixOf(take, g));
        if (set == refused) return false;
        if (accept(set)) return true;
        refused = std::move(set);
        return false;
    };
    // The LP relaxation's cost: whole groups by ratio until the next one covers the rest, then
    // the fraction of it that does; +infinity (hopeless) when all of them fall short. With one
    // weight left: that weight times the fewest items that cover the rest (the most profitable
    // first), counted for the demand less `slack` and rounded down a hair, so it stays a lower
    // bound for every set the canonical sum accepts.
    const auto hopeless = [&](int g, double w, double p) {
        const double rest = demand - p, same = gs.sameWeight[u(g)];
        if (gs.P[u(G)] - gs.P[u(g)] < rest - slack) return true;
        if (same > 0.0) {
            const double need = rest - slack;
            if (need <= 0.0) return w >= best * (1.0 - kTie);
            const auto end = std::lower_bound(gs.P.begin() + g, gs.P.end(), gs.P[u(g)] + need);
            const int k = std::max(g, static_cast<int>(end - gs.P.begin()) - 1);   // groups g..k-1 fall short
            double items = gs.C[u(k)] - gs.C[u(g)];
            if (k < G) items += std::ceil((need - (gs.P[u(k)] - gs.P[u(g)])) / gs.p[u(k)] * (1.0 - 1e-12));
            return w + items * same >= best * (1.0 - kTie);
        }
        const auto end = std::lower_bound(gs.P.begin() + g, gs.P.end(), gs.P[u(g)] + rest);
        const int k = std::max(g, static_cast<int>(end - gs.P.begin()) - 1);   // groups g..k-1 fall short
        double bound = w + (gs.W[u(k)] - gs.W[u(g)]);
        if (k < G) bound += (rest - (gs.P[u(k)] - gs.P[u(g)])) * (gs.v[u(k)] / gs.p[u(k)]);
        return bound >= best * (1.0 - kTie);
    };
    const auto record = [&](int g, double w, double) {
        if (w < best) {
            best = w;
            bestTake = prefixOf(take, g);
        }
    };
    if (!depthFirst(gs, params.maxNodes, take, first, done, hopeless, record))
        throw std::invalid_argument(tooLong(params.maxNodes, G, "the cheapest deletion that flips it"));
    if (bestTake.empty()) return r;
    r.chosen = chosenOf(gs, bestTake);
    r.cost = valueOf(weight, r.chosen);
    return r;
}

}  // namespace fdlab
