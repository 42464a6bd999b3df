// libFuzzer harness: an importance CSV (core/data/importance) for a three-feature dataset whose
// features are named alpha, beta, gamma (as tests/data/importance/*.csv expect).
#include "core/data/dataset.h"
#include "core/data/importance.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    static const Dataset d = [] {
        Dataset t;
        t.X = Dataset::Matrix::Zero(2, 3);
        t.labels = {0, 1};
        t.classNames = {"a", "b"};
        t.featureNames = {"alpha", "beta", "gamma"};
        t.importance.assign(3, 1.0);
        return t;
    }();
    const std::string path = fuzz::writeInput(fuzz::view(data, size), "importance.csv");
    fuzz::expectCleanErrors([&] { (void)importanceFromCsv(d, path); });
    return 0;
}
