// libFuzzer harness: a message bundle (core/text/message_bundle), plain or gzip, read and parsed
// into a corpus.
#include "core/text/message_bundle.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const std::string path = fuzz::writeInput(fuzz::view(data, size), "bundle.txt");
    fuzz::expectCleanErrors([&] { (void)messageBundleCorpus(path); });
    return 0;
}
