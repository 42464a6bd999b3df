#pragma once
// The corrupting distributions of MCF (van der Maaten, Chen, Tyree & Weinberger, ICML 2013,
// Tables 1 and 2): unbiased (E[x~_d] = x_d), independent across features.
//
//   noise          Var[x~_d]            log E[exp(t x~_d)]  =  phi_d(t; x_d) + psi(t)
//   blankout q_d   q_d/(1-q_d) x_d^2    phi = log(q_d + (1-q_d) exp(t x_d/(1-q_d))),  psi = 0
//   Gaussian s     s^2                  phi = t x_d,   psi = s^2 t^2 / 2
//   Laplace l      2 l^2                phi = t x_d,   psi = -log(1 - l^2 t^2)   (|l t| < 1)
//   Poisson        x_d (x_d >= 0)       phi = x_d (e^t - 1),   psi = 0
//
// (Blankout keeps a feature with probability 1-q_d and rescales it by 1/(1-q_d); the Laplace
// scale l has density exp(-|x~ - x|/l)/(2l).) The split into phi and psi is what makes sparse
// data cheap: phi_d(t; 0) = 0, so a sum over all features only visits the non-zeros, plus one
// psi term per feature that does not depend on the example (zero for blankout and Poisson,
// whose corruption of a zero is zero). The Laplace MGF diverges for |l t| >= 1; psi returns
// +inf there.

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace fdlab {

enum class McfNoise { Blankout, Gaussian, Laplace, Poisson };

const char* toString(McfNoise n);
/// "blankout", "gaussian", "laplace", "poisson"; throws std::invalid_argument.
McfNoise mcfNoiseFromString(const std::string& s);

/// One corruption model resolved for a given number of features (per-feature q_d).
class CorruptionModel {
public:
    /// q: blankout level of every feature, or qPerFeature (size `features`) when not empty.
    /// Throws std::invalid_argument for q outside [0, 1), sigma < 0, scale < 0, wrong sizes.
    CorruptionModel(McfNoise kind, int features, double q, const std::vector<double>& qPerFeature,
                    double sigma, double laplaceScale);

    McfNoise kind() const { return m_kind; }
    int features() const { return static_cast<int>(m_q.size()); }
    /// True when psi is not identically zero (Gaussian, Laplace): zero features matter.
    bool corruptsZeros() const { return m_kind == McfNoise::Gaussian || m_kind == McfNoise::Laplace; }

    /// Var[x~_d] given x_d.
    double variance(int d, double x) const {
        switch (m_kind) {
        case McfNoise::Blankout: return m_q[static_cast<std::size_t>(d)] / (1.0 - m_q[static_cast<std::size_t>(d)]) * x * x;
        case McfNoise::Gaussian: return m_sigma * m_sigma;
        case McfNoise::Laplace: return 2.0 * m_lambda * m_lambda;
        case McfNoise::Poisson: return x;
        }
        return 0.0;
    }

    /// phi_d(t; x) and its derivative in t. Computed in log space (no overflow for large t x).
    double phi(int d, double t, double x, double& dphi) const {
        switch (m_kind) {
        case McfNoise::Blankout: {
            const auto j = static_cast<std::size_t>(d);
            // log(q + (1-q) e^s) = logaddexp(log q, log(1-q) + s), s = t x / (1-q).
            const double a = m_logq[j];
            const double c = m_log1mq[j] + t * x * m_inv1mq[j];
            if (c >= a) {
                const double r = std::exp(a - c);
                dphi = x * m_inv1mq[j] / (1.0 + r);
                return c + std::log1p(r);
            }
            const double r = std::exp(c - a);
            dphi = x * m_inv1mq[j] * (r / (1.0 + r));
            return a + std::log1p(r);
        }
        case McfNoise::Gaussian:
        case McfNoise::Laplace: dphi = x; return t * x;
        case McfNoise::Poisson: {
            const double e = std::exp(t);
            dphi = x * e;
            return x * (e - 1.0);
        }
        }
        dphi = 0.0;
        return 0.0;
    }

    /// phi'_d(t; x) alone (the same value phi() returns in dphi, without the logarithm).
    double dphi(int d, double t, double x) const {
        switch (m_kind) {
        case McfNoise::Blankout: {
            const auto j = static_cast<std::size_t>(d);
            const double c = m_log1mq[j] + t * x * m_inv1mq[j], a = m_logq[j];
            if (c >= a) return x * m_inv1mq[j] / (1.0 + std::exp(a - c));
            const double r = std::exp(c - a);
            return x * m_inv1mq[j] * (r / (1.0 + r));
        }
        case McfNoise::Gaussian:
        case McfNoise::Laplace: return x;
        case McfNoise::Poisson: return x * std::exp(t);
        }
        return 0.0;
    }

    /// phi_d(t; x) with its first and second derivatives in t (for Newton's method).
    double phi(int d, double t, double x, double& dphi, double& d2phi) const {
        const double v = phi(d, t, x, dphi);
        d2phi = secondFromFirst(d, x, dphi);
        return v;
    }

    /// phi''_d(t; x) from phi'_d(t; x) at the same t, so that Newton can cache phi' alone:
    /// phi'' = phi' (A + B phi') with A, B from secondOrderCoefficients.
    double secondFromFirst(int d, double x, double dphi) const {
        double A = 0.0, B = 0.0;
        secondOrderCoefficients(d, x, A, B);
        return dphi * (A + B * dphi);
    }

    /// A and B of phi'' = phi' (A + B phi'), which depend on (d, x) only. Blankout: phi' = s' sigma
    /// and phi'' = s'^2 sigma (1 - sigma) with s' = x / (1-q), so A = s', B = -1. Poisson:
    /// phi'' = phi' = x e^t, A = 1, B = 0. Gaussian, Laplace: phi is linear, A = B = 0.
    void secondOrderCoefficients(int d, double x, double& A, double& B) const {
        switch (m_kind) {
        case McfNoise::Blankout: A = x * m_inv1mq[static_cast<std::size_t>(d)], B = -1.0; return;
        case McfNoise::Poisson: A = 1.0, B = 0.0; return;
        default: A = B = 0.0; return;
        }
    }

    /// psi(t) with its first and second derivatives in t.
    double psi(double t, double& dpsi, double& d2psi) const {
        const double v = psi(t, dpsi);
        switch (m_kind) {
        case McfNoise::Gaussian: d2psi = m_sigma * m_sigma; break;
        case McfNoise::Laplace: {
            const double l2 = m_lambda * m_lambda, u2 = l2 * t * t;
            d2psi = u2 < 1.0 ? 2.0 * l2 * (1.0 + u2) / ((1.0 - u2) * (1.0 - u2)) : 0.0;
            break;
        }
        default: d2psi = 0.0; break;
        }
        return v;
    }

    /// psi(t) and its derivative; +inf (derivative 0) outside the Laplace domain |l t| < 1.
    double psi(double t, double& dpsi) const {
        switch (m_kind) {
        case McfNoise::Gaussian: dpsi = m_sigma * m_sigma * t; return 0.5 * m_sigma * m_sigma * t * t;
        case McfNoise::Laplace: {
            const double u2 = m_lambda * m_lambda * t * t;
            if (!(u2 < 1.0)) {
                dpsi = 0.0;
                return std::numeric_limits<double>::infinity();
            }
            dpsi = 2.0 * m_lambda * m_lambda * t / (1.0 - u2);
            return -std::log1p(-u2);
        }
        default: dpsi = 0.0; return 0.0;
        }
    }

    /// log E[exp(t x~_d)] in full (phi + psi), for tests and diagnostics.
    double logMgf(int d, double t, double x) const {
        double g1 = 0.0, g2 = 0.0;
        return phi(d, t, x, g1) + psi(t, g2);
    }

    /// Largest |t| allowed (1/l for Laplace, +inf otherwise).
    double maxAbsT() const {
        return m_kind == McfNoise::Laplace && m_lambda > 0.0 ? 1.0 / m_lambda : std::numeric_limits<double>::infinity();
    }

private:
    McfNoise m_kind;
    std::vector<double> m_q, m_logq, m_log1mq, m_inv1mq;
    double m_sigma = 0.0;
    double m_lambda = 0.0;
};

}  // namespace fdlab
