#pragma once
// ZIP archives (PKWARE APPNOTE 6.3), the container of numpy's .npz files.
//
// Reading: the end-of-central-directory record (zip64 too) gives the central directory; each
// member's local header gives where its data starts. Members are stored (method 0) or deflated
// (method 8, raw deflate), checked against their CRC-32 and declared sizes. Encrypted members,
// other methods and multi-disk archives are refused. Memory is bounded by what the archive
// declares and can hold: a member's size is checked against the file before anything is
// allocated (a stored member is exactly its compressed size; deflate never expands more than
// 1032:1), and inflating stops at the declared size.
//
// Writing: members stored or deflated, no zip64 (a member above 4 GiB is refused), in the order
// added.
//
// Internal helpers of npy_format; the public API is core/data/loaders.h.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fdlab::detail {

struct ZipMember {
    std::string name;
    std::uint16_t method = 0;   ///< 0 stored, 8 deflated
    std::uint16_t flags = 0;
    std::uint32_t crc = 0;
    std::uint64_t compressedSize = 0;
    std::uint64_t size = 0;
    std::uint64_t localOffset = 0;
};

class ZipReader {
public:
    /// Parses the central directory of `bytes` (the whole archive, which must outlive the
    /// reader). Throws DataError::atByte(path, ...) for anything malformed.
    ZipReader(std::string_view bytes, std::string path);

    const std::vector<ZipMember>& members() const { return m_members; }
    /// The member called `name`, or null.
    const ZipMember* find(std::string_view name) const;
    /// The member's uncompressed bytes, CRC and size checked.
    std::string read(const ZipMember& m) const;

private:
    std::string_view m_bytes;
    std::string m_path;
    std::vector<ZipMember> m_members;
};

class ZipWriter {
public:
    /// Adds a member; `deflate` compresses it (zlib level 6), else it is stored.
    void add(const std::string& name, std::string_view data, bool deflate);
    /// The archive's bytes (local headers, data, central directory, end record).
    std::string finish() &&;

private:
    std::string m_out;
    std::string m_directory;
    std::uint16_t m_count = 0;
};

}  // namespace fdlab::detail
