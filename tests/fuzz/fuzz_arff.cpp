// libFuzzer harness: an ARFF data file (core/data/arff_format), each policy for '?' values.
#include "core/data/loaders.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const std::string path = fuzz::writeInput(fuzz::view(data, size), "input.arff");
    for (MissingPolicy m : {MissingPolicy::Impute, MissingPolicy::DropRow})
        fuzz::expectCleanErrors([&] {
            LoadOptions opt;
            opt.missing = m;
            (void)loadArff(path, opt);
        });
    return 0;
}
