#!/usr/bin/env python3
"""Runs the README's command examples, in order, as a reader would (issue 28).

Every indented code block of README.md whose commands call `build/app/...` or start with
`PYTHONPATH=build/python` is run with bash from a fresh scratch directory that holds links to the
build tree (`build`) and to the test fixtures (`tests`), so outputs (results.json, fdrop.json...)
land in the scratch directory and later commands read what earlier ones wrote, as they would for a
reader in a fresh clone. A command must exit 0.

- Placeholders that stand for the reader's own data are replaced by data of the same kind:
  FILE -> tests/data/tiny.arff; my_corpus/ and my_test/ are text corpora (one folder per class)
  that this test writes into the scratch directory (seeded, 40 + 20 messages, 300 words).
- A command with a placeholder that names a choice (SPEC|PRESET, --shard i/N) is a syntax
  summary, not an example: it and the rest of its block are skipped (listed in the output).
- Long commands are shortened by an option this test adds (SHORTEN below); each is listed.
- The README's two main commands (set-up + GUI, set-up + tests) are not run here: CI runs them.

Usage: readme_commands.py README.md BUILD_DIR SOURCE_DIR
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

SUBSTITUTE = [
    (re.compile(r"(?<=\s)FILE(?=\s|$)"), "tests/data/tiny.arff"),
]
TEMPLATE = re.compile(r"SPEC\|PRESET|--shard i/N|part-i\.json")
# (pattern in the command, option appended, why)
SHORTEN = [
    (re.compile(r"fdlab-cli report --output fdlab-report"), " --presets globerson-toy",
     "the full report runs every preset (hours, with the full-MNIST MCF preset)"),
]
RUNNABLE = re.compile(r"^(build/app/|PYTHONPATH=build/python )")
TIMEOUT = 300


def blocks(readme):
    """Indented code blocks as lists of commands (continuation lines joined)."""
    out, cur, prev_blank = [], None, True
    for line in readme.splitlines():
        if line.startswith("    ") and (cur is not None or prev_blank):
            if cur is None:
                cur = []
            cur.append(line[4:])
        else:
            if cur is not None:
                out.append(cur)
            cur = None
        prev_blank = line.strip() == ""
    if cur is not None:
        out.append(cur)
    result = []
    for b in out:
        cmds, pending = [], ""
        for line in b:
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
                continue
            cmds.append((pending + line).strip())
            pending = ""
        result.append([c for c in cmds if c])
    return result


def write_corpus(folder, per_class, rng):
    """A reader's own corpus: one sub-folder per class of .txt messages; each class favours its
    own third of a 300-word vocabulary."""
    vocab = [f"word{i:03d}" for i in range(300)]
    for c, cls in enumerate(["ham", "spam"]):
        os.makedirs(os.path.join(folder, cls))
        for m in range(per_class):
            words = [rng.choice(vocab[c * 100:(c + 1) * 100]) if rng.random() < 0.6 else rng.choice(vocab)
                     for _ in range(40)]
            with open(os.path.join(folder, cls, f"{m:02d}.txt"), "w", encoding="utf-8") as f:
                f.write(" ".join(words) + "\n")


def main():
    readme_path, build, source = sys.argv[1:4]
    with open(readme_path, encoding="utf-8") as f:
        readme = f.read()
    work = tempfile.mkdtemp(prefix="fdlab-readme-")
    os.symlink(os.path.abspath(build), os.path.join(work, "build"))
    os.symlink(os.path.join(os.path.abspath(source), "tests"), os.path.join(work, "tests"))
    rng = random.Random(1)
    write_corpus(os.path.join(work, "my_corpus"), 20, rng)
    write_corpus(os.path.join(work, "my_test"), 10, rng)
    env = dict(os.environ, PAGER="cat", QT_QPA_PLATFORM="offscreen")
    ran, skipped, failures = 0, [], []
    for block in blocks(readme):
        if not any(RUNNABLE.match(c) for c in block):
            continue
        if any(c.startswith("bash .ci/setup.sh") for c in block):
            continue
        # Shell blocks with variables (N=4 ... parallel ...) run as one script.
        script = "\n".join(block) if any(re.match(r"^[A-Z_]+=\S+$", c) for c in block) else None
        units = [script] if script else block
        for i, cmd in enumerate(units):
            if TEMPLATE.search(cmd):
                skipped.extend(units[i:])
                break
            for pat, rep in SUBSTITUTE:
                cmd = pat.sub(rep, cmd)
            for pat, opt, why in SHORTEN:
                if pat.search(cmd):
                    cmd = re.sub(r"(\s+#.*)?$", opt, cmd, count=1)
                    print(f"shortened ({why}): {cmd}")
            t0 = time.time()
            p = subprocess.run(["bash", "-euo", "pipefail", "-c", cmd], cwd=work, env=env, capture_output=True,
                               text=True, timeout=TIMEOUT)
            ran += 1
            status = "ok" if p.returncode == 0 else f"FAILED (exit {p.returncode})"
            print(f"[{time.time() - t0:6.1f} s] {status}: {cmd}")
            if p.returncode != 0:
                failures.append(cmd)
                print(p.stdout[-2000:], p.stderr[-2000:], sep="\n")
    shutil.rmtree(work, ignore_errors=True)
    for s in skipped:
        print(f"skipped (a syntax summary with placeholders): {s}")
    print(f"{ran} README commands run, {len(failures)} failed, {len(skipped)} skipped")
    if ran < 10:
        print("too few README commands found: the README's layout changed?")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
