// FDLab message bundle reader (format in message_bundle.h).

#include "core/text/message_bundle.h"

#include "core/util/errors.h"
#include "core/util/file_bytes.h"
#include "core/util/label_collector.h"
#include "core/util/strings.h"
#include "core/util/parallel.h"

#include <algorithm>
#include <charconv>

namespace fdlab {

namespace {

constexpr std::string_view kMagicLine = "FDLab message bundle 1";

/// The line at pos (without "\n"); pos moves past it. Throws when there is no "\n".
std::string_view takeLine(std::string_view s, std::size_t& pos, const std::string& path, const char* what) {
    const std::size_t nl = s.find('\n', pos);
    if (nl == std::string_view::npos) throw DataError::atByte(path, pos, std::string("expected ") + what + ", found end of file");
    const std::string_view line = s.substr(pos, nl - pos);
    pos = nl + 1;
    return line;
}

bool parseCount(std::string_view s, std::size_t& out) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

}  // namespace

std::string MessageBundle::headerValue(std::string_view key) const {
    for (const auto& [k, v] : header)
        if (k == key) return v;
    return {};
}

MessageBundle readMessageBundle(const std::string& path) {
    MessageBundle b;
    b.bytes = detail::readMaybeGzipped(path);
    const std::string_view s = b.bytes;
    std::size_t pos = 0;
    if (takeLine(s, pos, path, "the first line") != kMagicLine)
        throw DataError(path, 1, "not an FDLab message bundle: the first line must be '" + std::string(kMagicLine) + "'");
    for (;;) {
        const std::size_t at = pos;
        const std::string_view line = takeLine(s, pos, path, "a header line or the blank line before the messages");
        if (line.empty()) break;
        const std::size_t colon = line.find(": ");
        if (colon == std::string_view::npos) throw DataError::atByte(path, at, "header line without ': ': " + detail::inQuotes(line));
        b.header.emplace_back(std::string(line.substr(0, colon)), std::string(line.substr(colon + 2)));
    }
    std::size_t count = 0;
    if (!parseCount(b.headerValue("messages"), count))
        throw DataError(path, 0, "the header has no valid 'messages: N' line");
    // The count is the file's claim: reserve no more records than the bytes left can hold (a
    // record takes at least 9: "a b c 0\n" and its "\n"), or a forged count exhausts memory.
    b.messages.reserve(std::min(count, (s.size() - pos) / 9));
    while (pos < s.size()) {
        const std::size_t at = pos;
        const std::string_view line = takeLine(s, pos, path, "a record line 'ID GROUP LABEL BYTES'");
        std::string_view f[4];
        std::size_t k = 0, start = 0;
        for (std::size_t i = 0; i <= line.size() && k < 4; ++i)
            if (i == line.size() || line[i] == ' ') {
                f[k++] = line.substr(start, i - start);
                start = i + 1;
            }
        std::size_t size = 0;
        if (k != 4 || start <= line.size() || f[0].empty() || f[1].empty() || f[2].empty() || !parseCount(f[3], size))
            throw DataError::atByte(path, at, "expected a record line 'ID GROUP LABEL BYTES', found " + detail::inQuotes(line));
        if (size >= s.size() - pos || s[pos + size] != '\n')
            throw DataError::atByte(path, at, "record " + std::string(f[0]) + ": " + std::to_string(size) +
                                                  " bytes and a line break do not fit before the end of the file");
        b.messages.push_back({std::string(f[0]), std::string(f[1]), std::string(f[2]), s.substr(pos, size)});
        pos += size + 1;
    }
    if (b.messages.size() != count)
        throw DataError(path, 0, "the header says " + std::to_string(count) + " messages, the file holds " +
                                     std::to_string(b.messages.size()));
    return b;
}

TextCorpus messageBundleCorpus(const std::string& path, const TextCorpusOptions& options) {
    options.validate();
    const MessageBundle b = readMessageBundle(path);
    TextCorpus corpus;
    corpus.source = path;
    corpus.documents.docs.resize(b.messages.size());
    parallelFor(static_cast<int>(b.messages.size()), 0, [&](int i) {
        const auto k = static_cast<std::size_t>(i);
        corpus.documents.docs[k] = messageDocument(b.messages[k].raw, options.keepSubject);
    });
    detail::LabelCollector collector;
    for (const BundledMessage& m : b.messages) {
        corpus.ids.push_back(m.id);
        corpus.labels.push_back(collector.add(m.label));
    }
    collector.finish(corpus.labels, corpus.classNames);
    return corpus;
}

}  // namespace fdlab
