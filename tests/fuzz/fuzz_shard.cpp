// libFuzzer harness: a shard part file (core/eval/sharding), read and merged with itself (the
// identical-duplicate path) — what `fdlab-cli merge` does with the files it is given.
#include "core/eval/sharding.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const std::string path = fuzz::writeInput(fuzz::view(data, size), "part.json");
    fuzz::expectCleanErrors([&] {
        const ShardPart p = loadPart(path);
        (void)mergeParts({p});
        (void)mergeParts({p, p});
    });
    return 0;
}
