#include "core/data/preprocess.h"

#include "core/util/param_check.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fdlab {

const char* toString(Scaling s) {
    switch (s) {
    case Scaling::None: return "none";
    case Scaling::MinusOneOne: return "minus-one-one";
    case Scaling::ZeroOne: return "zero-one";
    case Scaling::UnitNorm: return "unit-norm";
    case Scaling::Binarise: return "binarise";
    }
    return "none";
}

Scaling scalingFromString(const std::string& s) {
    for (Scaling k : {Scaling::None, Scaling::MinusOneOne, Scaling::ZeroOne, Scaling::UnitNorm, Scaling::Binarise})
        if (s == toString(k)) return k;
    throw std::invalid_argument("scaling '" + s +
                                "' unknown (expected none, minus-one-one, zero-one, unit-norm or binarise)");
}

Preprocessor Preprocessor::fit(const Dataset& d, Scaling s, float binariseThreshold) {
    Preprocessor p;
    p.scaling = s;
    if (!std::isfinite(binariseThreshold))
        throw std::invalid_argument("preprocessing: the binarise threshold is not finite");
    p.binariseThreshold = binariseThreshold;
    if (s != Scaling::MinusOneOne && s != Scaling::ZeroOne) return p;

    if (d.rows() == 0)
        throw std::invalid_argument(std::string("scaling: cannot fit '") + toString(s) +
                                    "' on a dataset with no rows");
    const auto n = static_cast<std::size_t>(d.features());
    p.offset.assign(n, 0.0f);
    p.factor.assign(n, 0.0f);
    p.shift = 0.0f;
    std::vector<float> lo, hi;
    d.columnRange(lo, hi);
    for (std::size_t j = 0; j < n; ++j) {
        const double a = lo[j];
        const double b = hi[j];
        if (!std::isfinite(a) || !std::isfinite(b))
            throw std::invalid_argument("Preprocessor::fit: feature " + std::to_string(j + 1) +
                                        " has a non-finite value");
        // Both maps are centred on a reference point with shift 0, so a constant feature
        // (factor 0) lands on 0 in either case, as the header promises:
        //   zero-one:      x' = (x - min) / (max - min)
        //   minus-one-one: x' = (x - (min + max)/2) * 2 / (max - min)
        const bool constant = !(b > a);
        if (s == Scaling::ZeroOne) {
            p.offset[j] = static_cast<float>(a);
            p.factor[j] = constant ? 0.0f : static_cast<float>(1.0 / (b - a));
        } else {
            p.offset[j] = static_cast<float>(0.5 * (a + b));
            p.factor[j] = constant ? 0.0f : static_cast<float>(2.0 / (b - a));
        }
        // The factor is stored as a float (also in model files): a range of 1e-39 gave an
        // infinite factor and NaN / inf in the scaled data.
        if (!std::isfinite(p.factor[j]))
            throw std::invalid_argument("scaling '" + std::string(toString(s)) + "': feature " + std::to_string(j + 1) +
                                        (j < d.featureNames.size() ? " (" + d.featureNames[j] + ")" : std::string()) +
                                        " ranges over " + formatParam(b - a) +
                                        " only, too little to scale in single precision (its factor is beyond a float)");
    }
    return p;
}

