#include "core/util/atomic_file.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <poll.h>
#include <random>
#include <stdexcept>
#include <streambuf>
#include <sys/stat.h>
#include <sys/statfs.h>
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

/// A path into a descriptor table of /proc: /proc/P/fd/N or /proc/P/task/T/fd/N (however it is
/// reached: /dev/fd/N, /dev/stdout, /proc/self/fd/N, /proc/thread-self/fd/N, a link to /dev/fd).
/// /proc shows such a path as a link to the file's name (or "pipe:[...]", "/x (deleted)"): a
/// rename over that name lost what `>>` had appended, or wrote beside a deleted file.
struct TablePath {
    bool own = false;   ///< this process's table (any of its threads'); else another process's
    int fd = -1;
};

constexpr long kProcSuperMagic = 0x9fa0;   // PROC_SUPER_MAGIC, <linux/magic.h>

std::optional<TablePath> tablePath(const std::filesystem::path& p) {
    namespace fs = std::filesystem;
    const std::string name = p.filename().string();
    int fd = -1;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), fd);
    // Only the names /proc itself uses ("01" is no entry of the table).
    if (name.empty() || ec != std::errc() || end != name.data() + name.size() || fd < 0 || std::to_string(fd) != name)
        return std::nullopt;
    std::error_code e1;
    const fs::path dir = fs::canonical(p.parent_path().empty() ? fs::path(".") : p.parent_path(), e1);
    if (e1 || dir.filename() != "fd") return std::nullopt;
    const fs::path owner = dir.parent_path();   // /proc/P or /proc/P/task/T
    const bool thread = owner.parent_path().filename() == "task";
    // A /proc anywhere (a container's /host/proc too): known by its file system, not its path.
    const fs::path proc = thread ? owner.parent_path().parent_path().parent_path() : owner.parent_path();
    struct statfs fsInfo {};
    if (::statfs(proc.c_str(), &fsInfo) != 0 || fsInfo.f_type != kProcSuperMagic) return std::nullopt;
    // Ours: the table that proc's self leads to (by path, not by getpid(): in a PID namespace
    // without its own /proc, getpid() is 1 and self the host's number), or that of one of our
    // threads T: /proc/T/fd, /proc/P/task/T/fd, /proc/T/task/T/fd.
    std::error_code e2;
    const fs::path self = fs::canonical(proc / "self", e2);
    if (e2) return TablePath{false, fd};
    const auto ourThread = [&](const fs::path& numbered) {
        std::error_code e3;
        return numbered.parent_path() == proc && fs::exists(self / "task" / numbered.filename(), e3);
    };
    const fs::path process = thread ? owner.parent_path().parent_path() : owner;   // /proc/P or /proc/T
    const bool own = process == self || ourThread(process);
    return TablePath{own, fd};
}

/// Where a write to `path` goes: a descriptor of this process (tablePath), or the file to
/// replace -- `path` itself or the end of its chain of symbolic links (also a dangling one: the
/// link stays and the file it names is created).
struct Target {
    std::optional<int> descriptor;
    std::string file;
};

Target finalTarget(const std::string& path) {
    namespace fs = std::filesystem;
    fs::path p = path;
    for (int hops = 0;; ++hops) {
        if (const auto t = tablePath(p)) {
            if (!t->own)
                throw std::runtime_error(path + ": names a descriptor of another process (" + p.string() +
                                         "): not written");
            return {t->fd, {}};
        }
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(p, ec)) || ec) return {std::nullopt, p.string()};
        if (hops == 40) throw std::runtime_error(path + ": too many levels of symbolic links");   // Linux's limit
        const fs::path to = fs::read_symlink(p, ec);
        if (ec) throw std::runtime_error(path + ": cannot read the symbolic link: " + ec.message());
        p = to.is_absolute() ? to : p.parent_path() / to;
    }
}

/// A stream buffer writing to a descriptor it does not own (no close). A descriptor left
/// non-blocking by whoever passed it (EAGAIN) is waited for; after a failure nothing more is
/// written (a retry from the start of the buffer would repeat what a partial write had written).
class DescriptorBuf : public std::streambuf {
public:
    explicit DescriptorBuf(int fd) : m_fd(fd) { setp(m_buf, m_buf + sizeof m_buf); }
    ~DescriptorBuf() override { drain(); }
    bool drain() {
        for (const char* b = pbase(); !m_failed && b < pptr();) {
            const ssize_t n = ::write(m_fd, b, static_cast<std::size_t>(pptr() - b));
            if (n > 0) {
                b += n;
            } else if (n < 0 && errno == EINTR) {
                continue;
            } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                pollfd pfd{m_fd, POLLOUT, 0};
                ::poll(&pfd, 1, -1);
            } else {
                m_error = n < 0 ? errno : EIO;
                m_failed = true;
            }
        }
        setp(m_buf, m_buf + sizeof m_buf);
        return !m_failed;
    }
    int error() const { return m_error; }

