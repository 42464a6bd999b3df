// libFuzzer harness: a LIBSVM / SVMlight data file (core/data/libsvm_format), dense and sparse.
#include "core/data/loaders.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const std::string path = fuzz::writeInput(fuzz::view(data, size), "input.libsvm");
    for (Storage s : {Storage::Auto, Storage::Dense})
        fuzz::expectCleanErrors([&] {
            LoadOptions opt;
            opt.storage = s;
            (void)loadLibsvm(path, opt);
        });
    return 0;
}
