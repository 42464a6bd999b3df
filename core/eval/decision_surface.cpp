#include "core/eval/decision_surface.h"

#include <array>
#include <stdexcept>
#include <string>

namespace fdlab {

DecisionGrid decisionGrid(const Scorer& model, const Projection2d& plane, double uMin, double uMax, double vMin,
                          double vMax, int nu, int nv, const RunControl& rc) {
    if (nu < 2 || nv < 2) throw std::invalid_argument("decision surface: nu and nv must be >= 2");
    if (!(uMin < uMax) || !(vMin < vMax)) throw std::invalid_argument("decision surface: empty range (need uMin < uMax, vMin < vMax)");
    if (model.outputs() != 1) throw std::invalid_argument("decision surface: a binary model (one score) is needed");
    if (model.features() != plane.axes.rows())
        throw std::invalid_argument("decision surface: the model takes " + std::to_string(model.features()) +
                                    " features, the plane lives in " + std::to_string(plane.axes.rows()));
    DecisionGrid g;
    g.uMin = uMin, g.uMax = uMax, g.vMin = vMin, g.vMax = vMax, g.nu = nu, g.nv = nv;
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(nu) * static_cast<std::size_t>(nv));
    std::vector<float> x(static_cast<std::size_t>(plane.axes.rows()));
    for (int k = 0; k < nv; ++k) {
        if (rc.cancelled()) return g;
        for (int i = 0; i < nu; ++i) {
            const Eigen::VectorXd p = plane.lift(g.u(i), g.v(k));
            for (Eigen::Index j = 0; j < p.size(); ++j) x[static_cast<std::size_t>(j)] = static_cast<float>(p(j));
            double s = 0.0;
            model.scores(x, {&s, 1});
            values.push_back(s);
        }
    }
    g.values = std::move(values);
    return g;
}

std::vector<ContourSegment> zeroContour(const DecisionGrid& g) {
    std::vector<ContourSegment> out;
    if (g.values.size() != static_cast<std::size_t>(g.nu) * static_cast<std::size_t>(g.nv)) return out;
    struct P {
        double u, v;
    };
    for (int k = 0; k + 1 < g.nv; ++k)
        for (int i = 0; i + 1 < g.nu; ++i) {
            // corners counter-clockwise from (i, k): a, b, c, d; edge e joins corner e and e + 1
            const std::array<P, 4> c = {P{g.u(i), g.v(k)}, P{g.u(i + 1), g.v(k)}, P{g.u(i + 1), g.v(k + 1)}, P{g.u(i), g.v(k + 1)}};
            const std::array<double, 4> f = {g.at(i, k), g.at(i + 1, k), g.at(i + 1, k + 1), g.at(i, k + 1)};
            std::array<bool, 4> pos{};
            for (int e = 0; e < 4; ++e) pos[static_cast<std::size_t>(e)] = f[static_cast<std::size_t>(e)] >= 0.0;
            auto crossing = [&](int e) {
                const auto a = static_cast<std::size_t>(e), b = static_cast<std::size_t>((e + 1) % 4);
                const double t = f[a] / (f[a] - f[b]);
                return P{c[a].u + t * (c[b].u - c[a].u), c[a].v + t * (c[b].v - c[a].v)};
            };
            std::vector<int> edges;
            for (int e = 0; e < 4; ++e)
                if (pos[static_cast<std::size_t>(e)] != pos[static_cast<std::size_t>((e + 1) % 4)]) edges.push_back(e);
            auto add = [&](int e0, int e1) {
                const P p = crossing(e0), q = crossing(e1);
                out.push_back({p.u, p.v, q.u, q.v});
            };
            if (edges.size() == 2) {
                add(edges[0], edges[1]);
            } else if (edges.size() == 4) {
                // saddle: if the centre has a's sign, a and c are joined and b, d are cut off
                const bool centre = (f[0] + f[1] + f[2] + f[3]) / 4.0 >= 0.0;
                if (centre == pos[0]) add(0, 1), add(2, 3);
                else add(3, 0), add(1, 2);
            }
        }
    return out;
}

}  // namespace fdlab
