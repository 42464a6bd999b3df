// Hostile e-mail against the text pipeline (MIME parsing, RFC 2047 headers, HTML, tokenising), by hand:
//     ./bench_mime_hostile [--kb 1024,2048,4096,8192] [--case NAME]
//
// For each case and size, builds one message of about that size made to provoke a scan to the
// end per occurrence, and times messageDocument() on it (parse + decode + tokenise: what a
// corpus loader does per message). Prints seconds, seconds per MB and s/MB relative to the
// smallest size ("vs first"); linear code gives a flat
// s/MB column (the fixed per-case constant is irrelevant, the growth is what counts). Sizes in KB
// so the quadratic behaviour of old code can be measured at small sizes.

#include "core/text/text_corpus.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace fdlab;

namespace {

/// A message builder: prefix, then `unit` repeated until the message has `bytes` bytes, then suffix.
std::string repeated(const std::string& prefix, const std::string& unit, const std::string& suffix, std::size_t bytes) {
    std::string s = prefix;
    s.reserve(bytes + suffix.size() + unit.size());
    while (s.size() + suffix.size() < bytes) s += unit;
    return s + suffix;
}

/// Multiparts nested as deep as the size allows: each level opens a multipart/mixed with its own
/// boundary and never closes it; the innermost part holds one word.
std::string nestedMultiparts(std::size_t bytes, const char* type) {
    std::string s;
    for (int level = 0; s.size() < bytes; ++level) {
        const std::string b = "b" + std::to_string(level);
        s += std::string("Content-Type: ") + type + "; boundary=\"" + b + "\"\n\n--" + b + "\n";
    }
    return s + "Content-Type: text/plain\n\ninnermost\n";
}

std::string nestedMessages(std::size_t bytes) {
    return repeated("", "Content-Type: message/rfc822\n\n", "Subject: deep\n\ninnermost\n", bytes);
}

struct Case {
    const char* name;
    std::function<std::string(std::size_t)> make;
};

const std::vector<Case>& cases() {
    static const std::vector<Case> all = {
        // RFC 2047 lookalikes in a Subject: an "=?" with no "?=" after it, in several shapes.
        {"subject '=?a?q? '", [](std::size_t n) { return repeated("Subject: ", "=?a?q? ", "\n\nbody\n", n); }},
        {"subject '=?a?q?x'", [](std::size_t n) { return repeated("Subject: ", "=?a?q?x", "\n\nbody\n", n); }},
        {"subject '=?'", [](std::size_t n) { return repeated("Subject: ", "=?", "\n\nbody\n", n); }},
        {"subject '=?utf-8?b?' + ' w'", [](std::size_t n) { return repeated("Subject: =?utf-8?b?", " w", "\n\nbody\n", n); }},
        {"subject adjacent encoded words", [](std::size_t n) { return repeated("Subject: ", "=?utf-8?q?=C3?= =?utf-8?q?=A9?= ", "\n\nbody\n", n); }},
        // Header unfolding and many fields.
        {"folded subject", [](std::size_t n) { return repeated("Subject: start\n", " more words\n", "\nbody\n", n); }},
        {"many header fields", [](std::size_t n) { return repeated("", "X-Field: value\n", "\nbody\n", n); }},
        {"content-type params", [](std::size_t n) { return repeated("Content-Type: text/plain", "; foo", "; charset=utf-8\n\nbody\n", n); }},
        {"rfc 2231 continuations", [](std::size_t n) {
             std::string s = "Content-Type: multipart/mixed";
             for (int k = 0; s.size() < n; ++k) s += "; boundary*" + std::to_string(k) + "=x";
             return s + "\n\n--xx\n\nbody\n";
         }},
        // HTML: entities without ';', unterminated comments, scripts, tags and quotes.
        {"html '&'", [](std::size_t n) { return repeated("Content-Type: text/html\n\n", "&", "", n); }},
        {"html '&#'", [](std::size_t n) { return repeated("Content-Type: text/html\n\n", "&#1", "", n); }},
        {"html '<!--'", [](std::size_t n) { return repeated("Content-Type: text/html\n\nword ", "<!-- x ", "", n); }},
        {"html '<script>'", [](std::size_t n) { return repeated("Content-Type: text/html\n\nword ", "<script>x", "", n); }},
        {"html '</scrip' after <script>", [](std::size_t n) { return repeated("Content-Type: text/html\n\n<script>", "</scrip", "", n); }},
        {"html '<title>' + '</title'", [](std::size_t n) { return repeated("Content-Type: text/html\n\n", "<title>x</title ", "", n); }},
        {"html \"<a x='\"", [](std::size_t n) { return repeated("Content-Type: text/html\n\n<a x=", " ' ", "", n); }},
        {"html '<a' unclosed", [](std::size_t n) { return repeated("Content-Type: text/html\n\nword ", "<a ", "", n); }},
        {"html '&#' + leading zeros", [](std::size_t n) { return repeated("Content-Type: text/html\n\n", "&#00000000000000000000", "", n); }},
        {"html '&#0' + zeros + ';'", [](std::size_t n) { return repeated("Content-Type: text/html\n\n", "w&#000000000000000105;", "", n); }},
        {"html comments between letters", [](std::size_t n) { return repeated("Content-Type: text/html\n\n", "A<!-- x -->b ", "", n); }},
        // Line ends: lone CR everywhere (headers and body).
        {"lone CR line ends", [](std::size_t n) { return repeated("Subject: cr\rContent-Type: text/html\r\r", "<p>word</p>\r", "", n); }},
        {"lone CR header lines", [](std::size_t n) { return repeated("", "X-A: b\r", "\rbody\r", n); }},
        // Charsets.
        {"utf-16 body", [](std::size_t n) { return repeated("Content-Type: text/plain; charset=utf-16\n\n\xFF\xFE", std::string("w\0o\0 \0", 6), "", n); }},
        // Transfer encodings.
        {"quoted-printable '= '", [](std::size_t n) { return repeated("Content-Transfer-Encoding: quoted-printable\n\n", "= ", "", n); }},
        {"base64 junk", [](std::size_t n) { return repeated("Content-Transfer-Encoding: base64\n\n", "!@#$ d29yZA==\n", "", n); }},
        // Multipart: boundary lookalikes, many parts, deep nesting.
        {"boundary lookalikes", [](std::size_t n) {
             return repeated("Content-Type: multipart/mixed; boundary=abc\n\n--abc\n\nword\n", "--abc--x\n--abcd\n--ab\n-", "--abc--\n", n);
         }},
        {"boundary never found", [](std::size_t n) { return repeated("Content-Type: multipart/mixed; boundary=zz\n\n", "--z\nword\n", "", n); }},
        {"whitespace-only alternatives", [](std::size_t n) {
             return repeated("Content-Type: multipart/alternative; boundary=a\n\n", "--a\nContent-Type: text/plain\n\n \n", "--a\nContent-Type: text/html\n\nword\n--a--\n", n);
         }},
        {"many empty parts", [](std::size_t n) { return repeated("Content-Type: multipart/mixed; boundary=a\n\n", "--a\n", "--a--\n", n); }},
        {"nested multipart/mixed", [](std::size_t n) { return nestedMultiparts(n, "multipart/mixed"); }},
        {"nested multipart/alternative", [](std::size_t n) { return nestedMultiparts(n, "multipart/alternative"); }},
        {"nested message/rfc822", [](std::size_t n) { return nestedMessages(n); }},
    };
    return all;
}

std::vector<std::size_t> parseSizes(const char* list) {
    std::vector<std::size_t> out;
    for (const char* p = list; *p;) {
        char* end = nullptr;
        const unsigned long v = std::strtoul(p, &end, 10);
        if (end == p || v == 0) return {};
        out.push_back(v);
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return {};
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> sizesKb = {1024, 2048, 4096, 8192};
    std::string only;
    for (int a = 1; a < argc; ++a) {
        if (std::strcmp(argv[a], "--kb") == 0 && a + 1 < argc) {
            sizesKb = parseSizes(argv[++a]);
        } else if (std::strcmp(argv[a], "--case") == 0 && a + 1 < argc) {
            only = argv[++a];
        } else {
            sizesKb.clear();
        }
        if (sizesKb.empty()) {
            std::fprintf(stderr, "usage: %s [--kb 1024,2048,4096,8192] [--case NAME]\n", argv[0]);
            return 2;
        }
    }
    std::printf("%-32s %9s %9s %9s %9s %9s\n", "case", "KB", "seconds", "s/MB", "vs first", "tokens");
    double worst = 0;
    std::string worstCase;
    for (const Case& c : cases()) {
        if (!only.empty() && only != c.name) continue;
        double first = 0;
        for (const std::size_t kb : sizesKb) {
            const std::string raw = c.make(kb * 1024);
            const auto t0 = std::chrono::steady_clock::now();
            const TextDocument d = messageDocument(raw, true);
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const double mb = static_cast<double>(raw.size()) / (1024.0 * 1024.0);
            // s/MB relative to the smallest size: about 1 for linear code, the size ratio for quadratic.
            if (first == 0) first = std::max(s / mb, 1e-9);
            const double growth = (s / mb) / first;
            if (growth > worst) {
                worst = growth;
                worstCase = c.name;
            }
            std::printf("%-32s %9zu %9.4f %9.4f %9.2f %9zu\n", c.name, raw.size() / 1024, s, s / mb, growth, d.tokens.size());
            std::fflush(stdout);
        }
    }
    std::printf("\nlargest growth of s/MB over the sizes: %.2fx (%s); the sizes grow %zux\n", worst, worstCase.c_str(),
                sizesKb.empty() ? std::size_t{0} : sizesKb.back() / sizesKb.front());
    return 0;
}
