// The word tokenizer (rule in tokenizer.h).

#include "core/text/tokenizer.h"

#include <limits>

namespace fdlab {

namespace {

bool isWordCodePoint(char32_t cp) {
    if (cp < 0x80) return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
    if (cp >= 0xC0 && cp <= 0x1FFF) return cp != 0xD7 && cp != 0xF7;
    return cp >= 0x3040 && cp <= 0xD7FF;
}

/// Decodes the code point at text[i] (lenient: only lengths are checked, the text is expected
/// to be valid UTF-8); returns its byte length and sets cp (U+FFFD for a stray byte).
std::size_t codePointAt(std::string_view text, std::size_t i, char32_t& cp) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    std::size_t n = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > text.size()) {
        cp = 0xFFFD;
        return 1;
    }
    cp = n == 1 ? b0 : b0 & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(text[i + k]);
        if ((b & 0xC0) != 0x80) {
            cp = 0xFFFD;
            return 1;
        }
        cp = (cp << 6) | (b & 0x3F);
    }
    return n;
}

}  // namespace

std::vector<TokenSpan> tokenize(std::string_view text) {
    text = text.substr(0, std::numeric_limits<std::uint32_t>::max());
    std::vector<TokenSpan> out;
    std::size_t start = 0;
    bool inToken = false, allDigits = true;
    const auto close = [&](std::size_t end) {
        const std::size_t len = end - start;
        if (len >= kMinTokenBytes && len <= kMaxTokenBytes && !allDigits)
            out.push_back({static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(len)});
        inToken = false;
    };
    for (std::size_t i = 0; i < text.size();) {
        char32_t cp = 0;
        const std::size_t n = codePointAt(text, i, cp);
        if (isWordCodePoint(cp)) {
            if (!inToken) {
                start = i;
                inToken = true;
                allDigits = true;
            }
            allDigits = allDigits && cp >= '0' && cp <= '9';
        } else if (inToken) {
            close(i);
        }
        i += n;
    }
    if (inToken) close(text.size());
    return out;
}

std::string foldCase(std::string_view token) {
    std::string out(token);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const auto b = static_cast<unsigned char>(out[i]);
        if (b >= 'A' && b <= 'Z') {
            out[i] = static_cast<char>(b + 32);
        } else if (b == 0xC3 && i + 1 < out.size()) {
            // U+00C0-U+00DE are C3 80..C3 9E; lower case is +0x20 in the second byte.
            const auto b1 = static_cast<unsigned char>(out[i + 1]);
            if (b1 >= 0x80 && b1 <= 0x9E && b1 != 0x97) out[i + 1] = static_cast<char>(b1 + 0x20);
            ++i;
        }
    }
    return out;
}

}  // namespace fdlab
