#pragma once
// Slider positions for budgets: position p stands for the level p * step. Value budgets use a
// step of 1, 2 or 5 times a power of 10, so that round budgets (N = 3) are positions, and a step
// below 1 divides (30 / 10 is exactly 3, 30 * 0.1 is 3.0000000000000004). Shared by the Attack
// panel and the Heatmaps tab, so that both show and use the same level.

#include <cmath>

namespace fdlab::ui {

/// The largest 1, 2 or 5 times a power of 10 at most x (x > 0; else 1).
inline double niceStepBelow(double x) {
    if (!(x > 0.0) || !std::isfinite(x)) return 1.0;
    const double p = std::pow(10.0, std::floor(std::log10(x)));
    for (const double m : {5.0, 2.0, 1.0})
        if (m * p <= x * (1.0 + 1e-12)) return m * p;
    return p;
}

/// The level at slider position `position` with step `step`.
inline double levelAtPosition(int position, double step) {
    const double inverse = std::round(1.0 / step);
    return step < 1.0 && std::abs(inverse * step - 1.0) < 1e-12 ? position / inverse : position * step;
}

}  // namespace fdlab::ui
