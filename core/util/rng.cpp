#include "core/util/rng.h"

#include <cmath>

namespace fdlab {

namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

Rng::Rng(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& s : m_s) s = splitmix64(x);
}

std::uint64_t Rng::next() {
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

double Rng::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

std::uint64_t Rng::below(std::uint64_t n) {
    // Lemire-free simple rejection: reject the top partial block so every residue is equally likely.
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
    std::uint64_t r;
    do r = next();
    while (r >= limit);
    return r % n;
}

double Rng::normal() {
    if (m_hasCached) {
        m_hasCached = false;
        return m_cachedNormal;
    }
    double u1;
    do u1 = uniform();
    while (u1 <= 0.0);
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double a = 2.0 * M_PI * u2;
    m_cachedNormal = r * std::sin(a);
    m_hasCached = true;
    return r * std::cos(a);
}

Rng Rng::split(std::uint64_t k) const {
    std::uint64_t x = m_s[0] ^ rotl(m_s[2], 13) ^ (k * 0xd1342543de82ef95ULL + 0x632be59bd9b4e019ULL);
    return Rng(splitmix64(x));
}

}  // namespace fdlab
