#include "core/util/param_info.h"

#include "core/util/strings.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace fdlab {

using json = nlohmann::json;
using Type = ParamInfo::Type;

ParamInfo realParam(std::string name, double def, double lo, double hi, std::string doc, bool log) {
    return {std::move(name), Type::Real, def, lo, hi, {}, std::move(doc), log};
}
ParamInfo integerParam(std::string name, int def, int lo, int hi, std::string doc) {
    return {std::move(name), Type::Integer, def, static_cast<double>(lo), static_cast<double>(hi), {}, std::move(doc), false};
}
ParamInfo boolParam(std::string name, bool def, std::string doc) {
    return {std::move(name), Type::Bool, def, 0, 1, {}, std::move(doc), false};
}
ParamInfo choiceParam(std::string name, std::string def, std::vector<std::string> choices, std::string doc) {
    return {std::move(name), Type::Choice, std::move(def), 0, 0, std::move(choices), std::move(doc), false};
}
ParamInfo integerListParam(std::string name, std::vector<int> def, int lo, int hi, std::string doc) {
    return {std::move(name), Type::IntegerList, def, static_cast<double>(lo), static_cast<double>(hi), {}, std::move(doc), false};
}
ParamInfo jsonParam(std::string name, json def, std::string doc) {
    return {std::move(name), Type::Json, std::move(def), 0, 0, {}, std::move(doc), false};
}

namespace {

[[noreturn]] void textError(const ParamInfo& p, const std::string& text, const std::string& owner, const std::string& what) {
    throw std::invalid_argument(owner + " parameter " + p.name + ": expected " + what + ", got '" + text + "'");
}

}  // namespace

json paramFromText(const ParamInfo& p, const std::string& text, const std::string& owner) {
    auto fail = [&](const std::string& what) { textError(p, text, owner, what); };
    // Decimal only, spaces around allowed (stod also read "0x10" as 16).
    auto number = [&](const std::string& t) {
        std::size_t b = 0, e = t.size();
        while (b < e && std::isspace(static_cast<unsigned char>(t[b]))) ++b;
        while (e > b && std::isspace(static_cast<unsigned char>(t[e - 1]))) --e;
        double v = 0.0;
        const auto [end, ec] = std::from_chars(t.data() + b, t.data() + e, v, std::chars_format::general);
        if (b == e || ec != std::errc() || end != t.data() + e || !std::isfinite(v))
            fail(p.type == Type::IntegerList ? "a list of whole numbers" : "a number");
        return v == 0.0 ? 0.0 : v;
    };
    switch (p.type) {
    case Type::Real:
    case Type::Integer: return number(text);
    case Type::Bool:
        if (text == "true" || text == "1" || text == "yes") return true;
        if (text == "false" || text == "0" || text == "no") return false;
        textError(p, text, owner, "true or false");
    case Type::Choice: return text;
    case Type::IntegerList: {
        // Items separated by ',', ';' or 'x' (regions "7x7"), spaces around them or alone; an
        // item missing between two separators or at either end is an error ("1,2,x" was [1, 2]).
        json list = json::array();
        if (text.find_first_not_of(' ') == std::string::npos) return list;
        std::string piece;
        for (std::size_t i = 0; i <= text.size(); ++i) {
            const char c = i < text.size() ? text[i] : ',';
            if (c != ',' && c != 'x' && c != ';') {
                piece += c;
                continue;
            }
            std::size_t at = 0, items = 0;
            while ((at = piece.find_first_not_of(' ', at)) != std::string::npos) {
                const std::size_t stop = std::min(piece.find(' ', at), piece.size());
                list.push_back(number(piece.substr(at, stop - at)));
                ++items;
                at = stop;
            }
            if (items == 0) textError(p, text, owner, "a list of whole numbers such as 1,2,3 (an item is missing)");
            piece.clear();
        }
        return list;
    }
    case Type::Json: {
        // Depth-checked first (kMaxJsonDepth, as every JSON reader): nlohmann's parser recurses.
        json v = detail::jsonTooDeepAt(text) == std::string_view::npos && text.find('\0') == std::string::npos
                     ? json::parse(text, nullptr, false)
                     : json(json::value_t::discarded);
        if (v.is_discarded()) {
            // A bare word (e.g. flip_svm learner) is the JSON string it names.
            const bool word = !text.empty() && text.find_first_of("{}[]\"") == std::string::npos;
            if (!word) fail("JSON");
            v = text;
        }
        return v;
    }
    }
    textError(p, text, owner, "a value");
}

