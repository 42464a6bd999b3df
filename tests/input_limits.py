#!/usr/bin/env python3
"""Hostile inputs against fdlab-cli under a memory limit (issue 29): each limit of README.md's
"Limits on input" gives its clear error (exit 3, the message naming the file and the limit) or its
documented skip (exit 0), and the process stays within an address-space rlimit (RLIMIT_AS).

Without a fix these fail: the gzip bomb grows a buffer past the rlimit (bad_alloc, exit 1); the
deeply nested JSON overflows the stack in a recursive walk (SIGSEGV); `info` on a LIBSVM file naming
feature 2^24 runs out of memory at 384 MB (std::bad_alloc, exit 3); running out of memory printed
"fdlab-cli: std::bad_alloc" instead of saying so.

With FDLAB_SANITIZED=1 (an AddressSanitizer build, which reserves terabytes of shadow address
space and cannot run under RLIMIT_AS) the same commands run without the rlimit.

Usage: input_limits.py FDLAB_CLI
"""
import base64
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import zlib

CLI = sys.argv[1]
SANITIZED = os.environ.get("FDLAB_SANITIZED") == "1"
MiB = 1024 * 1024
failures = []


def run(args, limit_mb, expect_rc, expect_err=None, what=""):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb * MiB, limit_mb * MiB))
    p = subprocess.run([CLI] + args, capture_output=True, text=True, errors="replace", timeout=600,
                       preexec_fn=None if SANITIZED else limit)
    ok = p.returncode == expect_rc and (expect_err is None or expect_err in p.stderr)
    print("%-4s %s (rlimit %s MB): exit %d %s" % ("ok" if ok else "FAIL", what,
          "none" if SANITIZED else limit_mb, p.returncode, p.stderr.strip()[:200]))
    if not ok:
        failures.append("%s: exit %d, expected %d%s\nstderr: %s" % (
            what, p.returncode, expect_rc, "" if expect_err is None else " and '%s'" % expect_err, p.stderr[-2000:]))


def gzip_of_zeros(path, size):
    c = zlib.compressobj(6, zlib.DEFLATED, 16 + 15)
    chunk = bytes(MiB)
    with open(path, "wb") as f:
        for _ in range(size // MiB):
            f.write(c.compress(chunk))
        f.write(c.compress(bytes(size % MiB)))
        f.write(c.flush())


def message(headers, body):
    return ("".join("%s: %s\n" % h for h in headers) + "\n").encode() + body


def main():
    tmp = tempfile.mkdtemp(prefix="fdlab-limits-")
    try:
        # 1. gzip bomb: 1.25 GiB of zeros in 1.3 MB. Refused at 1 GiB of output; the buffer peaks
        #    at 1.5 GiB while it grows (old + new), so 2 GiB of address space is enough.
        bomb = os.path.join(tmp, "bomb-images-idx3-ubyte.gz")
        gzip_of_zeros(bomb, (5 * 1024 * MiB) // 4)
        gzip_of_zeros(os.path.join(tmp, "bomb-labels-idx1-ubyte.gz"), 16)
        run(["info", bomb], 2048, 3, "decompresses to more than 1073741824 bytes", "gzip bomb (IDX)")
        bundle = os.path.join(tmp, "bomb-bundle.gz")
        shutil.copy(bomb, bundle)
        run(["info", bundle], 2048, 3, "decompresses to more than 1073741824 bytes", "gzip bomb (bundle)")

        # 2. JSON nested 200000 deep: an experiment file and a model file.
        deep = "[" * 200000 + "]" * 200000
        spec = os.path.join(tmp, "deep.fdlab.json")
        with open(spec, "w") as f:
            f.write('{"schema": 1, "name": "x", "dataset": {"bundled": "vote"}, "learners": [{"id": "a", '
                    '"learner": "svm", "params": {"C": %s}}], "attack": {"threat": "worst-case-count"}, '
                    '"levels": [0]}' % deep)
        run(["plan", spec, "--shards", "2"], 512, 3, "JSON nested deeper than 64 levels", "deep experiment JSON")
        model = os.path.join(tmp, "deep-model.json")
        with open(model, "w") as f:
            f.write('{"format": "fdlab-linear-model", "weights": %s}' % deep)
        run(["eval", "--model", model, "--bundled", "vote", "--threat", "worst-case-count", "--levels", "0"], 512, 3,
            "JSON nested deeper than 64 levels", "deep model JSON")

        # 3. A 20-byte LIBSVM file at the feature-index limit (2^24): the default feature names are
        #    not stored (they were 16.7 million strings, 512 MB, and `info` needed 860 MB); what is
        #    left per feature is its importance (8 bytes, 128 MB).
        limit = os.path.join(tmp, "feature-limit.libsvm")
        with open(limit, "w") as f:
            f.write("1 1:1\n-1 16777216:1")
        run(["info", limit], 384, 0, None, "LIBSVM file naming feature 2^24")

        # 4. Hostile messages in a text corpus (one folder per class): each is read (exit 0) within
        #    memory linear in its size.
        corpus = os.path.join(tmp, "corpus")
        for cls in ("ham", "spam"):
            os.makedirs(os.path.join(corpus, cls))
            for i in range(3):
                with open(os.path.join(corpus, cls, "n%d.eml" % i), "wb") as f:
                    f.write(message([("Subject", "note %d" % i)], b"plain words for the vocabulary %s\n" % cls.encode()))
        hostile = {
            # 200000 parts: only the first 1000 are read
            "parts": message([("Content-Type", "multipart/mixed; boundary=b")], b"--b\n\nword\n" * 200000 + b"--b--\n"),
            # nested 5000 deep: read as plain text below 16 levels
            "nesting": b"".join(b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i) for i in range(5000)) + b"\nleaf\n",
            # a 16 MB header line and a 200000-line header block
            "header-line": message([("Subject", "w" * (16 * MiB))], b"body\n"),
            "header-block": message([("X-H%d" % i, "v") for i in range(200000)], b"body\n"),
            # 48 MB of base64 and 32 MB of quoted-printable
            "base64": message([("Content-Transfer-Encoding", "base64")],
                              base64.encodebytes(b"spam words again " * (2 * MiB))),
            "qp": message([("Content-Transfer-Encoding", "quoted-printable")], b"=41=42 cd=\n" * (3 * MiB)),
            # 4 million tokens, one 8 MB line
            "tokens": message([("Subject", "t")], b"ab " * (4 * MiB) + b"\n"),
            # 1 MB of encoded words in a header, 1 MB of entities in HTML
            "encoded-words": message([("Subject", "=?utf-8?q?a=C3=A9?= " * 50000)], b"x\n"),
            "entities": message([("Content-Type", "text/html")], b"&amp;&#233;&nbsp;<b>" * 50000),
        }
        for name, raw in hostile.items():
            with open(os.path.join(corpus, "spam", name + ".eml"), "wb") as f:
                f.write(raw)
        run(["info", corpus], 1536, 0, None, "hostile messages (%d kinds, %.0f MB)" % (
            len(hostile), sum(len(r) for r in hostile.values()) / MiB))

        # 6. Running out of memory is said in words, not as the library's "std::bad_alloc": an
        # endless file (/dev/zero) read under the rlimit. (Not under the sanitizers: no rlimit.)
        if not SANITIZED and os.path.exists("/dev/zero"):
            run(["info", "/dev/zero"], 384, 3, "fdlab-cli: out of memory: ", "an endless input (/dev/zero)")
    finally:
        shutil.rmtree(tmp)
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
