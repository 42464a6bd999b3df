// Synthetic generators: statistics of fixed-seed draws against the generating model, computed
// here independently (tolerances are stated as multiples of the binomial / sampling std),
// determinism, metadata, argument validation, and the experiments' per-repetition draws.

#include "core/data/bundled.h"
#include "core/data/generators.h"
#include "core/eval/experiment_runner.h"
#include "core/eval/presets.h"
#include "core/util/rng.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace fdlab;

namespace {

bool sameData(const Dataset& a, const Dataset& b) {
    return a.X.rows() == b.X.rows() && a.X.cols() == b.X.cols() && a.X == b.X && a.labels == b.labels;
}

bool throwsInvalid(const std::function<void()>& f, const char* param) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return std::string(e.what()).find(param) != std::string::npos;
    } catch (...) {
        return false;
    }
    return false;
}

/// Fraction of labels that disagree with the clean hyperplane label of labelCopyDataset(m, seed)
/// (the normal is the first 20 normals of Rng(seed), the documented draw order).
double labelCopyFlipRate(const Dataset& d, std::uint64_t seed) {
    Rng rng(seed);
    Eigen::VectorXd w(20);
    for (int j = 0; j < 20; ++j) w[j] = rng.normal();
    int disagree = 0;
    for (int i = 0; i < d.rows(); ++i) {
        double s = 0.0;
        for (int j = 0; j < 20; ++j) s += w[j] * static_cast<double>(d.value(i, j));
        disagree += (s >= 0.0 ? 1 : -1) != d.y(i);
    }
    return static_cast<double>(disagree) / d.rows();
}

/// The rows of d as (label, values), sorted: a multiset to compare row sets.
std::vector<std::pair<int, std::vector<float>>> sortedRows(const std::vector<const Dataset*>& parts) {
    std::vector<std::pair<int, std::vector<float>>> rows;
    for (const Dataset* d : parts)
        for (int i = 0; i < d->rows(); ++i) {
            std::vector<float> v(static_cast<std::size_t>(d->features()));
            for (int j = 0; j < d->features(); ++j) v[static_cast<std::size_t>(j)] = d->value(i, j);
            rows.emplace_back(d->labels[static_cast<std::size_t>(i)], std::move(v));
        }
    std::sort(rows.begin(), rows.end());
    return rows;
}

int countPositive(const Dataset& d) {
    int c = 0;
    for (int i = 0; i < d.rows(); ++i) c += d.y(i) > 0;
    return c;
}

}  // namespace

class TestGenerators : public QObject {
    Q_OBJECT
private slots:
    void labelCopyStructure();
    void labelCopyNoiseRate();
    void globersonCalibration();
    void globersonExactDraws();
    void globersonUniformCalibration();
    void biggioMoments();
    void thresholdEncodingsDecode();
    void thresholdGroups();
    void determinism();
    void badArguments();
    void labelCopyFlipsAreBernoulli();
    void presetsDrawNewDataPerRepetition();
};

