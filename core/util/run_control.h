#pragma once
// Progress and cancellation for long core work, without Qt.
//
// Every long-running core function takes a `const RunControl&`. It calls report() about once
// per outer iteration (never from a hot inner loop) and polls cancelled() often enough that a
// cancel request is honoured within ~100 ms. Cancelling is a normal outcome (Status::Cancelled),
// not an exception. Core never prints: all it has to say goes through these callbacks.

#include <chrono>
#include <functional>
#include <stop_token>
#include <string>

namespace fdlab {

/// How a run ended. Shared by every learner, attack and experiment result.
enum class Status { Converged, MaxIterations, Cancelled, Failed };

const char* toString(Status s);

/// One progress report.
struct Progress {
    double fraction = 0.0;   ///< 0..1 of the whole job, or < 0 when unknown
    long iteration = 0;      ///< outer iteration or items done
    std::string message;     ///< short human-readable state, e.g. "gap 1.2e-3"
};

struct RunControl {
    /// Called once per outer iteration; may be empty. Must be cheap and thread-safe if the
    /// job is parallel (the evaluation engine serialises its own calls).
    std::function<void(const Progress&)> onProgress;
    /// Cancellation request; default-constructed tokens never stop.
    std::stop_token stop;

    bool cancelled() const { return stop.stop_requested(); }
    void report(const Progress& p) const {
        if (onProgress) onProgress(p);
    }
    void report(double fraction, long iteration, std::string message = {}) const {
        if (onProgress) onProgress(Progress{fraction, iteration, std::move(message)});
    }
};

/// Wall-clock stopwatch for the `elapsed` field of result structs.
class Stopwatch {
public:
    Stopwatch() : m_start(std::chrono::steady_clock::now()) {}
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    }

private:
    std::chrono::steady_clock::time_point m_start;
};

}  // namespace fdlab
