#!/usr/bin/env bash
# Line coverage of core/text and core/data reached by the fuzz corpora (issue 29), with clang's
# source-based coverage (llvm-cov). Builds the harnesses once more with
# -fprofile-instr-generate -fcoverage-mapping in BUILD_DIR (FDLAB_FUZZ=ON: clang, ASan, UBSan),
# replays every corpus through its harness once (libFuzzer -runs=0: no mutation, each input runs
# exactly once), merges the profiles and prints llvm-cov's report for core/text and core/data.
#
# Usage: tests/fuzz/coverage.sh [BUILD_DIR] [GROWN_CORPORA_DIR]
#   BUILD_DIR          default build-cov (relative to the source tree)
#   GROWN_CORPORA_DIR  optional: a directory with one sub-directory per format (fuzz_csv -> csv/),
#                      e.g. the KEEP_DIR of run_fuzzer.sh runs, replayed in addition to the seeds
# Needs clang-14, llvm-14 (llvm-profdata-14, llvm-cov-14) and libclang-rt-14-dev (Debian 12).
# Output: BUILD_DIR/coverage/report.txt (per file and total), BUILD_DIR/coverage/merged.profdata.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build-cov}
grown=${2:-}
case $build in /*) ;; *) build=$src/$build ;; esac
llvm=/usr/lib/llvm-14/bin
for tool in clang++ llvm-profdata llvm-cov; do
  [ -x "$llvm/$tool" ] || { echo "coverage.sh: $llvm/$tool missing (apt-get install clang-14 llvm-14)" >&2; exit 2; }
done

flags="-fprofile-instr-generate -fcoverage-mapping"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$llvm/clang++" -DFDLAB_FUZZ=ON \
      -DFDLAB_BUILD_BENCH=OFF -DFDLAB_BUILD_UI=OFF -DCMAKE_CXX_FLAGS="$flags" \
      -DCMAKE_EXE_LINKER_FLAGS="-fprofile-instr-generate" > /dev/null
cmake --build "$build" -j"$(nproc)" --target fdlab_fuzzers

out=$build/coverage
rm -rf "$out"
mkdir -p "$out/profiles"
export ASAN_OPTIONS=detect_leaks=0
objects=()
for harness in "$build"/tests/fuzz/fuzz_*; do
  [ -f "$harness" ] && [ -x "$harness" ] || continue   # not the *_autogen directories
  name=$(basename "$harness")
  format=${name#fuzz_}
  dirs=("$src/tests/fuzz/corpus/$format")
  [ -n "$grown" ] && [ -d "$grown/$format" ] && dirs+=("$grown/$format")
  inputs=$(find "${dirs[@]}" -type f | wc -l)
  # Inputs are written to a scratch TMPDIR by the harnesses (fuzz_input.h).
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/fdlab-cov.XXXXXX")
  LLVM_PROFILE_FILE="$out/profiles/$name-%p.profraw" TMPDIR=$scratch \
    "$harness" -runs=0 -timeout=120 -rss_limit_mb=4096 "${dirs[@]}" > "$out/$name.log" 2>&1 ||
    { echo "coverage.sh: $name failed on its corpus, see $out/$name.log" >&2; rm -rf "$scratch"; exit 1; }
  rm -rf "$scratch"
  echo "$name: replayed $inputs inputs"
  objects+=(-object "$harness")
done
"$llvm/llvm-profdata" merge -sparse "$out"/profiles/*.profraw -o "$out/merged.profdata"
# The first -object is the binary argument; the rest add their coverage mappings.
"$llvm/llvm-cov" report "${objects[@]:1}" -instr-profile "$out/merged.profdata" \
  "$src/core/text" "$src/core/data" | sed "s|$src/||" | tee "$out/report.txt"
