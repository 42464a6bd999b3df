// libFuzzer harness: numpy X.npy with its labels .npy (core/data/npy_format, loadNpy). Input
// layout as for IDX: 4 bytes big-endian = length of X.npy, X.npy, then the labels .npy
// (tests/fuzz/make_seeds.py writes the seeds this way). Loaded as stored and densified.
#include "core/data/loaders.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const auto files = fuzz::splitPair(data, size);
    if (!files) return 0;
    const std::string x = fuzz::writeInput(files->first, "X.npy");
    const std::string y = fuzz::writeInput(files->second, "y.npy");   // X.npy's derived labels file
    fuzz::expectCleanErrors([&] { (void)loadNpy(x); });
    fuzz::expectCleanErrors([&] {
        LoadOptions opt;
        opt.storage = Storage::Dense;
        opt.idxLabels = y;
        (void)loadNpy(x, opt);
    });
    return 0;
}
