#include "core/util/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <sys/stat.h>
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

/// The file a write to `path` must replace: `path` itself, or the end of its chain of symbolic
/// links (also a dangling one: the link stays and the file it names is created).
std::string finalTarget(const std::string& path) {
    namespace fs = std::filesystem;
    fs::path p = path;
    for (int hops = 0; hops < 40; ++hops) {   // Linux's own limit on a chain of links
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(p, ec)) || ec) return p.string();
        const fs::path to = fs::read_symlink(p, ec);
        if (ec) throw std::runtime_error(path + ": cannot read the symbolic link: " + ec.message());
        p = to.is_absolute() ? to : p.parent_path() / to;
    }
    throw std::runtime_error(path + ": too many levels of symbolic links");
}

/// Writes straight into an existing character device or pipe (/dev/null, /dev/stdout, a shell's
/// >(...)): there is nothing to replace atomically, and a rename would put a regular file in its
/// place (as root, /dev/null itself).
void writeThrough(const std::string& path, const std::function<void(std::ostream&)>& write) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
    write(out);
    out.flush();
    if (!out) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
}
}  // namespace

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {   // follows links: the type of what a write would reach
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return writeThrough(path, write);
        if (S_ISDIR(st.st_mode)) throw std::runtime_error(path + ": is a directory");
        if (!S_ISREG(st.st_mode)) throw std::runtime_error(path + ": not a regular file (a block device or a socket): not written");
    }
    // A symbolic link keeps pointing where it did: the file at its end is replaced, with its mode.
    const std::string target = finalTarget(path);
    const std::string tmp = tempNameFor(target);
    try {
        {
            std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
            if (!out) throw std::runtime_error(path + ": cannot create file: " + std::strerror(errno));
            write(out);
            out.flush();
            if (!out) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
        }
        if (::stat(target.c_str(), &st) == 0) ::chmod(tmp.c_str(), st.st_mode & 07777);
        fsyncPath(tmp);
        std::error_code ec;
        std::filesystem::rename(tmp, target, ec);
        if (ec) throw std::runtime_error(path + ": cannot replace file: " + ec.message());
        const auto dir = std::filesystem::path(target).parent_path();
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
