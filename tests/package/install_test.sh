#!/usr/bin/env bash
# The Debian package, as a user gets it (issue 28): build fdlab_<version>_amd64.deb, check it with
# lintian, install it with apt-get, run the programs and the Python module from an empty directory
# outside the tree, check the menu entry, MIME type and man pages are registered, then purge it
# and check nothing of it is left. It changes the system, so it runs only when asked:
#   FDLAB_PACKAGE_TEST=1 ctest --test-dir build -L package      (as root; .ci/run does this)
# Otherwise it exits 77, which ctest reports as skipped.
# Usage: install_test.sh BUILD_DIR
set -euo pipefail

if [ "${FDLAB_PACKAGE_TEST:-0}" != 1 ] || [ "$(id -u)" -ne 0 ]; then
  echo "package test: skipped (set FDLAB_PACKAGE_TEST=1 and run as root; it installs and purges fdlab)"
  exit 77
fi
build=$(cd "$1" && pwd)
t0=$(date +%s)
step() { printf 'package test [%3ss]: %s\n' "$(( $(date +%s) - t0 ))" "$*"; }
fail() { echo "package test: FAIL: $*" >&2; exit 1; }

if dpkg-query -W -f='${Status}' fdlab 2>/dev/null | grep -q "install ok installed"; then
  fail "fdlab is already installed; purge it first (apt-get purge -y fdlab)"
fi

step "building the package"
rm -f "$build"/fdlab_*.deb
cmake --build "$build" --target package -j"$(nproc)" > "$build/package-build.log" 2>&1 \
  || { tail -30 "$build/package-build.log"; fail "cmake --build --target package"; }
debs=("$build"/fdlab_*_amd64.deb)
[ -f "${debs[0]}" ] || fail "no fdlab_*_amd64.deb in $build"
deb=${debs[0]}
step "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB, $(dpkg-deb -c "$deb" | wc -l) entries"
dpkg-deb -f "$deb" Depends

step "lintian"
lintian_out=$(lintian --tag-display-limit 0 "$deb" 2>&1 || true)
printf '%s\n' "$lintian_out"
if printf '%s\n' "$lintian_out" | grep -q '^E: '; then fail "lintian reports errors"; fi

work=$(mktemp -d /tmp/fdlab-package-test.XXXXXX)
cleanup() {
  if dpkg-query -W -f='${Status}' fdlab 2>/dev/null | grep -q "install ok"; then
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq fdlab > /dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

step "apt-get install"
cp "$deb" "$work/"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$work/$(basename "$deb")" \
  > "$work/apt.log" 2>&1 || { tail -20 "$work/apt.log"; fail "apt-get install"; }

cd "$work"
mkdir run && cd run
unset FDLAB_DATA_DIR FDLAB_PRESETS_DIR PYTHONPATH
[ "$(command -v fdlab-cli)" = /usr/bin/fdlab-cli ] || fail "fdlab-cli is not /usr/bin/fdlab-cli"
[ "$(command -v fdlab)" = /usr/bin/fdlab ] || fail "fdlab is not /usr/bin/fdlab"

step "fdlab-cli --version"
version=$(fdlab-cli --version)
echo "$version"
[[ "$version" =~ ^fdlab-cli\ [0-9]+\.[0-9]+\.[0-9]+\ \((commit\ [0-9a-f]+|unknown\ commit) ]] \
  || fail "fdlab-cli --version prints '$version'"

step "the installed programs read /usr/share/fdlab, not the source tree"
fdlab-cli datasets | head -1 | grep -qx "Bundled datasets in /usr/share/fdlab/datasets" \
  || fail "fdlab-cli datasets: $(fdlab-cli datasets | head -1)"

step "fdlab-cli report --presets globerson-toy"
timeout 300 fdlab-cli report --presets globerson-toy --output report > report.log 2>&1 \
  || { tail -20 report.log; fail "fdlab-cli report"; }
[ -s report/report.md ] && [ -s report/report.json ] && [ -s report/globerson-toy.png ] \
  || fail "report files missing: $(ls report)"
grep -q "globerson-toy" report/report.md || fail "report.md does not name the preset"

# Debian's interpreter, the one the package's module is built for (a pyenv python3 may come first
# on the PATH).
step "/usr/bin/python3 -c 'import fdlab'"
/usr/bin/python3 - <<'PY' || fail "the Python module"
import fdlab, numpy as np
assert fdlab.__file__.startswith("/usr/lib/python3/dist-packages/"), fdlab.__file__
X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.1], [0.1, 1.0]])
y = np.array(["a", "b", "a", "b"])
m = fdlab.train("svm", X, y)
p = list(m.predict(X))
assert p == ["a", "b", "a", "b"], p
print("import fdlab:", fdlab.__file__, "predictions", p)
# the package's pure-Python parts (python3-sklearn is a Recommends; .ci/setup.sh installs it)
import pickle
import fdlab.sklearn
assert fdlab.sklearn.__file__.startswith("/usr/lib/python3/dist-packages/fdlab/"), fdlab.sklearn.__file__
est = fdlab.sklearn.FDROPClassifier(K=1).fit(X, y)
q = list(est.predict(X))   # FDROP's own predictions (not the SVM's: K = 1 deletes a point's one feature)
assert list(pickle.loads(pickle.dumps(est)).predict(X)) == q, q
m = fdlab.Model.linear(est.coef_[0], est.intercept_[0], class_names=est.classes_)
assert list(m.predict(X)) == q, (list(m.predict(X)), q)
print("import fdlab.sklearn:", fdlab.sklearn.__file__)
PY

