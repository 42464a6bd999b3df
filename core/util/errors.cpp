#include "core/util/errors.h"

#include <algorithm>
#include <new>
#include <sstream>

namespace fdlab {

namespace {
std::string positioned(const std::string& file, long line, const std::string& message) {
    std::ostringstream os;
    os << file;
    if (line > 0) os << ':' << line;
    os << ": " << message;
    return os.str();
}

std::string oneLine(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    std::replace(s.begin(), s.end(), '\r', ' ');
    return s;
}
}  // namespace

DataError::DataError(std::string file, long line, const std::string& message)
    : std::runtime_error(oneLine(positioned(file, line, message))),
      m_file(std::move(file)), m_line(line) {}

DataError::DataError(std::string file, long line, std::string full, int)
    : std::runtime_error(oneLine(std::move(full))), m_file(std::move(file)), m_line(line) {}

DataError DataError::atByte(std::string file, std::uint64_t offset, const std::string& message) {
    std::ostringstream os;
    os << file << ": byte " << offset << ": " << message;
    std::string full = os.str();
    return DataError(std::move(file), 0, std::move(full), 0);
}

std::string errorText(const std::exception& e) {
    if (dynamic_cast<const std::bad_alloc*>(&e))
        return "out of memory: the data or the experiment needs more memory than this process can get "
               "(a smaller input, fewer threads or a machine with more memory may help)";
    const std::string what = e.what();
    return what.empty() ? "unknown error" : what;
}

}  // namespace fdlab
