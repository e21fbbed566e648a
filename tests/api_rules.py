#!/usr/bin/env python3
"""api_rules.py [HEADER...]: check the public headers against the parts of
the calling convention (docs/api.md, summarised in include/incore/common.h)
that a parser can check.  Without arguments it checks include/incore/*.h
next to this script.

Every IC_API function declaration is parsed (comments and preprocessor
lines removed, then the text from the statement before IC_API to the next
';').  A declaration that cannot be parsed, or a macro that would declare
IC_API functions out of the parser's sight, is itself a violation (R0), so
nothing is skipped silently.  The rules:

  R1  an IC_API function returning int carries IC_NODISCARD;
  R2  byte buffers are uint8_t: no void *, unsigned char *, char * data
      parameters (ic_wipe, ic_free, ic_ct_equal take any object: void *;
      const char * is a name or a specification);
  R3  a pointer to an incore object (ic_*_ctx, ic_*_key, ic_mont_ctx) is
      the first parameter; a second object may follow it directly;
  R4  outputs before inputs: every non-const uint8_t pointer or array comes
      before every const uint8_t one, except the in/out state a call
      advances (iv, ctr), which sits with the per-message inputs;
  R5  the raw key is the last byte-buffer input: a const uint8_t key (or
      ikm) is followed by its length only;
  R6  a uint8_t pointer that is not an array parameter is followed by a
      size_t length (size_t outcap, size_t *outlen for a variable output),
      or is an output as long as the data input (out, in, len; a tag may
      sit between: out, tag, taglen, in, len);
  R7  streaming names: nothing ends in _finish or _start; a call on an
      ic_*_ctx that ends the stream is _final or _final_verify.

Before the headers, the checker runs on a small header with one violation
of each rule and on one without any, written to a temporary directory: if
it misses a planted violation or reports a clean declaration, it fails, so
a broken checker cannot pass every header.  --self-test runs only that.

Prints each violation as "header: function: Rn: what", then a summary; the
exit status is 1 when there is a violation (or the self-test fails), 2 for
a usage error.
"""
import glob
import os
import re
import sys
import tempfile

ANY_OBJECT = {"ic_wipe", "ic_free", "ic_ct_equal"}   # R2: take any object
ADVANCED_STATE = {"iv", "ctr"}                       # R4: in/out, with the inputs
RAW_KEY = {"key", "ikm"}                             # R5
OBJECT_TYPE = re.compile(r"^ic_\w+_(ctx|key)$")      # R3 (ic_mont_ctx, ic_rsa_*_key too)
STREAM_END_WORDS = {"finish", "finalize", "finalise", "end", "done", "verify",
                    "digest", "tag", "result", "close"}
CHAR_TYPES = {"char", "signed char", "unsigned char"}
QUALIFIERS = {"const", "volatile", "restrict", "__restrict", "__restrict__"}


class Param:
    """One parameter: base type, pointer depth, constness of what it points
    to, array-ness and name."""

    def __init__(self, text):
        self.text = " ".join(text.split())
        self.funcptr = "(" in self.text
        self.array = "[" in self.text
        t = re.sub(r"\[[^\]]*\]", " ", self.text)
        t = t.replace("*", " * ")
        tokens = t.split()
        self.pointers = tokens.count("*")
        # the name is the last identifier (every public parameter is named)
        self.name = tokens[-1] if tokens and re.match(r"^[A-Za-z_]\w*$", tokens[-1]) else ""
        words = tokens[:-1] if self.name else tokens
        # const before the first '*' (or anywhere, for an array) qualifies
        # the pointed-to bytes
        first_star = words.index("*") if "*" in words else len(words)
        self.const = "const" in words[:first_star]
        self.base = " ".join(w for w in words if w != "*" and w not in QUALIFIERS)
        self.indirect = self.pointers + (1 if self.array else 0)

    def is_u8(self):
        return self.base == "uint8_t" and self.indirect == 1 and not self.funcptr

    def is_size(self):
        return self.base == "size_t" and self.indirect == 0


class Decl:
    def __init__(self, header, line, name, ret, attrs, params):
        self.header, self.line, self.name = header, line, name
        self.ret, self.attrs, self.params = ret, attrs, params


