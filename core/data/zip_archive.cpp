#include "core/data/zip_archive.h"

#include "core/util/errors.h"
#include "core/util/strings.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <stdexcept>
#include <unordered_set>

namespace fdlab::detail {

namespace {

constexpr std::uint32_t kLocalSig = 0x04034b50, kCentralSig = 0x02014b50, kEndSig = 0x06054b50,
                        kEnd64Sig = 0x06064b50, kEnd64LocatorSig = 0x07064b50;
constexpr std::uint64_t kMaxDeflateRatio = 1032;   // deflate's largest expansion (zlib FAQ)

/// Little-endian reads at an offset already checked to be in range.
std::uint64_t le(std::string_view b, std::uint64_t at, int bytes) {
    std::uint64_t v = 0;
    for (int k = bytes - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<std::uint64_t>(k)]);
    return v;
}

void putLe(std::string& out, std::uint64_t v, int bytes) {
    for (int k = 0; k < bytes; ++k) out += static_cast<char>((v >> (8 * k)) & 0xff);
}

std::uint32_t crc32Of(std::string_view data) {
    uLong crc = crc32(0L, Z_NULL, 0);
    for (std::size_t done = 0; done < data.size();) {
        const auto chunk = static_cast<uInt>(std::min<std::size_t>(data.size() - done, UINT_MAX));
        crc = crc32(crc, reinterpret_cast<const Bytef*>(data.data() + done), chunk);
        done += chunk;
    }
    return static_cast<std::uint32_t>(crc);
}

}  // namespace

ZipReader::ZipReader(std::string_view bytes, std::string path) : m_bytes(bytes), m_path(std::move(path)) {
    const std::uint64_t n = bytes.size();
    auto fail = [&](std::uint64_t at, const std::string& msg) { throw DataError::atByte(m_path, at, msg); };
    auto need = [&](std::uint64_t at, std::uint64_t len, const std::string& what) {
        if (at > n || len > n - at)
            fail(std::min(at, n), "truncated zip archive: expected " + what + " (" + std::to_string(len) +
                                      " bytes), found end of file");
    };
    if (n < 22 || bytes.substr(0, 2) != "PK")
        fail(0, "expected a zip archive (an .npz starts with 'PK'), found " +
                    (n < 22 ? std::to_string(n) + " bytes" : std::string("other content")));

    // The end record is the last 22 bytes plus a comment of at most 65535 bytes.
    std::uint64_t end = n;
    for (std::uint64_t at = n - 22;; --at) {
        if (le(bytes, at, 4) == kEndSig && at + 22 + le(bytes, at + 20, 2) == n) {
            end = at;
            break;
        }
        if (at == 0 || n - at > 22 + 65535) break;
    }
    if (end == n) fail(n, "expected a zip end-of-central-directory record, found none (truncated or not a zip)");
    if (le(bytes, end + 4, 2) != 0 || le(bytes, end + 6, 2) != 0)
        fail(end, "expected a single-disk zip archive, found a multi-disk one");
    std::uint64_t count = le(bytes, end + 10, 2), dirSize = le(bytes, end + 12, 4), dirOffset = le(bytes, end + 16, 4);
    if (count == 0xffff || dirSize == 0xffffffff || dirOffset == 0xffffffff) {
        // zip64: a locator just before the end record points to the zip64 end record.
        if (end < 20 || le(bytes, end - 20, 4) != kEnd64LocatorSig)
            fail(end, "expected a zip64 end-of-central-directory locator, found none");
        const std::uint64_t at = le(bytes, end - 12, 8);
        need(at, 56, "a zip64 end-of-central-directory record");
        if (le(bytes, at, 4) != kEnd64Sig) fail(at, "expected a zip64 end-of-central-directory record, found other bytes");
        count = le(bytes, at + 32, 8);
        dirSize = le(bytes, at + 40, 8);
        dirOffset = le(bytes, at + 48, 8);
    }
    need(dirOffset, dirSize, "the central directory");
    // Each entry has at least 46 bytes: this bounds `count` by the file before reserving.
    if (count > dirSize / 46) fail(end, "zip end record declares " + std::to_string(count) + " members, more than the central directory can hold");
    m_members.reserve(count);

    std::uint64_t at = dirOffset;
    std::unordered_set<std::string> names;
    for (std::uint64_t k = 0; k < count; ++k) {
        need(at, 46, "a central directory entry");
        if (le(bytes, at, 4) != kCentralSig) fail(at, "expected a zip central directory entry, found other bytes");
        ZipMember m;
        m.flags = static_cast<std::uint16_t>(le(bytes, at + 8, 2));
        m.method = static_cast<std::uint16_t>(le(bytes, at + 10, 2));
        m.crc = static_cast<std::uint32_t>(le(bytes, at + 16, 4));
        m.compressedSize = le(bytes, at + 20, 4);
        m.size = le(bytes, at + 24, 4);
        const std::uint64_t nameLen = le(bytes, at + 28, 2), extraLen = le(bytes, at + 30, 2),
                            commentLen = le(bytes, at + 32, 2);
        m.localOffset = le(bytes, at + 42, 4);
        need(at + 46, nameLen + extraLen + commentLen, "a member name and extra fields");
        m.name = std::string(bytes.substr(at + 46, nameLen));
        // zip64 extra field (id 1): the 8-byte values that did not fit, in this order.
        for (std::uint64_t e = at + 46 + nameLen; e + 4 <= at + 46 + nameLen + extraLen;) {
            const std::uint64_t id = le(bytes, e, 2), len = le(bytes, e + 2, 2);
            if (e + 4 + len > at + 46 + nameLen + extraLen) fail(e, "malformed zip extra field in member '" + m.name + "'");
            if (id == 1) {
                std::uint64_t p = e + 4;
                auto take = [&](std::uint64_t& field) {
                    if (p + 8 > e + 4 + len) fail(e, "malformed zip64 extra field in member '" + m.name + "'");
                    field = le(bytes, p, 8);
                    p += 8;
                };
                if (m.size == 0xffffffff) take(m.size);
                if (m.compressedSize == 0xffffffff) take(m.compressedSize);
                if (m.localOffset == 0xffffffff) take(m.localOffset);
            }
            e += 4 + len;
        }
        // Readers disagree on a repeated name (Python's zipfile, hence numpy, takes the last copy;
        // a first-match lookup the first): refuse rather than load what numpy would not.
        if (!names.insert(m.name).second)
            fail(at, "the archive holds two members named " + inQuotes(m.name) +
                         " (numpy would read the last, other tools the first): rewrite the archive without the duplicate");
        m_members.push_back(std::move(m));
        at += 46 + nameLen + extraLen + commentLen;
    }
}

