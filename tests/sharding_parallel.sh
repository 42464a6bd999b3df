#!/usr/bin/env bash
# The README's GNU parallel recipe, end to end: plan, 4 shards under `parallel`, merge; the
# merged file must equal a single-process run byte for byte once the timing fields
# (elapsed_seconds, threads, train_seconds) are blanked. Also the CLI's bad-input exits (3, one
# line, nothing written).
# usage: sharding_parallel.sh FDLAB-CLI [PRESET]
set -euo pipefail
CLI=$1
PRESET=${2:-featureboost-threshold}
N=4
command -v parallel >/dev/null || { echo "GNU parallel is not installed (Debian package 'parallel')"; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
fail() { echo "FAIL: $*"; exit 1; }
# Timing fields blanked: the only lines that may differ between a merged and a single run.
normalise() { sed -E 's/^( *"(elapsed_seconds|threads|train_seconds)": )[^,]*/\1T/' "$1"; }

# -- the recipe (as in README.md) -----------------------------------------------------------
"$CLI" plan "$PRESET" --shards $N
parallel --will-cite --halt now,fail=1 -j2 \
  "$CLI" run "$PRESET" --shard {}/$N --threads 1 --quiet --output part-{}.json ::: $(seq 0 $((N - 1)))
"$CLI" merge part-*.json --output results.json --csv curves.csv

# -- the single-process reference -----------------------------------------------------------
"$CLI" run "$PRESET" --quiet --format csv --output single.json --csv single.csv >/dev/null
cmp <(normalise single.json) <(normalise results.json) || {
  diff <(normalise single.json) <(normalise results.json) | head -20
  fail "merged results differ from the single-process run"
}
# The '#' provenance header names the thread counts, which differ; the table must not.
cmp <(grep -v '^#' single.csv) <(grep -v '^#' curves.csv) || fail "merged curves CSV differs"
[ "$(normalise results.json | grep -cE '": T,?$')" -gt 0 ] || fail "normalisation matched nothing"

# -- bad input: exit 3, one line, nothing written --------------------------------------------
expect3() {   # expect3 OUTPUT-THAT-MUST-NOT-EXIST WORD-IN-ERROR command...
  local out=$1 word=$2
  shift 2
  local rc=0
  "$@" 2>err.txt >/dev/null || rc=$?
  [ "$rc" = 3 ] || fail "exit $rc (want 3): $* ($(cat err.txt))"
  [ "$(wc -l <err.txt)" = 1 ] || fail "not one line: $(cat err.txt)"
  grep -qF -- "$word" err.txt || fail "error does not name $word: $(cat err.txt)"
  [ ! -e "$out" ] || fail "$out was written"
}
# (a malformed --shard, 4/4 or 0/0, and plan --shards 0 are usage errors, exit 2: tests/cli_smoke.cmake)
head -c 2000 part-1.json >truncated.json
expect3 m.json truncated.json "$CLI" merge part-0.json truncated.json part-2.json part-3.json --output m.json
"$CLI" run "$PRESET" --repetitions 7 --shard 1/$N --quiet --output other.json   # 7: no preset here has 7
expect3 m.json other.json "$CLI" merge part-0.json other.json part-2.json part-3.json --output m.json
sed 's/"fdlab_version": "[^"]*"/"fdlab_version": "0.0.0"/' part-2.json >oldversion.json
expect3 m.json oldversion.json "$CLI" merge part-0.json part-1.json oldversion.json part-3.json --output m.json
# the first point's error changed: the same task twice with different numbers
sed -E '0,/"error": [-0-9.e]+/s//"error": 0.987654321/' part-3.json >changed.json
cmp -s part-3.json changed.json && fail "could not edit a point"
expect3 m.json changed.json "$CLI" merge part-0.json part-1.json part-2.json part-3.json changed.json --output m.json
expect3 m.json "--shard 2/$N" "$CLI" merge part-0.json part-1.json part-3.json --output m.json
echo "sharding_parallel: OK ($N shards of $PRESET merged equal to the single run)"
