// libFuzzer harness: one raw e-mail message — MIME tree, transfer encodings, RFC 2047 encoded
// words, charsets, HTML to text (core/text/mime_message, charset, html_text) and the tokenised
// document built from it (core/text/text_corpus, tokenizer). Pure functions of the bytes: no file.
#include "core/text/mime_message.h"
#include "core/text/text_corpus.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fdlab;
    const std::string_view raw = fuzz::view(data, size);
    fuzz::expectCleanErrors([&] {
        (void)messageText(raw, true);
        (void)messageDocument(raw, false);
    });
    return 0;
}
