#include "core/io/json_file.h"

#include "core/util/errors.h"

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

}  // namespace fdlab
