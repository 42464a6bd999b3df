// Text corpus loaders: class folders and CSV (see text_loaders.h).

#include "core/text/text_loaders.h"

#include "core/text/charset.h"
#include "core/text/mailbox.h"
#include "core/util/errors.h"
#include "core/util/file_bytes.h"
#include "core/util/label_collector.h"
#include "core/util/parallel.h"
#include "core/util/param_check.h"
#include "core/util/strings.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace fdlab {

namespace {

namespace fs = std::filesystem;

/// Plain text bytes -> UTF-8 (latin-1 unless valid UTF-8), without a BOM, "\n" line ends.
std::string plainText(std::string_view bytes) {
    if (bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);
    const std::string utf8 = toUtf8(bytes, "");
    std::string out;
    out.reserve(utf8.size());
    for (std::size_t k = 0; k < utf8.size(); ++k) {
        if (utf8[k] != '\r') out += utf8[k];
        else if (k + 1 >= utf8.size() || utf8[k + 1] != '\n') out += '\n';
    }
    return out;
}

bool hasExtension(const fs::path& p, const char* ext) {
    return detail::iequals(p.extension().string(), ext);
}

/// Sorted class names and the label of each document from its raw class name.
void assignLabels(const std::vector<std::string>& rawLabels, TextCorpus& corpus) {
    detail::LabelCollector collector;
    corpus.labels.clear();
    for (const auto& l : rawLabels) corpus.labels.push_back(collector.add(l));
    collector.finish(corpus.labels, corpus.classNames);
}

/// One CSV record: its fields and the line it starts on.
struct CsvRecord {
    std::vector<std::string> fields;
    long line = 0;
};

/// RFC 4180 records of text (see the header). Throws DataError for an unclosed quote or text
/// after a closing quote.
std::vector<CsvRecord> csvRecords(std::string_view text, char sep, const std::string& path) {
    std::vector<CsvRecord> records;
    long line = 1;
    std::size_t i = 0;
    while (i < text.size()) {
        CsvRecord rec;
        rec.line = line;
        for (;;) {  // one field per pass
            std::string field;
            if (i < text.size() && text[i] == '"') {
                const long openLine = line;
                for (++i;; ++i) {
                    if (i >= text.size()) throw DataError(path, openLine, "quoted field never closed (a '\"' is missing)");
                    if (text[i] == '"') {
                        if (i + 1 < text.size() && text[i + 1] == '"') {
                            field += '"';
                            ++i;
                            continue;
                        }
                        ++i;
                        break;
                    }
                    line += text[i] == '\n';
                    field += text[i];
                }
                if (i < text.size() && text[i] != sep && text[i] != '\n' && text[i] != '\r')
                    throw DataError(path, line,
                                    "expected a separator after the closing quote, found " + detail::inQuotes(text.substr(i, 10)));
            } else {
                while (i < text.size() && text[i] != sep && text[i] != '\n' && text[i] != '\r') field += text[i++];
            }
            rec.fields.push_back(std::move(field));
            if (i < text.size() && text[i] == sep) {
                ++i;
                continue;
            }
            break;
        }
        // End of record: "\r\n", "\n", or the end of the text.
        if (i < text.size() && text[i] == '\r') ++i;
        if (i < text.size() && text[i] == '\n') ++i;
        ++line;
        const bool blank = rec.fields.size() == 1 && rec.fields[0].empty();
        if (!blank) records.push_back(std::move(rec));
    }
    return records;
}

std::size_t requireColumn(const CsvRecord& header, const std::string& name, const std::string& option,
                          const std::string& path) {
    for (std::size_t c = 0; c < header.fields.size(); ++c)
        if (detail::trim(header.fields[c]) == name) return c;
    std::string list;
    for (std::size_t c = 0; c < header.fields.size() && c < 12; ++c) list += (c ? ", " : "") + header.fields[c];
    throw DataError(path, header.line,
                    "no column " + detail::inQuotes(name) + " (TextCsvOptions::" + option + ") in the header; columns: " + list);
}

void requireTwoClasses(const TextCorpus& corpus, const std::string& path) {
    if (corpus.classNames.size() < 2)
        throw DataError(path, 0, "found " + std::to_string(corpus.classNames.size()) +
                                     " class(es); a labelled text corpus needs at least two");
}

}  // namespace

void TextCsvOptions::validate() const {
    if (textColumn.empty()) invalidParam("TextCsvOptions", "textColumn", "must not be empty");
    if (labelColumn.empty()) invalidParam("TextCsvOptions", "labelColumn", "must not be empty");
    if (labelColumn == textColumn)
        invalidParam("TextCsvOptions", "labelColumn", "= '" + labelColumn + "' must differ from textColumn");
    if (separator == '"' || separator == '\n' || separator == '\r')
        invalidParam("TextCsvOptions", "separator", "must not be a quote or a line break");
}

namespace {

/// Where one document of a folder corpus comes from: a file (.txt, .eml, a Maildir message) or
/// a message of an mbox file (read whole beforehand).
struct DocSource {
    fs::path file;
    bool email = false;
    const MboxMessage* mboxMessage = nullptr;
};

}  // namespace