def strip_comments(src):
    """Comments become spaces (newlines kept, so line numbers hold);
    string and character literals are left as they are."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif src[i] in "\"'":
            q, j = src[i], i + 1
            while j < n and src[j] != q:
                j += 2 if src[j] == "\\" else 1
            out.append(src[i:j + 1])
            i = j + 1
        else:
            out.append(src[i])
            i += 1
    return "".join(out)


def strip_preprocessor(src, header, problems):
    """Directives (with their continuation lines) become blank lines.  A
    macro whose body holds IC_API would declare functions this parser never
    sees: that is reported rather than skipped."""
    lines = src.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("#"):
            start, body = i, lines[i]
            while lines[i].rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                body += lines[i]
            m = re.match(r"\s*#\s*define\s+\w+(\([^)]*\))?(.*)$", body, re.S)
            if m and re.search(r"\bIC_API\b", m.group(2)):
                problems.append((header, "?", "R0", "line %d: a macro that declares IC_API functions "
                                 "cannot be checked" % (start + 1)))
            for k in range(start, i + 1):
                lines[k] = ""
        i += 1
    return "\n".join(lines)


def split_params(text):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    parts = [p.strip() for p in parts]
    return [] if parts == ["void"] or parts == [""] else parts


DECL = re.compile(r"^(?P<pre>.*?)\bIC_API\b(?P<ret>.*?)\b(?P<name>[A-Za-z_]\w*)\s*"
                  r"\((?P<params>.*)\)(?P<post>[^()]*)$", re.S)


def parse_header(path, problems):
    """The IC_API declarations of one header, as Decl objects."""
    header = os.path.basename(path)
    with open(path, encoding="utf-8") as f:
        src = f.read()
    src = strip_preprocessor(strip_comments(src), header, problems)
    decls = []
    for m in re.finditer(r"\bIC_API\b", src):
        begin = max(src.rfind(c, 0, m.start()) for c in ";{}") + 1
        end = src.find(";", m.end())
        line = src.count("\n", 0, m.start()) + 1
        text = " ".join(src[begin:end if end >= 0 else len(src)].split())
        d = DECL.match(text)
        if end < 0 or not d:
            problems.append((header, "?", "R0", "line %d: cannot parse '%s'" % (line, text[:80])))
            continue
        ret_words = d.group("ret").split()
        attrs = d.group("pre").split() + [w for w in ret_words if w.startswith("IC_")] + d.group("post").split()
        ret = " ".join(w for w in ret_words if not w.startswith("IC_") and w not in ("extern", "static", "inline"))
        params = [Param(p) for p in split_params(d.group("params"))]
        decls.append(Decl(header, line, d.group("name"), ret, attrs, params))
    return decls


def same_length_as_input(ps, i):
    """An output of the data input's length: out, in, len; with a tag
    between them (out, tag, taglen, in, len or out, tag[16], in, len, the
    tag written or, in an open, read).  After the output come only fixed-
    size arrays and other outputs with their lengths, then a const uint8_t
    pointer with its size_t."""
    if ps[i].const:
        return False
    j = i + 1
    while j < len(ps) and ps[j].is_u8():
        q = ps[j]
        if q.array:
            j += 1
        elif j + 1 < len(ps) and ps[j + 1].is_size():
            if q.const:
                return True
            j += 2
        else:
            return False
    return False


def check_decl(d):
    """The violations of one declaration: a list of (rule, message)."""
    out = []
    ps = d.params
    # R1
    if d.ret == "int" and "IC_NODISCARD" not in d.attrs:
        out.append(("R1", "returns int without IC_NODISCARD"))
    # R2
    for p in ps:
        if p.funcptr or p.indirect == 0:
            continue
        if p.base == "void" and d.name not in ANY_OBJECT:
            out.append(("R2", "'%s': a byte buffer is uint8_t, not void" % p.text))
        elif p.base in CHAR_TYPES and not (p.base == "char" and p.const and p.pointers == 1 and not p.array):
            out.append(("R2", "'%s': a byte buffer is uint8_t (const char * only for a name)" % p.text))
    # R3
    objs = [i for i, p in enumerate(ps) if OBJECT_TYPE.match(p.base) and p.pointers == 1]
    if objs and objs != list(range(len(objs))):
        out.append(("R3", "object parameter%s %s not first: %s" % (
            "s" if len(objs) > 1 else "", ", ".join(ps[i].name for i in objs),
            ", ".join(p.name for p in ps))))
    # R4
    outs = [i for i, p in enumerate(ps) if p.is_u8() and not p.const and p.name not in ADVANCED_STATE]
    ins = [i for i, p in enumerate(ps) if p.is_u8() and p.const]
    late = [ps[i].name for i in outs if ins and i > min(ins)]
    if late:
        out.append(("R4", "output%s %s after the input %s" % (
            "s" if len(late) > 1 else "", ", ".join(late), ps[min(ins)].name)))
    # R5
    for i, p in enumerate(ps):
        if p.is_u8() and p.const and p.name in RAW_KEY:
            rest = ps[i + 1:]
            if not (rest == [] or (len(rest) == 1 and rest[0].is_size())):
                out.append(("R5", "the raw key '%s' is followed by %s, not by its length only" % (
                    p.name, ", ".join(r.name for r in rest))))
    # R6
    for i, p in enumerate(ps):
        if p.is_u8() and not p.array:
            if not (i + 1 < len(ps) and ps[i + 1].is_size()) and not same_length_as_input(ps, i):
                out.append(("R6", "pointer %s is not followed by a size_t length" % p.name))
    # R7
    if d.name.endswith("_finish"):
        out.append(("R7", "ends a stream as _finish: the name is _final"))
    if d.name.endswith("_start"):
        out.append(("R7", "_start: a message starts with _init"))
    if ps and OBJECT_TYPE.match(ps[0].base) and ps[0].base.endswith("_ctx") and ps[0].pointers == 1:
        last = d.name.rsplit("_", 1)[-1]
        if last in STREAM_END_WORDS and not (d.name.endswith("_final") or d.name.endswith("_final_verify")) \
                and not d.name.endswith("_finish"):
            out.append(("R7", "ends a stream as _%s: the name is _final or _final_verify" % last))
    return out


def check(headers):
    """(violations, number of functions checked) over the headers."""
    problems = []
    count = 0
    for h in headers:
        for d in parse_header(h, problems):
            count += 1
            problems += [(d.header, d.name, r, m) for r, m in check_decl(d)]
    return problems, count


BAD_HEADER = """
/* one violation of each rule (and R7 twice) */
#include "incore/common.h"
typedef struct ic_bad_ctx ic_bad_ctx;
typedef struct ic_bad_key ic_bad_key;
IC_API int ic_bad_r1(uint8_t *out, size_t len);
IC_NODISCARD IC_API int ic_bad_r2(uint8_t *out, size_t outlen, const void *in, size_t len);
IC_NODISCARD IC_API int ic_bad_r3(uint8_t *out, size_t len, const ic_bad_key *k);
IC_NODISCARD IC_API int ic_bad_r4(const uint8_t *in, size_t len, uint8_t *out, size_t outlen);
IC_NODISCARD IC_API int ic_bad_r5(uint8_t *out, size_t len, const uint8_t key[32],
                                  const uint8_t nonce[12]);