void TestGenerators::labelCopyStructure() {
    const Dataset d = labelCopyDataset(1000, 1);
    d.validate("labelCopy");
    QCOMPARE(d.rows(), 1000);
    QCOMPARE(d.features(), 22);
    QCOMPARE(d.classNames, (std::vector<std::string>{"-1", "+1"}));
    QCOMPARE(d.featureNames[0], std::string("x1"));
    QCOMPARE(d.featureNames[19], std::string("x20"));
    QCOMPARE(d.featureNames[20], std::string("copy1"));
    QCOMPARE(d.featureNames[21], std::string("copy2"));
    for (int j = 0; j < 20; ++j) QCOMPARE(d.importance[static_cast<std::size_t>(j)], 1.0);
    QCOMPARE(d.importance[20], 10.0);
    QCOMPARE(d.importance[21], 10.0);
    QCOMPARE(d.provenance, std::string("labelCopy(m=1000, seed=1, flip=0.2, copyValue=10)"));
    for (int i = 0; i < d.rows(); ++i) {
        // Both copies equal the (noisy) label on every row.
        QCOMPARE(d.value(i, 20), static_cast<float>(d.y(i)));
        QCOMPARE(d.value(i, 21), static_cast<float>(d.y(i)));
        for (int j = 0; j < 20; ++j) QVERIFY(d.value(i, j) >= -1.0f && d.value(i, j) <= 1.0f);
    }
    // Uniform on [-1,1]: mean 0, variance 1/3; over 20000 values the mean has std
    // sqrt(1/3/20000) = 0.0041, so 0.02 is ~5 std.
    double s = 0, s2 = 0;
    for (int i = 0; i < d.rows(); ++i)
        for (int j = 0; j < 20; ++j) {
            s += d.value(i, j);
            s2 += double(d.value(i, j)) * d.value(i, j);
        }
    QVERIFY(std::abs(s / 20000) < 0.02);
    QVERIFY(std::abs(s2 / 20000 - 1.0 / 3.0) < 0.02);
    const Dataset e = labelCopyDataset(10, 3, 0.0, 2.5);
    QCOMPARE(e.importance[21], 2.5);
}

void TestGenerators::labelCopyNoiseRate() {
    // The hyperplane normal is the first 20 normals of Rng(seed) (documented draw order). With
    // the right normal the disagreement rate is the flip rate; check that a wrong normal gives
    // ~0.5, so the check cannot pass by accident.
    const int m = 1000;
    for (const double flip : {0.2, 0.0, 0.35}) {
        const Dataset d = labelCopyDataset(m, 1, flip);
        Rng rng(1);
        Eigen::VectorXd w(20);
        for (int j = 0; j < 20; ++j) w[j] = rng.normal();
        int disagree = 0, disagreeWrong = 0;
        Eigen::VectorXd wWrong = w;
        wWrong.reverseInPlace();
        for (int i = 0; i < m; ++i) {
            Eigen::VectorXd x(20);
            for (int j = 0; j < 20; ++j) x[j] = d.value(i, j);
            const int clean = w.dot(x) >= 0 ? 1 : -1;
            disagree += clean != d.y(i);
            disagreeWrong += (wWrong.dot(x) >= 0 ? 1 : -1) != d.y(i);
        }
        const double rate = double(disagree) / m;
        const double sd = std::sqrt(flip * (1 - flip) / m);  // 0.0126 for flip 0.2
        if (flip == 0.0)
            QCOMPARE(disagree, 0);  // noiseless labels are exactly the hyperplane's
        else
            QVERIFY2(std::abs(rate - flip) < 4 * sd + 1e-12,
                     qPrintable(QString("flip %1: rate %2, 4 sd %3").arg(flip).arg(rate).arg(4 * sd)));
        QVERIFY(disagreeWrong > m / 5);
    }
}

