#!/usr/bin/env bash
# Runs one libFuzzer harness for a bounded time on a scratch copy of its seed corpus (so new
# inputs never land in the source tree). Exit status: 0 when nothing was found; otherwise
# libFuzzer's (crash, sanitizer report, leak, timeout, out-of-memory), after printing the input.
# Usage: run_fuzzer.sh HARNESS CORPUS_DIR DICT_FILE SECONDS [KEEP_DIR]
# KEEP_DIR (optional): the grown corpus is copied there at the end (for coverage.sh).
set -euo pipefail
harness=$1 corpus=$2 dict=$3 seconds=$4 keep=${5:-}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/fdlab-fuzz-run.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/corpus" "$scratch/artifacts"
cp -r "$corpus"/. "$scratch/corpus/"
# -timeout: one input may take up to 60 s. A 20-byte LIBSVM file at the documented feature-index
# limit ("1 1:1\n-1 16777216:1", 2^24 features, each with a name and an importance) takes about
# 25 s under ASan in fuzz_libsvm (loaded sparse and dense); CI's first clean-clone run reported it
# as a timeout at the former 10 s. Linear in the limit, within memory; the names are the cost.
args=(-max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 -malloc_limit_mb=1024
      -print_final_stats=1 -artifact_prefix="$scratch/artifacts/")
[ -f "$dict" ] && args+=(-dict="$dict")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TMPDIR=$scratch
status=0
"$harness" "${args[@]}" "$scratch/corpus" 2>"$scratch/log" || status=$?
grep -E "^(#[0-9]+ +(INITED|DONE)|stat::|Done )" "$scratch/log" || true
echo "corpus: $(ls "$corpus" | wc -l) seeds -> $(ls "$scratch/corpus" | wc -l) inputs, $(du -sk "$scratch/corpus" | cut -f1) KB"
if [ -n "$keep" ]; then mkdir -p "$keep" && cp -r "$scratch"/corpus/. "$keep"/; fi
if [ "$status" -ne 0 ]; then
  tail -n 60 "$scratch/log"
  for a in "$scratch"/artifacts/*; do
    [ -f "$a" ] || continue
    echo "== finding $(basename "$a") ($(stat -c %s "$a") bytes), base64:"
    head -c 4096 "$a" | base64 -w 100
  done
fi
[ "$status" -eq 0 ] || cp "$scratch"/artifacts/* . 2>/dev/null || true   # kept next to the test (build/tests/fuzz)
exit "$status"
