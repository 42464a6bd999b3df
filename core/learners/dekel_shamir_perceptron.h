#pragma once
// Dekel & Shamir, "Learning to classify with missing and corrupted features", ICML 2008,
// section 3: the Perceptron with projection onto the cube, made a batch learner by averaging
// (online-to-batch, Cesa-Bianchi, Conconi & Gentile 2004). Spec ALGORITHMS.md section 2.
//
// Values v_j > 0, V = V([n]), budget N in [0, V), P = V - N, margin gamma > 0, box C > 0. Loss
//     l(w, b, x, y) = max_{J: V([n] \ J) <= N} [ gamma V(J)/P - y (b + sum_{j in J} w_j x_j) ]_+ .
// Starting from w_1 = 0, b_1 = 0, for each example (x_t, y_t) in turn: if l(w_t, b_t, x_t, y_t) = 0
// keep (w, b); otherwise, with J the maximising kept set,
//     w_j <- clip_C(w_j + tau y x_j) for j in J (others unchanged),  b <- clip_C(b + tau y),
// clip_C(a) = max(min(a, C), -C): the projection onto the cube [-C, C]^(n+1). Output the average
// hypothesis  w_bar = (1/T) sum_{t=1..T} w_t,  b_bar likewise, over the T hypotheses that made a
// prediction (w_1 = 0 included, the final w_{T+1} not); T = epochs * m.
//
// The step tau is a constant; Theorem 4's regret bound (average regret C 2(n+1)/sqrt(m)) holds
// for tau = 2C/sqrt(m), the default. Epochs after the first (and the first too, unless shuffle is
// off) visit the examples in an order shuffled with the seed.
//
// The inner max over J is the adversary's knapsack with profits q_j = y w_j x_j - gamma v_j/P
// (DekelShamirAdversary in dekel_shamir_lp.h): exact by sorting when all v_j are equal (delete
// the floor(N/v) largest positive q_j). Otherwise it is the documented greedy rule (largest
// q_j / v_j first, skip what does not fit; Dekel & Shamir's "greedy adversary"): a lower bound on
// the exact max, so an update may use a kept set that is not the worst one, and the reported
// objective may be below the exact loss.
//
// FitResult::objective = (1/m) sum_i l(w_bar, b_bar, x_i, y_i) on the training set (same inner
// max as training). gap = -1. iterations = T.

#include "core/data/dataset.h"
#include "core/learners/fit_result.h"
#include "core/util/run_control.h"

#include <cstdint>

namespace fdlab {

struct DekelShamirPerceptronParams {
    /// Margin gamma > 0. Default 1.
    double gamma = 1.0;
    /// Cube radius C > 0 for w and b. Default 1.
    double C = 1.0;
    /// Deletion budget N in [0, V), V = total feature value. Default 0.
    double N = 0.0;
    /// v_j from the dataset's importance values (true) or all 1 (false). Default true.
    bool useImportance = true;
    /// Step size tau >= 0; 0 means the default 2C/sqrt(m), m = training examples. Default 0.
    double tau = 0.0;
    /// Passes over the training set, >= 1. Default 1.
    int epochs = 1;
    /// Shuffle the order in every epoch (true) or keep the data order (false). Default true.
    bool shuffle = true;
    /// Seed of the shuffles. Default 1.
    std::uint64_t seed = 1;

    /// Throws std::invalid_argument naming the field. N < V is checked by fit.
    void validate() const;
};

/// Trains on a binary dataset; throws std::invalid_argument for bad params or a non-binary or
/// empty dataset. Status Converged after all epochs, Cancelled (with the average so far).
FitResult fitDekelShamirPerceptron(const Dataset& train, const DekelShamirPerceptronParams& p,
                                   const RunControl& rc = {});

}  // namespace fdlab