void Preprocessor::apply(Dataset& d) const {
    switch (scaling) {
    case Scaling::None:
        return;
    case Scaling::MinusOneOne:
    case Scaling::ZeroOne: {
        const auto n = static_cast<std::size_t>(d.features());
        if (offset.size() != n || factor.size() != n)
            throw std::invalid_argument(std::string("scaling '") + toString(scaling) +
                                        "' was fitted on " + std::to_string(offset.size()) +
                                        " features, dataset has " + std::to_string(n));
        if (d.isSparse())   // only a map that keeps 0 at 0 keeps the set sparse
            for (std::size_t j = 0; j < n; ++j)
                if (offset[j] * factor[j] != 0.0f || shift != 0.0f)
                    throw std::invalid_argument(std::string("scaling '") + toString(scaling) + "' would fill the zeros of sparse data '" +
                                                d.name + "' (feature " + d.featureName(static_cast<int>(j)) +
                                                " maps 0 to a non-zero value); use zero-one on non-negative data, unit-norm or none");
        // In double so that e.g. the training max maps to exactly 1 after rounding. A value far
        // outside a tiny training range can map beyond a float (1e12 with a factor of 1e30 gave
        // inf, scored as a margin of inf and counted correct): refused, naming the first one.
        int badRow = -1, badFeature = -1;
        double badValue = 0.0, badScaled = 0.0;
        d.transformStoredValues([&](int i, int j, float& x) {
            const auto jj = static_cast<std::size_t>(j);
            const double scaled = (static_cast<double>(x) - offset[jj]) * factor[jj] + shift;
            if (!std::isfinite(static_cast<float>(scaled)) && badRow < 0) {
                badRow = i;
                badFeature = j;
                badValue = x;
                badScaled = scaled;
            }
            x = static_cast<float>(scaled);
        });
        if (badRow >= 0)
            throw std::invalid_argument("scaling '" + std::string(toString(scaling)) + "' of '" + d.name + "': row " +
                                        std::to_string(badRow + 1) + ", feature " + d.featureName(badFeature) + ": " +
                                        formatParam(badValue) + " maps to " + formatParam(badScaled) +
                                        ", beyond a float (the feature's training range was tiny: factor " +
                                        formatParam(factor[static_cast<std::size_t>(badFeature)]) + ")");
        return;
    }
    case Scaling::UnitNorm: {
        std::vector<double> norm(static_cast<std::size_t>(d.rows()), 0.0);
        for (int i = 0; i < d.rows(); ++i)
            d.forEachNonZero(i, [&](int, float x) { norm[static_cast<std::size_t>(i)] += static_cast<double>(x) * x; });
        for (double& v : norm) v = std::sqrt(v);
        d.transformStoredValues([&](int i, int, float& x) {
            const double nr = norm[static_cast<std::size_t>(i)];
            if (nr > 0.0) x = static_cast<float>(static_cast<double>(x) / nr);
        });
        return;
    }
    case Scaling::Binarise:
        if (d.isSparse() && binariseThreshold < 0.0f)
            throw std::invalid_argument("binarise with a negative threshold would fill the zeros of sparse data '" + d.name + "'");
        d.transformStoredValues([&](int, int, float& x) { x = x > binariseThreshold ? 1.0f : 0.0f; });
        return;
    }
}

void Preprocessor::applyDense(std::vector<float>& x) const {
    if (scaling == Scaling::None) return;
    Dataset d;
    d.name = "your input";
    d.X = Eigen::Map<const Dataset::Matrix>(x.data(), 1, static_cast<Eigen::Index>(x.size()));
    apply(d);
    for (std::size_t j = 0; j < x.size(); ++j) x[j] = d.X(0, static_cast<Eigen::Index>(j));
}

void Preprocessor::applySparse(const std::vector<std::int32_t>& columns, std::vector<float>& values, int n) const {
    if (scaling == Scaling::None) return;
    Dataset d;
    d.name = "your input";
    SparseRows rows;
    rows.cols = n;
    rows.colIndex = columns;
    rows.values = values;
    rows.rowStart = {0, static_cast<std::int64_t>(values.size())};
    d.sparse = std::move(rows);
    d.featureNames.assign(static_cast<std::size_t>(n), std::string());
    apply(d);
    values = d.sparse->values;
}

float Preprocessor::fittedMaximum() const {
    if (scaling != Scaling::ZeroOne && scaling != Scaling::MinusOneOne) return 0.0f;
    // Both maps send the fitted max b_j to 1: b_j = offset_j + (1 - shift) / factor_j (zero-one:
    // a_j + (b_j - a_j); minus-one-one: (a_j + b_j) / 2 + (b_j - a_j) / 2).
    double hi = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < factor.size() && j < offset.size(); ++j)
        if (factor[j] != 0.0f)
            hi = std::max(hi, static_cast<double>(offset[j]) + (1.0 - shift) / static_cast<double>(factor[j]));
    return std::isfinite(hi) ? static_cast<float>(hi) : 0.0f;
}

}  // namespace fdlab
