#pragma once
// A minimal work-sharing loop: `threads` std::jthreads take job indices 0..n-1 from an atomic
// counter. Results must be written to per-job slots, so the outcome does not depend on which
// thread ran which job (FDLab's "same spec, same numbers" promise). Exceptions thrown by a job
// are captured and the first one (by job index) is rethrown after every thread has finished.

#include <functional>
#include <stop_token>

namespace fdlab {

/// Number of hardware threads (at least 1).
int hardwareThreads();

/// Runs job(i) for i in [0, n) on `threads` threads (<= 0: hardwareThreads()). Stops handing
/// out new jobs once `stop` is requested (jobs already started finish or poll the token).
void parallelFor(int n, int threads, const std::function<void(int)>& job, std::stop_token stop = {});

}  // namespace fdlab
