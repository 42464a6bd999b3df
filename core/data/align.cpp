#include "core/data/align.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace fdlab {

std::string AlignReport::describe() const {
    std::string s;
    if (droppedFeatures > 0)
        s = std::to_string(droppedFeatures) + " features unseen in training dropped (" + std::to_string(droppedValues) +
            " non-zero values)";
    if (missingFeatures > 0)
        s += (s.empty() ? "" : "; ") + std::to_string(missingFeatures) + " training features absent from the test file";
    return s;
}

Dataset alignToTraining(const Dataset& train, const Dataset& test, const std::string& where, AlignReport* report) {
    // Classes by name.
    std::vector<int> classMap(static_cast<std::size_t>(test.numClasses()), -1);
    for (int c = 0; c < test.numClasses(); ++c) {
        const auto it = std::find(train.classNames.begin(), train.classNames.end(), test.classNames[static_cast<std::size_t>(c)]);
        if (it == train.classNames.end())
            throw std::invalid_argument(where + ": class '" + test.classNames[static_cast<std::size_t>(c)] +
                                        "' does not occur in the training data");
        classMap[static_cast<std::size_t>(c)] = static_cast<int>(it - train.classNames.begin());
    }
    // Features by name; -1 = unseen in training. Two sets with default names ("f1".."fn") align
    // by index, without spelling out the names.
    std::vector<int> featureMap(static_cast<std::size_t>(test.features()), -1);
    AlignReport rep;
    bool identity = test.features() == train.features();
    std::unordered_map<std::string, int> trainIndex;
    const bool byIndex = train.featureNames.empty() && test.featureNames.empty();
    if (!byIndex) {
        trainIndex.reserve(static_cast<std::size_t>(train.features()));
        for (int j = 0; j < train.features(); ++j) trainIndex.emplace(train.featureName(j), j);
    }
    for (int j = 0; j < test.features(); ++j) {
        int t = byIndex && j < train.features() ? j : -1;
        if (!byIndex)
            if (const auto it = trainIndex.find(test.featureName(j)); it != trainIndex.end()) t = it->second;
        featureMap[static_cast<std::size_t>(j)] = t;
        if (t < 0) ++rep.droppedFeatures;
        identity = identity && t == j;
    }
    rep.missingFeatures = train.features() - (test.features() - rep.droppedFeatures);

    Dataset out = test.subset({});   // metadata; values and labels set below
    out.featureNames = train.featureNames;
    out.importance = train.importance;
    out.classNames = train.classNames;
    out.imageShape = train.imageShape;
    out.sourceRows = test.sourceRows;
    out.labels.resize(test.labels.size());
    for (std::size_t i = 0; i < test.labels.size(); ++i) out.labels[i] = classMap[static_cast<std::size_t>(test.labels[i])];
    if (identity && !test.isSparse()) {
        out.X = test.X;
    } else {
        SparseRowsBuilder b(train.features(), test.storedValues());
        std::vector<std::pair<int, float>> row;
        for (int i = 0; i < test.rows(); ++i) {
            row.clear();
            test.forEachNonZero(i, [&](int j, float x) {
                const int t = featureMap[static_cast<std::size_t>(j)];
                if (t >= 0) row.emplace_back(t, x);
                else ++rep.droppedValues;
            });
            std::sort(row.begin(), row.end());
            for (const auto& [j, x] : row) b.add(j, x);
            b.endRow();
        }
        Dataset aligned = out;
        aligned.sparse = std::move(b).finish();
        out = test.isSparse() ? std::move(aligned) : aligned.toDense(where);
    }
    if (report) *report = rep;
    return out;
}

}  // namespace fdlab
