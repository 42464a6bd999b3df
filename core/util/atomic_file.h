#pragma once
// Atomic file writes: write to "PATH.tmp-XXXX" in the same directory, flush, fsync, rename over
// PATH. A reader never sees a half-written file, and a failed write leaves the old file intact.
// What PATH is decides the rest: a symbolic link stays and the file at its end is replaced (with
// that file's mode); a character device or pipe (/dev/null, a shell's >(...)) is written
// straight through, and so is this process's own descriptor (/dev/stdout, /dev/fd/N, any path
// into /proc/PID/fd: written through the descriptor, after what stdout already holds); a directory,
// block device or socket is an error. (A rename used to replace
// any of them by a regular file: as root, `--output /dev/null` turned /dev/null into one.)

#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace fdlab {

/// Calls write(stream) on a temporary file, then renames it to `path`. Throws
/// std::runtime_error naming the path if anything fails (the temporary file is removed), and
/// std::invalid_argument for an empty path.
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write);

/// Whether writeFileAtomically(path) would make or replace a regular file (true also when path
/// does not exist yet), rather than write through a device, pipe or this process's descriptor.
/// A writer that puts companion files beside `path` (OUT.classes) asks this first.
bool isRegularFileTarget(const std::string& path);

/// The descriptor of this process that `path` names (/dev/stdout: 1, /dev/fd/N, ...), through
/// any symbolic links; empty for any other path. A command that writes its report to stdout
/// sends it to stderr when its output file is stdout (the report ended up inside the JSON).
std::optional<int> ownDescriptorOf(const std::string& path);

/// What writeFileAtomically(path) would refuse about the path itself, found before any data is
/// made (a command checks its output first): another process's descriptor, a chain of more than
/// 40 links, a descriptor of this process that is not open or open for reading only, a file (at
/// the end of its links) whose folder does not exist. Throws std::invalid_argument or
/// std::runtime_error naming the path.
void checkWritableTarget(const std::string& path);

/// Convenience for a whole buffer.
void writeFileAtomically(const std::string& path, const std::string& contents);

}  // namespace fdlab
