// Small string helpers shared by every reader (see strings.h).

#include "core/util/strings.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <system_error>

namespace fdlab::detail {

std::string fileStem(const std::string& path) {
    std::string name = std::filesystem::path(path).filename().string();
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0) name.resize(name.size() - 3);
    const auto dot = name.rfind('.');
    if (dot != std::string::npos && dot > 0) name.resize(dot);
    return name;
}

std::string_view trim(std::string_view s) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

std::string toLower(std::string_view s) {
    std::string r(s);
    for (char& c : r)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return r;
}

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && toLower(a) == toLower(b);
}

std::string inQuotes(std::string_view s) {
    std::string r = "'";
    if (s.size() > 40) {
        r.append(s.substr(0, 37));
        r += "...";
    } else {
        r.append(s);
    }
    r += "'";
    return r;
}

NumberStatus parseNumber(std::string_view s, float& out) {
    // from_chars rejects a leading '+', which data files commonly use ("+1").
    if (s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+') s.remove_prefix(1);
    if (s.empty()) return NumberStatus::NotANumber;
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, out);
    if (p != end) return NumberStatus::NotANumber;
    if (ec == std::errc::invalid_argument) return NumberStatus::NotANumber;
    if (ec == std::errc::result_out_of_range) {
        // Underflow (e.g. 1e-50) is a legitimate tiny number; overflow is not.
        double v = 0;
        auto [q, ec2] = std::from_chars(s.data(), end, v);
        if (q != end || ec2 == std::errc::invalid_argument) return NumberStatus::NotANumber;
        if (ec2 == std::errc::result_out_of_range) {
            if (std::abs(v) < 1.0) v = 0.0;  // double underflow: value is ~0
            else return NumberStatus::OutOfRange;
        }
        if (std::abs(v) > std::numeric_limits<float>::max()) return NumberStatus::OutOfRange;
        out = static_cast<float>(v);
        return NumberStatus::Ok;
    }
    if (!std::isfinite(out)) return NumberStatus::NonFinite;
    return NumberStatus::Ok;
}

std::size_t jsonTooDeepAt(std::string_view text, int limit) {
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') ++i;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return std::string_view::npos;
}

}  // namespace fdlab::detail
