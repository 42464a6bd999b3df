#pragma once
// Limits that keep hostile input (spam is written by adversaries) from taking unbounded memory,
// time or stack. Each is enforced where the input is read and is either a clear DataError naming
// the file, or a documented skip; README.md ("Limits on input") lists them all.
#include <cstddef>
#include <cstdint>

namespace fdlab {

/// A gzip file (IDX, message bundle, any loader) may decompress to at most this many bytes
/// (1 GiB; the full MNIST training images are 47 MB). Larger: DataError, memory stays below it.
inline constexpr std::uint64_t kMaxDecompressedBytes = std::uint64_t{1} << 30;

/// Parts of one multipart body that are read; later parts are skipped (their text is not used).
inline constexpr std::size_t kMaxMimeParts = 1000;

}  // namespace fdlab
