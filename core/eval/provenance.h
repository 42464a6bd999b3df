#pragma once
// The provenance record every results file and export carries: which FDLab (version and source
// commit), what was run (the full spec, its seed), on which data (a fingerprint of the data the
// run used: dataFingerprint of core/eval/sharding.h), and where (thread count, host name, CPU
// model). No time stamp: the same run on the same machine writes the same file, and a merged
// sharded run the single run's record (threads aside).
//
// JSON ("provenance" in a results file; the spec is the file's top-level "spec"):
//   {"fdlab": "0.1.0 (commit 1a2b3c4)", "seed": 1,
//    "data_fingerprint": "0123456789abcdef", "threads": 2, "host": "lab-3",
//    "cpu": "Intel(R) Xeon(R) ...", "spec": {...}}
// Text (comment headers of CSV and LaTeX files): one "key: value" line each, the spec as
// compact JSON on one line. Results files written before the record have none; they load as
// before and get no record invented for them.

#include "core/eval/experiment_spec.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace fdlab {

/// A record for a run of `spec` on `threads` threads, on this machine, now. `dataFingerprint`
/// is empty when the data is not at hand (it is then left out).
nlohmann::json makeProvenance(const ExperimentSpec& spec, int threads, const std::string& dataFingerprint);

/// The record as "key: value" lines (no comment characters; the caller adds "% " or "# ").
/// Every line is free of line breaks.
std::vector<std::string> provenanceLines(const nlohmann::json& provenance);

/// This machine's host name and CPU model ("unknown" when they cannot be read).
std::string hostName();
std::string cpuModel();

}  // namespace fdlab
