#pragma once
// Minimal argument parsing for fdlab-cli: "--name value", "--name=value", "--flag", positionals.

#include "core/util/run_control.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <stdexcept>
#include <stop_token>
#include <thread>
#include <string>
#include <vector>

namespace fdlab::cli {

/// Exit codes of fdlab-cli.
enum ExitCode { Ok = 0, Usage = 2, BadInput = 3, Cancelled = 4 };

/// Thrown for command-line mistakes (exit code 2).
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// While alive, Ctrl-C (and with alsoTerm, SIGTERM, e.g. Slurm's time limit) requests a stop
/// of the running job through token() instead of killing the process.
class InterruptGuard {
public:
    explicit InterruptGuard(bool alsoTerm = false);
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;
    std::stop_token token() const { return m_source.get_token(); }

private:
    std::stop_source m_source;
    std::jthread m_watch;
    bool m_term = false;
    void (*m_oldInt)(int) = nullptr;
    void (*m_oldTerm)(int) = nullptr;
};

/// Progress of a long run on stderr: a bar on a terminal, one line per 10% otherwise, nothing
/// when quiet. Thread-safe; finish() ends the bar's line.
class StderrProgress {
public:
    explicit StderrProgress(bool quiet);
    void operator()(const Progress& p);
    void finish();

private:
    bool m_quiet = false, m_tty = false;
    int m_lastDecile = -1;
    std::mutex m_mu;
};

class Args {
public:
    /// `valued` lists the options that take a value; every other "--x" is a flag. Unknown
    /// options (in neither list) and a valued option given twice are a UsageError (no option is
    /// repeatable: lists are one comma-separated value); a repeated flag is the flag.
    Args(const std::vector<std::string>& argv, const std::set<std::string>& valued,
         const std::set<std::string>& flags);

    const std::vector<std::string>& positional() const { return m_positional; }
    bool has(const std::string& name) const { return m_values.count(name) || m_flags.count(name); }
    std::optional<std::string> value(const std::string& name) const;
    std::string value(const std::string& name, const std::string& fallback) const;
    /// One of `allowed`, else UsageError naming the option.
    std::string choice(const std::string& name, const std::vector<std::string>& allowed,
                       const std::string& fallback) const;

private:
    std::vector<std::string> m_positional;
    std::map<std::string, std::string> m_values;
    std::set<std::string> m_flags;
};

/// The plain mistakes in a file to write, before any work is spent (a run used to finish and
/// only then say "d/: is a directory"): an empty or all-blank path or one naming a directory
/// (also through symbolic links) is a UsageError, a folder that does not exist (for a link: at
/// the end of its chain) std::invalid_argument; both name `what` ("--csv", "OUT"). `folder`: the
/// path is a folder to write into, made if missing (report --output): a file there is a UsageError.
void checkOutputPath(const std::string& path, const std::string& what, bool folder = false);
/// A JSON document as the CLI prints and writes it (indent 2). Bytes that are not UTF-8 (a data
/// folder's name) are written as U+FFFD: the dump threw after the run ("invalid UTF-8 byte").
std::string jsonText(const nlohmann::json& j);
/// checkOutputPath for each of `options` that is given (files, or with `folders` folders).
void checkOutputPaths(const Args& a, const std::vector<std::string>& options, bool folders = false);
/// The items of a `sep`-separated list given to --option: none for "", else every item must be
/// non-empty ("0,,1" and "a," are a UsageError naming the option, not silently shortened).
std::vector<std::string> splitList(const std::string& s, const std::string& option, char sep = ',');
/// A finite number, else UsageError naming --option.
double parseNumber(const std::string& s, const std::string& option);
/// A whole number in [min, max] written as decimal digits with an optional leading '-'; else
/// UsageError naming --option ("2.7", "0x3", "1e3", " 3", "+3" are refused, not truncated).
long long parseInteger(const std::string& s, const std::string& option, long long min, long long max);
/// parseInteger for an int option: --name's value, or `fallback` when it is not given.
int intOption(const Args& a, const std::string& name, int fallback, int min, int max = 1000000000);
/// A seed: decimal digits, 0 .. 2^64 - 1 (no sign, so "-1" is refused, not wrapped).
std::uint64_t parseSeed(const std::string& s, const std::string& option);

}  // namespace fdlab::cli
