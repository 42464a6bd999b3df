#include "core/data/libsvm_format.h"

#include "core/data/csv_format.h"
#include "core/data/idx_format.h"
#include "core/data/loaders.h"
#include "core/util/atomic_file.h"
#include "core/util/errors.h"
#include "core/util/file_bytes.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace fdlab {

namespace {

/// Every feature gets a name, an importance and a weight per class (about 100 bytes), so this
/// bounds what one line can make FDLab allocate to about 1.7 GB; it is above the largest common
/// LIBSVM sets FDLab can train on (webspam trigrams: 16.6 million) and far below int's range.
constexpr auto kMaxFeatureIndex = static_cast<std::uint64_t>(Dataset::kMaxFeatures);

/// Next whitespace-separated token of `s` starting at `pos`; empty at the end.
std::string_view nextToken(std::string_view s, std::size_t& pos) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; };
    while (pos < s.size() && space(s[pos])) ++pos;
    const std::size_t start = pos;
    while (pos < s.size() && !space(s[pos])) ++pos;
    return s.substr(start, pos - start);
}

}  // namespace

Dataset loadLibsvm(const std::string& path, const LoadOptions& opt) {
    using namespace detail;
    const std::string text = readMaybeGzipped(path);
    requireTextBytes(text, path);
    LineReader lr(text);
    std::string_view line;
    SparseRows rows;
    rows.colIndex.reserve(text.size() / 8);
    rows.values.reserve(text.size() / 8);
    std::vector<int> labels;
    LabelCollector classes;
    std::uint64_t maxIndex = 0;
    long firstDataLine = 0;
    while (lr.next(line)) {
        const long ln = lr.lineNo();
        if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
        line = trim(line);
        if (line.empty()) continue;
        if (firstDataLine == 0) firstDataLine = ln;
        std::size_t pos = 0;
        const std::string_view label = nextToken(line, pos);
        if (label.find(':') != std::string_view::npos)
            throw DataError(path, ln, "expected a class label as the first token, found " + inQuotes(label));
        if (float v = 0; parseNumber(label, v) != NumberStatus::Ok)
            throw DataError(path, ln, "expected a numeric class label (e.g. +1, -1, 3), found " + inQuotes(label));
        labels.push_back(classes.add(label));
        std::uint64_t prev = 0;
        for (std::string_view tok = nextToken(line, pos); !tok.empty(); tok = nextToken(line, pos)) {
            const auto colon = tok.find(':');
            if (colon == std::string_view::npos || colon == 0 || colon + 1 == tok.size())
                throw DataError(path, ln, "expected INDEX:VALUE, found " + inQuotes(tok));
            const std::string_view key = tok.substr(0, colon);
            if (key == "qid") continue;  // SVMlight query id: irrelevant for classification
            std::uint64_t idx = 0;
            const auto [p, ec] = std::from_chars(key.data(), key.data() + key.size(), idx);
            if (ec != std::errc() || p != key.data() + key.size())
                throw DataError(path, ln, "expected a feature index (an integer >= 1), found " + inQuotes(key));
            if (idx == 0)
                throw DataError(path, ln, "expected feature indices starting at 1, found index 0");
            if (idx <= prev)
                throw DataError(path, ln,
                                "expected increasing feature indices (> " + std::to_string(prev) + "), found " +
                                    std::to_string(idx) + (idx == prev ? " twice" : ""));
            // Every feature index up to the largest one becomes a feature with a name and per-feature
            // vectors, so an index is also a memory request: a hostile "2147483648:1" must be an
            // error here, not a 2^31-element allocation (or an int overflow) later.
            if (idx > kMaxFeatureIndex)
                throw DataError(path, ln, "expected a feature index of at most " + std::to_string(kMaxFeatureIndex) +
                                              " (2^24, the largest feature count FDLab loads), found " + std::string(key));
            prev = idx;
            const float v = requireNumber(path, ln, tok.substr(colon + 1), "feature " + std::string(key));
            maxIndex = std::max(maxIndex, idx);
            if (v != 0.0f) {
                rows.colIndex.push_back(static_cast<std::int32_t>(idx - 1));
                rows.values.push_back(v);
            }
        }
        rows.rowStart.push_back(static_cast<std::int64_t>(rows.values.size()));
    }
    if (labels.empty())
        throw DataError(path, lr.endLine(), "expected at least one instance line 'LABEL INDEX:VALUE ...', found none");
    Dataset d;
    rows.cols = static_cast<int>(maxIndex);
    storeRows(d, std::move(rows), static_cast<int>(opt.storage), path, firstDataLine);
    classes.finish(labels, d.classNames);
    d.labels = std::move(labels);
    finishDataset(d, path, "LIBSVM");
    return d;
}

std::vector<std::string> libsvmLabels(const Dataset& d) {
    using namespace detail;
    // LIBSVM labels are numbers: numeric class names are written as they are; otherwise a binary
    // set is written as -1 / +1 (class 0 / 1) and a multi-class one as the class indices.
    std::vector<std::string> written = d.classNames;
    float unused = 0;
    if (!std::all_of(written.begin(), written.end(), [&](const std::string& c) { return parseNumber(c, unused) == NumberStatus::Ok; })) {
        if (written.size() == 2) written = {"-1", "+1"};
        else
            for (std::size_t c = 0; c < written.size(); ++c) written[c] = std::to_string(c);
    }
    return written;
}

void saveLibsvm(const Dataset& d, const std::string& path) {
    using namespace detail;
    if (static_cast<int>(d.labels.size()) != d.rows())
        throw std::invalid_argument("writing LIBSVM: " + std::to_string(d.labels.size()) + " labels for " +
                                    std::to_string(d.rows()) + " instances");
    const std::vector<std::string> written = libsvmLabels(d);
    std::string out;
    out.reserve(static_cast<std::size_t>(d.rows()) * 64);
    for (int i = 0; i < d.rows(); ++i) {
        const int l = d.labels[static_cast<std::size_t>(i)];
        if (l < 0 || l >= d.numClasses())
            throw std::invalid_argument("writing LIBSVM: label index " + std::to_string(l) + " out of range");
        out += written[static_cast<std::size_t>(l)];
        bool bad = false;
        d.forEachNonZero(i, [&](int j, float x) {
            if (!std::isfinite(x)) bad = true;
            out += ' ';
            out += std::to_string(j + 1);
            out += ':';
            out += formatFloat(x);
        });
        if (bad) throw std::invalid_argument("writing LIBSVM: non-finite value at instance " + std::to_string(i + 1));
        out += '\n';
    }
    writeFileAtomically(path, out);
}

}  // namespace fdlab
