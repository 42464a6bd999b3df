#include "core/data/preprocess.h"

#include <algorithm>
#include <cmath>
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
        throw std::invalid_argument("Preprocessor::fit: binariseThreshold is not finite");
    p.binariseThreshold = binariseThreshold;
    if (s != Scaling::MinusOneOne && s != Scaling::ZeroOne) return p;

    if (d.rows() == 0)
        throw std::invalid_argument(std::string("Preprocessor::fit: cannot fit scaling '") + toString(s) +
                                    "' on a dataset with no rows");
    const auto n = static_cast<std::size_t>(d.features());
    p.offset.assign(n, 0.0f);
    p.factor.assign(n, 0.0f);
    p.shift = 0.0f;
    const Eigen::RowVectorXf lo = d.X.colwise().minCoeff();
    const Eigen::RowVectorXf hi = d.X.colwise().maxCoeff();
    for (std::size_t j = 0; j < n; ++j) {
        const double a = lo(static_cast<Eigen::Index>(j));
        const double b = hi(static_cast<Eigen::Index>(j));
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
            throw std::invalid_argument(std::string("Preprocessor::apply: scaling '") + toString(scaling) +
                                        "' was fitted on " + std::to_string(offset.size()) +
                                        " features, dataset has " + std::to_string(n));
        for (Eigen::Index i = 0; i < d.X.rows(); ++i)
            for (std::size_t j = 0; j < n; ++j) {
                const auto jj = static_cast<Eigen::Index>(j);
                // In double so that e.g. the training max maps to exactly 1 after rounding.
                d.X(i, jj) = static_cast<float>((static_cast<double>(d.X(i, jj)) - offset[j]) * factor[j] + shift);
            }
        return;
    }
    case Scaling::UnitNorm:
        for (Eigen::Index i = 0; i < d.X.rows(); ++i) {
            const double norm = d.X.row(i).cast<double>().norm();
            if (norm > 0.0) d.X.row(i) = (d.X.row(i).cast<double>() / norm).cast<float>();
        }
        return;
    case Scaling::Binarise:
        d.X = (d.X.array() > binariseThreshold).cast<float>().matrix();
        return;
    }
}

}  // namespace fdlab
