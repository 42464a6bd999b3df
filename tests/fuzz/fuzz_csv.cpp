// libFuzzer harness: a numeric CSV data file (core/data/csv_format), dense and sparse storage.
#include "core/data/loaders.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const std::string path = fuzz::writeInput(fuzz::view(data, size), "input.csv");
    for (Storage s : {Storage::Auto, Storage::Sparse})
        fuzz::expectCleanErrors([&] {
            LoadOptions opt;
            opt.storage = s;
            (void)loadCsv(path, opt);
        });
    return 0;
}
