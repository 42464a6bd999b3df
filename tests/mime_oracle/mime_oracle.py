#!/usr/bin/python3
"""Differential test of FDLab's e-mail text against Python's `email` package (issue 29, item 0).

For every message of three sets -- the bundled SpamAssassin corpus, CPython's own e-mail test
messages (Debian's libpython3.11-testsuite) and generated edge cases (edge_cases.py) -- the words
FDLab extracts (fdlab-cli message) must equal the words of the text Python's `email` package
decodes, both sides tokenised by FDLab's own tokenizer (fdlab-cli message --tokenize), compared
as sequences, for the Subject and for the body.

Python's side is independent of FDLab's code: `email` parses the MIME tree, undoes the transfer
encodings and RFC 2047 words, the codecs module decodes charsets, html.parser reads HTML (with
html.unescape for entities). Where FDLab deliberately reads a message differently, the
difference is listed in differences.txt with its reason:
  rule NAME -- reason      a documented FDLab behaviour; the oracle applies the same rule on
                           Python's side (see RULES below). Every rule must be listed.
  message SET/ID -- reason one message excused as a whole. An entry that no longer differs fails
                           the test (stale), so the list cannot rot.

Usage: mime_oracle.py FDLAB_CLI DATASETS_DIR [--report]   (exit 77 = skipped: no testsuite)
"""

import email
import email.header
import email.policy
import html
import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import edge_cases  # noqa: E402

PY_TEST_DATA = "/usr/lib/python3.11/test/test_email/data"

# FDLab's charset.h: the labels it decodes, with their Python codecs.
FDLAB_CHARSETS = {
    "utf-8": "utf-8", "utf8": "utf-8",
    "us-ascii": "ascii", "ascii": "ascii", "": "ascii",
    "iso-8859-1": "latin-1", "latin1": "latin-1", "latin-1": "latin-1", "iso8859-1": "latin-1",
    "iso_8859-1": "latin-1", "l1": "latin-1",
    "windows-1252": "cp1252", "cp1252": "cp1252",
    "iso-8859-15": "iso8859-15", "iso8859-15": "iso8859-15", "latin-9": "iso8859-15", "latin9": "iso8859-15",
    "iso_8859-15": "iso8859-15",
    "utf-16le": "utf-16-le", "utf16le": "utf-16-le", "utf-16be": "utf-16-be", "utf16be": "utf-16-be",
    "utf-16": "utf-16", "utf16": "utf-16",
}

# The rules of differences.txt, each applied on Python's side only when listed there.
RULES = {
    "unsupported-charset",   # charsets outside charset.h: valid UTF-8 kept, else 8-bit bytes -> U+FFFD
    "ascii-fallback",        # us-ascii or no charset with 8-bit bytes: UTF-8 if valid, else latin-1
    "cp1252-undefined",      # the five bytes cp1252 leaves undefined -> U+FFFD (Python errors)
    "named-entities",        # only the named entities html_text.h lists, each with its ';'
    "unclosed-tag",          # a tag never closed by '>' drops the rest of the HTML
    "alternative-first-plain",  # multipart/alternative: first text/plain, else first text/html
    "no-uuencode",           # Content-Transfer-Encoding: x-uuencode is not decoded
    "non-text-parts",        # only text/plain and text/html give text
    "deep-nesting",
    "multipart-without-boundary",          # more than 16 nested multiparts: the rest is read as plain text
}

INLINE_TAGS = {"a", "abbr", "b", "big", "code", "em", "font", "i", "s", "small", "span", "strike", "strong",
               "sub", "sup", "tt", "u"}
DROP_CONTENT = {"script", "style", "title"}
# html_text.h's named entities (besides the Latin-1 letters, which html.entities provides).
FDLAB_ENTITIES = {"amp", "lt", "gt", "quot", "apos", "nbsp", "copy", "reg", "trade", "hellip", "mdash", "ndash",
                  "laquo", "raquo", "lsquo", "rsquo", "ldquo", "rdquo", "bull", "middot", "euro", "pound", "yen",
                  "cent", "sect", "deg", "plusmn", "times", "divide", "iexcl", "iquest"}


