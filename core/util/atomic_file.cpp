#include "core/util/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <unistd.h>

namespace fdlab {

namespace {
std::string tempNameFor(const std::string& path) {
    static thread_local std::mt19937_64 gen{std::random_device{}()};
    char buf[32];
    std::snprintf(buf, sizeof buf, ".tmp-%012llx", static_cast<unsigned long long>(gen() & 0xffffffffffffULL));
    return path + buf;
}

void fsyncPath(const std::string& p) {
    const int fd = ::open(p.c_str(), O_RDONLY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}
}  // namespace

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
    const std::string tmp = tempNameFor(path);
    try {
        {
            std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
            if (!out) throw std::runtime_error(path + ": cannot create file: " + std::strerror(errno));
            write(out);
            out.flush();
            if (!out) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
        }
        fsyncPath(tmp);
        std::error_code ec;
        std::filesystem::rename(tmp, path, ec);
        if (ec) throw std::runtime_error(path + ": cannot replace file: " + ec.message());
        const auto dir = std::filesystem::path(path).parent_path();
        fsyncPath(dir.empty() ? std::string(".") : dir.string());
    } catch (...) {
        std::error_code ec;
        std::filesystem::remove(tmp, ec);
        throw;
    }
}

void writeFileAtomically(const std::string& path, const std::string& contents) {
    writeFileAtomically(path, [&](std::ostream& out) { out.write(contents.data(), static_cast<std::streamsize>(contents.size())); });
}

}  // namespace fdlab
