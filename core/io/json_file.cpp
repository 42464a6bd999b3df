#include "core/io/json_file.h"

#include "core/util/errors.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace fdlab {

nlohmann::json readJsonFile(const std::string& path, const std::string& what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataError(path, 0, "cannot open " + what);
    std::stringstream buf;
    buf << in.rdbuf();
    try {
        return nlohmann::json::parse(buf.str());
    } catch (const nlohmann::json::parse_error& e) {
        throw DataError::atByte(path, e.byte, std::string("not valid JSON: ") + e.what());
    }
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

}  // namespace fdlab