const ZipMember* ZipReader::find(std::string_view name) const {
    for (const ZipMember& m : m_members)
        if (m.name == name) return &m;
    return nullptr;
}

std::string ZipReader::read(const ZipMember& m) const {
    const std::uint64_t n = m_bytes.size();
    const std::string who = "zip member '" + m.name + "'";
    auto fail = [&](std::uint64_t at, const std::string& msg) { throw DataError::atByte(m_path, at, who + ": " + msg); };
    if (m.flags & 1) fail(m.localOffset, "expected an unencrypted member, found an encrypted one");
    if (m.method != 0 && m.method != 8)
        fail(m.localOffset, "expected a stored or deflated member, found compression method " + std::to_string(m.method));
    if (m.localOffset > n || n - m.localOffset < 30 || le(m_bytes, m.localOffset, 4) != kLocalSig)
        fail(std::min(m.localOffset, n), "expected a local file header, found other bytes or end of file");
    const std::uint64_t start = m.localOffset + 30 + le(m_bytes, m.localOffset + 26, 2) + le(m_bytes, m.localOffset + 28, 2);
    if (start > n || m.compressedSize > n - start)
        fail(std::min(start, n), "truncated: expected " + std::to_string(m.compressedSize) + " bytes of data, found " +
                                     std::to_string(start > n ? 0 : n - start));
    const std::string_view in = m_bytes.substr(start, m.compressedSize);
    if (m.method == 0 && m.size != m.compressedSize)
        fail(start, "stored member declares " + std::to_string(m.size) + " bytes but holds " + std::to_string(m.compressedSize));
    if (m.method == 8 && m.size > kMaxDeflateRatio * m.compressedSize + 1024)
        fail(start, "declares " + std::to_string(m.size) + " bytes, more than " + std::to_string(m.compressedSize) +
                        " deflated bytes can hold");

    std::string out;
    if (m.method == 0) {
        out.assign(in);
    } else {
        out.resize(m.size);
        z_stream s{};
        if (inflateInit2(&s, -15) != Z_OK) fail(start, "cannot initialise zlib");
        std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&s, [](z_stream* z) { inflateEnd(z); });
        std::uint64_t inDone = 0, outDone = 0;
        int rc = Z_OK;
        // zlib counts in uInt: feed and drain in chunks of at most 1 GiB.
        constexpr std::uint64_t kChunk = std::uint64_t{1} << 30;
        while (rc == Z_OK) {
            const std::uint64_t inChunk = std::min(kChunk, in.size() - inDone), outChunk = std::min(kChunk, m.size - outDone);
            s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + inDone));
            s.avail_in = static_cast<uInt>(inChunk);
            s.next_out = reinterpret_cast<Bytef*>(out.data() + outDone);
            s.avail_out = static_cast<uInt>(outChunk);
            rc = inflate(&s, Z_NO_FLUSH);
            inDone += inChunk - s.avail_in;
            outDone += outChunk - s.avail_out;
            if (rc == Z_BUF_ERROR || (rc == Z_OK && inChunk - s.avail_in == 0 && outChunk - s.avail_out == 0)) {
                if (outDone == m.size && inDone < in.size())
                    fail(start + inDone, "inflates to more than its declared " + std::to_string(m.size) + " bytes");
                fail(start + inDone, "truncated deflate stream: inflated " + std::to_string(outDone) + " of " +
                                         std::to_string(m.size) + " declared bytes");
            }
        }
        if (rc != Z_STREAM_END)
            fail(start + inDone, std::string("corrupt deflate data: ") + (s.msg ? s.msg : "zlib error " + std::to_string(rc)));
        if (outDone != m.size)
            fail(start + inDone, "inflates to " + std::to_string(outDone) + " bytes, expected the declared " + std::to_string(m.size));
    }
    if (crc32Of(out) != m.crc) fail(start, "CRC-32 mismatch: the data is corrupt");
    return out;
}

