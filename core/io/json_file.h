#pragma once
// Reading a whole JSON file with errors that name the file (and the byte of a syntax error).

#include <nlohmann/json.hpp>

#include <string>

namespace fdlab {

/// Throws DataError "PATH: cannot open <what>" or "PATH: byte N: not valid JSON: ...".
nlohmann::json readJsonFile(const std::string& path, const std::string& what);

}  // namespace fdlab
