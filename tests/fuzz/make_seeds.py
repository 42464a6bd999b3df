#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz harnesses (tests/fuzz/corpus/<format>/), run by hand when a
format changes:  /usr/bin/python3 tests/fuzz/make_seeds.py build/app/fdlab-cli

Seeds are small files: the fixtures of tests/data (good and every malformed shape the tests
have), real messages of the bundled SpamAssassin corpus chosen for their MIME features, and model,
experiment, shard-part and results files written by fdlab-cli from tiny data. Files named
regression-* are inputs a harness found; this script never deletes them.
"""
import glob
import gzip
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "tests", "data")
CORPUS = os.path.join(HERE, "corpus")
MAX_SEED = 16 * 1024


def put(fmt, name, data):
    d = os.path.join(CORPUS, fmt)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    if fmt in ("model", "experiment", "shard", "results"):   # no paths of this machine in the seeds
        data = data.replace(ROOT.encode() + b"/", b"")
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def put_file(fmt, path, name=None):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) <= MAX_SEED:
        put(fmt, name or os.path.basename(path), data)


def clear(fmt):
    d = os.path.join(CORPUS, fmt)
    for p in glob.glob(os.path.join(d, "*")):
        if not os.path.basename(p).startswith("regression-"):
            os.remove(p)


def bundle_messages(path):
    raw = gzip.open(path).read()
    head, _, body = raw.partition(b"\n\n")
    pos = 0
    while pos < len(body):
        nl = body.index(b"\n", pos)
        ident, group, label, size = body[pos:nl].split(b" ")
        start = nl + 1
        yield ident.decode(), label.decode(), body[start:start + int(size)]
        pos = start + int(size) + 1


def mime_seeds():
    # Messages of the bundled corpus with each feature, the smallest few of each.
    features = {
        "multipart": rb"(?i)content-type:\s*multipart/",
        "nested": rb"(?is)multipart/.*multipart/",
        "base64": rb"(?i)content-transfer-encoding:\s*base64",
        "qp": rb"(?i)content-transfer-encoding:\s*quoted-printable",
        "html": rb"(?i)content-type:\s*text/html",
        "rfc2047-b": rb"=\?[^?]+\?[bB]\?",
        "rfc2047-q": rb"=\?[^?]+\?[qQ]\?",
        "charset": rb"(?i)charset=\"?(koi8|windows-125|big5|gb2312|iso-2022|shift_jis|euc)",
        "entities": rb"&#[0-9]+;|&[a-z]+;",
        "rfc822": rb"(?i)message/rfc822",
    }
    picked = {}
    for ident, label, msg in bundle_messages(os.path.join(ROOT, "datasets", "spamassassin", "spamassassin-test.gz")):
        if len(msg) > MAX_SEED:
            continue
        for name, pat in features.items():
            if re.search(pat, msg):
                picked.setdefault(name, []).append((len(msg), ident, msg))
    n = 0
    for name, msgs in sorted(picked.items()):
        for _, ident, msg in sorted(msgs)[:4]:
            put("mime", "sa-%s-%s" % (name, hashlib.sha1(ident.encode()).hexdigest()[:10]), msg)
            n += 1
    for p in glob.glob(os.path.join(DATA, "text", "folder*", "*", "*")):
        put_file("mime", p, "folder-" + os.path.basename(os.path.dirname(p)) + "-" + os.path.basename(p))
    # Hand-made edge cases: each shape the MIME code has a branch for.
    edge = {
        "empty": "",
        "headers-only": "Subject: x\r\nFrom: a@b\r\n",
        "folded": "Subject: =?utf-8?q?caf=C3=A9?=\r\n =?iso-8859-1?b?Y2Fm6Q==?=\r\n\r\nbody",
        "bad-words": "Subject: =?x?q?=ZZ?= =?utf-8?b?!!!?= =?utf-8?q?unterminated\n\nbody",
        "qp-soft": "Content-Transfer-Encoding: quoted-printable\n\nline=\nnext =3D =E9=\r\n=4",
        "b64-bad": "Content-Transfer-Encoding: base64\n\nSGVsbG8gd29ybGQ=\n!!!==QQ\nSGk",
        "html-ent": "Content-Type: text/html; charset=windows-1252\n\n<html><head><style>x</style><script>y</script></head>"
                    "<body>A&amp;B &#233;&#x20AC; &nbsp;&unknown; &#99999999999; <!-- c --> <p>p<br>q</body>",
        "nested": "Content-Type: multipart/mixed; boundary=a\n\n--a\nContent-Type: multipart/alternative; boundary=b\n\n"
                  "--b\nContent-Type: text/plain\n\nplain\n--b\nContent-Type: text/html\n\n<b>html</b>\n--b--\n--a\n"
                  "Content-Type: message/rfc822\n\nSubject: inner\n\ninner body\n--a--\n",
        "deep": "".join("Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i) for i in range(20)) + "\nleaf\n",
        "no-close": "Content-Type: multipart/mixed; boundary=\"q q\"\n\npreamble\n--q q\nContent-Type: text/plain\n\nbody",
        "charsets": "Content-Type: text/plain; charset=koi8-r\nContent-Transfer-Encoding: 8bit\n\n\xc1\xc2\xd7",
        "utf7": "Content-Type: text/plain; charset=utf-7\n\nHi +AGEAYgBj-",
        "params": "Content-Type: text/plain; charset*=utf-8''%E2%82%AC; name*0=a; name*1=b; boundary=\"\\\"x\"\n\nx",
    }
    for name, text in edge.items():
        put("mime", "edge-" + name, text.encode("latin-1"))


def idx_pair(images, labels):
    return struct.pack(">I", len(images)) + images + labels


def idx_seeds():
    def rd(p):
        with open(p, "rb") as f:
            return f.read()
    img, lab = rd(os.path.join(DATA, "tiny-images-idx3-ubyte")), rd(os.path.join(DATA, "tiny-labels-idx1-ubyte"))
    imgz, labz = rd(os.path.join(DATA, "tiny-images-idx3-ubyte.gz")), rd(os.path.join(DATA, "tiny-labels-idx1-ubyte.gz"))
    put("idx", "tiny", idx_pair(img, lab))
    put("idx", "tiny-gz", idx_pair(imgz, labz))
    put("idx", "tiny-gz-images", idx_pair(imgz, lab))
    for p in glob.glob(os.path.join(DATA, "malformed", "idx_*")):
        bad = rd(p)
        if "labels" in os.path.basename(p):
            put("idx", os.path.basename(p), idx_pair(img, bad))
        else:
            put("idx", os.path.basename(p), idx_pair(bad, lab))


def npy_bytes(a):
    import io
    import numpy as np
    buf = io.BytesIO()
    np.save(buf, a, allow_pickle=False)
    return buf.getvalue()


def npz_bytes(compressed=False, **arrays):
    import io
    import numpy as np
    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, **arrays)
    return buf.getvalue()


def npy_seeds():
    # X.npy + labels .npy pairs (the IDX layout): each dtype family, both byte orders, Fortran
    # order, images, string labels, and the header shapes the parser rejects.
    import numpy as np
    rng = np.random.default_rng(1)
    y = np.array([0, 1, 1, 0])
    x = rng.random((4, 3))
    pairs = {
        "f8": (x, y), "f4-be": (x.astype(">f4"), y), "fortran": (np.asfortranarray(x), y),
        "i2": ((x * 9).astype("<i2"), y.astype("u1")), "u8-be": ((x * 9).astype(">u8"), y.astype(">i8")),
        "bool": (x > 0.5, y.astype(bool)), "images": (rng.random((4, 2, 2)).astype("f4"), y),
        "labels-U": (x, np.array(["spam", "ham", "ham", "spam"])), "labels-S": (x, np.array([b"a", b"b", b"b", b"a"])),
        "labels-col": (x, y.reshape(4, 1).astype("f8")), "empty": (np.zeros((0, 3)), np.zeros(0, "i8")),
    }
    for name, (a, b) in pairs.items():
        put("npy", name, idx_pair(npy_bytes(a), npy_bytes(b)))
    good = npy_bytes(x)
    hdr_len = struct.unpack("<H", good[8:10])[0]
    payload = good[10 + hdr_len:]

    def raw(header, version=b"\x01\x00", body=payload):
        h = header.encode("latin-1")
        h += b" " * ((-(10 + len(h) + 1)) % 64) + b"\n"
        return b"\x93NUMPY" + version + struct.pack("<H", len(h)) + h + body
    bad = {
        "object": raw("{'descr': '|O', 'fortran_order': False, 'shape': (4, 3), }"),
        "complex": raw("{'descr': '<c16', 'fortran_order': False, 'shape': (4, 3), }"),
        "huge-shape": raw("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
        "short-data": raw("{'descr': '<f8', 'fortran_order': False, 'shape': (4, 3), }", body=payload[:40]),
        "no-shape": raw("{'descr': '<f8', 'fortran_order': False, }"),
        "v2": b"\x93NUMPY\x02\x00" + struct.pack("<I", hdr_len) + good[10:],
        "truncated": good[:20],
        "bad-magic": b"\x93NUMPX" + good[6:],
    }
    for name, data in bad.items():
        put("npy", "bad-" + name, idx_pair(data, npy_bytes(y)))


def npz_seeds():
    import io
    import numpy as np
    import scipy.sparse as sp
    rng = np.random.default_rng(2)
    x = rng.random((5, 4)).astype("f4")
    y = np.array([1, 0, 1, 1, 0])
    put("npz", "dense", npz_bytes(X=x, y=y))
    put("npz", "dense-deflated", npz_bytes(True, X=x, y=y))
    put("npz", "dense-positional", npz_bytes(arr_0=x, arr_1=y))
    put("npz", "dense-names", npz_bytes(X=x, y=np.array(["a", "b", "a", "a", "b"]),
                                        feature_names=np.array(["w", "x", "y", "z"])))
    m = sp.random(5, 6, density=0.3, random_state=3, format="csr")
    for fmt in ("csr", "csc", "coo"):
        for comp in (False, True):
            buf = io.BytesIO()
            sp.save_npz(buf, m.asformat(fmt), compressed=comp)
            # fdlab-cli convert's layout: save_npz's members plus y
            import zipfile
            with zipfile.ZipFile(buf, "a", zipfile.ZIP_DEFLATED if comp else zipfile.ZIP_STORED) as z:
                z.writestr("y.npy", npy_bytes(y))
            put("npz", "sparse-%s%s" % (fmt, "-deflated" if comp else ""), buf.getvalue())
    coo = sp.coo_matrix((np.ones(3), ([0, 0, 4], [1, 1, 5])), shape=(5, 6))   # duplicates, summed
    buf = io.BytesIO()
    sp.save_npz(buf, coo, compressed=False)
    with __import__("zipfile").ZipFile(buf, "a") as z:
        z.writestr("y.npy", npy_bytes(y))
    put("npz", "sparse-coo-duplicates", buf.getvalue())
    good = npz_bytes(X=x, y=y)
    put("npz", "bad-truncated", good[: len(good) // 2])
    put("npz", "bad-no-eocd", good[:-22])
    put("npz", "bad-crc", good[:60] + bytes([good[60] ^ 1]) + good[61:])
    put("npz", "bad-no-y", npz_bytes(X=x))


def mailbox_seeds():
    msgs = [
        "From alice@example.com Thu Jan  1 00:00:00 1970\nSubject: hi\n\nHello\n>From the start\n\n",
        "From a Mon Jan  1 00:00:00 2001\r\nSubject: crlf\r\n\r\nbody\r\n\r\nFrom b Mon Jan  1 00:00:00 2001\r\n\r\nx\r\n",
        "\n\nFrom x\nContent-Type: multipart/mixed; boundary=z\n\n--z\nContent-Type: text/html\n\n<p>a&amp;b</p>\n--z--\n\n"
        "From y\nSubject: =?utf-8?q?caf=C3=A9?=\n\n>>From mboxrd\n",
        "Subject: no separator\n\nnot an mbox\n",
        "From only-separator\n",
        "",
    ]
    for i, m in enumerate(msgs):
        put("mailbox", "mbox-%d" % i, m.encode())
    for p in sorted(glob.glob(os.path.join(CORPUS, "mime", "sa-*")))[:6]:
        with open(p, "rb") as f:
            put("mailbox", "sa-" + os.path.basename(p)[3:], b"From spamassassin Thu Jan  1 00:00:00 1970\n" + f.read())
    put("mailbox", "gzip", gzip.compress(msgs[0].encode(), mtime=0))


def cli(args, cwd):
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def json_seeds(fdlab_cli):
    for p in glob.glob(os.path.join(ROOT, "resources", "presets", "*.json")):
        put_file("experiment", p)
    tmp = tempfile.mkdtemp()
    try:
        tiny = os.path.join(DATA, "tiny.arff")
        learners = {"svm": {}, "logreg": {}, "fdrop": {"K": 1}, "ds-lp": {}, "ds-perceptron": {}, "mcf": {},
                    "kernel-svm": {}, "tree": {}, "knn": {}, "net": {}, "adaboost": {"rounds": 3},
                    "mixture": {}, "featureboost": {"rounds": 3}}
        for name, params in learners.items():
            out = os.path.join(tmp, name + ".json")
            try:
                cli([fdlab_cli, "train", "--data", tiny, "--learner", name, "--params", json.dumps(params),
                     "--test-fraction", "0", "--output", out], tmp)
                put_file("model", out, "model-" + name + ".json")
            except subprocess.CalledProcessError:
                print("train failed:", name, file=sys.stderr)
        spec = {"schema": 1, "name": "fuzz seed", "dataset": {"file": tiny},
                "split": {"kind": "fraction", "test": 0.5, "validation": 0.0},
                "learners": [{"id": "SVM", "learner": "svm", "params": {"C": 1}},
                             {"id": "FDROP", "learner": "fdrop", "params": {"C": 1, "K": 1}}],
                "attack": {"threat": "worst-case-count"}, "levels": [0, 1, 2], "repetitions": 2, "seed": 1}
        sp = os.path.join(tmp, "spec.json")
        with open(sp, "w") as f:
            json.dump(spec, f)
        put_file("experiment", sp, "small-spec.json")
        # Results and shard parts from bundled data: a file's path would be stripped from their
        # spec by put() after fdlab-cli fingerprinted it, and the parts would no longer merge.
        spec["dataset"] = {"bundled": "heart_scale"}
        sp = os.path.join(tmp, "spec-bundled.json")
        with open(sp, "w") as f:
            json.dump(spec, f)
        cli([fdlab_cli, "run", sp, "--output", os.path.join(tmp, "results.json")], tmp)
        put_file("results", os.path.join(tmp, "results.json"))
        for i in (0, 1):
            part = os.path.join(tmp, "part-%d.json" % i)
            cli([fdlab_cli, "run", sp, "--shard", "%d/2" % i, "--output", part], tmp)
            put_file("shard", part)
    finally:
        shutil.rmtree(tmp)


def main():
    fdlab_cli = os.path.abspath(sys.argv[1])
    for fmt in ("csv", "libsvm", "arff", "idx", "mime", "text_csv", "bundle", "model", "experiment", "shard",
                "results", "importance", "npy", "npz", "mailbox"):
        clear(fmt)
    for p in glob.glob(os.path.join(DATA, "*.csv")) + glob.glob(os.path.join(DATA, "malformed", "csv_*")):
        put_file("csv", p)
    put_file("csv", os.path.join(ROOT, "datasets", "mlbench", "sonar.csv"))
    for p in glob.glob(os.path.join(DATA, "*.libsvm")) + glob.glob(os.path.join(DATA, "malformed", "libsvm_*")):
        put_file("libsvm", p)
    for p in glob.glob(os.path.join(DATA, "*.arff")) + glob.glob(os.path.join(DATA, "malformed", "arff_*")):
        put_file("arff", p)
    put_file("arff", os.path.join(ROOT, "datasets", "vote", "vote.arff"))
    for p in glob.glob(os.path.join(DATA, "text", "*.csv")):
        put_file("text_csv", p)
    for p in glob.glob(os.path.join(DATA, "text", "*bundle*")):
        put_file("bundle", p)
    with open(os.path.join(DATA, "text", "bundle.txt"), "rb") as f:
        put("bundle", "bundle.txt.gz", gzip.compress(f.read(), mtime=0))
    for p in glob.glob(os.path.join(DATA, "importance", "*.csv")):
        put_file("importance", p)
    idx_seeds()
    mime_seeds()
    npy_seeds()
    npz_seeds()
    mailbox_seeds()
    json_seeds(fdlab_cli)
    for fmt in sorted(os.listdir(CORPUS)):
        files = os.listdir(os.path.join(CORPUS, fmt))
        print("%-11s %3d seeds" % (fmt, len(files)))


if __name__ == "__main__":
    main()
