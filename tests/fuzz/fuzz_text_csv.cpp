// libFuzzer harness: a text-corpus CSV (core/text/text_loaders): columns "text" and "label",
// every document parsed as a message and vectorised.
#include "core/data/text_dataset.h"
#include "core/text/text_loaders.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const std::string path = fuzz::writeInput(fuzz::view(data, size), "corpus.csv");
    fuzz::expectCleanErrors([&] {
        TextCorpusOptions options;
        options.minDocumentFrequency = 1;
        (void)loadTextDataset(path, {}, options);
    });
    return 0;
}