void TestGenerators::globersonCalibration() {
    // Default (binary) variant: x uniform on {0,1}^20, y = +1 w.p. sigmoid(w.x + b),
    // w = (5, -2, ..., -2), b = -E[w.x] = 16.5. Conditional on X, the count of positives has
    // mean sum p_i and variance sum p_i (1 - p_i): compare within 4 std.
    const int m = 20000;
    const Dataset d = globersonToyDataset(m, 7);
    d.validate("globerson");
    QCOMPARE(d.features(), 20);
    QCOMPARE(d.name, std::string("globerson-toy"));
    QCOMPARE(d.provenance, std::string("globersonToy(m=20000, seed=7, features=binary)"));
    double sumP = 0, varSum = 0;
    double sumPHigh = 0, varHigh = 0;
    int posHigh = 0, nHigh = 0;
    for (int i = 0; i < m; ++i) {
        double s = 16.5;
        for (int j = 0; j < 20; ++j) {
            QVERIFY(d.value(i, j) == 0.0f || d.value(i, j) == 1.0f);
            s += (j == 0 ? 5.0 : -2.0) * d.value(i, j);
        }
        const double p = 1 / (1 + std::exp(-s));
        sumP += p;
        varSum += p * (1 - p);
        if (d.value(i, 0) > 0) {  // the rows where deleting x1 changes the score
            ++nHigh;
            sumPHigh += p;
            varHigh += p * (1 - p);
            posHigh += d.y(i) > 0;
        }
    }
    const int pos = countPositive(d);
    QVERIFY2(std::abs(pos - sumP) < 4 * std::sqrt(varSum),
             qPrintable(QString("positives %1, expected %2 +- %3").arg(pos).arg(sumP).arg(std::sqrt(varSum))));
    QVERIFY(std::abs(posHigh - sumPHigh) < 4 * std::sqrt(varHigh));
    // The centred bias gives P(y = +1) = E[sigmoid(5 x1 - 2 B + 16.5)], B ~ Bin(19, 1/2), computed
    // here by summing over x1 and B: exactly 1/2, since (x1, B) -> (1 - x1, 19 - B) negates the
    // score. The classes are balanced, not all -1 as with the chapter's bias mean(w) = -1.65.
    // Binomial std of the share: 0.0035.
    double expectedShare = 0;
    for (int x1 = 0; x1 <= 1; ++x1)
        for (int k = 0; k <= 19; ++k) {
            double choose = 1;
            for (int t = 1; t <= k; ++t) choose = choose * (19 - k + t) / t;
            const double prob = 0.5 * choose * std::pow(0.5, 19);
            expectedShare += prob / (1 + std::exp(-(5.0 * x1 - 2.0 * k + 16.5)));
        }
    QVERIFY(std::abs(expectedShare - 0.5) < 1e-12);
    QVERIFY2(std::abs(double(pos) / m - expectedShare) < 0.015,
             qPrintable(QString("share %1, expected %2").arg(double(pos) / m).arg(expectedShare)));
    // Each feature is Bernoulli(1/2): mean 0.5 with std sqrt(0.25/m) = 0.0035; features are
    // pairwise uncorrelated (std of the sample correlation 1/sqrt(m) = 0.007).
    for (int j = 0; j < 20; ++j) {
        const double mean = d.X.col(j).cast<double>().mean();
        QVERIFY2(std::abs(mean - 0.5) < 0.015, qPrintable(QString("x%1 mean %2").arg(j + 1).arg(mean)));
    }
    const Eigen::ArrayXd c0 = d.X.col(0).cast<double>().array() - 0.5, c1 = d.X.col(1).cast<double>().array() - 0.5;
    QVERIFY(std::abs((c0 * c1).mean() / 0.25) < 0.03);
    // x1 is informative: P(y = +1 | x1 = 1) > P(y = +1 | x1 = 0) by a wide margin.
    const double shareHigh = double(posHigh) / nHigh, shareLow = double(pos - posHigh) / (m - nHigh);
    QVERIFY2(shareHigh - shareLow > 0.25, qPrintable(QString("%1 vs %2").arg(shareHigh).arg(shareLow)));
}

