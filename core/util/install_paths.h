#pragma once
// Where FDLab finds its shared files (bundled datasets, presets, lessons, the reproduction
// report). A program or Python module that was built in a build tree and is run from it reads
// the source tree those files live in; an installed one (the .deb: /usr/bin/fdlab-cli,
// /usr/lib/python3/dist-packages/fdlab*.so) reads <prefix>/share/fdlab, whether or not the
// source tree it was built from still exists. Environment overrides: $FDLAB_DATA_DIR for the
// datasets directory, $FDLAB_PRESETS_DIR for the presets directory (see their callers).

#include <filesystem>
#include <string>

namespace fdlab {

enum class SharedFiles { Datasets, Presets, Report, Lessons };

/// Paths a running binary knows about itself (compiled in, plus where its code was loaded from).
struct InstallLayout {
    std::filesystem::path module;       ///< the executable or shared object holding FDLab's code
    std::filesystem::path buildDir;     ///< the build tree it was compiled in (CMAKE_BINARY_DIR)
    std::filesystem::path sourceDir;    ///< the source tree (CMAKE_SOURCE_DIR)
    std::filesystem::path installShare; ///< <CMAKE_INSTALL_PREFIX>/share/fdlab
};

/// This process's layout (module found with dladdr on core's own code).
InstallLayout currentLayout();

/// True when `layout.module` lies inside `layout.buildDir` (a developer's or CI's build tree).
bool runsFromBuildTree(const InstallLayout& layout);

/// The directory holding `what` for `layout`: in the build tree the source tree's datasets/ or
/// resources/<presets|report|lessons>; installed, installShare/<datasets|presets|report|lessons>,
/// or, when the compiled prefix holds no FDLab (a relocated install), <module dir>/../share/fdlab/...
std::filesystem::path sharedFilesDir(SharedFiles what, const InstallLayout& layout);
std::filesystem::path sharedFilesDir(SharedFiles what);

/// "0.1.0 (commit 1a2b3c4)" or "0.1.0 (commit 1a2b3c4, modified)": the version and the source
/// commit the binary was built from ("unknown commit" outside a git checkout).
std::string versionString();

}  // namespace fdlab
