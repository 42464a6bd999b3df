#pragma once
// What every learner's fit() returns (STYLE.md rule 1).

#include "core/learners/linear_model.h"
#include "core/util/run_control.h"

#include <string>

namespace fdlab {

struct FitResult {
    LinearModel model;
    double objective = 0.0;   ///< the learner's training objective at the returned model
    double gap = -1.0;        ///< duality / bound gap when the solver has one, else -1
    long iterations = 0;
    double elapsed = 0.0;     ///< seconds
    Status status = Status::Failed;
    std::string message;      ///< human-readable, e.g. "gap 8.1e-5 < eps 1e-4"

    bool ok() const { return status == Status::Converged || status == Status::MaxIterations; }
};

}  // namespace fdlab
