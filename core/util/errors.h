#pragma once
// Error types. Bad input never crashes and never yields silent garbage: it throws one of these,
// with a one-line message a user can act on.

#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>

namespace fdlab {

/// A data file (or stream) is malformed. what() reads "FILE:LINE: message" (or
/// "FILE: byte OFFSET: message" for binary formats), always on one line.
class DataError : public std::runtime_error {
public:
    /// line >= 1: a text line; line == 0: no position (e.g. whole-file problems).
    DataError(std::string file, long line, const std::string& message);
    /// A byte offset in a binary file.
    static DataError atByte(std::string file, std::uint64_t offset, const std::string& message);

    const std::string& file() const { return m_file; }
    long line() const { return m_line; }

private:
    DataError(std::string file, long line, std::string full, int);
    std::string m_file;
    long m_line = 0;
};

/// The message to show a user for `e`: its what(), except for running out of memory, whose
/// what() ("std::bad_alloc") names a library type and says nothing a user can act on.
std::string errorText(const std::exception& e);

}  // namespace fdlab