std::string paramToText(const ParamInfo& p, const json& value) {
    if (p.type == Type::IntegerList && value.is_array()) {
        std::string out;
        for (const json& v : value) out += (out.empty() ? "" : ", ") + v.dump();
        return out;
    }
    if (value.is_string()) return value.get<std::string>();
    return value.dump();
}

std::string paramRangeText(const ParamInfo& p) {
    switch (p.type) {
    case Type::Real:
    case Type::Integer:
    case Type::IntegerList: return "[" + json(p.min).dump() + ", " + json(p.max).dump() + "]";
    case Type::Choice: {
        std::string all;
        for (const auto& c : p.choices) all += (all.empty() ? "one of " : ", ") + c;
        return all;
    }
    case Type::Bool:
    case Type::Json: break;
    }
    return "";
}

json completeParamValues(const std::vector<ParamInfo>& params, const json& given, const std::string& owner) {
    if (!given.is_null() && !given.is_object()) throw std::invalid_argument(owner + ": params must be a JSON object");
    auto fail = [&](const std::string& name, const std::string& msg) {
        throw std::invalid_argument(owner + " parameter " + name + ": " + msg);
    };
    if (given.is_object())
        for (const auto& [key, value] : given.items()) {
            bool known = false;
            for (const auto& pi : params) known = known || pi.name == key;
            if (!known) {
                std::string names;
                for (const auto& pi : params) names += (names.empty() ? "" : ", ") + pi.name;
                fail(key, "unknown parameter (" + (names.empty() ? std::string("it takes none") : "it takes: " + names) + ")");
            }
        }
    // A whole number within [lo, hi] (also each entry of an integer list).
    auto wholeNumber = [&](const ParamInfo& pi, const json& v) {
        if (!v.is_number()) fail(pi.name, "expected a number, got " + v.dump());
        const double x = v.get<double>();
        if (!std::isfinite(x) || x < pi.min || x > pi.max)
            fail(pi.name, "value " + v.dump() + " outside " + paramRangeText(pi));
        if (x != std::floor(x)) fail(pi.name, "expected a whole number, got " + v.dump());
        return static_cast<long long>(x);
    };
    json out = json::object();
    for (const ParamInfo& pi : params) {
        const json v = given.is_object() && given.contains(pi.name) ? given.at(pi.name) : pi.defaultValue;
        switch (pi.type) {
        case Type::Real: {
            if (!v.is_number()) fail(pi.name, "expected a number, got " + v.dump());
            const double x = v.get<double>();
            if (!std::isfinite(x) || x < pi.min || x > pi.max)
                fail(pi.name, "value " + v.dump() + " outside " + paramRangeText(pi));
            out[pi.name] = x;
            break;
        }
        case Type::Integer: out[pi.name] = wholeNumber(pi, v); break;
        case Type::IntegerList: {
            if (!v.is_array()) fail(pi.name, "expected a list of whole numbers, got " + v.dump());
            json list = json::array();
            for (const json& e : v) list.push_back(wholeNumber(pi, e));
            out[pi.name] = list;
            break;
        }
        case Type::Bool:
            if (!v.is_boolean()) fail(pi.name, "expected true or false, got " + v.dump());
            out[pi.name] = v;
            break;
        case Type::Choice: {
            if (!v.is_string()) fail(pi.name, "expected a string, got " + v.dump());
            bool ok = false;
            for (const auto& ch : pi.choices) ok = ok || ch == v.get<std::string>();
            if (!ok) fail(pi.name, "'" + v.get<std::string>() + "' is not " + paramRangeText(pi));
            out[pi.name] = v;
            break;
        }
        case Type::Json: out[pi.name] = v; break;
        }
    }
    return out;
}

}  // namespace fdlab
