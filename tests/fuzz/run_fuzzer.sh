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
# -timeout: one input may take 25 s (OSS-Fuzz's value). It was 60 s while a 20-byte LIBSVM file at
# the feature-index limit ("1 1:1\n-1 16777216:1") took ~25 s and 885 MB under ASan: 16.7 million
# default feature names were made per load. They are no longer stored; that input
# (corpus/libsvm/regression-feature-index-limit.libsvm) now takes 4.8 s and 462 MB, most of it the
# dense load of 2 x 2^24 values (within the densify limit) the harness also asks for.
args=(-max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -malloc_limit_mb=1024
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
