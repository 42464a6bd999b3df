#include "core/data/split.h"

#include "core/util/rng.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

// Conventions shared by every split below (the tests rely on them):
//  - One Rng(seed) shuffles the rows of class 0, then class 1, ... (rows of a class taken in
//    increasing index before the shuffle), so a split depends only on the seed and the labels.
//  - Each shuffled class is cut in order: first the test part, then (where present) validation,
//    then train (stratifiedSplit/3); first train, then validation, then test (splitByCounts).
//  - Every returned index vector is sorted ascending, so callers never depend on shuffle order.
//  - Part sizes per class n_c: round(n_c * f) with std::lround (halves away from zero), then
//    clamped so that every part that must be non-empty gets at least one row (see each function).

namespace fdlab {

namespace {

/// Row indices of every class, ascending. Throws when labels do not fit the dataset.
std::vector<std::vector<int>> rowsByClass(const Dataset& d, const char* where) {
    if (static_cast<int>(d.labels.size()) != d.rows())
        throw std::invalid_argument(std::string(where) + ": " + std::to_string(d.labels.size()) + " labels for " +
                                    std::to_string(d.rows()) + " rows");
    std::vector<std::vector<int>> byClass(static_cast<std::size_t>(d.numClasses()));
    for (int i = 0; i < d.rows(); ++i) {
        const int c = d.labels[static_cast<std::size_t>(i)];
        if (c < 0 || c >= d.numClasses())
            throw std::invalid_argument(std::string(where) + ": row " + std::to_string(i) + " has label index " +
                                        std::to_string(c) + " outside [0, " + std::to_string(d.numClasses()) + ")");
        byClass[static_cast<std::size_t>(c)].push_back(i);
    }
    return byClass;
}

std::vector<std::vector<int>> shuffledByClass(const Dataset& d, std::uint64_t seed, const char* where) {
    auto byClass = rowsByClass(d, where);
    Rng rng(seed);
    for (auto& rows : byClass) rng.shuffle(rows);
    return byClass;
}

void requireRows(const Dataset& d, const char* where) {
    if (d.rows() < 2)
        throw std::invalid_argument(std::string(where) + ": need at least 2 rows, dataset has " +
                                    std::to_string(d.rows()));
}

void requireFraction(double f, const char* where, const char* name) {
    if (!(f > 0.0 && f < 1.0))
        throw std::invalid_argument(std::string(where) + ": " + name + " = " + std::to_string(f) +
                                    " outside (0, 1)");
}

int roundedPart(int n, double f) { return static_cast<int>(std::lround(static_cast<double>(n) * f)); }

void append(std::vector<int>& to, const std::vector<int>& from, int begin, int end) {
    to.insert(to.end(), from.begin() + begin, from.begin() + end);
}

void sortParts(TrainValTest& s) {
    std::sort(s.train.begin(), s.train.end());
    std::sort(s.validation.begin(), s.validation.end());
    std::sort(s.test.begin(), s.test.end());
}

}  // namespace

TrainTest stratifiedSplit(const Dataset& d, double testFraction, std::uint64_t seed) {
    constexpr const char* where = "split into training and test";
    requireFraction(testFraction, where, "test fraction");
    requireRows(d, where);
    const auto byClass = shuffledByClass(d, seed, where);

    TrainTest s;
    for (const auto& rows : byClass) {
        const int n = static_cast<int>(rows.size());
        // n == 1: the single row goes to train (a class the model never saw cannot be tested).
        int nTest = 0;
        if (n >= 2) nTest = std::clamp(roundedPart(n, testFraction), 1, n - 1);
        append(s.test, rows, 0, nTest);
        append(s.train, rows, nTest, n);
    }
    std::sort(s.train.begin(), s.train.end());
    std::sort(s.test.begin(), s.test.end());
    return s;
}

TrainValTest stratifiedSplit3(const Dataset& d, double validationFraction, double testFraction,
                              std::uint64_t seed) {
    constexpr const char* where = "split into training, validation and test";
    requireFraction(validationFraction, where, "validation fraction");
    requireFraction(testFraction, where, "test fraction");
    if (!(validationFraction + testFraction < 1.0))
        throw std::invalid_argument(std::string(where) + ": validation fraction + test fraction = " +
                                    std::to_string(validationFraction + testFraction) + " must be < 1");
    requireRows(d, where);
    const auto byClass = shuffledByClass(d, seed, where);

    TrainValTest s;
    for (const auto& rows : byClass) {
        const int n = static_cast<int>(rows.size());
        // n >= 3: at least one row in each part. n == 2: one train, one test (no validation row).
        // n == 1: train only.
        int nTest = 0, nVal = 0;
        if (n >= 3) {
            nTest = std::clamp(roundedPart(n, testFraction), 1, n - 2);
            nVal = std::clamp(roundedPart(n, validationFraction), 1, n - 1 - nTest);
        } else if (n == 2) {
            nTest = 1;
        }
        append(s.test, rows, 0, nTest);
        append(s.validation, rows, nTest, nTest + nVal);
        append(s.train, rows, nTest + nVal, n);
    }
    sortParts(s);
    return s;
}

TrainValTest splitByCounts(const Dataset& d, int perClassTrain, int perClassValidation, int perClassTest,
                           std::uint64_t seed) {
    constexpr const char* where = "split by counts per class";
    if (perClassTrain < 1)
        throw std::invalid_argument(std::string(where) + ": training instances per class = " + std::to_string(perClassTrain) +
                                    " must be >= 1");
    if (perClassValidation < 0)
        throw std::invalid_argument(std::string(where) + ": validation instances per class = " +
                                    std::to_string(perClassValidation) + " must be >= 0");
    const auto byClass = shuffledByClass(d, seed, where);

    const long long needed =
        static_cast<long long>(perClassTrain) + perClassValidation + std::max(perClassTest, 0);
    for (std::size_t c = 0; c < byClass.size(); ++c)
        if (static_cast<long long>(byClass[c].size()) < needed)
            throw std::invalid_argument(std::string(where) + ": class '" + d.classNames[c] + "' has " +
                                        std::to_string(byClass[c].size()) + " instances, " +
                                        std::to_string(needed) + " needed (" + std::to_string(perClassTrain) +
                                        " train + " + std::to_string(perClassValidation) + " validation + " +
                                        (perClassTest < 0 ? std::string("the rest as") : std::to_string(perClassTest)) +
                                        " test)");

    TrainValTest s;
    for (const auto& rows : byClass) {
        const int n = static_cast<int>(rows.size());
        const int endVal = perClassTrain + perClassValidation;
        const int endTest = perClassTest < 0 ? n : endVal + perClassTest;
        append(s.train, rows, 0, perClassTrain);
        append(s.validation, rows, perClassTrain, endVal);
        append(s.test, rows, endVal, endTest);
    }
    sortParts(s);
    return s;
}

std::vector<TrainTest> stratifiedKFold(const Dataset& d, int k, std::uint64_t seed) {
    constexpr const char* where = "k-fold split";
    requireRows(d, where);
    const auto byClass = shuffledByClass(d, seed, where);
    // Classes without any row take no part (they cannot be in any fold either way).
    int smallest = d.rows();
    for (const auto& rows : byClass)
        if (!rows.empty()) smallest = std::min(smallest, static_cast<int>(rows.size()));
    if (k < 2 || k > smallest)
        throw std::invalid_argument(std::string(where) + ": k = " + std::to_string(k) + " outside [2, " +
                                    std::to_string(smallest) + "] (the smallest class has " +
                                    std::to_string(smallest) + " instances)");

    // Deal each shuffled class round-robin over the folds, continuing where the previous class
    // stopped: per class the fold sizes differ by at most one, and so do the folds' totals
    // (slicing every class from fold 0 would pile all remainders onto the first folds).
    std::vector<int> foldOf(static_cast<std::size_t>(d.rows()), 0);
    std::size_t next = 0;
    for (const auto& rows : byClass)
        for (int i : rows) foldOf[static_cast<std::size_t>(i)] = static_cast<int>(next++ % static_cast<std::size_t>(k));

    std::vector<TrainTest> folds(static_cast<std::size_t>(k));
    for (int i = 0; i < d.rows(); ++i) {  // increasing i: parts come out sorted
        for (int f = 0; f < k; ++f) {
            auto& fold = folds[static_cast<std::size_t>(f)];
            (foldOf[static_cast<std::size_t>(i)] == f ? fold.test : fold.train).push_back(i);
        }
    }
    return folds;
}

}  // namespace fdlab
