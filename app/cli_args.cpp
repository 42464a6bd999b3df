#include "cli_args.h"

#include "core/util/atomic_file.h"

#include <unistd.h>

#include <atomic>
#include <charconv>
#include <filesystem>
#include <limits>
#include <cstdio>
#include <chrono>
#include <cmath>
#include <csignal>
#include <sstream>

namespace fdlab::cli {

namespace {
std::atomic<bool> g_interrupted{false};
extern "C" void onInterrupt(int) { g_interrupted = true; }
}  // namespace

StderrProgress::StderrProgress(bool quiet) : m_quiet(quiet), m_tty(isatty(STDERR_FILENO)) {}

void StderrProgress::operator()(const Progress& p) {
    if (m_quiet) return;
    std::lock_guard lock(m_mu);
    const int pct = static_cast<int>(100 * p.fraction);
    if (m_tty) {
        std::fprintf(stderr, "\r[%-25s] %3d%%  %-40.40s", std::string(static_cast<std::size_t>(pct / 4), '#').c_str(), pct,
                     p.message.c_str());
    } else if (pct / 10 != m_lastDecile) {
        m_lastDecile = pct / 10;
        std::fprintf(stderr, "progress %3d%%  %s\n", pct, p.message.c_str());
    }
}

void StderrProgress::finish() {
    if (m_tty && !m_quiet) std::fprintf(stderr, "\n");
}

InterruptGuard::InterruptGuard(bool alsoTerm) : m_term(alsoTerm) {
    g_interrupted = false;
    m_oldInt = std::signal(SIGINT, onInterrupt);
    if (m_term) m_oldTerm = std::signal(SIGTERM, onInterrupt);
    m_watch = std::jthread([this](std::stop_token st) {
        while (!st.stop_requested()) {
            if (g_interrupted) m_source.request_stop();
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
}

InterruptGuard::~InterruptGuard() {
    m_watch.request_stop();
    m_watch.join();
    std::signal(SIGINT, m_oldInt);
    if (m_term) std::signal(SIGTERM, m_oldTerm);
}


Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& valued,
           const std::set<std::string>& flags) {
    for (std::size_t k = 0; k < argv.size(); ++k) {
        const std::string& a = argv[k];
        if (a.rfind("--", 0) != 0 || a == "--") {
            m_positional.push_back(a);
            continue;
        }
        std::string name = a.substr(2), val;
        const auto eq = name.find('=');
        const bool inlineValue = eq != std::string::npos;
        if (inlineValue) {
            val = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        if (valued.count(name)) {
            if (!inlineValue) {
                if (k + 1 >= argv.size()) throw UsageError("option --" + name + " needs a value");
                // "--output --quiet" wrote a file named --quiet: a value that looks like an option
                // is one (--name=--x gives such a value on purpose).
                if (argv[k + 1].rfind("--", 0) == 0 && argv[k + 1].size() > 2)
                    throw UsageError("option --" + name + " needs a value, got the option " + argv[k + 1] +
                                     " (write --" + name + "=" + argv[k + 1] + " for a value that starts with --)");
                val = argv[++k];
            }
            // Each option once: a second value silently replaced the first (--budget 1 --budget 2
            // ran budget 2). Lists are one comma-separated value (--levels 0,1,2).
            if (const auto [it, fresh] = m_values.emplace(name, val); !fresh)
                throw UsageError("option --" + name + " is given more than once ('" + it->second + "', then '" + val +
                                 "'); give it once");
        } else if (flags.count(name)) {
            if (inlineValue) throw UsageError("option --" + name + " takes no value");
            m_flags.insert(name);
        } else {
            throw UsageError("unknown option --" + name);
        }
    }
}

std::optional<std::string> Args::value(const std::string& name) const {
    const auto it = m_values.find(name);
    if (it == m_values.end()) return std::nullopt;
    return it->second;
}

std::string Args::value(const std::string& name, const std::string& fallback) const {
    return value(name).value_or(fallback);
}

std::string Args::choice(const std::string& name, const std::vector<std::string>& allowed,
                         const std::string& fallback) const {
    const std::string v = value(name, fallback);
    for (const auto& a : allowed)
        if (a == v) return v;
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw UsageError("--" + name + " must be one of: " + list + " (got '" + v + "')");
}

void checkOutputPath(const std::string& path, const std::string& what, bool folder) {
    if (path.empty()) throw UsageError(what + ": empty output path (give the name of the file or folder to write)");
    if (path.find_first_not_of(" \t\r\n") == std::string::npos)
        throw UsageError(what + ": the output path '" + path + "' is only blanks");
    namespace fs = std::filesystem;
    std::error_code ec;
    if (folder) {   // report --output: a folder, made if missing (these said "filesystem error: ...")
        // The nearest part of the path that exists must be a folder; a link to nothing or a loop
        // of links on the way is named.
        for (fs::path p = path; !p.empty(); p = p.parent_path()) {
            const bool link = fs::is_symlink(fs::symlink_status(p, ec));
            (void)fs::status(p, ec);
            if (ec == std::errc::too_many_symbolic_link_levels) {
                fs::path loop = p;   // the outermost part that loops (loop/x loops through loop)
                for (fs::path q = p.parent_path(); !q.empty() && q != loop; q = q.parent_path()) {
                    (void)fs::status(q, ec);
                    if (ec != std::errc::too_many_symbolic_link_levels) break;
                    loop = q;
                }
                throw UsageError(what + " '" + path + "': " + loop.string() + " is a loop of symbolic links");
            }
            if (fs::exists(p, ec)) {
                if (!fs::is_directory(p, ec)) throw UsageError(what + " '" + path + "': " + p.string() + " is a file, not a folder");
                break;
            }
            if (link) throw UsageError(what + " '" + path + "': " + p.string() + " is a symbolic link to nothing");
            if (p == p.parent_path()) break;
        }
        return;
    }
    if (path.back() == '/' || (fs::is_directory(path, ec) && !ownDescriptorOf(path)))   // also through a link
        throw UsageError(what + " names a directory: '" + path + "' (give a file name)");
    // What the writer would refuse about the path itself, each of which ran the whole job first:
    // another process's descriptor, a loop of links, a descriptor of ours not open for writing,
    // a missing folder (also at the end of a link). One of our descriptors (/dev/stdout) is
    // written through whatever the file behind it is (its folder may be gone).
    try {
        checkWritableTarget(path);
    } catch (const std::exception& e) {
        throw std::invalid_argument(what + " " + e.what());
    }
}

std::string jsonText(const nlohmann::json& j) { return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace); }

void checkOutputPaths(const Args& a, const std::vector<std::string>& options, bool folders) {
    for (const std::string& o : options)
        if (const auto v = a.value(o)) checkOutputPath(*v, "--" + o, folders);
}

std::vector<std::string> splitList(const std::string& s, const std::string& option, char sep) {
    std::vector<std::string> out;
    if (s.empty()) return out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = s.find(sep, start);
        std::string item = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (item.empty())
            throw UsageError("--" + option + " has an empty item in '" + s + "' (items are separated by '" +
                             std::string(1, sep) + "')");
        out.push_back(std::move(item));
        if (end == std::string::npos) return out;
        start = end + 1;
    }
}

double parseNumber(const std::string& s, const std::string& option) {
    // Decimal only, as JSON writes numbers (stod also read "0x10" as 16), with spaces around
    // allowed (a list "0, 1" has them); -0 is 0 (a level printed as "-0").
    double v = 0.0;
    const char* begin = s.data();
    const char* end = s.data() + s.size();
    while (begin < end && *begin == ' ') ++begin;
    while (end > begin && end[-1] == ' ') --end;
    const auto [p, ec] = std::from_chars(begin, end, v, std::chars_format::general);
    if (begin == end || ec != std::errc() || p != end || !std::isfinite(v))
        throw UsageError("--" + option + " expects a number, got '" + s + "'");
    return v == 0.0 ? 0.0 : v;
}

namespace {
// from_chars takes no leading whitespace or '+', and base 10 takes no "0x": exactly the digits.
template <typename T>
bool parseWhole(const std::string& s, T& v) {
    const char* end = s.data() + s.size();
    const auto [p, ec] = std::from_chars(s.data(), end, v);
    return !s.empty() && ec == std::errc() && p == end;
}
}  // namespace

long long parseInteger(const std::string& s, const std::string& option, long long min, long long max) {
    long long v = 0;
    if (!parseWhole(s, v) || v < min || v > max)
        throw UsageError("--" + option + " expects a whole number from " + std::to_string(min) + " to " +
                         std::to_string(max) + ", got '" + s + "'");
    return v;
}

int intOption(const Args& a, const std::string& name, int fallback, int min, int max) {
    const auto v = a.value(name);
    return v ? static_cast<int>(parseInteger(*v, name, min, max)) : fallback;
}

std::uint64_t parseSeed(const std::string& s, const std::string& option) {
    std::uint64_t v = 0;
    if (!parseWhole(s, v))
        throw UsageError("--" + option + " expects a whole number from 0 to " +
                         std::to_string(std::numeric_limits<std::uint64_t>::max()) + ", got '" + s + "'");
    return v;
}

}  // namespace fdlab::cli