void ZipWriter::add(const std::string& name, std::string_view data, bool deflate) {
    if (data.size() > 0xfffffffeu || m_out.size() > 0xfffffffeu)
        throw std::invalid_argument("zip archive: member '" + name + "' or the archive exceeds 4 GiB (zip64 writing is not supported)");
    if (m_count == 0xffff) throw std::invalid_argument("zip archive: too many members");
    std::string body;
    if (deflate) {
        z_stream s{};
        if (deflateInit2(&s, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            throw std::runtime_error("zip archive: cannot initialise zlib");
        std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&s, [](z_stream* z) { deflateEnd(z); });
        body.resize(deflateBound(&s, static_cast<uLong>(data.size())));
        s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
        s.avail_in = static_cast<uInt>(data.size());
        s.next_out = reinterpret_cast<Bytef*>(body.data());
        s.avail_out = static_cast<uInt>(body.size());
        if (::deflate(&s, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("zip archive: deflate failed for '" + name + "'");
        body.resize(s.total_out);
    }
    const std::string_view stored = deflate ? std::string_view(body) : data;
    const std::uint32_t crc = crc32Of(data);
    const std::uint64_t offset = m_out.size();
    auto common = [&](std::string& out) {
        putLe(out, 20, 2);                       // version needed: 2.0 (deflate)
        putLe(out, 0, 2);                        // flags
        putLe(out, deflate ? 8 : 0, 2);          // method
        putLe(out, 0, 2);                        // time
        putLe(out, (1980 - 1980) << 9 | 1 << 5 | 1, 2);   // date 1980-01-01
        putLe(out, crc, 4);
        putLe(out, stored.size(), 4);
        putLe(out, data.size(), 4);
        putLe(out, name.size(), 2);
        putLe(out, 0, 2);                        // extra length
    };
    putLe(m_out, kLocalSig, 4);
    common(m_out);
    m_out += name;
    m_out += stored;

    putLe(m_directory, kCentralSig, 4);
    putLe(m_directory, 20, 2);                   // version made by
    common(m_directory);
    putLe(m_directory, 0, 2);                    // comment length
    putLe(m_directory, 0, 2);                    // disk
    putLe(m_directory, 0, 2);                    // internal attributes
    putLe(m_directory, 0, 4);                    // external attributes
    putLe(m_directory, offset, 4);
    m_directory += name;
    ++m_count;
}

std::string ZipWriter::finish() && {
    const std::uint64_t dirOffset = m_out.size();
    if (dirOffset + m_directory.size() > 0xfffffffeu)
        throw std::invalid_argument("zip archive exceeds 4 GiB (zip64 writing is not supported)");
    m_out += m_directory;
    putLe(m_out, kEndSig, 4);
    putLe(m_out, 0, 2);
    putLe(m_out, 0, 2);
    putLe(m_out, m_count, 2);
    putLe(m_out, m_count, 2);
    putLe(m_out, m_directory.size(), 4);
    putLe(m_out, dirOffset, 4);
    putLe(m_out, 0, 2);
    return std::move(m_out);
}

}  // namespace fdlab::detail
