#pragma once
// A minimal PNG encoder (8-bit grayscale or RGB, no interlace) over zlib, so that core and the
// CLI can write images -- e.g. the attack's grid of original and attacked digits -- without Qt.

#include <cstdint>
#include <string>
#include <vector>

namespace fdlab {

struct RgbImage {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgb;   ///< width * height * 3, row-major
    void resize(int w, int h, std::uint8_t fill = 255);
    void set(int x, int y, std::uint8_t r, std::uint8_t g, std::uint8_t b);
};

/// The PNG file's bytes.
std::string encodePng(const RgbImage& img);
/// Atomic write.
void savePng(const RgbImage& img, const std::string& path);

}  // namespace fdlab
