// libFuzzer harness: numpy X.npy with its labels .npy (core/data/npy_format, loadNpy). Input
// layout as for IDX: 4 bytes big-endian = length of X.npy, X.npy, then the labels .npy
// (tests/fuzz/make_seeds.py writes the seeds this way). Loaded as stored and densified.
#include "core/data/loaders.h"
#include "tests/fuzz/fuzz_input.h"

#include <algorithm>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    if (size < 4) return 0;
    const std::size_t split = std::min<std::size_t>(
        size - 4, (std::size_t{data[0]} << 24) | (std::size_t{data[1]} << 16) | (std::size_t{data[2]} << 8) | data[3]);
    const std::string_view rest = fuzz::view(data + 4, size - 4);
    const std::string x = fuzz::writeInput(rest.substr(0, split), "X.npy");
    const std::string y = fuzz::writeInput(rest.substr(split), "y.npy");   // X.npy's derived labels file
    fuzz::expectCleanErrors([&] { (void)loadNpy(x); });
    fuzz::expectCleanErrors([&] {
        LoadOptions opt;
        opt.storage = Storage::Dense;
        opt.idxLabels = y;
        (void)loadNpy(x, opt);
    });
    return 0;
}
