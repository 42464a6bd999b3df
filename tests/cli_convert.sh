#!/usr/bin/env bash
# fdlab-cli convert and the NumPy loaders end to end (issue 27): numpy/scipy write X.npy + y.npy
# and a sparse .npz, FDLab loads them (info); convert writes LIBSVM, CSV and npz, and every
# round trip gives the same data (convert A -> npz -> libsvm == convert A -> libsvm, byte for
# byte); numpy and scipy read FDLab's npz with the same values; a text corpus of mbox files
# stays sparse. Bad input: exit 3 with one line naming the file, usage mistakes exit 2.
# run --tex/--table write a pgfplots figure and a booktabs table with the provenance header.
# usage: cli_convert.sh FDLAB-CLI TEST-DATA-DIR
set -euo pipefail
CLI=$1
DATA=$2
PY=/usr/bin/python3
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
fail() { echo "FAIL: $*"; exit 1; }
$PY -c 'import numpy, scipy.sparse' || fail "/usr/bin/python3 with numpy and scipy is needed (Debian python3-numpy, python3-scipy)"

# -- numpy and scipy write, FDLab reads ----------------------------------------------------------
$PY - <<'PY'
import numpy as np, scipy.sparse as sp
X = np.array([[0, 1.5, 0, 0], [2, 0, 0, -1], [0, 0, 3, 0], [4, 0, 0, 0.25]])
np.save('X.npy', np.asfortranarray(X.astype('>f8'))); np.save('y.npy', np.array(['b', 'a', 'b', 'a']))
sp.save_npz('S.npz', sp.csc_matrix(X)); np.save('labels.npy', np.array([1, 0, 1, 0]))
PY
out=$("$CLI" info X.npy --format json)
grep -q '"instances": 4' <<<"$out" || fail "info X.npy: $out"
grep -q '"features": 4' <<<"$out" || fail "info X.npy: $out"
out=$("$CLI" info S.npz --labels labels.npy --format json)
grep -q '"instances": 4' <<<"$out" || fail "info S.npz: $out"

# -- round trips: every route to LIBSVM gives the same bytes -------------------------------------
"$CLI" convert X.npy --to libsvm ref.libsvm
"$CLI" convert X.npy --to npz x.npz
"$CLI" convert x.npz --to libsvm via_npz.libsvm
"$CLI" convert X.npy --to csv x.csv
"$CLI" convert x.csv --to libsvm via_csv.libsvm
cmp ref.libsvm via_npz.libsvm || fail "npy -> npz -> libsvm differs from npy -> libsvm"
cmp ref.libsvm via_csv.libsvm || fail "npy -> csv -> libsvm differs from npy -> libsvm"
"$CLI" convert S.npz --labels labels.npy --to npz s.npz
"$CLI" convert s.npz --to libsvm s.libsvm
"$CLI" convert S.npz --labels labels.npy --to libsvm s_ref.libsvm
cmp s.libsvm s_ref.libsvm || fail "sparse npz -> npz -> libsvm differs"
$PY - <<'PY'
import numpy as np, scipy.sparse as sp
X = np.array([[0, 1.5, 0, 0], [2, 0, 0, -1], [0, 0, 3, 0], [4, 0, 0, 0.25]], dtype=np.float32)
d = np.load('x.npz', allow_pickle=False)
assert np.array_equal(d['X'], X), d['X']
assert list(d['y']) == ['b', 'a', 'b', 'a'], d['y']
PY

# -- a text corpus of mbox files: sparse all the way, readable by scipy -------------------------
mkdir corpus
for c in ham spam; do
  for k in 1 2 3; do
    printf 'From someone Thu Nov 26 10:00:00 2026\nSubject: %s message %s\n\nshared words here %s and more %s text\n>From the escaped line\n\n' \
      "$c" "$k" "$c" "$c" >>corpus/$c.mbox
  done