IC_NODISCARD IC_API int ic_bad_r6(uint8_t *out, size_t outlen, const uint8_t *in);
IC_NODISCARD IC_API int ic_bad_finish(ic_bad_ctx *ctx, uint8_t tag[16]);
IC_NODISCARD IC_API int ic_bad_start(ic_bad_ctx *ctx, const uint8_t iv[16]);
IC_NODISCARD IC_API int ic_bad_verify(ic_bad_ctx *ctx, const uint8_t tag[16]);
#define IC_BAD_DECL(n) IC_NODISCARD IC_API int ic_bad_##n(uint8_t *out, size_t len);
"""
BAD_EXPECTED = {("ic_bad_r1", "R1"), ("ic_bad_r2", "R2"), ("ic_bad_r3", "R3"), ("ic_bad_r4", "R4"),
                ("ic_bad_r5", "R5"), ("ic_bad_r6", "R6"), ("ic_bad_finish", "R7"),
                ("ic_bad_start", "R7"), ("ic_bad_verify", "R7"), ("?", "R0")}

GOOD_HEADER = """
/* the convention kept: nothing to report */
#include "incore/common.h"
#define IC_GOOD_SIZE 16
typedef struct ic_good_ctx { int x; } ic_good_ctx;
typedef struct ic_good_key { IC_ALIGNAS(64) uint8_t rk[240]; } ic_good_key;
IC_API void ic_wipe(void *p, size_t len);
IC_NODISCARD IC_API int ic_ct_equal(const void *a, const void *b, size_t len);
IC_API const char *ic_good_name(size_t i);
IC_NODISCARD IC_API int ic_good_select(const char *prim, const char *name);
IC_NODISCARD IC_API int ic_good_key_init(ic_good_key *k, const uint8_t *key, size_t keylen);
IC_NODISCARD IC_API int ic_good_init(ic_good_ctx *ctx, const ic_good_key *k,
                                     const uint8_t *iv, size_t ivlen);
