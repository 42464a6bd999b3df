#pragma once
// A separate test file expressed in the training file's terms: the training file fixes the
// features (matched by name: LIBSVM/CSV columns "f1", "f2", ..., words of a text corpus, CSV
// header names) and the classes (matched by name). Features of the test file that training
// never saw are dropped and counted, training features the test file lacks are 0, and a test
// class that training does not have is an error naming the file.

#include "core/data/dataset.h"

#include <cstdint>
#include <string>

namespace fdlab {

struct AlignReport {
    int droppedFeatures = 0;             ///< test features with no training feature of that name
    std::int64_t droppedValues = 0;      ///< their non-zero values in the test rows
    int missingFeatures = 0;             ///< training features absent from the test file (all 0)

    /// e.g. "14794 features unseen in training dropped (23482 non-zero values)"; empty when none.
    std::string describe() const;
};

/// test with train's features, feature names, importance, classes and image shape; its rows,
/// source rows, ids and documents kept. Storage as test's (sparse stays sparse). `where` names
/// the test file in errors (std::invalid_argument).
Dataset alignToTraining(const Dataset& train, const Dataset& test, const std::string& where, AlignReport* report = nullptr);

}  // namespace fdlab