void TestGenerators::globersonExactDraws() {
    // The documented draw order, reproduced here: per row 20 uniforms (x_j = 1 iff u < 1/2),
    // then one uniform u, y = +1 iff u < sigmoid(w.x + 16.5).
    const Dataset d = globersonToyDataset(50, 3);
    Rng rng(3);
    for (int i = 0; i < d.rows(); ++i) {
        double s = 16.5;
        for (int j = 0; j < 20; ++j) {
            const float x = rng.uniform() < 0.5 ? 1.0f : 0.0f;
            QCOMPARE(d.value(i, j), x);
            s += (j == 0 ? 5.0 : -2.0) * x;
        }
        QCOMPARE(d.y(i), rng.uniform() < 1 / (1 + std::exp(-s)) ? 1 : -1);
    }
    // Pinned values for seed 1 (the bundled set's seed): a change of the draw order shows here.
    const Dataset b = globersonToyDataset(3, 1);
    const char* rows[3] = {"00010111000000001111", "10111100010110110111", "10110001100001010000"};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 20; ++j) QCOMPARE(b.value(i, j), rows[i][j] == '1' ? 1.0f : 0.0f);
        QCOMPARE(b.y(i), 1);
    }
    // The [-1,1]^20 variant keeps its old draws bit for bit: x_j = -1 + 2u, bias mean(w) = -1.65.
    const Dataset u = globersonToyDataset(50, 3, GlobersonFeatures::Uniform);
    QCOMPARE(u.name, std::string("globerson-toy-uniform"));
    QCOMPARE(u.provenance, std::string("globersonToy(m=50, seed=3, features=uniform)"));
    Rng r2(3);
    for (int i = 0; i < u.rows(); ++i) {
        double s = -1.65;
        for (int j = 0; j < 20; ++j) {
            const auto x = static_cast<float>(r2.uniform(-1.0, 1.0));
            QCOMPARE(u.value(i, j), x);
            s += (j == 0 ? 5.0 : -2.0) * static_cast<double>(x);
        }
        QCOMPARE(u.y(i), r2.bernoulli(1 / (1 + std::exp(-s))) ? 1 : -1);
    }
    QCOMPARE(std::string(toString(GlobersonFeatures::Binary)), std::string("binary"));
    QCOMPARE(std::string(toString(GlobersonFeatures::Uniform)), std::string("uniform"));
}

void TestGenerators::globersonUniformCalibration() {
    // The [-1,1]^20 variant: y = +1 w.p. sigmoid(w.x - 1.65).
    const int m = 20000;
    const Dataset d = globersonToyDataset(m, 7, GlobersonFeatures::Uniform);
    d.validate("globerson-uniform");
    double sumP = 0, varSum = 0;
    double sumPHigh = 0;
    int posHigh = 0, nHigh = 0;
    for (int i = 0; i < m; ++i) {
        double s = -1.65;
        for (int j = 0; j < 20; ++j) s += (j == 0 ? 5.0 : -2.0) * d.value(i, j);
        const double p = 1 / (1 + std::exp(-s));
        sumP += p;
        varSum += p * (1 - p);
        if (d.value(i, 0) > 0) {
            ++nHigh;
            sumPHigh += p;
            posHigh += d.y(i) > 0;
        }
    }
    const int pos = countPositive(d);
    QVERIFY2(std::abs(pos - sumP) < 4 * std::sqrt(varSum),
             qPrintable(QString("positives %1, expected %2 +- %3").arg(pos).arg(sumP).arg(std::sqrt(varSum))));
    QVERIFY(std::abs(posHigh - sumPHigh) < 4 * std::sqrt(nHigh * 0.25));
    // Uniform on [-1,1]: mean 0 (std sqrt(1/3m) = 0.004), variance 1/3 (std of the sample
    // variance sqrt((1/5 - 1/9)/m) = 0.002).
    for (int j = 0; j < 20; j += 7) {
        const double mean = d.X.col(j).cast<double>().mean();
        const double var = (d.X.col(j).cast<double>().array() - mean).square().mean();
        QVERIFY(std::abs(mean) < 0.035);
        QVERIFY(std::abs(var - 1.0 / 3.0) < 0.012);
        QVERIFY(d.X.col(j).minCoeff() >= -1.0f && d.X.col(j).maxCoeff() <= 1.0f);
    }
}

