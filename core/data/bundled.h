#pragma once
// The datasets shipped in datasets/ (see datasets/README.md for provenance and licences) and
// the synthetic generators, as one catalogue for the CLI and the GUI.

#include "core/data/dataset.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fdlab {

struct BundledInfo {
    std::string name;          ///< key used by the CLI and experiment files, e.g. "mnist"
    std::string title;         ///< e.g. "MNIST digits (10,000 test digits)"
    std::string files;         ///< file(s) under the datasets directory, or "generator"
    std::string licence;
    bool synthetic = false;
};

/// The datasets directory: $FDLAB_DATA_DIR if set, else the source tree's datasets/ for a
/// binary run from its build tree, else <prefix>/share/fdlab/datasets (core/util/install_paths.h).
std::string datasetsDir();

/// Every bundled file dataset and generator, in a stable order.
std::vector<BundledInfo> bundledDatasets();

/// Loads a bundled dataset by name (generators with their default size and seed 1).
/// Throws std::invalid_argument for an unknown name, DataError for a broken file.
Dataset loadBundled(const std::string& name);

/// Whether `name` is one of the generator entries (false for files and unknown names).
bool isBundledGenerator(const std::string& name);
/// The generator entry `name` at its default size, drawn from `seed` (loadBundled = seed 1).
/// Throws std::invalid_argument for an unknown name or a file dataset.
Dataset generateBundled(const std::string& name, std::uint64_t seed);

}  // namespace fdlab
