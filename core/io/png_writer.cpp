#include "core/io/png_writer.h"

#include "core/util/atomic_file.h"

#include <stdexcept>
#include <zlib.h>

namespace fdlab {

namespace {

void put32(std::string& s, std::uint32_t v) {
    for (int sh = 24; sh >= 0; sh -= 8) s.push_back(static_cast<char>((v >> sh) & 0xff));
}

void chunk(std::string& out, const char* type, const std::string& data) {
    put32(out, static_cast<std::uint32_t>(data.size()));
    std::string body(type, 4);
    body += data;
    out += body;
    put32(out, static_cast<std::uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()))));
}

}  // namespace

void RgbImage::resize(int w, int h, std::uint8_t fill) {
    width = w;
    height = h;
    rgb.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3, fill);
}

void RgbImage::set(int x, int y, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const std::size_t k = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3;
    rgb[k] = r, rgb[k + 1] = g, rgb[k + 2] = b;
}

std::string encodePng(const RgbImage& img) {
    if (img.width <= 0 || img.height <= 0) throw std::invalid_argument("PNG export: empty image");
    std::string raw;   // each scanline: filter byte 0 + RGB
    raw.reserve(static_cast<std::size_t>(img.height) * (static_cast<std::size_t>(img.width) * 3 + 1));
    for (int y = 0; y < img.height; ++y) {
        raw.push_back('\0');
        raw.append(reinterpret_cast<const char*>(img.rgb.data()) + static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) * 3,
                   static_cast<std::size_t>(img.width) * 3);
    }
    uLongf len = compressBound(static_cast<uLong>(raw.size()));
    std::string z(len, '\0');
    if (compress2(reinterpret_cast<Bytef*>(z.data()), &len, reinterpret_cast<const Bytef*>(raw.data()),
                  static_cast<uLong>(raw.size()), 6) != Z_OK)
        throw std::runtime_error("PNG export: zlib compression failed");
    z.resize(len);
    std::string out("\x89PNG\r\n\x1a\n", 8);
    std::string ihdr;
    put32(ihdr, static_cast<std::uint32_t>(img.width));
    put32(ihdr, static_cast<std::uint32_t>(img.height));
    ihdr += std::string("\x08\x02\x00\x00\x00", 5);   // 8-bit, RGB, deflate, no filter, no interlace
    chunk(out, "IHDR", ihdr);
    chunk(out, "IDAT", z);
    chunk(out, "IEND", "");
    return out;
}

void savePng(const RgbImage& img, const std::string& path) { writeFileAtomically(path, encodePng(img)); }

}  // namespace fdlab