void TestGenerators::biggioMoments() {
    const int m = 4000, dim = 5;
    const Dataset d = biggioGaussianDataset(m, dim, 11);
    d.validate("biggio");
    QCOMPARE(d.name, std::string("biggio-5d"));
    const int pos = countPositive(d);
    QVERIFY(std::abs(pos - m / 2) < 4 * std::sqrt(m * 0.25));  // 4 binomial std = 126
    for (const int z : {-1, 1}) {
        const int nz = z > 0 ? pos : m - pos;
        for (int j = 0; j < dim; ++j) {
            double s = 0, s2 = 0;
            for (int i = 0; i < m; ++i)
                if (d.y(i) == z) {
                    s += d.value(i, j);
                    s2 += double(d.value(i, j)) * d.value(i, j);
                }
            const double mean = s / nz, var = s2 / nz - mean * mean;
            const double expected = j == 0 ? z : 0.0;
            // Mean: std sqrt(0.5/nz) ~ 0.016, tolerance 5 std; variance: std 0.5 sqrt(2/nz) ~ 0.022.
            QVERIFY2(std::abs(mean - expected) < 5 * std::sqrt(0.5 / nz),
                     qPrintable(QString("class %1 feature %2 mean %3").arg(z).arg(j).arg(mean)));
            QVERIFY2(std::abs(var - 0.5) < 5 * 0.5 * std::sqrt(2.0 / nz),
                     qPrintable(QString("class %1 feature %2 var %3").arg(z).arg(j).arg(var)));
        }
    }
    const Dataset p = biggioGaussianDataset(100, 2, 1);
    QCOMPARE(p.features(), 2);
    QCOMPARE(p.name, std::string("biggio-2d"));
}

void TestGenerators::thresholdEncodingsDecode() {
    for (const int levels : {4, 10, 32, 256}) {
        const int m = 3000;
        const Dataset d = thresholdFunctionDataset(m, levels, 5);
        d.validate("threshold");
        const auto g = thresholdFunctionGroups(levels);
        QCOMPARE(d.features(), g.back().end);
        std::vector<int> seen(static_cast<std::size_t>(levels), 0);
        for (int i = 0; i < m; ++i) {
            // Decode each encoding independently; all four must agree.
            int gray = 0, bin = 0, peak = -1, peaks = 0, unary = 0;
            for (int k = g[0].begin; k < g[0].end; ++k) gray |= int(d.value(i, k)) << (k - g[0].begin);
            for (int k = g[1].begin; k < g[1].end; ++k)
                if (d.value(i, k) == 1.0f) {
                    peak = k - g[1].begin;
                    ++peaks;
                }
            for (int k = g[2].begin; k < g[2].end; ++k) bin |= int(d.value(i, k)) << (k - g[2].begin);
            bool monotone = true;
            for (int k = g[3].begin; k < g[3].end; ++k) {
                unary += d.value(i, k) == 1.0f;
                if (k > g[3].begin && d.value(i, k) > d.value(i, k - 1)) monotone = false;
            }
            int fromGray = 0;
            for (int v = gray; v; v >>= 1) fromGray ^= v;  // inverse Gray code
            for (int j = 0; j < d.features(); ++j) QVERIFY(d.value(i, j) == 0.0f || d.value(i, j) == 1.0f);
            QCOMPARE(peaks, 1);
            QVERIFY(monotone);  // thermometer: ones then zeros
            QCOMPARE(fromGray, bin);
            QCOMPARE(peak, bin);
            QCOMPARE(unary, bin);
            QVERIFY(bin >= 0 && bin < levels);
            QCOMPARE(d.y(i), bin >= levels / 2 ? 1 : -1);
            ++seen[static_cast<std::size_t>(bin)];
        }
        // t is uniform: every level appears when m >> levels, and the positive rate is
        // (levels - levels/2) / levels = 1/2 within 4 binomial std.
        if (levels <= 32)
            for (int c : seen) QVERIFY(c > 0);
        QVERIFY(std::abs(countPositive(d) - m / 2.0) < 4 * std::sqrt(m * 0.25));
    }
}

