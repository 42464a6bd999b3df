#pragma once
// Reading a file's bytes and the byte-level checks every loader shares: gzip recognised by its
// magic bytes 0x1f 0x8b (never by the file name, so a renamed file still loads) and inflated in
// memory, and the refusal of bytes that are not text (NUL bytes, a UTF-16 byte-order mark).
// gzip errors give the byte offset in the compressed file. Used by the tabular loaders
// (core/data) and the text loaders (core/text) alike; knows no file format above bytes.

#include "core/util/input_limits.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace fdlab {

namespace detail {

/// True if the bytes start with the gzip magic 0x1f 0x8b.
bool isGzip(std::string_view bytes);

/// Inflates a gzip stream (concatenated members allowed). Throws DataError::atByte(path, offset
/// in the compressed data, ...) for corrupt, truncated or trailing data, or more than maxBytes of
/// output (memory stays within maxBytes + 1).
std::string gunzip(std::string_view compressed, const std::string& path,
                   std::uint64_t maxBytes = kMaxDecompressedBytes);

/// Compresses to the gzip format (RFC 1952) at the given zlib level (0..9).
std::string gzipCompress(std::string_view raw, int level = 9);

/// The whole file as bytes. Throws DataError(path, 0, ...) if it cannot be read.
std::string readFileBytes(const std::string& path);

/// readFileBytes, then gunzip when the content starts with the gzip magic. `wasGzip`, if given,
/// tells which.
std::string readMaybeGzipped(const std::string& path, bool* wasGzip = nullptr);

}  // namespace detail

/// Throws DataError(path) when bytes look binary or UTF-16 (NUL bytes or a UTF-16 byte-order
/// mark); shared by the loaders.
void requireTextBytes(std::string_view bytes, const std::string& path);

}  // namespace fdlab