step "fdlab --screenshot under Xvfb"
timeout 300 xvfb-run -a -s "-screen 0 1280x800x24" fdlab --screenshot shot.png > gui.log 2>&1 \
  || { tail -20 gui.log; fail "fdlab --screenshot"; }
python3 - <<'PY' || fail "the screenshot is not a real window picture"
import struct
with open("shot.png", "rb") as f:
    head = f.read(24)
assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", head[16:24])
assert w >= 640 and h >= 400, (w, h)
print(f"screenshot {w}x{h}")
PY

step "menu entry, MIME type, icon, metainfo, man pages"
desktop-file-validate /usr/share/applications/org.fdlab.FDLab.desktop || fail "desktop-file-validate"
grep -q "^application/x-fdlab-experiment=.*org.fdlab.FDLab.desktop" /usr/share/applications/mimeinfo.cache \
  || fail "the MIME type is not in mimeinfo.cache (update-desktop-database did not run?)"
grep -q "application/x-fdlab-experiment:\*\.fdlab\.json" /usr/share/mime/globs2 \
  || fail "*.fdlab.json is not in /usr/share/mime/globs2 (update-mime-database did not run?)"
echo '{}' > lesson.fdlab.json
if command -v xdg-mime > /dev/null; then
  [ "$(xdg-mime query default application/x-fdlab-experiment)" = org.fdlab.FDLab.desktop ] \
    || fail "xdg-mime query default application/x-fdlab-experiment: $(xdg-mime query default application/x-fdlab-experiment)"
fi
[ -f /usr/share/icons/hicolor/scalable/apps/org.fdlab.FDLab.svg ] || fail "icon missing"
appstreamcli validate --no-net /usr/share/metainfo/org.fdlab.FDLab.metainfo.xml || fail "appstreamcli validate"
for page in fdlab fdlab-cli; do
  zcat "/usr/share/man/man1/$page.1.gz" | grep -qi "^\.TH $page \"1\"" || fail "man page $page.1.gz: its .TH line does not name the program"
done
zcat /usr/share/man/man1/fdlab-cli.1.gz | grep -q '^\.SS report' || fail "fdlab-cli.1 lacks the report subcommand"

step "apt-get purge"
files=$(dpkg -L fdlab | sort)
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq fdlab > "$work/purge.log" 2>&1 || fail "apt-get purge"
dpkg-query -W -f='${Status}' fdlab 2>/dev/null | grep -q "install ok" && fail "fdlab still installed"
left=0
while IFS= read -r f; do
  [ -n "$f" ] || continue
  if [ -f "$f" ] || [ -L "$f" ]; then echo "left after purge: $f"; left=1; fi
done <<< "$files"
for d in /usr/share/fdlab /usr/share/doc/fdlab; do
  [ -e "$d" ] && { echo "left after purge: $d"; left=1; }
done
grep -q "x-fdlab-experiment" /usr/share/mime/globs2 && { echo "MIME type left in globs2"; left=1; }
/usr/bin/python3 -c "import fdlab" 2> /dev/null && { echo "python3 still imports fdlab"; left=1; }
[ "$left" = 0 ] || fail "files of the package are left after purge"
step "passed ($(basename "$deb"), $(( $(date +%s) - t0 )) s)"
