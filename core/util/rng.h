#pragma once
// Seeded random numbers that give the same stream on every platform and compiler.
//
// std::uniform_*_distribution and std::normal_distribution are implementation-defined, so
// results would differ between libstdc++ and libc++; FDLab promises "same seed, same numbers",
// hence this small generator: xoshiro256** (Blackman & Vigna) seeded through splitmix64, with
// our own uniform, integer, normal (Box-Muller) and shuffle.

#include <cstdint>
#include <utility>
#include <vector>

namespace fdlab {

class Rng {
public:
    explicit Rng(std::uint64_t seed = 0);

    std::uint64_t next();
    /// Uniform in [0, 1), 53 random bits.
    double uniform();
    /// Uniform in [a, b).
    double uniform(double a, double b) { return a + (b - a) * uniform(); }
    /// Uniform integer in [0, n), unbiased (rejection); n > 0.
    std::uint64_t below(std::uint64_t n);
    /// Standard normal (Box-Muller, one value cached).
    double normal();
    bool bernoulli(double p) { return uniform() < p; }

    /// Fisher-Yates shuffle.
    template <class T>
    void shuffle(std::vector<T>& v) {
        for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<std::size_t>(below(i))]);
    }
    /// A child generator for job k, independent of the parent's later draws (for parallel work).
    Rng split(std::uint64_t k) const;

private:
    std::uint64_t m_s[4];
    double m_cachedNormal = 0;
    bool m_hasCached = false;
};

}  // namespace fdlab
