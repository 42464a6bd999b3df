#pragma once
// The picture of Figure 1.4 of the FDROP chapter: for each chosen test image, the original and,
// next to it, the attacked image with the deleted (or corrupted) pixels marked in red.

#include "core/attacks/attack.h"
#include "core/io/png_writer.h"

#include <vector>

namespace fdlab {

/// Pairs (original | attacked) laid out `columns` pairs per row, each pixel scale x scale.
/// Requires original.imageShape; values are drawn dark on white over [0, max of the row].
RgbImage deletionGrid(const Dataset& original, const AttackResult& attack, const std::vector<int>& rows,
                      int columns = 5, int scale = 3);

}  // namespace fdlab
