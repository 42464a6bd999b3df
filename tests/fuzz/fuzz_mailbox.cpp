// libFuzzer harness: mail as clients keep it (core/text/mailbox, text_loaders): a text-corpus
// folder whose class "ham" is an mbox file holding the input and whose class "spam" is a Maildir
// with the input as its one message, loaded and vectorised (every message through the MIME
// pipeline).
#include "core/data/text_dataset.h"
#include "tests/fuzz/fuzz_input.h"

#include <filesystem>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    namespace fs = std::filesystem;
    const fs::path mbox = fuzz::writeInput(fuzz::view(data, size), "corpus/ham.mbox");
    const fs::path folder = mbox.parent_path();
    fs::create_directories(folder / "spam" / "cur");
    fs::copy_file(mbox, folder / "spam" / "cur" / "1.host:2,S", fs::copy_options::overwrite_existing);
    fuzz::expectCleanErrors([&] {
        TextCorpusOptions options;
        options.minDocumentFrequency = 1;
        (void)loadTextDataset(folder.string(), {}, options);
    });
    return 0;
}
