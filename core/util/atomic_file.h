#pragma once
// Atomic file writes: write to "PATH.tmp-XXXX" in the same directory, flush, fsync, rename over
// PATH. A reader never sees a half-written file, and a failed write leaves the old file intact.

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
