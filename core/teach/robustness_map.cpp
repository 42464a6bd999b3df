#include "core/teach/robustness_map.h"

#include "core/attacks/threat_registry.h"

#include "core/solvers/knapsack.h"
#include "core/util/parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fdlab {

PlayBudget budgetOfThreat(const AttackSpec& attack, const Dataset& test) {
    PlayBudget b;
    if (attack.threat.rfind("worst-case-value", 0) != 0) return b;   // count K
    b.byValue = true;
    b.prices = test.importance;
    const nlohmann::json p = attack.completeParams();
    b.knapsackScale = p.value("knapsack_scale", 1.0);
    return b;
}

double RobustnessMap::fractionFlipped(int which, double budget) const {
    const std::vector<double>& need = which == 0 ? needA : needB;
    if (need.empty()) return std::numeric_limits<double>::quiet_NaN();
    const auto fits = [&](double v) {
        if (!byValue || !std::isfinite(v)) return v <= budget;
        if (!wholeUnits) return v <= budgetLimit(budget);
        return std::llround(v * knapsackScale) <= knapsackCapacityUnits(budget, knapsackScale);
    };
    const auto n = std::count_if(need.begin(), need.end(), fits);
    return static_cast<double>(n) / static_cast<double>(need.size());
}

RobustnessCounts RobustnessMap::counts() const {
    RobustnessCounts c;
    for (std::size_t i = 0; i < static_cast<std::size_t>(done); ++i) {
        const double a = needA[i], b = needB[i];
        if (spared[i]) {
            ++c.spared;
            c.sparedWrongA += a == 0.0;
            c.sparedWrongB += b == 0.0;
            continue;
        }
        c.neverA += !std::isfinite(a);
        c.neverB += !std::isfinite(b);
        (b < a ? c.below : b > a ? c.above : c.equal) += 1;
    }
    return c;
}

RobustnessMap robustnessMap(const Dataset& test, const TrainedModel& a, const TrainedModel& b,
                            const AttackSpec& attack, const RunControl& rc) {
    const PlayBudget budget = budgetOfThreat(attack, test);
    budget.validatePrices(test.features());
    RobustnessMap r;
    r.byValue = budget.byValue;
    r.knapsackScale = budget.knapsackScale;
    // deletionsToFlip bisects on the grid for an instance whose prices are all on it, so when every
    // price is, every need is a whole number of units
    r.wholeUnits = !budget.byValue || dpAccepts(budget.prices, test.totalImportance(), budget.knapsackScale);
    const auto m = static_cast<std::size_t>(test.rows());
    r.needA.assign(m, std::numeric_limits<double>::infinity());
    r.needB = r.needA;
    r.spared.assign(m, 0);
    for (std::size_t i = 0; i < m; ++i) r.spared[i] = !attack.attacks(test.labels[i]);
    // at most 1024 rows between cancel checks (about 0.3 s on the 1M-row bench at 1/50)
    const int step = std::clamp(test.rows() / 50, 1, 1024);
    const auto need = [&](const TrainedModel& model, int i, bool& exact) {
        const int label = test.labels[static_cast<std::size_t>(i)];
        if (!attack.attacks(label)) {   // spared by a one-sided threat: scored clean
            const bool wrong = scoreWithDeletions(model, test.row(i), label, {}).margin <= 0.0;
            return wrong ? 0.0 : std::numeric_limits<double>::infinity();
        }
        const FlipNeed f = deletionsToFlipValidated(model, test.row(i), label, budget);
        exact = exact && f.exact;
        return f.need;
    };
    // Blocks of 1/50 of the rows (at most 1024), each shared among the threads (every row writes its own slots);
    // cancel and progress between blocks, so a cancelled map still has its first `done` rows.
    std::vector<char> exact(2 * m, 1);
    for (int start = 0; start < test.rows(); start += step) {
        if (rc.cancelled()) {
            r.status = Status::Cancelled;
            break;
        }
        const int end = std::min(test.rows(), start + step);
        parallelFor(end - start, 0, [&](int k) {
            const int i = start + k;
            const auto s = static_cast<std::size_t>(i);
            bool ea = true, eb = true;
            r.needA[s] = need(a, i, ea);
            r.needB[s] = need(b, i, eb);
            exact[2 * s] = ea;
            exact[2 * s + 1] = eb;
        });
        r.done = end;
        rc.report(static_cast<double>(r.done) / test.rows(), r.done,
                  std::to_string(r.done) + " of " + std::to_string(test.rows()) + " instances");
    }
    for (std::size_t s = 0; s < static_cast<std::size_t>(r.done); ++s) {
        r.exactA = r.exactA && exact[2 * s];
        r.exactB = r.exactB && exact[2 * s + 1];
    }
    return r;
}

}  // namespace fdlab
