#pragma once
// IDX files (the MNIST format of LeCun et al., http://yann.lecun.com/exdb/mnist/) and the
// in-memory gzip helpers every loader shares.
//
// An IDX file is a 4-byte magic number 0x00 0x00 TYPE NDIM (TYPE 0x08 = unsigned byte), then NDIM
// big-endian uint32 dimension sizes, then prod(dims) values in C order. MNIST images are
// 0x00000803 (m x rows x cols), labels 0x00000801 (m). Files are often distributed gzip-compressed;
// gzip is recognised by its magic bytes 0x1f 0x8b, never by the file name, so a renamed file
// still loads. Byte offsets in IDX error messages count in the decompressed stream (the message
// says so when the file was compressed); gzip errors give the offset in the compressed file.
//
// Internal helpers; the public API is core/data/loaders.h.

#include "core/util/input_limits.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fdlab::detail {

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

/// A parsed IDX array: its dimensions and a view of its unsigned-byte payload (into the buffer
/// passed to parseIdx, which must outlive it).
struct IdxArray {
    std::vector<std::uint32_t> dims;
    std::string_view data;
};

/// Checks magic, type (unsigned byte only), number of dimensions (== expectedNdim), and that the
/// payload is exactly prod(dims) bytes. `decompressed` only changes the wording of errors.
IdxArray parseIdx(std::string_view bytes, const std::string& path, int expectedNdim, bool decompressed);

/// Serialises an unsigned-byte IDX array (magic, big-endian dims, payload).
std::string makeIdx(const std::vector<std::uint32_t>& dims, std::string_view payload);

/// "X-images-idx3-ubyte[.gz]" -> "X-labels-idx1-ubyte[.gz]" (also "X-images.idx3-ubyte"). Replaces
/// the last "images" by "labels" and the last "idx3" by "idx1" in the file name; returns "" if the
/// name contains neither. If the derived file does not exist but its twin with/without ".gz"
/// does, returns the twin.
std::string deriveIdxLabelsPath(const std::string& imagesPath);

}  // namespace fdlab::detail
