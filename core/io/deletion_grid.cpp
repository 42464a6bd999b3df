#include "core/io/deletion_grid.h"

#include <algorithm>
#include <stdexcept>

namespace fdlab {

RgbImage deletionGrid(const Dataset& original, const AttackResult& attack, const std::vector<int>& rows, int columns,
                      int scale) {
    if (!original.imageShape) throw std::invalid_argument("deletion grid: the data has no image shape");
    if (rows.empty()) throw std::invalid_argument("deletion grid: no instance to draw");
    const ImageShape s = *original.imageShape;
    const int gap = 2 * scale, pairW = 2 * s.cols * scale + gap, cellW = pairW + 3 * gap, cellH = s.rows * scale + 3 * gap;
    const int n = static_cast<int>(rows.size()), cols = std::clamp(columns, 1, n), lines = (n + cols - 1) / cols;
    RgbImage img;
    img.resize(cols * cellW + gap, lines * cellH + gap, 255);
    for (int k = 0; k < n; ++k) {
        const int i = rows[static_cast<std::size_t>(k)];
        const int ox = gap + (k % cols) * cellW, oy = gap + (k / cols) * cellH;
        const auto& del = attack.deleted.at(static_cast<std::size_t>(i));
        std::vector<char> deleted(static_cast<std::size_t>(s.size()), 0);
        for (int j : del) deleted[static_cast<std::size_t>(j)] = 1;
        const float hi = std::max(1e-6f, original.denseOnly("the deletion grid").row(i).maxCoeff());
        for (int half = 0; half < 2; ++half) {
            const Dataset& src = half == 0 ? original : attack.attacked;
            for (int r = 0; r < s.rows; ++r)
                for (int c = 0; c < s.cols; ++c) {
                    const int j = r * s.cols + c;
                    const float t = std::clamp(src.value(i, j) / hi, 0.0f, 1.0f);
                    auto g = static_cast<std::uint8_t>(255.0f - 255.0f * t);
                    std::uint8_t R = g, G = g, B = g;
                    if (half == 1 && deleted[static_cast<std::size_t>(j)]) R = 220, G = 30, B = 30;
                    for (int dy = 0; dy < scale; ++dy)
                        for (int dx = 0; dx < scale; ++dx)
                            img.set(ox + half * (s.cols * scale + gap) + c * scale + dx, oy + r * scale + dy, R, G, B);
                }
        }
    }
    return img;
}

}  // namespace fdlab
