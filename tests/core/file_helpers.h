#pragma once
// Small file helpers the core tests share: whole-file reads and writes, and the message of the
// DataError a call must throw.

#include "core/util/errors.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace fdlab::test {

inline std::string readAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Writes `s` to `path`, creating the parent folders.
inline void writeAll(const std::filesystem::path& path, const std::string& s) {
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << s;
}

/// Runs f, which must throw DataError; returns its message ("" if it did not throw).
template <class F>
std::string dataErrorOf(F&& f) {
    try {
        f();
    } catch (const DataError& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("WRONG EXCEPTION TYPE: ") + e.what();
    }
    return "";
}

}  // namespace fdlab::test
