#include "core/learners/mcf_noise.h"

#include <stdexcept>

namespace fdlab {

const char* toString(McfNoise n) {
    switch (n) {
    case McfNoise::Blankout: return "blankout";
    case McfNoise::Gaussian: return "gaussian";
    case McfNoise::Laplace: return "laplace";
    case McfNoise::Poisson: return "poisson";
    }
    return "?";
}

McfNoise mcfNoiseFromString(const std::string& s) {
    for (McfNoise n : {McfNoise::Blankout, McfNoise::Gaussian, McfNoise::Laplace, McfNoise::Poisson})
        if (s == toString(n)) return n;
    throw std::invalid_argument("unknown MCF noise '" + s + "' (blankout, gaussian, laplace, poisson)");
}

CorruptionModel::CorruptionModel(McfNoise kind, int features, double q, const std::vector<double>& qPerFeature,
                                 double sigma, double laplaceScale)
    : m_kind(kind), m_sigma(sigma), m_lambda(laplaceScale) {
    if (features < 0) throw std::invalid_argument("CorruptionModel: negative feature count");
    const auto n = static_cast<std::size_t>(features);
    if (!qPerFeature.empty() && qPerFeature.size() != n)
        throw std::invalid_argument("McfParams.qPerFeature has " + std::to_string(qPerFeature.size()) +
                                    " values for " + std::to_string(features) + " features");
    m_q.assign(n, q);
    if (!qPerFeature.empty()) m_q = qPerFeature;
    if (kind == McfNoise::Blankout) {
        for (std::size_t j = 0; j < n; ++j)
            if (!(m_q[j] >= 0.0 && m_q[j] < 1.0))
                throw std::invalid_argument("McfParams blankout level of feature " + std::to_string(j + 1) +
                                            " must be in [0, 1), got " + std::to_string(m_q[j]));
    }
    if (kind == McfNoise::Gaussian && !(sigma >= 0.0 && std::isfinite(sigma)))
        throw std::invalid_argument("McfParams.sigma must be finite and >= 0");
    if (kind == McfNoise::Laplace && !(laplaceScale >= 0.0 && std::isfinite(laplaceScale)))
        throw std::invalid_argument("McfParams.laplaceScale must be finite and >= 0");
    m_logq.resize(n);
    m_log1mq.resize(n);
    m_inv1mq.resize(n);
    for (std::size_t j = 0; j < n; ++j) {
        const double qj = kind == McfNoise::Blankout ? m_q[j] : 0.0;
        m_logq[j] = qj > 0.0 ? std::log(qj) : -std::numeric_limits<double>::infinity();
        m_log1mq[j] = std::log1p(-qj);
        m_inv1mq[j] = 1.0 / (1.0 - qj);
    }
}

}  // namespace fdlab
