#pragma once
// Learning tasks built on a dataset: the binary view (a set of positive classes against a set of
// negative classes, e.g. digit 3 vs 5), one-vs-rest, and the multi-class whole.

#include "core/data/dataset.h"

#include <string>
#include <vector>

namespace fdlab {

struct TaskSpec {
    enum class Kind { Binary, OneVsRest, MultiClass };
    Kind kind = Kind::MultiClass;
    std::vector<std::string> positive;  ///< class names (Binary, and OneVsRest: one name)
    std::vector<std::string> negative;  ///< class names (Binary)

    std::string describe() const;       ///< e.g. "3 vs 5", "3 vs rest", "all 10 classes"
};

/// Binary dataset of the rows whose class is in positive or negative: class index 1 (y = +1)
/// is the positive set, named by joining the names with "+". Throws std::invalid_argument for
/// unknown or overlapping class names, or an empty side.
Dataset binaryView(const Dataset& d, const std::vector<std::string>& positive,
                   const std::vector<std::string>& negative);

/// All rows; class 1 = `positive`, class 0 = every other class ("rest").
Dataset oneVsRest(const Dataset& d, const std::string& positive);

/// Applies a TaskSpec (MultiClass returns d unchanged).
Dataset applyTask(const Dataset& d, const TaskSpec& t);

}  // namespace fdlab
