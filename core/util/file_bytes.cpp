// File reading, gzip and the text-bytes check (see file_bytes.h).

#include "core/util/file_bytes.h"

#include "core/util/errors.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace fdlab {

namespace detail {

bool isGzip(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gunzip(std::string_view in, const std::string& path, std::uint64_t maxBytes) {
    if (in.size() > UINT_MAX)
        throw DataError::atByte(path, 0, "compressed file larger than 4 GiB is not supported");
    z_stream s{};
    if (inflateInit2(&s, 15 + 16) != Z_OK) throw DataError::atByte(path, 0, "cannot initialise zlib");
    // inflateEnd on every exit path.
    std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&s, [](z_stream* z) { inflateEnd(z); });

    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    s.avail_in = static_cast<uInt>(in.size());
    // The buffer never grows past maxBytes + 1: a gzip bomb is refused within bounded memory.
    const std::size_t cap = static_cast<std::size_t>(maxBytes) + 1;
    std::string out(std::min(std::max<std::size_t>(in.size() * 4, 1 << 16), cap), '\0');
    std::size_t produced = 0;
    auto consumed = [&] { return static_cast<std::uint64_t>(in.size() - s.avail_in); };
    for (;;) {
        if (produced == out.size()) out.resize(std::min(out.size() * 2, cap));
        const std::size_t room = std::min<std::size_t>(out.size() - produced, UINT_MAX);
        s.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
        s.avail_out = static_cast<uInt>(room);
        const int rc = inflate(&s, Z_NO_FLUSH);
        produced += room - s.avail_out;
        if (produced > maxBytes)
            throw DataError::atByte(path, consumed(),
                                    "gzip data decompresses to more than " + std::to_string(maxBytes) + " bytes (FDLab's limit)");
        if (rc == Z_STREAM_END) {
            if (s.avail_in == 0) break;
            // A file may hold several gzip members one after the other (as `cat a.gz b.gz`).
            if (isGzip(std::string_view(reinterpret_cast<const char*>(s.next_in), s.avail_in))) {
                inflateReset(&s);
                continue;
            }
            throw DataError::atByte(path, consumed(),
                                    "expected end of file after the gzip stream, found " +
                                        std::to_string(s.avail_in) + " trailing bytes");
        }
        if (rc == Z_OK) continue;
        if (rc == Z_BUF_ERROR && s.avail_in != 0) continue;  // only the output was full
        if (rc == Z_BUF_ERROR)
            throw DataError::atByte(path, consumed(),
                                    "truncated gzip stream: expected more compressed data, found end of file");
        throw DataError::atByte(path, consumed(),
                                std::string("corrupt gzip data: ") + (s.msg ? s.msg : "zlib error " + std::to_string(rc)));
    }
    out.resize(produced);
    return out;
}

std::string gzipCompress(std::string_view raw, int level) {
    if (raw.size() > UINT_MAX / 2) throw std::invalid_argument("gzip compression: input larger than 2 GiB");
    z_stream s{};
    if (deflateInit2(&s, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("gzip compression: cannot initialise zlib");
    std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&s, [](z_stream* z) { deflateEnd(z); });
    // deflateBound covers the zlib wrapper only; gzip's header and trailer need 18 more bytes.
    std::string out(deflateBound(&s, static_cast<uLong>(raw.size())) + 32, '\0');
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
    s.avail_in = static_cast<uInt>(raw.size());
    s.next_out = reinterpret_cast<Bytef*>(out.data());
    s.avail_out = static_cast<uInt>(out.size());
    if (deflate(&s, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("gzip compression: deflate failed");
    out.resize(s.total_out);
    return out;
}

std::string readFileBytes(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw DataError(path, 0, std::string("cannot open file: ") + std::strerror(errno));
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> guard(f, &std::fclose);
    std::string bytes;
    if (std::fseek(f, 0, SEEK_END) == 0) {
        const long size = std::ftell(f);
        if (size > 0) bytes.reserve(static_cast<std::size_t>(size));
        std::rewind(f);
    }
    char buf[1 << 16];
    std::size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.append(buf, got);
    if (std::ferror(f)) throw DataError(path, 0, std::string("read error: ") + std::strerror(errno));
    return bytes;
}

std::string readMaybeGzipped(const std::string& path, bool* wasGzip) {
    std::string bytes = readFileBytes(path);
    const bool gz = isGzip(bytes);
    if (wasGzip) *wasGzip = gz;
    return gz ? gunzip(bytes, path) : bytes;
}

}  // namespace detail

void requireTextBytes(std::string_view bytes, const std::string& path) {
    if (bytes.substr(0, 2) == "\xFF\xFE" || bytes.substr(0, 2) == "\xFE\xFF")
        throw DataError(path, 0, "UTF-16 text (byte-order mark): save it as UTF-8");
    if (const std::size_t nul = bytes.find('\0'); nul != std::string_view::npos)
        throw DataError::atByte(path, nul, "NUL byte: a binary or UTF-16 file, not text");
}

}  // namespace fdlab