void TestGenerators::thresholdGroups() {
    const auto g = thresholdFunctionGroups(32);
    QCOMPARE(g.size(), std::size_t(4));
    QCOMPARE(g[0].name, std::string("gray"));
    QCOMPARE(g[1].name, std::string("peaks"));
    QCOMPARE(g[2].name, std::string("binary"));
    QCOMPARE(g[3].name, std::string("unary"));
    // 5 gray bits, 32 peaks, 5 binary bits, 31 thermometer bits = 73 columns.
    QCOMPARE(g[0].begin, 0);
    QCOMPARE(g[0].end, 5);
    QCOMPARE(g[1].begin, 5);
    QCOMPARE(g[1].end, 37);
    QCOMPARE(g[2].begin, 37);
    QCOMPARE(g[2].end, 42);
    QCOMPARE(g[3].begin, 42);
    QCOMPARE(g[3].end, 73);
    const auto g10 = thresholdFunctionGroups(10);  // 4 bits for 0..9
    QCOMPARE(g10[0].end, 4);
    QCOMPARE(g10.back().end, 4 + 10 + 4 + 9);
    QCOMPARE(std::string(toString(ThresholdEncoding::Peaks)), std::string("peaks"));
    const Dataset d = thresholdFunctionDataset(50, 32, 1);
    QCOMPARE(d.featureNames[0], std::string("gray_b0"));
    QCOMPARE(d.featureNames[5], std::string("peak_0"));
    QCOMPARE(d.featureNames[42], std::string("unary_gt0"));
}

void TestGenerators::determinism() {
    QVERIFY(sameData(labelCopyDataset(200, 4), labelCopyDataset(200, 4)));
    QVERIFY(!sameData(labelCopyDataset(200, 4), labelCopyDataset(200, 5)));
    QVERIFY(sameData(globersonToyDataset(200, 4), globersonToyDataset(200, 4)));
    QVERIFY(!sameData(globersonToyDataset(200, 4), globersonToyDataset(200, 5)));
    QVERIFY(sameData(globersonToyDataset(200, 4, GlobersonFeatures::Uniform),
                     globersonToyDataset(200, 4, GlobersonFeatures::Uniform)));
    QVERIFY(sameData(biggioGaussianDataset(200, 3, 4), biggioGaussianDataset(200, 3, 4)));
    QVERIFY(!sameData(biggioGaussianDataset(200, 3, 4), biggioGaussianDataset(200, 3, 5)));
    QVERIFY(sameData(thresholdFunctionDataset(200, 16, 4), thresholdFunctionDataset(200, 16, 4)));
    QVERIFY(!sameData(thresholdFunctionDataset(200, 16, 4), thresholdFunctionDataset(200, 16, 5)));
    // Documented draw order: one Rng(seed).below(levels) per row gives t.
    const Dataset t = thresholdFunctionDataset(50, 16, 9);
    Rng rng(9);
    for (int i = 0; i < t.rows(); ++i) {
        const int level = static_cast<int>(rng.below(16));
        QCOMPARE(t.value(i, 4 + level), 1.0f);  // its peak column (after 4 gray bits)
    }
}

void TestGenerators::badArguments() {
    QVERIFY(throwsInvalid([] { labelCopyDataset(1, 1); }, "m must be"));
    QVERIFY(throwsInvalid([] { labelCopyDataset(10, 1, -0.1); }, "flipProbability"));
    QVERIFY(throwsInvalid([] { labelCopyDataset(10, 1, 1.5); }, "flipProbability"));
    QVERIFY(throwsInvalid([] { labelCopyDataset(10, 1, std::nan("")); }, "flipProbability"));
    QVERIFY(throwsInvalid([] { labelCopyDataset(10, 1, 0.2, 0.0); }, "copyValue"));
    QVERIFY(throwsInvalid([] { globersonToyDataset(0, 1); }, "m must be"));
    QVERIFY(throwsInvalid([] { biggioGaussianDataset(-5, 2, 1); }, "m must be"));
    QVERIFY(throwsInvalid([] { biggioGaussianDataset(10, 0, 1); }, "dim"));
    QVERIFY(throwsInvalid([] { thresholdFunctionDataset(10, 3, 1); }, "levels"));
    QVERIFY(throwsInvalid([] { thresholdFunctionDataset(10, 257, 1); }, "levels"));
    QVERIFY(throwsInvalid([] { thresholdFunctionGroups(2); }, "levels"));
    // Edge values are accepted.
    QCOMPARE(thresholdFunctionDataset(2, 4, 1).rows(), 2);
    QCOMPARE(thresholdFunctionDataset(2, 256, 1).features(), 8 + 256 + 8 + 255);
    QCOMPARE(labelCopyDataset(2, 1, 1.0).rows(), 2);
}