IC_NODISCARD IC_API int ic_good_ecb(const ic_good_key *k, uint8_t *out, const uint8_t *in, size_t len);
IC_NODISCARD IC_API int ic_good_gcm(const ic_good_key *k, uint8_t *out, uint8_t *tag, size_t taglen,
                                    const uint8_t *in, size_t len, const uint8_t *iv, size_t ivlen);
IC_NODISCARD IC_API int ic_good_cbc(const ic_good_key *k, uint8_t *out, const uint8_t *in,
                                    size_t len, uint8_t iv[IC_GOOD_SIZE]);
IC_NODISCARD IC_API int ic_good_seal(uint8_t *out, uint8_t tag[16], const uint8_t *in, size_t len,
                                     const uint8_t *aad, size_t aadlen, const uint8_t nonce[12],
                                     const uint8_t key[32]);
IC_NODISCARD IC_API int ic_good_open(uint8_t *out, const uint8_t tag[16], const uint8_t *in,
                                     size_t len, const uint8_t *aad, size_t aadlen,
                                     const uint8_t nonce[12], const uint8_t key[32]);
IC_NODISCARD IC_API int ic_good_decrypt(const ic_good_key *k, uint8_t *out, size_t outcap,
                                        size_t *outlen, const uint8_t *ct, size_t ctlen);
IC_NODISCARD IC_API int ic_good_final(ic_good_ctx *ctx, uint8_t *tag, size_t taglen);
IC_NODISCARD IC_API int ic_good_final_verify(ic_good_ctx *ctx, const uint8_t *tag, size_t taglen);
IC_API void ic_good_wipe(ic_good_ctx *ctx);
IC_API uint32_t ic_good_crc(uint32_t crc, const uint8_t *buf, size_t len);
"""


def self_test():
    """Planted violations are all found, a clean header gives none."""
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        bad, good = os.path.join(tmp, "bad.h"), os.path.join(tmp, "good.h")
        with open(bad, "w", encoding="utf-8") as f:
            f.write(BAD_HEADER)
        with open(good, "w", encoding="utf-8") as f:
            f.write(GOOD_HEADER)
        found, n = check([bad])
        got = {(fn, r) for _, fn, r, _ in found}
        for fn, r in sorted(BAD_EXPECTED - got):
            failures.append("the planted %s violation of %s was not reported" % (r, fn))
        for _, fn, r, m in found:
            if (fn, r) not in BAD_EXPECTED:
                failures.append("bad.h: %s: %s reported wrongly: %s" % (fn, r, m))
        planted = len({fn for fn, _ in BAD_EXPECTED if fn != "?"})
        if n != planted:
            failures.append("bad.h: %d declarations parsed, %d planted" % (n, planted))
        found, n = check([good])
        for _, fn, r, m in found:
            failures.append("good.h: %s: %s reported on a clean declaration: %s" % (fn, r, m))
        written = GOOD_HEADER.count("IC_API")
        if n != written:
            failures.append("good.h: %d declarations parsed, %d written" % (n, written))
    for f in failures:
        print("SELF-TEST FAIL: %s" % f)
    print("self-test: %d planted violations, %s" % (len(BAD_EXPECTED), "all found, clean header clean"
                                                   if not failures else "%d failures" % len(failures)))
    return not failures


def main(argv):
    args = argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if args and args[0] == "--self-test":
        return 0 if self_test() else 1
    if any(a.startswith("-") for a in args):
        print("usage: api_rules.py [--self-test] [HEADER...]", file=sys.stderr)
        return 2
    ok = self_test()
    headers = args or sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                    "..", "include", "incore", "*.h")))
    missing = [h for h in headers if not os.path.isfile(h)]
    for h in missing:
        print("%s: no such header" % h)
    problems, count = check([h for h in headers if os.path.isfile(h)])
    for header, fn, rule, msg in problems:
        print("%s: %s: %s: %s" % (header, fn, rule, msg))
    # a run that saw no declaration proves nothing
    if count == 0:
        print("no IC_API function found in %d header(s)" % len(headers))
    fail = not ok or bool(problems) or bool(missing) or count == 0
    print("%d headers, %d functions checked, %d violations" % (len(headers), count, len(problems)))
    print("%d passed, %d failed" % ((0, 1) if fail else (1, 0)))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