done
"$CLI" convert corpus --to npz corpus.npz 2>conv.txt
grep -q "sparse" conv.txt || fail "corpus not written sparse: $(cat conv.txt)"
"$CLI" convert corpus --to libsvm corpus.libsvm
"$CLI" convert corpus.npz --to libsvm corpus_via.libsvm 2>conv.txt
grep -q "sparse" conv.txt || fail "corpus.npz not loaded sparse: $(cat conv.txt)"
cmp corpus.libsvm corpus_via.libsvm || fail "corpus -> npz -> libsvm differs from corpus -> libsvm"
$PY - <<'PY'
import numpy as np, scipy.sparse as sp
m = sp.load_npz('corpus.npz')
z = np.load('corpus.npz', allow_pickle=False)
names = list(z['feature_names'])
assert m.shape == (6, len(names)), (m.shape, names)
assert 'shared' in names and 'escaped' in names, names
assert list(z['y']) == ['ham'] * 3 + ['spam'] * 3, z['y']
row = m.getrow(0).toarray().ravel()
assert row[names.index('ham')] == 1 and row[names.index('spam')] == 0
PY

# -- bad input: 3 and one line naming the file; usage: 2; nothing written -------------------------
expect() {   # expect RC WORD command...
  local want=$1 word=$2
  shift 2
  local rc=0
  "$@" 2>err.txt >/dev/null || rc=$?
  [ "$rc" = "$want" ] || fail "exit $rc (want $want): $* ($(cat err.txt))"
  # Bad input: one line; usage mistakes add a second line pointing to --help.
  [ "$(wc -l <err.txt)" = $((want == 3 ? 1 : 2)) ] || fail "not the expected line count: $(cat err.txt)"
  grep -qF -- "$word" err.txt || fail "error does not name $word: $(cat err.txt)"
}
head -c 100 X.npy >bad_X.npy
cp y.npy bad_y.npy
expect 3 bad_X.npy "$CLI" convert bad_X.npy --to npz out.npz
expect 3 bad_X.npy "$CLI" info bad_X.npy
printf 'not a zip' >broken.npz
expect 3 broken.npz "$CLI" convert broken.npz --to csv out.csv
expect 3 nolabels.npy "$CLI" info S.npz --labels nolabels.npy
expect 2 "--to" "$CLI" convert X.npy out.npz
expect 2 "--to" "$CLI" convert X.npy --to xml out.xml
expect 2 "OUT" "$CLI" convert X.npy --to npz
[ ! -e out.npz ] && [ ! -e out.csv ] || fail "a failed convert wrote a file"

# -- run --tex / --table -----------------------------------------------------------------------
"$CLI" run globerson-toy --repetitions 1 --quiet --format csv --tex fig.tex --table table.tex --csv c.csv >/dev/null
head -1 fig.tex | grep -q '^% fdlab: ' || fail "figure has no provenance header"
grep -q '^% data_fingerprint: [0-9a-f]\{16\}$' fig.tex || fail "figure has no data fingerprint"
grep -q '^% host: ' table.tex || fail "table has no host"
grep -q '^# cpu: ' c.csv || fail "CSV has no CPU model"
grep -q '\\begin{axis}' fig.tex && grep -q '\\addplot' fig.tex || fail "figure has no axis/plot"
grep -q '\\toprule' table.tex && grep -q '\\pm' table.tex || fail "table has no booktabs rules or mean +- se"
if command -v pdflatex >/dev/null && kpsewhich standalone.cls pgfplots.sty booktabs.sty | grep -c . | grep -q 3; then
  pdflatex -interaction=nonstopmode -halt-on-error fig.tex >/dev/null || fail "pdflatex fig.tex failed"
  printf '\\documentclass{article}\\usepackage{booktabs}\\begin{document}\\input{table.tex}\\end{document}\n' >doc.tex
  pdflatex -interaction=nonstopmode -halt-on-error doc.tex >/dev/null || fail "pdflatex of the table failed"
  echo "cli_convert: pdflatex compiled the figure and the table"
else
  echo "cli_convert: pdflatex (with pgfplots, standalone, booktabs) not installed; checked the files' structure"
fi
echo "cli_convert: OK"