TextCorpus loadTextFolder(const std::string& folder, const TextCorpusOptions& options) {
    options.validate();
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) throw DataError(folder, 0, "not a folder (expected one sub-folder or mbox file per class)");
    // A class is a sub-folder (of .txt/.eml files, or a Maildir) or an mbox file.
    std::vector<fs::path> classes;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        if (entry.path().filename().string().front() == '.') continue;
        if (entry.is_directory() || (entry.is_regular_file() && isMboxFile(entry.path()))) classes.push_back(entry.path());
    }
    if (ec) throw DataError(folder, 0, "cannot list the folder: " + ec.message());
    std::sort(classes.begin(), classes.end());
    if (classes.size() < 2)
        throw DataError(folder, 0, "found " + std::to_string(classes.size()) +
                                       " class(es); expected one sub-folder, Maildir or mbox file per class, at least two");

    std::vector<DocSource> sources;
    std::vector<std::string> rawLabels;
    TextCorpus corpus;
    corpus.source = folder;
    std::vector<std::vector<MboxMessage>> mailboxes;   // kept alive while the documents are made
    mailboxes.reserve(classes.size());
    for (const fs::path& c : classes) {
        const std::string label = fs::is_directory(c) ? c.filename().string() : detail::fileStem(c.string());
        const std::size_t before = sources.size();
        if (!fs::is_directory(c)) {
            const std::string bytes = detail::readMaybeGzipped(c.string());
            requireTextBytes(bytes, c.string());
            mailboxes.push_back(splitMbox(bytes, c.string()));
            for (const MboxMessage& m : mailboxes.back()) {
                sources.push_back({c, true, &m});
                corpus.ids.push_back(label + "/" + c.filename().string() + "#" + std::to_string(sources.size() - before));
            }
        } else if (isMaildir(c)) {
            for (fs::path& f : maildirMessages(c)) {
                corpus.ids.push_back(label + "/" + f.parent_path().filename().string() + "/" + f.filename().string());
                sources.push_back({std::move(f), true, nullptr});
            }
            if (sources.size() == before) throw DataError(c.string(), 0, "Maildir holds no message in cur/ or new/");
        } else {
            std::vector<fs::path> docs;
            for (const auto& entry : fs::directory_iterator(c, ec))
                if (entry.is_regular_file() && (hasExtension(entry.path(), ".txt") || hasExtension(entry.path(), ".eml")))
                    docs.push_back(entry.path());
            if (ec) throw DataError(c.string(), 0, "cannot list the folder: " + ec.message());
            if (docs.empty()) throw DataError(c.string(), 0, "class folder holds no .txt or .eml file (nor cur/ or new/ of a Maildir)");
            std::sort(docs.begin(), docs.end());
            for (fs::path& f : docs) {
                corpus.ids.push_back(label + "/" + f.filename().string());
                const bool email = hasExtension(f, ".eml");
                sources.push_back({std::move(f), email, nullptr});
            }
        }
        rawLabels.resize(sources.size(), label);
    }

    corpus.documents.docs.resize(sources.size());
    parallelFor(static_cast<int>(sources.size()), 0, [&](int i) {
        const DocSource& src = sources[static_cast<std::size_t>(i)];
        TextDocument& doc = corpus.documents.docs[static_cast<std::size_t>(i)];
        if (src.mboxMessage) {
            doc = messageDocument(src.mboxMessage->raw, options.keepSubject);
            return;
        }
        const std::string bytes = detail::readFileBytes(src.file.string());
        requireTextBytes(bytes, src.file.string());
        doc = src.email ? messageDocument(bytes, options.keepSubject) : makeDocument(plainText(bytes));
    });
    assignLabels(rawLabels, corpus);
    requireTwoClasses(corpus, folder);
    return corpus;
}

TextCorpus loadTextCsv(const std::string& path, const TextCsvOptions& csv, const TextCorpusOptions& options) {
    csv.validate();
    options.validate();
    const std::string bytes = detail::readMaybeGzipped(path);
    requireTextBytes(bytes, path);
    std::string_view text = bytes;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    const std::vector<CsvRecord> records = csvRecords(text, csv.separator, path);
    if (records.empty()) throw DataError(path, 1, "empty file: expected a header row");
    const CsvRecord& header = records.front();
    const std::size_t textCol = requireColumn(header, csv.textColumn, "textColumn", path);
    const std::size_t labelCol = requireColumn(header, csv.labelColumn, "labelColumn", path);

    TextCorpus corpus;
    corpus.source = path;
    std::vector<std::string> rawLabels;
    for (std::size_t r = 1; r < records.size(); ++r) {
        const CsvRecord& rec = records[r];
        if (rec.fields.size() != header.fields.size())
            throw DataError(path, rec.line, std::to_string(rec.fields.size()) + " fields, the header has " +
                                                std::to_string(header.fields.size()));
        const std::string label(detail::trim(rec.fields[labelCol]));
        if (label.empty()) throw DataError(path, rec.line, "empty label in column " + detail::inQuotes(csv.labelColumn));
        rawLabels.push_back(label);
        corpus.ids.push_back("line " + std::to_string(rec.line));
    }
    if (rawLabels.empty()) throw DataError(path, header.line, "no documents after the header");
    corpus.documents.docs.resize(rawLabels.size());
    parallelFor(static_cast<int>(rawLabels.size()), 0, [&](int i) {
        const auto k = static_cast<std::size_t>(i);
        corpus.documents.docs[k] = makeDocument(plainText(records[k + 1].fields[textCol]));
    });
    assignLabels(rawLabels, corpus);
    requireTwoClasses(corpus, path);
    return corpus;
}

}  // namespace fdlab
