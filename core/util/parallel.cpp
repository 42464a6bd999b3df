#include "core/util/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace fdlab {

int hardwareThreads() { return std::max(1u, std::thread::hardware_concurrency()); }

void parallelFor(int n, int threads, const std::function<void(int)>& job, std::stop_token stop) {
    if (n <= 0) return;
    if (threads <= 0) threads = hardwareThreads();
    threads = std::min(threads, n);
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n));
    std::atomic<int> next{0};
    auto worker = [&] {
        for (int i = next++; i < n; i = next++) {
            if (stop.stop_requested()) return;
            try {
                job(i);
            } catch (...) {
                errors[static_cast<std::size_t>(i)] = std::current_exception();
            }
        }
    };
    if (threads == 1) {
        worker();
    } else {
        std::vector<std::jthread> pool;
        for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    }
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace fdlab
