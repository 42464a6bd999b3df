// libFuzzer harness: an experiment spec file (core/eval/experiment_spec), read, validated and
// written back as JSON (the round trip must read again).
#include "core/eval/experiment_spec.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const std::string path = fuzz::writeInput(fuzz::view(data, size), "experiment.fdlab.json");
    fuzz::expectCleanErrors([&] {
        const ExperimentSpec s = loadExperimentFile(path);
        const nlohmann::json j = toJson(s);
        (void)experimentFromJson(j, ".");
    });
    return 0;
}
