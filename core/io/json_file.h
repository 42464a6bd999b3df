#pragma once
// Reading a whole JSON file with errors that name the file (and the byte of a syntax error).

#include "core/util/strings.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace fdlab {

/// Typed access to parsed JSON whose errors (DataError) name the source file and the JSON path
/// ("FILE: model.weights[2]: expected a number, got string"). JSON has no NaN/Inf, so a null
/// where a number belongs is reported as such. Shared by the model readers.
class JsonReader {
public:
    explicit JsonReader(std::string source) : m_source(std::move(source)) {}

    [[noreturn]] void fail(const std::string& path, const std::string& what) const;
    /// obj[key]; path is obj's own path ("" for the top level).
    const nlohmann::json& field(const nlohmann::json& obj, const std::string& path, const char* key) const;
    double number(const nlohmann::json& v, const std::string& path) const;   ///< finite
    int integer(const nlohmann::json& v, const std::string& path) const;
    std::string string(const nlohmann::json& v, const std::string& path) const;
    const nlohmann::json& array(const nlohmann::json& v, const std::string& path) const;
    std::vector<double> numbers(const nlohmann::json& v, const std::string& path) const;
    std::vector<int> integers(const nlohmann::json& v, const std::string& path) const;
    std::vector<std::string> strings(const nlohmann::json& v, const std::string& path) const;

private:
    std::string m_source;
};

/// nlohmann's message without its "[json.exception.type_error.302] " tag, for users' messages
/// ("type must be number, but is string").
std::string jsonErrorText(const nlohmann::json::exception& e);

/// The deepest nesting of arrays and objects a JSON input may have (core/util/strings.h).
inline constexpr int kMaxJsonDepth = detail::kMaxJsonDepth;

/// Parses JSON text. Throws DataError "SOURCE: byte N: <notValid>: ..." for a syntax error and
/// "SOURCE: byte N: JSON nested deeper than 64 levels" (N = the opening bracket too deep).
nlohmann::json parseJsonText(const std::string& text, const std::string& source,
                             const std::string& notValid = "not valid JSON");

/// Throws DataError "PATH: cannot open <what>" or parseJsonText's errors.
nlohmann::json readJsonFile(const std::string& path, const std::string& what);

}  // namespace fdlab