def fdlab_entity(name):
    """True if html_text.h decodes &name; (its list, plus the Latin-1 letters U+00C0-U+00FF)."""
    if name in FDLAB_ENTITIES:
        return True
    ch = html.entities.html5.get(name + ";")
    return ch is not None and len(ch) == 1 and 0xC0 <= ord(ch) <= 0xFF and ch not in "\u00d7\u00f7"


class Differences:
    def __init__(self, path):
        self.rules, self.messages, self.used = {}, {}, set()
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                m = re.match(r"^(rule|message) (\S+) -- (.+)$", line)
                if not m:
                    raise SystemExit(f"{path}:{n}: expected 'rule NAME -- reason' or 'message SET/ID -- reason'")
                kind, key, reason = m.groups()
                if kind == "rule" and key not in RULES:
                    raise SystemExit(f"{path}:{n}: unknown rule {key!r}")
                (self.rules if kind == "rule" else self.messages)[key] = reason

    def rule(self, name):
        return name in self.rules


class HtmlText(html.parser.HTMLParser):
    """HTML -> visible text with html_text.h's tag classes; entities by html.unescape."""

    def __init__(self, diffs):
        super().__init__(convert_charrefs=False)
        self.out, self.skip, self.diffs = [], None, diffs

    def handle_starttag(self, tag, attrs):
        if self.skip:
            return
        if tag in DROP_CONTENT:
            self.skip = tag
        self.out.append("" if tag in INLINE_TAGS else " ")

    def handle_startendtag(self, tag, attrs):
        if not self.skip:
            self.out.append("" if tag in INLINE_TAGS else " ")

    def handle_endtag(self, tag):
        if self.skip:
            if tag == self.skip:
                self.skip = None
            return
        self.out.append("" if tag in INLINE_TAGS else " ")

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)

    def handle_entityref(self, name):
        if self.skip:
            return
        if self.diffs.rule("named-entities") and not fdlab_entity(name):
            self.out.append("&" + name + ";")
        else:
            self.out.append(html.unescape("&" + name + ";"))

    def handle_charref(self, name):
        if not self.skip:
            self.out.append(html.unescape("&#" + name + ";"))

    def handle_decl(self, decl):
        self.out.append(" ")

    def handle_pi(self, data):
        self.out.append(" ")

    def unknown_decl(self, data):
        self.out.append(" ")


def html_to_text(s, diffs):
    if diffs.rule("named-entities"):
        # html.parser decodes "&nbsp" and other legacy names without ';'; html_text.h requires it.
        s = re.sub(r"&([A-Za-z][A-Za-z0-9]*)(?![A-Za-z0-9;])", r"&amp;\1", s)
    p = HtmlText(diffs)
    if diffs.rule("unclosed-tag"):
        # A '<' + letter, '/', '!' or '?' with no '>' after it: html_text.h drops the rest.
        m = re.search(r"<[A-Za-z/!?][^>]*$", s)
        if m and not re.search(r"<!--", s[m.start():]):
            s = s[:m.start()]
    p.feed(s)
    p.close()
    return "".join(p.out)


def decode_bytes(data, charset, diffs):
    label = (charset or "").strip().lower()
    codec = FDLAB_CHARSETS.get(label)
    if codec is None and diffs.rule("unsupported-charset"):
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return "".join(chr(b) if b < 0x80 else "\ufffd" for b in data)
    if codec == "ascii" and diffs.rule("ascii-fallback"):
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("latin-1")
    if codec == "cp1252" and diffs.rule("cp1252-undefined"):
        return data.decode("cp1252", errors="replace")
    try:
        return data.decode(codec or label, errors="replace")
    except LookupError:
        return data.decode("utf-8", errors="replace")


