#include "core/util/install_paths.h"

#include "fdlab_commit.h"   // generated at build time by core/util/source_commit.cmake

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <system_error>

namespace fdlab {

namespace fs = std::filesystem;

namespace {

bool isDir(const fs::path& p) {
    std::error_code ec;
    return !p.empty() && fs::is_directory(p, ec);
}

fs::path canonicalOrSelf(const fs::path& p) {
    std::error_code ec;
    fs::path c = fs::weakly_canonical(p, ec);
    return ec ? p.lexically_normal() : c;
}

// Any function of core: dladdr on it names the executable or shared object core was linked into.
void anchor() {}

const char* subdir(SharedFiles what) {
    switch (what) {
        case SharedFiles::Datasets: return "datasets";
        case SharedFiles::Presets: return "presets";
        case SharedFiles::Report: return "report";
        case SharedFiles::Lessons: return "lessons";
    }
    return "";
}

}  // namespace

InstallLayout currentLayout() {
    InstallLayout l;
    // The object core was linked into: a shared object (the Python module) has its path in its
    // link map; the main program's entry has an empty name (dladdr would give argv[0], which the
    // caller chooses: `exec -a /elsewhere/fdlab-cli`), so it is read from /proc/self/exe.
    Dl_info info{};
    void* extra = nullptr;
    if (dladdr1(reinterpret_cast<void*>(&anchor), &info, &extra, RTLD_DL_LINKMAP) && extra) {
        const auto* map = static_cast<const link_map*>(extra);
        if (map->l_name && *map->l_name) l.module = map->l_name;
    }
    std::error_code ec;
    if (l.module.empty()) l.module = fs::read_symlink("/proc/self/exe", ec);
    l.buildDir = FDLAB_BUILD_DIR;
    l.sourceDir = FDLAB_SOURCE_DIR;
    l.installShare = FDLAB_INSTALL_SHARE;
    return l;
}

bool runsFromBuildTree(const InstallLayout& layout) {
    if (layout.module.empty() || layout.buildDir.empty()) return false;
    const fs::path module = canonicalOrSelf(layout.module);
    const fs::path build = canonicalOrSelf(layout.buildDir);
    auto m = module.begin();
    for (auto b = build.begin(); b != build.end(); ++b, ++m) {
        if (b->empty()) continue;   // a trailing separator
        if (m == module.end() || *m != *b) return false;
    }
    return true;
}

fs::path sharedFilesDir(SharedFiles what, const InstallLayout& layout) {
    if (runsFromBuildTree(layout))
        return what == SharedFiles::Datasets ? layout.sourceDir / "datasets" : layout.sourceDir / "resources" / subdir(what);
    const fs::path installed = layout.installShare / subdir(what);
    if (isDir(layout.installShare) || layout.module.empty()) return installed;
    // A relocated install: <prefix>/bin/fdlab-cli next to <prefix>/share/fdlab.
    const fs::path relocated = (layout.module.parent_path() / ".." / "share" / "fdlab").lexically_normal();
    return isDir(relocated) ? relocated / subdir(what) : installed;
}

fs::path sharedFilesDir(SharedFiles what) {
    static const InstallLayout layout = currentLayout();
    return sharedFilesDir(what, layout);
}

std::string versionString() {
    std::string commit = FDLAB_SOURCE_COMMIT;
    return std::string(FDLAB_VERSION) + " (" + (commit.empty() ? std::string("unknown commit") : "commit " + commit) +
           ")";
}

}  // namespace fdlab
