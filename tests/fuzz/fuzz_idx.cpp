// libFuzzer harness: an IDX images/labels pair (core/data/idx_format), plain or gzip (detected
// from the content). Input layout: 4 bytes big-endian = length of the images file, the images
// file, then the labels file (tests/fuzz/make_seeds.py writes the seeds this way).
#include "core/data/idx_format.h"
#include "core/data/loaders.h"
#include "tests/fuzz/fuzz_input.h"

#include <algorithm>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    if (size < 4) return 0;
    const std::size_t split = std::min<std::size_t>(
        size - 4, (std::size_t{data[0]} << 24) | (std::size_t{data[1]} << 16) | (std::size_t{data[2]} << 8) | data[3]);
    const std::string_view rest = fuzz::view(data + 4, size - 4);
    const std::string images = fuzz::writeInput(rest.substr(0, split), "x-images-idx3-ubyte");
    const std::string labels = fuzz::writeInput(rest.substr(split), "x-labels-idx1-ubyte");
    fuzz::expectCleanErrors([&] { (void)loadIdx(images, labels); });
    return 0;
}
