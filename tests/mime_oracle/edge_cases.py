"""Generated edge-case messages for the MIME oracle (mime_oracle.py): each is written to a file
and read by both FDLab and Python's `email`. The first ones are the evasions a review found
(each hides spam words from a parser that gets it wrong); the rest cover the encodings."""

import base64
import os


def b64(s, enc="utf-8"):
    return base64.encodebytes(s.encode(enc)).decode("ascii")


SPAM = "cheap viagra pharmacy bonus casino"


def nested(depth):
    """multipart/mixed nested `depth` deep around one base64 text/plain part."""
    inner = "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n" + b64(SPAM + "\n")
    for d in range(depth):
        b = f"b{d}"
        inner = f"Content-Type: multipart/mixed; boundary=\"{b}\"\n\n--{b}\n{inner}\n--{b}--\n"
    return "Subject: nested\nMIME-Version: 1.0\n" + inner


CASES = {
    # Evasions.
    "deep_base64_20.eml": nested(20),
    "deep_base64_16.eml": nested(16),
    "quoted_param_semicolon.eml":
        "Subject: semicolon\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"x;y\"\n\n"
        "--x;y\nContent-Type: text/plain\n\n" + SPAM + "\n--x;y--\n",
    "from_line_in_headers.eml":
        "Subject: from line\nFrom someone@example.com Mon Jan  1 00:00:00 2024\nMIME-Version: 1.0\n"
        "Content-Type: text/html\n\n<p>" + SPAM + "</p>\n",
    "whitespace_plain_alternative.eml":
        "Subject: alt\nMIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"A\"\n\n"
        "--A\nContent-Type: text/plain\n\n   \n\t\n--A\nContent-Type: text/html\n\n<b>" + SPAM + "</b>\n--A--\n",
    "utf16_body.eml":
        "Subject: utf16\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-16\n"
        "Content-Transfer-Encoding: base64\n\n" + b64(SPAM + "\n", "utf-16"),
    "utf16le_body.eml":
        "Subject: utf16le\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-16LE\n"
        "Content-Transfer-Encoding: base64\n\n" + b64(SPAM + " \u00e9t\u00e9\n", "utf-16-le"),
    "utf16be_body.eml":
        "Subject: utf16be\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-16be\n"
        "Content-Transfer-Encoding: base64\n\n" + b64(SPAM + "\n", "utf-16-be"),
    "entity_leading_zeros.eml":
        "Subject: entities\nMIME-Version: 1.0\nContent-Type: text/html\n\n"
        "<p>v&#0000000000105;agra ph&#x000000000061;rmacy c&#00000000000000000000097;sino</p>\n",
    "lone_cr.eml":
        "Subject: lone cr\rMIME-Version: 1.0\rContent-Type: text/html\r\r<p>" + SPAM + "</p>\r",
    # Encodings and structure.
    "rfc2047_subject.eml":
        "Subject: =?utf-8?B?" + base64.b64encode("caf\u00e9 pr\u00eat ".encode()).decode() + "?=\n"
        " =?iso-8859-1?Q?gar=E7on?= plain words\n\nbody text here\n",
    "qp_soft_breaks.eml":
        "Subject: qp\nMIME-Version: 1.0\nContent-Type: text/plain; charset=iso-8859-1\n"
        "Content-Transfer-Encoding: quoted-printable\n\nvia=\ngra ph=61rmacy na=EFve =\n  caf=E9\n",
    "html_inline_block.eml":
        "Subject: html\nMIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n"
        "<html><head><title>hidden title</title><style>p{x:1}</style></head><body>F<b>RE</b>E "
        "mon<i>ey</i><br>line<div>block</div><!-- comment words --><script>var js=1;</script>"
        "caf&eacute; &amp; &lt;tag&gt; &#233;t&#xE9;</body></html>\n",
    "alternative_plain_first.eml":
        "Subject: alt2\nMIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"B\"\n\n"
        "--B\nContent-Type: text/plain\n\nplain version words\n--B\nContent-Type: text/html\n\n"
        "<p>html version words</p>\n--B--\n",
    "attachment_skipped.eml":
        "Subject: att\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"C\"\n\n"
        "--C\nContent-Type: text/plain\n\nvisible words\n--C\nContent-Type: text/plain\n"
        "Content-Disposition: attachment; filename=\"a.txt\"\n\nattached words\n--C--\n",
    "rfc822_inside.eml":
        "Subject: fwd\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"D\"\n\n"
        "--D\nContent-Type: text/plain\n\nouter words\n--D\nContent-Type: message/rfc822\n\n"
        "Subject: inner subject\nContent-Type: text/plain\n\ninner body words\n--D--\n",
    "crlf_line_ends.eml":
        "Subject: crlf\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"E\"\r\n\r\n"
        "--E\r\nContent-Type: text/plain\r\n\r\ncrlf words here\r\n--E--\r\n",
    "latin1_body.eml":
        "Subject: latin\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n\n"
        "na\u00efve caf\u00e9 \u00fcber stra\u00dfe\n",
    "cp1252_quotes.eml":
        "Subject: cp1252\nContent-Type: text/plain; charset=windows-1252\n\n"
        "\u201cquoted\u201d it\u2019s \u20ac100\n",
    "boundary_lookalike.eml":
        "Subject: lookalike\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"F\"\n\n"
        "--F\nContent-Type: text/plain\n\nfirst part\n--F--x is content\nstill first\n--F\n"
        "Content-Type: text/plain\n\nsecond part\n--F--\n",
}

# Bodies that are not UTF-8 text: written with these encodings.
ENCODINGS = {"latin1_body.eml": "latin-1", "cp1252_quotes.eml": "cp1252"}


def write_all(folder):
    """Writes every case to folder; returns [(path, raw bytes)]."""
    out = []
    for name, text in sorted(CASES.items()):
        raw = text.encode(ENCODINGS.get(name, "utf-8"))
        path = os.path.join(folder, name)
        with open(path, "wb") as f:
            f.write(raw)
        out.append((path, raw))
    return out
