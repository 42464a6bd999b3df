// libFuzzer harness: a results file (core/eval/results_io), read and written back as JSON and CSV.
#include "core/eval/results_io.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const std::string path = fuzz::writeInput(fuzz::view(data, size), "results.json");
    fuzz::expectCleanErrors([&] {
        const ExperimentResult r = loadResultsJson(path);
        (void)resultsToJson(r);
        (void)curvesCsv(r);
        (void)pointsCsv(r);
    });
    return 0;
}