def part_text(part, diffs, depth=0):
    """The display text of a message or part (mime_message.h's rules, read through `email`)."""
    ctype = part.get_content_type()
    if is_attachment(part):
        return ""
    if part.is_multipart():
        kids = part.get_payload()
        if not isinstance(kids, list):
            return ""
        if ctype == "message/rfc822":
            return part_text(kids[0], diffs, depth + 1) if kids else ""
        if part.get_content_maintype() == "message" and diffs.rule("non-text-parts"):
            return ""
        if diffs.rule("deep-nesting") and depth >= 16:
            return None
        if part.get_content_subtype() == "alternative" and diffs.rule("alternative-first-plain"):
            for want in ("text/plain", "text/html"):
                for k in kids:
                    if k.get_content_type() == want:
                        t = part_text(k, diffs, depth + 1)
                        if t and t.strip(" \t\r\n"):
                            return t
            for k in kids:
                t = part_text(k, diffs, depth + 1)
                if t:
                    return t
            return ""
        texts = [part_text(k, diffs, depth + 1) for k in kids]
        return "\n\n".join(t for t in texts if t)
    if is_attachment(part):
        return ""
    if part.get_content_maintype() == "multipart" and diffs.rule("multipart-without-boundary"):
        ctype = "text/plain"  # `email` could not split it (no usable boundary): its raw text
    if ctype not in ("text/plain", "text/html"):
        if diffs.rule("non-text-parts"):
            return ""
    cte = (part.get("content-transfer-encoding") or "").strip().lower()
    if cte in ("x-uuencode", "uuencode", "x-uue", "uue") and diffs.rule("no-uuencode"):
        data = part.get_payload(decode=False)
        data = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    else:
        data = part.get_payload(decode=True) or b""
    text = decode_bytes(data, part.get_content_charset(), diffs)
    return html_to_text(text, diffs) if ctype == "text/html" else text


def is_attachment(part):
    return (part.get("content-disposition") or "").strip().lower().startswith("attachment")


def subject_text(msg, diffs):
    # The raw value (msg.get would turn 8-bit bytes into U+FFFD): compat32 keeps them as
    # surrogate escapes in the parsed header list.
    raws = [v for k, v in msg._headers if k.lower() == "subject"]
    if not raws:
        return ""
    raw = raws[0] if isinstance(raws[0], str) else str(raws[0])
    out = []
    for data, charset in email.header.decode_header(raw):
        if isinstance(data, str):
            # compat32 keeps a header's raw 8-bit bytes as surrogate escapes.
            raw8 = data.encode("utf-8", "surrogateescape")
            out.append(decode_bytes(raw8, "", diffs) if diffs.rule("ascii-fallback") else data)
        else:
            out.append(decode_bytes(data, charset, diffs))
    return "".join(out)


def python_texts(raw, diffs):
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    body = part_text(msg, diffs)
    return subject_text(msg, diffs), body


def run_cli(cli, args, stdin=None):
    r = subprocess.run([cli, "message", *args], input=stdin, capture_output=True)
    if r.returncode != 0:
        raise SystemExit(f"fdlab-cli message {' '.join(args)}: exit {r.returncode}: {r.stderr.decode(errors='replace')}")
    return [json.loads(line) for line in r.stdout.decode("utf-8").split("\n") if line]


def read_bundle(path):
    import gzip
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    head, _, rest = data.partition(b"\n\n")
    msgs, pos = {}, 0
    while pos < len(rest):
        nl = rest.index(b"\n", pos)
        ident, group, label, size = rest[pos:nl].decode().split(" ")
        start = nl + 1
        msgs[ident] = rest[start:start + int(size)]
        pos = start + int(size) + 1
    return msgs


