#pragma once
// Shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp): the loaders that take a path read
// the fuzzer's bytes from a scratch file (one directory per process, rewritten each input), and
// every input must end in a result or in one of the errors core documents for bad input.
#include "core/util/errors.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <unistd.h>

namespace fdlab::fuzz {

/// A file named `name` (a relative path) in this process's scratch directory, holding `bytes`.
inline std::string writeInput(std::string_view bytes, const std::string& name) {
    static const std::string dir = [] {
        const char* tmp = std::getenv("TMPDIR");
        std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/fdlab-fuzz-XXXXXX";
        if (!mkdtemp(tmpl.data())) std::abort();
        return tmpl;
    }();
    const std::string path = dir + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) std::abort();
    return path;
}

/// Runs `f`; the errors core throws for bad input (DataError, std::invalid_argument, other
/// std::runtime_error) are the expected outcome. Anything else — std::bad_alloc, a
/// std::logic_error such as out_of_range or length_error, a library's own exception type — is a
/// defect: it escapes, and libFuzzer reports the uncaught exception as a crash.
template <class F>
void expectCleanErrors(F&& f) {
    try {
        f();
    } catch (const std::invalid_argument&) {
    } catch (const std::runtime_error&) {
    }
}

inline std::string_view view(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

/// Two files in one input: 4 bytes big-endian = the first file's length (cut to what there is),
/// the first file, then the second (IDX images + labels, X.npy + labels .npy). Inputs under 4
/// bytes give nothing.
inline std::optional<std::pair<std::string_view, std::string_view>> splitPair(const std::uint8_t* data, std::size_t size) {
    if (size < 4) return std::nullopt;
    const std::size_t first = (std::size_t{data[0]} << 24) | (std::size_t{data[1]} << 16) |
                              (std::size_t{data[2]} << 8) | data[3];
    const std::string_view rest = view(data + 4, size - 4);
    const std::size_t split = first < rest.size() ? first : rest.size();
    return std::pair{rest.substr(0, split), rest.substr(split)};
}

}  // namespace fdlab::fuzz
