// libFuzzer harness: a numpy .npz archive (core/data/zip_archive, npy_format): np.savez's dense
// X and y, or scipy.sparse.save_npz's csr/csc/coo members with a 'y' member, stored or deflated.
// Loaded as stored (sparse stays sparse) and densified.
#include "core/data/loaders.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const std::string path = fuzz::writeInput(fuzz::view(data, size), "d.npz");
    fuzz::expectCleanErrors([&] { (void)loadNpy(path); });
    fuzz::expectCleanErrors([&] {
        LoadOptions opt;
        opt.storage = Storage::Dense;
        (void)loadNpy(path, opt);
    });
    return 0;
}