def message_sets(datasets):
    """(set name, {id: raw bytes}, fdlab records) for each set; None for a missing set."""
    sets = []
    for part in ("train", "test"):
        path = os.path.join(datasets, "spamassassin", f"spamassassin-{part}.gz")
        sets.append((f"spamassassin-{part}", read_bundle(path), ["--bundle", path]))
    names = sorted(n for n in os.listdir(PY_TEST_DATA) if n.startswith("msg_"))
    py = {}
    for n in names:
        with open(os.path.join(PY_TEST_DATA, n), "rb") as f:
            py[n] = f.read()
    sets.append(("python", py, [os.path.join(PY_TEST_DATA, n) for n in names]))
    return sets


def main():
    if len(sys.argv) < 3:
        raise SystemExit("usage: mime_oracle.py FDLAB_CLI DATASETS_DIR [--report]")
    cli, datasets = sys.argv[1], sys.argv[2]
    report = "--report" in sys.argv
    if not os.path.isdir(PY_TEST_DATA):
        print(f"SKIP: {PY_TEST_DATA} missing (install libpython3.11-testsuite)")
        return 77
    diffs = Differences(os.path.join(HERE, "differences.txt"))

    with tempfile.TemporaryDirectory() as tmp:
        gen = edge_cases.write_all(tmp)
        sets = message_sets(datasets)
        sets.append(("edge", {os.path.basename(p): raw for p, raw in gen}, [p for p, _ in gen]))

        failures, excused, totals = [], [], {}
        for name, raws, cli_args in sets:
            fd = run_cli(cli, cli_args)
            by_id = {}
            for rec in fd:
                by_id[rec["id"] if name.startswith("spamassassin") else os.path.basename(rec["id"])] = rec
            if set(by_id) != set(raws):
                raise SystemExit(f"{name}: FDLab printed {len(by_id)} messages, Python read {len(raws)}")
            # Python's texts, tokenised by FDLab in one call.
            lines = []
            for ident, raw in raws.items():
                subj, body = python_texts(raw, diffs)
                lines.append(json.dumps({"id": ident + "\0s", "text": subj}))
                lines.append(json.dumps({"id": ident + "\0b", "text": body if body is not None else ""}))
            words = {r["id"]: r["words"] for r in run_cli(cli, ["--tokenize", "-"], "\n".join(lines).encode())}
            agree = 0
            for ident in raws:
                rec = by_id[ident]
                key = f"{name}/{ident}"
                bad = []
                if rec["subject_words"] != words[ident + "\0s"]:
                    bad.append(("subject", rec["subject_words"], words[ident + "\0s"]))
                if rec["body_words"] != words[ident + "\0b"]:
                    bad.append(("body", rec["body_words"], words[ident + "\0b"]))
                if key in diffs.messages:
                    diffs.used.add(key)
                    if bad:
                        excused.append(key)
                    else:
                        failures.append(f"{key}: listed in differences.txt but agrees now (remove the entry)")
                    continue
                if bad:
                    for what, f, p in bad:
                        failures.append(describe(key, what, f, p))
                else:
                    agree += 1
            totals[name] = (agree, len(raws))

    for key in sorted(set(diffs.messages) - diffs.used):
        failures.append(f"{key}: listed in differences.txt but no such message")
    for name, (agree, n) in totals.items():
        print(f"{name}: {agree} of {n} messages agree")
    print(f"excused by differences.txt: {len(excused)}; rules applied: {', '.join(sorted(diffs.rules))}")
    if report:
        for k in excused:
            print(f"excused {k}: {diffs.messages[k]}")
    if failures:
        print(f"{len(failures)} disagreements:")
        for f in failures[:200]:
            print("  " + f)
        return 1
    return 0


def describe(key, what, fd, py):
    """Where the word sequences part, with a little context."""
    i = 0
    while i < min(len(fd), len(py)) and fd[i] == py[i]:
        i += 1
    return (f"{key} {what}: FDLab {len(fd)} words, Python {len(py)}; first difference at word {i}: "
            f"FDLab {fd[max(0, i - 2):i + 4]} vs Python {py[max(0, i - 2):i + 4]}")


if __name__ == "__main__":
    sys.exit(main())
