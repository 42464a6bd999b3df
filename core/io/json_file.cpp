#include "core/io/json_file.h"

#include "core/util/errors.h"
#include "core/util/strings.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string_view>

namespace fdlab {

namespace {

/// Throws when brackets outside strings nest deeper than kMaxJsonDepth (a linear pre-scan; the
/// parser reports every other defect of the text).
void checkJsonDepth(std::string_view text, const std::string& source) {
    if (const std::size_t i = detail::jsonTooDeepAt(text, kMaxJsonDepth); i != std::string_view::npos)
        throw DataError::atByte(source, i, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
}

}  // namespace

nlohmann::json parseJsonText(const std::string& text, const std::string& source, const std::string& notValid) {
    checkJsonDepth(text, source);
    // nlohmann's lexer reads a NUL byte as the end of the input, so "{...}\0garbage" parsed as
    // the part before it (helper-48: a model file with garbage after a NUL loaded).
    if (const auto nul = text.find('\0'); nul != std::string::npos)
        throw DataError::atByte(source, nul, notValid + ": a NUL byte (JSON text has none)");
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw DataError::atByte(source, e.byte, notValid + ": " + e.what());
    } catch (const nlohmann::json::out_of_range& e) {
        // A number too large for a double ("1e400") is no parse_error to nlohmann.
        throw DataError(source, 0, notValid + ": " + e.what());
    }
}

nlohmann::json readJsonFile(const std::string& path, const std::string& what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError(path, 0, "cannot open " + what);
    std::stringstream buf;
    buf << in.rdbuf();
    return parseJsonText(buf.str(), path);
}

using json = nlohmann::json;

void JsonReader::fail(const std::string& path, const std::string& what) const {
    throw DataError(m_source, 0, path + ": " + what);
}

const json& JsonReader::field(const json& obj, const std::string& path, const char* key) const {
    const std::string full = path.empty() ? key : path + "." + key;
    if (!obj.is_object()) fail(path.empty() ? "(top level)" : path, "expected a JSON object");
    const auto it = obj.find(key);
    if (it == obj.end()) fail(full, "missing field");
    return *it;
}

double JsonReader::number(const json& v, const std::string& path) const {
    if (v.is_null()) fail(path, "null where a number is expected (NaN/Inf cannot be stored in JSON)");
    if (!v.is_number()) fail(path, std::string("expected a number, got ") + v.type_name());
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(path, "number is not finite");
    return x;
}

int JsonReader::integer(const json& v, const std::string& path) const {
    if (!v.is_number_integer()) fail(path, std::string("expected an integer, got ") + v.type_name());
    return v.get<int>();
}

std::string JsonReader::string(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, std::string("expected a string, got ") + v.type_name());
    return v.get<std::string>();
}

const json& JsonReader::array(const json& v, const std::string& path) const {
    if (!v.is_array()) fail(path, std::string("expected an array, got ") + v.type_name());
    return v;
}

namespace {
template <class T, class One>
std::vector<T> each(const JsonReader& r, const json& v, const std::string& path, const char* what, One one) {
    if (!v.is_array()) r.fail(path, std::string("expected an array of ") + what + ", got " + v.type_name());
    std::vector<T> out;
    out.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(one(v[i], path + "[" + std::to_string(i) + "]"));
    return out;
}
}  // namespace

std::vector<double> JsonReader::numbers(const json& v, const std::string& path) const {
    return each<double>(*this, v, path, "numbers", [this](const json& e, const std::string& p) { return number(e, p); });
}

std::vector<int> JsonReader::integers(const json& v, const std::string& path) const {
    return each<int>(*this, v, path, "integers", [this](const json& e, const std::string& p) { return integer(e, p); });
}

std::vector<std::string> JsonReader::strings(const json& v, const std::string& path) const {
    return each<std::string>(*this, v, path, "strings", [this](const json& e, const std::string& p) { return string(e, p); });
}

std::string jsonErrorText(const nlohmann::json::exception& e) {
    std::string what = e.what();
    if (what.rfind("[json.exception.", 0) == 0)
        if (const auto end = what.find("] "); end != std::string::npos) what.erase(0, end + 2);
    return what;
}

}  // namespace fdlab
