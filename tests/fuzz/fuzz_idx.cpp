// libFuzzer harness: an IDX images/labels pair (core/data/idx_format), plain or gzip (detected
// from the content). Input layout: 4 bytes big-endian = length of the images file, the images
// file, then the labels file (tests/fuzz/make_seeds.py writes the seeds this way).
#include "core/data/idx_format.h"
#include "core/data/loaders.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const auto files = fuzz::splitPair(data, size);
    if (!files) return 0;
    const std::string images = fuzz::writeInput(files->first, "x-images-idx3-ubyte");
    const std::string labels = fuzz::writeInput(files->second, "x-labels-idx1-ubyte");
    fuzz::expectCleanErrors([&] { (void)loadIdx(images, labels); });
    return 0;
}
