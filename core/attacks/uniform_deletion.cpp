#include "core/attacks/uniform_deletion.h"

#include "core/learners/scorer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace fdlab {

std::vector<int> uniformTopWeightDeletion(const LinearModel& m, int K) {
    const int n = m.features();
    std::vector<double> mag(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) mag[static_cast<std::size_t>(j)] = m.W.row(j).cwiseAbs().sum();
    std::vector<int> idx(static_cast<std::size_t>(n));
    std::iota(idx.begin(), idx.end(), 0);
    const auto take = static_cast<std::size_t>(std::clamp(K, 0, n));
    std::partial_sort(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(take), idx.end(), [&](int a, int b) {
        const double ma = mag[static_cast<std::size_t>(a)], mb = mag[static_cast<std::size_t>(b)];
        return ma != mb ? ma > mb : a < b;
    });
    idx.resize(take);
    std::sort(idx.begin(), idx.end());
    return idx;
}

double binomialCount(int n, int K) {
    if (K < 0 || K > n) return 0.0;
    K = std::min(K, n - K);
    double c = 1.0;
    for (int i = 1; i <= K; ++i) {
        c = c * (n - K + i) / i;
        if (c > 4.6e18) return 4.6e18;
    }
    return std::round(c);
}

UniformExactResult uniformExactDeletion(const LinearModel& m, const Dataset& test, int K,
                                        const std::vector<int>& attackedClasses, double maxSets, const RunControl& rc) {
    const int n = m.features(), outs = static_cast<int>(m.W.cols());
    if (K < 0 || K > n) throw std::invalid_argument("uniform exact deletion: K must be in [0, " + std::to_string(n) + "]");
    const double sets = binomialCount(n, K);
    if (sets > maxSets)
        throw std::invalid_argument("uniform exact deletion: C(" + std::to_string(n) + ", " + std::to_string(K) +
                                    ") = " + std::to_string(sets) + " sets exceeds the limit " + std::to_string(maxSets) +
                                    "; use the top-|w| heuristic");
    // Only the attacked instances depend on the set; the others count with their clean margins.
    std::vector<int> hit;
    int spareErrors = 0;
    const LinearScorer scorer(m);
    for (int i = 0; i < test.rows(); ++i) {
        const int label = test.labels[static_cast<std::size_t>(i)];
        if (attackedClasses.empty() ||
            std::find(attackedClasses.begin(), attackedClasses.end(), label) != attackedClasses.end())
            hit.push_back(i);
        else if (scorer.margin(test.row(i), label) <= 0.0)
            ++spareErrors;
    }
    const int rows = static_cast<int>(hit.size());
    // Clean scores once; deleting S subtracts sum_{j in S} W_jk x_ij from every score k. That sum
    // rounds otherwise than re-scoring the attacked row (linearScores), by less than
    // nearZero = 8 (nnz + 2K + 4) u A, A = max_k |b_k| + sum_j |W_jk x_j|: a margin that close to 0
    // is re-scored, so the errors counted are exactly those of the attack.
    Eigen::MatrixXd S(rows, outs);
    std::vector<double> s(static_cast<std::size_t>(outs)), nearZero(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r) {
        const RowView x = test.row(hit[static_cast<std::size_t>(r)]);
        scorer.scoresRow(x, s);
        double a = 0.0;
        for (int k = 0; k < outs; ++k) {
            S(r, k) = s[static_cast<std::size_t>(k)];
            double ak = std::abs(m.b(k));
            x.forEachNonZero([&](int j, float v) { ak += std::abs(m.W(j, k) * static_cast<double>(v)); });
            a = std::max(a, ak);
        }
        const double terms = x.isSparse() ? x.count : x.n;
        nearZero[static_cast<std::size_t>(r)] = 4.0 * (terms + 2.0 * K + 4.0) * std::numeric_limits<double>::epsilon() * a;
    }
    UniformExactResult best;
    best.errors = -1;
    std::vector<int> comb(static_cast<std::size_t>(K));
    std::iota(comb.begin(), comb.end(), 0);
    long visited = 0;
    const long reportEvery = std::max<long>(1, static_cast<long>(sets / 20));
    while (true) {
        int errors = 0;
        double marginSum = 0.0;
        for (int r = 0; r < rows; ++r) {
            const int i = hit[static_cast<std::size_t>(r)];
            for (int k = 0; k < outs; ++k) {
                double v = S(r, k);
                for (int j : comb) v -= m.W(j, k) * static_cast<double>(test.value(i, j));
                s[static_cast<std::size_t>(k)] = v;
            }
            const int label = test.labels[static_cast<std::size_t>(i)];
            double mg = Scorer::marginOf(s, label);
            if (std::abs(mg) <= nearZero[static_cast<std::size_t>(r)]) {
                linearScores(m, test.row(i), comb, s);
                mg = Scorer::marginOf(s, label);
            }
            marginSum += mg;
            if (mg <= 0.0) ++errors;
        }
        if (errors > best.errors || (errors == best.errors && marginSum < best.marginSum)) {
            best.errors = errors;
            best.marginSum = marginSum;
            best.deleted = comb;
        }
        if (++visited % reportEvery == 0) {
            rc.report(visited / sets, visited, "sets enumerated");
            if (rc.cancelled()) {
                best.complete = false;
                break;
            }
        }
        // Next combination in lexicographic order.
        int p = K - 1;
        while (p >= 0 && comb[static_cast<std::size_t>(p)] == n - K + p) --p;
        if (p < 0) break;
        ++comb[static_cast<std::size_t>(p)];
        for (int q = p + 1; q < K; ++q) comb[static_cast<std::size_t>(q)] = comb[static_cast<std::size_t>(q - 1)] + 1;
    }
    best.errors += spareErrors;
    return best;
}

}  // namespace fdlab