void TestGenerators::labelCopyFlipsAreBernoulli() {
    // Dekel & Shamir flip "each label with probability 0.2": independent Bernoulli(0.2) flips,
    // not exactly 200 of 1000. The seed-1 draw happens to flip 22.8% (2.2 sd above 0.2); over
    // 200 seeds the pooled rate is 0.2 within 4 sd (sd = sqrt(0.16 / 200,000) = 0.00089), and
    // the per-draw rates spread like a binomial (sd sqrt(0.16 / 1000) = 0.0126; an exact count
    // would give 0).
    QCOMPARE(labelCopyFlipRate(labelCopyDataset(1000, 1), 1), 0.228);
    const int draws = 200;
    double sum = 0.0, sum2 = 0.0;
    for (int s = 1; s <= draws; ++s) {
        const double r = labelCopyFlipRate(labelCopyDataset(1000, static_cast<std::uint64_t>(s)), static_cast<std::uint64_t>(s));
        sum += r;
        sum2 += r * r;
    }
    const double mean = sum / draws, sd = std::sqrt((sum2 - draws * mean * mean) / (draws - 1));
    QVERIFY2(std::abs(mean - 0.2) < 4 * std::sqrt(0.16 / (1000.0 * draws)), qPrintable(QString::number(mean)));
    QVERIFY2(sd > 0.009 && sd < 0.016, qPrintable(QString::number(sd)));
}

void TestGenerators::presetsDrawNewDataPerRepetition() {
    // Every preset on a generator entry: repetition r trains and tests on its own draw, seeded by
    // derivedSeed(spec, r, 5), not on re-splits of the catalogue's seed-1 draw (the papers draw
    // new data per repetition).
    int synthetic = 0;
    for (const PresetInfo& info : listPresets()) {
        const ExperimentSpec spec = loadPresetOrFile(info.name);
        if (!isBundledGenerator(spec.dataset.bundled)) continue;
        ++synthetic;
        const TaskData seed1 = loadTaskData(spec);
        QCOMPARE(seed1.data.fingerprint(), loadBundled(spec.dataset.bundled).fingerprint());
        std::vector<std::uint64_t> prints;
        for (int r = 0; r < 3; ++r) {
            const PreparedSplit ps = prepareRepetition(seed1, spec, r);
            const Dataset draw = generateBundled(spec.dataset.bundled, derivedSeed(spec, r, 5));
            QVERIFY2(sortedRows({&ps.train, &ps.validation, &ps.test}) == sortedRows({&draw}),
                     qPrintable(QString::fromStdString(info.name + ": repetition " + std::to_string(r))));
            prints.push_back(draw.fingerprint());
        }
        QVERIFY2(prints[0] != seed1.data.fingerprint() && prints[0] != prints[1] && prints[1] != prints[2],
                 qPrintable(QString::fromStdString(info.name)));
    }
    QCOMPARE(synthetic, 5);   // label-copy, globerson-toy, biggio-2d-1100, biggio-300d, threshold
    // The label-copy preset's flip rates now vary around 0.2 from repetition to repetition.
    const ExperimentSpec lc = loadPresetOrFile("dekel-shamir-label-copy");
    double mean = 0.0;
    for (int r = 0; r < lc.repetitions; ++r)
        mean += labelCopyFlipRate(generateBundled("label-copy", derivedSeed(lc, r, 5)), derivedSeed(lc, r, 5)) / lc.repetitions;
    QVERIFY2(std::abs(mean - 0.2) < 4 * std::sqrt(0.16 / (1000.0 * lc.repetitions)), qPrintable(QString::number(mean)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateBundled("spambase", 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generateBundled("no-such-generator", 1));
    QVERIFY(!isBundledGenerator("spambase") && !isBundledGenerator("") && isBundledGenerator("threshold"));
}

QTEST_APPLESS_MAIN(TestGenerators)
#include "test_generators.moc"
