#pragma once
// Atomic file writes: write to "PATH.tmp-XXXX" in the same directory, flush, fsync, rename over
// PATH. A reader never sees a half-written file, and a failed write leaves the old file intact.
// What PATH is decides the rest: a symbolic link stays and the file at its end is replaced (with
// that file's mode); a character device or pipe (/dev/null, /dev/stdout, >(...)) is written
// straight through; a directory, block device or socket is an error. (A rename used to replace
// any of them by a regular file: as root, `--output /dev/null` turned /dev/null into one.)

#include <functional>
#include <ostream>
#include <string>

namespace fdlab {

/// Calls write(stream) on a temporary file, then renames it to `path`. Throws
/// std::runtime_error naming the path if anything fails (the temporary file is removed).
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write);

/// Convenience for a whole buffer.
void writeFileAtomically(const std::string& path, const std::string& contents);

}  // namespace fdlab