protected:
    int_type overflow(int_type c) override {
        if (!drain()) return traits_type::eof();
        if (c != traits_type::eof()) sputc(traits_type::to_char_type(c));
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    int m_fd;
    bool m_failed = false;
    int m_error = 0;
    char m_buf[1 << 16];
};

/// Writes through this process's descriptor fd, after what the program has already written to
/// its standard streams (so "trained ..." lines and the file keep their order in a `>` file).
void writeToDescriptor(const std::string& path, int fd, const std::function<void(std::ostream&)>& write) {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    DescriptorBuf buf(fd);
    std::ostream out(&buf);
    write(out);
    out.flush();
    if (!out || !buf.drain()) throw std::runtime_error(path + ": write failed: " + std::strerror(buf.error() ? buf.error() : errno));
    // A regular file opened for reading and writing without truncation (1<>file) keeps a stale
    // tail past what was written: cut there, as the file a rename would have made. Not for
    // O_APPEND (>>), where the end is the end.
    struct stat st {};
    const int flags = ::fcntl(fd, F_GETFL);
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && flags >= 0 && !(flags & O_APPEND)) {
        const off_t at = ::lseek(fd, 0, SEEK_CUR);
        if (at >= 0 && at < st.st_size && ::ftruncate(fd, at) != 0)
            throw std::runtime_error(path + ": cannot cut the file after what was written: " + std::strerror(errno));
    }
}

/// Writes straight into an existing character device or pipe (/dev/null, a shell's >(...)):
/// there is nothing to replace atomically, and a rename would put a regular file in its place
/// (as root, /dev/null itself).
void writeThrough(const std::string& path, const std::function<void(std::ostream&)>& write) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
    write(out);
    out.flush();
    if (!out) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
}
}  // namespace

std::optional<int> ownDescriptorOf(const std::string& path) {
    try {
        return finalTarget(path).descriptor;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

void checkWritableTarget(const std::string& path) {
    const Target t = finalTarget(path);
    if (!t.descriptor) {   // the file to replace (at the end of its links) needs its folder
        const std::filesystem::path parent = std::filesystem::path(t.file).parent_path();
        std::error_code ec;
        if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
            throw std::invalid_argument(path + ": " + parent.string() + " is not a folder");
        return;
    }
    const int flags = ::fcntl(*t.descriptor, F_GETFL);
    if (flags < 0) throw std::invalid_argument(path + ": descriptor " + std::to_string(*t.descriptor) + " is not open");
    if ((flags & O_ACCMODE) == O_RDONLY)
        throw std::invalid_argument(path + ": descriptor " + std::to_string(*t.descriptor) + " is open for reading only");
}

bool isRegularFileTarget(const std::string& path) {
    try {
        if (finalTarget(path).descriptor) return false;
    } catch (const std::exception&) {
        return true;   // the write itself reports it
    }
    struct stat st {};
    return ::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode);
}

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
    // An empty path said ": cannot replace file: No such file or directory", naming nothing.
    if (path.empty()) throw std::invalid_argument("empty output path: no file name was given");
    // A symbolic link keeps pointing where it did: the file at its end is replaced, with its mode.
    const Target target = finalTarget(path);
    if (target.descriptor) return writeToDescriptor(path, *target.descriptor, write);
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {   // follows links: the type of what a write would reach
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return writeThrough(path, write);
        if (S_ISDIR(st.st_mode)) throw std::runtime_error(path + ": is a directory");
        if (!S_ISREG(st.st_mode)) throw std::runtime_error(path + ": not a regular file (a block device or a socket): not written");
    }
    const std::string tmp = tempNameFor(target.file);
    try {
        {
            std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
            if (!out) {
                const auto dir = std::filesystem::path(target.file).parent_path();
                throw std::runtime_error(path + ": cannot create a file in " + (dir.empty() ? std::string(".") : dir.string()) +
                                         ": " + std::strerror(errno));
            }
            write(out);
            out.flush();
            if (!out) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
        }
        if (::stat(target.file.c_str(), &st) == 0) ::chmod(tmp.c_str(), st.st_mode & 07777);
        fsyncPath(tmp);
        std::error_code ec;
        std::filesystem::rename(tmp, target.file, ec);
        if (ec) throw std::runtime_error(path + ": cannot replace file: " + ec.message());
        const auto dir = std::filesystem::path(target.file).parent_path();
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
