#pragma once
// Shared by the GUI tests that run small experiments: a multi-class task on a bundled dataset,
// 30% test, no validation part, the given learners, threat and levels; and a comparison of two
// point lists.

#include "core/eval/experiment_runner.h"
#include "core/eval/experiment_spec.h"

#include <QTest>

#include <string>
#include <vector>

namespace fdlab::ui {

inline ExperimentSpec smallSpec(const std::string& name, const std::string& dataset, std::vector<LearnerSpec> learners,
                                const std::string& threat, std::vector<double> levels, int repetitions) {
    ExperimentSpec s;
    s.name = name;
    s.dataset.bundled = dataset;
    s.task.kind = TaskSpec::Kind::MultiClass;
    s.split.kind = SplitSpec::Kind::Fraction;
    s.split.testFraction = 0.3;
    s.split.validationFraction = 0.0;
    s.learners = std::move(learners);
    s.attack.threat = threat;
    s.levels = std::move(levels);
    s.repetitions = repetitions;
    return s;
}

/// The same learners, levels, repetitions and errors, point by point (a failure is recorded in
/// the running test; check QTest::currentTestFailed() when more follows).
inline void comparePoints(const std::vector<CurvePoint>& got, const std::vector<CurvePoint>& want) {
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        QCOMPARE(got[i].learner, want[i].learner);
        QCOMPARE(got[i].level, want[i].level);
        QCOMPARE(got[i].repetition, want[i].repetition);
        QCOMPARE(got[i].error, want[i].error);
    }
}

}  // namespace fdlab::ui
