#pragma once
// One-vs-rest: any binary learner on a K-class problem.
//
// For each class k = 0..K-1, the binary problem "class k (y = +1) against all other classes
// (y = -1)" is built with oneVsRest() (core/data/task.h) and solved by the given binary fit
// function; column k of the result is that binary model's (w_k, b_k). The multi-class model
// predicts argmax_k b_k + w_k.x (LinearModel). Source: the standard reduction, e.g. Rifkin &
// Klautau, "In defense of one-vs-all classification", JMLR 5 (2004).
//
// Sub-problems run in class order, each with a RunControl whose progress is mapped onto
// [k/K, (k+1)/K] of the whole job and whose stop token is the caller's, so the result is
// deterministic whenever the binary learner is.

#include "core/data/dataset.h"
#include "core/learners/fit_result.h"
#include "core/util/run_control.h"

#include <functional>

namespace fdlab {

/// A binary learner with its parameters bound, e.g.
/// [&](const Dataset& d, const RunControl& rc) { return fitMcf(d, params, rc); }.
using BinaryFit = std::function<FitResult(const Dataset&, const RunControl&)>;

/// Trains K one-vs-rest models and stacks them into an n x K LinearModel (class names of train).
/// A binary dataset (2 classes) is passed to fit unchanged (a one-column model). Result:
/// objective = sum of the sub-objectives, iterations = their sum, gap = the largest sub-gap
/// (or -1 when no sub-problem has one), status = Failed if any sub-problem failed (stops
/// there; the message names the class), Cancelled when stopped (the model holds the columns
/// trained so far; the others are zero, bias included), MaxIterations if any sub-problem hit
/// its limit, else Converged. Throws std::invalid_argument for a dataset with < 2 classes or an
/// empty fit function; exceptions of fit propagate.
FitResult fitOneVsRest(const Dataset& train, const BinaryFit& fit, const RunControl& rc = {});

}  // namespace fdlab
