#!/usr/bin/env python3
"""bench-doc.py - docs/benchmarks.md from the stored `incore speed` runs.

    python3 scripts/bench-doc.py measure [BUILD_DIR]   (make bench-doc)
        run `incore speed --vs all --json` on this machine (every algorithm,
        its default sizes: 16 B to 16 KiB, XTS data units of 512 B and
        4 KiB), write docs/bench/<cpu>.jsonl (replacing this machine's file),
        then render as below.  About 10 minutes on a 2-core machine.
    python3 scripts/bench-doc.py render [-o FILE] [--no-plots]
        (make bench-doc-render) docs/benchmarks.md and docs/plots/<cpu>-*.svg
        from every docs/bench/*.jsonl; measures nothing.
    python3 scripts/bench-doc.py check
        render to memory and compare with docs/benchmarks.md (the ctest
        bench_doc_render): exit 1 with a diff when they differ.

A machine file is the JSON rows of `incore speed --json`, one object per
line, after one line {"meta": {...}} that says what the rows do not: date,
kernel, load average before and after, the command, the incore commit and
the peers' package versions.  A file without that line (a plain
`incore speed --vs all --json > docs/bench/NAME.jsonl`) renders too, with
those fields shown as unknown.

Environment for `measure`:
  BENCH_SECONDS  time per measurement (default 0.2)
  BENCH_NAME     file name under docs/bench/ (default: from the CPU model)
  BENCH_ALGS     algorithms to measure, comma separated (default: all)

Python 3 standard library only; the plots need matplotlib (run through
scripts/plot_speed.py, which says so when it is missing: the document is
still written).  Exit status: 0; 1 on a failed measurement, check or
write; 2 on bad usage.
"""
import difflib
import glob
import json
import os
import platform
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_DIR = os.path.join(ROOT, "docs", "bench")
DOC = os.path.join(ROOT, "docs", "benchmarks.md")
PLOTS = os.path.join(ROOT, "docs", "plots")
PLOT_SCRIPT = os.path.join(ROOT, "scripts", "plot_speed.py")
PROG = "bench-doc"

# openssl-latest: the newest OpenSSL release, a module built by
# scripts/build-openssl-latest.sh (no Debian package: its version is the one
# the run reported)
PEERS = [("openssl", "OpenSSL"), ("openssl-latest", "OpenSSL latest"), ("libgcrypt", "libgcrypt"),
         ("libsodium", "libsodium"), ("isal", "ISA-L"), ("zlib", "zlib"), ("gmp", "GMP"),
         ("ipsecmb", "ipsec-mb"), ("ipsecmb-job", "ipsec-mb jobs")]
PEER_NAME = dict(PEERS)
# Debian packages of the peers, for their versions (ISA-L and GMP export none
# that `incore speed` reads)
PACKAGES = {"openssl": "libssl3", "libgcrypt": "libgcrypt20", "libsodium": "libsodium23",
            "isal": "libisal2", "zlib": "zlib1g", "gmp": "libgmp10",
            "ipsecmb": "libipsec-mb1", "ipsecmb-job": "libipsec-mb1"}

# The headline table: (algorithm, sizes)
HEADLINE = [("aes-128-gcm", (64, 1024, 16384)),
            ("aes-256-gcm", (64, 1024, 16384)),
            ("chacha20-poly1305", (64, 1024, 16384)),
            ("aes-128-ctr", (64, 1024, 16384)),
            ("aes-256-xts", (4096,)),
            ("sha256", (64, 1024, 16384)),
            ("sha512", (64, 1024, 16384)),
            ("hmac-sha256", (64, 1024, 16384)),
            ("poly1305", (64, 1024, 16384)),
            ("crc32", (64, 1024, 16384)),
            ("crc32c", (64, 1024, 16384))]
HEADLINE_OPS = ["modexp2048", "modexp4096", "rsa2048-sign", "rsa2048-verify", "rsa3072-sign",
                "rsa4096-sign"]
# The plots of each machine: (file suffix, title, algorithms)
PLOT_SETS = [("aead", "AEADs", ["aes-128-gcm", "aes-256-gcm", "chacha20-poly1305",
                                 "xchacha20-poly1305"]),
             ("hash", "hashes, MACs and CRCs", ["sha256", "sha512", "poly1305", "crc32c"])]


def fail(msg, status=1):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(status)


def note(msg):
    sys.stderr.write("%s: %s\n" % (PROG, msg))


# ---- reading the machine files ----------------------------------------------

class Machine:
    def __init__(self, path):
        self.path = path
        self.slug = os.path.splitext(os.path.basename(path))[0]
        self.meta = {}
        self.rows = []
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line.startswith("{"):
                    continue
                try:
                    obj = json.loads(line)
                except ValueError as e:
                    fail("%s:%d: not JSON: %s" % (path, n, e))
                if "meta" in obj:
                    self.meta = obj["meta"]
                elif "alg" in obj and "provider" in obj:
                    self.rows.append(obj)
        if not self.rows:
            fail("%s: no `incore speed --json` rows" % path)
        # (alg, size) -> provider -> row; the first row wins (with --impl all
        # the selected incore implementation comes first)
        self.cell = {}
        self.algs = []
        for r in self.rows:
            if r["alg"] not in self.algs:
                self.algs.append(r["alg"])
            self.cell.setdefault((r["alg"], r["size"]), {}).setdefault(r["provider"], r)
        first = self.rows[0]
        self.cpu = first.get("cpu_model", "unknown CPU")
        self.arch = first.get("arch", "")
        self.peers = [p for p, _ in PEERS if any(p in c for c in self.cell.values())]

    def sizes(self, alg):
        return sorted(s for a, s in self.cell if a == alg)

    def version(self, provider):
        pkg = self.meta.get("packages", {}).get(PACKAGES.get(provider, ""))
        for r in self.rows:
            if r["provider"] == provider and r.get("version"):
                v = r["version"]
                if v.startswith("lib") and ".so" in v and pkg:   # a soname: the package says more
                    upstream = re.split(r"[+~]|-(?=[^-]*$)", re.sub(r"^\d+:", "", pkg))[0]
                    return "%s (Debian %s %s)" % (upstream, PACKAGES[provider], pkg)
                # "OpenSSL 3.0.19 ..." -> "3.0.19 ..." (also for "OpenSSL latest")
                lead = PEER_NAME.get(provider, "?").split()[0]
                if v.lower().startswith(lead.lower() + " "):
                    v = v[len(lead) + 1:]
                return v
        return pkg or "unknown"

    def date(self):
        return self.meta.get("date", "unknown date")[:10]


def machines():
    if not os.path.isdir(BENCH_DIR):
        fail("no %s: nothing to render" % os.path.relpath(BENCH_DIR, ROOT))
    files = sorted(f for f in os.listdir(BENCH_DIR) if f.endswith(".jsonl"))
    if not files:
        fail("no docs/bench/*.jsonl: nothing to render")
    ms = [Machine(os.path.join(BENCH_DIR, f)) for f in files]
    # the most recent measurement first, then by name
    ms.sort(key=lambda m: m.slug)
    ms.sort(key=lambda m: m.meta.get("date", ""), reverse=True)
    return ms


# ---- formatting -------------------------------------------------------------

def size_label(n):
    if n >= 1024 and n % 1024 == 0:
        return "%d KiB" % (n // 1024)
    return "%d B" % n


def cpb_str(v):
    """Three significant digits, at most three decimals (thresholds on the
    rounded value, so 0.9996 prints as 1.00, not 1.000)."""
    if v >= 99.95:
        return "%.0f" % v
    if v >= 9.995:
        return "%.1f" % v
    if v >= 0.9995:
        return "%.2f" % v
    return "%.3f" % v


def ops_str(v):
    return "{:,.0f}".format(v) if v >= 99.95 else "%.1f" % v


def ratio_str(r):
    return ("%.2f×" if r >= 0.095 else "%.3f×") % r


def cpb(row):
    return row.get("cpb") if row and row.get("check", "ok") == "ok" else None


def anchor(text):
    a = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
    return a


def table_cpb(m, rows, peers, with_mib=False):
    """rows: [(alg, size, label_alg)] -> Markdown lines."""
    head = ["algorithm", "size", "incore"] + [PEER_NAME[p] for p in peers]
    head += ["vs fastest peer"]
    if with_mib:
        head += ["incore MiB/s"]
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    for alg, size, label in rows:
        c = m.cell.get((alg, size), {})
        vals = {p: cpb(c.get(p)) for p in ["incore"] + peers}
        have = [v for v in vals.values() if v]
        best = min(have) if have else None
        cells = []
        for p in ["incore"] + peers:
            v = vals[p]
            if v is None:
                cells.append("MISMATCH" if c.get(p) else "")
            else:
                s = cpb_str(v)
                cells.append("**%s**" % s if v == best and len(have) > 1 else s)
        peer_v = [vals[p] for p in peers if vals[p]]
        if vals["incore"] and peer_v:
            cells.append(ratio_str(min(peer_v) / vals["incore"]))
        else:
            cells.append("")
        if with_mib:
            r = c.get("incore")
            cells.append("%.0f" % r["mib_per_s"] if r and "mib_per_s" in r else "")
        out.append("| %s | %s | %s |" % (label, size_label(size), " | ".join(cells)))
    return out


def table_ops(m, algs):
    peers = [p for p in ("openssl", "openssl-latest", "gmp") if any(p in m.cell.get((a, s), {})
                                                  for a in algs for s in m.sizes(a))]
    head = ["operation", "incore"] + [PEER_NAME[p] for p in peers] + ["vs fastest peer"]
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    for alg in algs:
        for size in m.sizes(alg):
            c = m.cell[(alg, size)]
            vals = {p: (c[p]["ops_per_s"] if p in c and c[p].get("check", "ok") == "ok"
                        and "ops_per_s" in c[p] else None) for p in ["incore"] + peers}
            have = [v for v in vals.values() if v]
            best = max(have) if have else None
            cells = []
            for p in ["incore"] + peers:
                v = vals[p]
                if v is None:
                    cells.append("MISMATCH" if p in c else "")
                else:
                    cells.append("**%s**" % ops_str(v) if v == best and len(have) > 1 else ops_str(v))
            peer_v = [vals[p] for p in peers if vals[p]]
            cells.append(ratio_str(vals["incore"] / max(peer_v)) if vals["incore"] and peer_v else "")
            out.append("| %s | %s |" % (alg, " | ".join(cells)))
    return out


def is_ops(m, alg):
    return any("ops_per_s" in r for (a, _), c in m.cell.items() if a == alg for r in c.values())


# ---- the document -----------------------------------------------------------

def machine_title(m):
    return "%s (%s), %s" % (m.cpu, m.arch, m.date()) if m.arch else "%s, %s" % (m.cpu, m.date())


def machine_facts(m):
    meta = m.meta
    first = m.rows[0]
    impl = {}
    for r in m.rows:
        if r["provider"] == "incore":
            impl.setdefault(r["alg"], r.get("impl", ""))
    out = []
    out.append("- measured %s on %s, %s cores%s" % (
        meta.get("date", "(date unknown)"), meta.get("kernel", "(kernel unknown)"),
        meta.get("nproc", "?"),
        "; load average (1, 5, 15 min) %s before, %s after" % (meta["load_before"], meta["load_after"])
        if "load_before" in meta else ""))
    built = "incore %s" % first.get("incore_version", "?")
    if meta.get("incore_commit"):
        built += " (commit %s)" % meta["incore_commit"]
    built += ", built by %s" % first.get("compiler", "an unknown compiler")
    if meta.get("build_type"):
        built += " (CMake %s)" % meta["build_type"]
    out.append("- " + built + "; counter: %s at %.3f GHz" % (
        first.get("counter", "?"), first.get("counter_hz", 0) / 1e9))
    out.append("- peers: " + ", ".join("%s %s" % (PEER_NAME[p], m.version(p)) for p in m.peers))
    out.append("- command: " + ("`%s`" % meta["command"] if meta.get("command")
                                else "not recorded (a file without its meta line)"))
    return out


def headline(m):
    rows = []
    for alg, sizes in HEADLINE:
        first = True
        for s in sizes:
            if (alg, s) in m.cell:
                rows.append((alg, s, alg if first else ""))
                first = False
    peers = [p for p in m.peers if any(p in m.cell.get((a, s), {}) for a, s, _ in rows)]
    out = []
    if rows:
        out += table_cpb(m, rows, peers)
    ops = [a for a in HEADLINE_OPS if any(a == x for x, _ in m.cell)]
    if ops:
        out += ["", "Public-key operations per second (higher is faster):", ""]
        out += table_ops(m, ops)
    return out


def plot_files(m):
    return [("plots/%s-%s.svg" % (m.slug, suffix), title, algs)
            for suffix, title, algs in PLOT_SETS if any(a in m.algs for a in algs)]


def render():
    ms = machines()
    L = []
    L += ["# Benchmarks",
          "",
          "How fast incore is, on which machines, against which libraries: reference cycles",
          "per byte of incore and of OpenSSL (the distribution's and, where a run had it,",
          "the newest release), libgcrypt, libsodium, ISA-L, zlib, GMP and intel-ipsec-mb,",
          "each measured by `incore speed --vs all` in the same process on the same machine.",
          "Lower c/B is faster; **bold** marks the fastest in a row; \"vs fastest peer\" is the",
          "fastest peer's c/B divided by incore's (above 1.00× incore is faster).",
          "",
          "```sh",
          "make build && make bench-doc   # measure this machine (a few minutes), regenerate page and plots",
          "make bench-doc-render          # regenerate from the stored docs/bench/*.jsonl only",
          "```",
          "",
          "This page is generated by `scripts/bench-doc.py` from the stored runs in",
          "`docs/bench/*.jsonl` and, after them, the sections in `docs/bench/*.md`",
          "(runs the generator does not make: CPU features masked, instruction counts",
          "under QEMU), each with its command; edit those, not this page.",
          ""]
    for m in ms:
        L += ["## %s" % machine_title(m), ""]
        L += machine_facts(m)
        L += [""]
        L += headline(m)
        L += [""]
        for path, title, _ in plot_files(m):
            L += ["![%s, cycles per byte against message size, incore and peers](%s)" % (title, path), ""]
        L += ["Every algorithm and size: [%s](#%s)." % (
            "every measurement on this machine", anchor("every measurement: " + machine_title(m))), ""]
    for extra in sorted(glob.glob(os.path.join(ROOT, "docs", "bench", "*.md"))):
        with open(extra, encoding="utf-8") as f:
            L += f.read().rstrip("\n").splitlines() + [""]
    L += method_section()
    for m in ms:
        L += ["## Every measurement: %s" % machine_title(m), ""]
        L += ["CPU features the selection saw: %s." % m.rows[0].get("cpu_features", "unknown"),
              "incore's implementation of each algorithm (as `incore info` names it):",
              ""]
        seen = {}
        for r in m.rows:
            if r["provider"] == "incore":
                seen.setdefault(r.get("impl", "?"), []).append(r["alg"])
        for impl in sorted(seen):
            L.append("- %s: %s" % (impl, ", ".join(sorted(set(seen[impl]), key=seen[impl].index))))
        L += [""]
        flows = [a for a in m.algs if not is_ops(m, a)]
        rows = []
        for a in flows:
            for i, s in enumerate(m.sizes(a)):
                rows.append((a, s, a if i == 0 else ""))
        L += table_cpb(m, rows, [p for p in m.peers if p != "gmp" or any(
            "gmp" in m.cell.get((a, s), {}) for a, s, _ in rows)], with_mib=True)
        ops = [a for a in m.algs if is_ops(m, a)]
        if ops:
            L += ["", "Operations per second:", ""]
            L += table_ops(m, ops)
        L += [""]
    return "\n".join(L).rstrip("\n") + "\n"


def method_section():
    return """## How the figures are made

- **c/B** is reference cycles per byte of message: ticks of the CPU's fixed-rate
  counter (the TSC on x86-64, CNTVCT on AArch64, the timebase on POWER), whose
  rate `incore speed` reports.  The TSC ticks at the nominal clock, not the
  boost clock.  MiB/s (2^20 bytes per second) is wall-clock time
  (CLOCK_MONOTONIC).  Public-key rows are operations per second.
- **Median of interleaved batches**: for each algorithm and size, every
  provider gets a batch sized to take about seconds/repeats (0.2 s / 5 by
  default); the providers then run their batches in turn, A B C A B C ...,
  the first one rotating, and each reports the median of its 5 batches.  A
  burst of load from other processes hits every provider alike, so the
  ratios hold better than the absolute figures: on a shared machine read
  the load average in the machine's header before the absolute numbers.
- **Checked against the peers**: before timing, every provider processes
  the same key, IV and message once and its output (ciphertext, plaintext,
  digest, tag, CRC, modexp result, signature) is compared with incore's; a
  mismatch fails the run and would show as `MISMATCH` here.
- **One message is one user call**, the key set once where the API has a key
  schedule, a fresh IV per message, no additional data (`--aad N` adds some),
  buffers 64-byte aligned (`--misalign N`), one process (`--threads N`):
  - incore: `ic_aes_key_init` once, then `ic_aes_ecb_encrypt`,
    `ic_aes_cbc_encrypt`, `ic_aes_ctr_crypt`, ... per message.  GCM:
    `ic_aes_gcm_key_init` once, then per message the streaming
    `ic_aes_gcm_init` + `ic_aes_gcm_encrypt` + `ic_aes_gcm_final` (`-open`:
    `ic_aes_gcm_decrypt` + `ic_aes_gcm_final_verify`); the `-key` rows time
    the one-shot `ic_aes_gcm_key_seal` on that key, the `-oneshot` rows
    `ic_aes_gcm_seal`, which expands the key per message.  XTS:
    `ic_aes_xts_key_init` once, then one data unit per `ic_aes_xts_encrypt`
    (`-sector`: `ic_aes_xts_encrypt_sector`).  The one-shot `ic_hash`,
    `ic_hmac` (key per message), `ic_hkdf`, `ic_poly1305`, `ic_chacha20_xor`,
    `ic_chacha20_poly1305_seal`, `ic_xchacha20_poly1305_seal`, `ic_crc32`,
    `ic_crc32c`, `ic_random`; `ic_mont_modexp`, `ic_rsa_sign_pkcs1v15`,
    `ic_rsa_verify_pkcs1v15`.
  - OpenSSL: EVP with the key set once per context and the IV per message
    (`EVP_CipherInit_ex` with only the IV, `EVP_CipherUpdate`,
    `EVP_CipherFinal_ex`, the tag control for AEADs); digests with a reused
    `EVP_MD_CTX`; HMAC and Poly1305 with a reused `EVP_MAC_CTX` keyed per
    message; `BN_mod_exp_mont_consttime`; `EVP_PKEY_sign` / `EVP_PKEY_verify`.
    The OpenSSL column is the distribution's libcrypto (3.0 on Debian 12);
    `OpenSSL latest` (`--vs openssl-latest`) is the newest release, 4.0.x,
    making the same calls.  `scripts/build-openssl-latest.sh` (`make
    openssl-latest`, about two minutes once) fetches its source with cargo
    (the `openssl-src` crate), builds a static libcrypto with its assembly and
    links it into a module, `~/.cache/incore/openssl-<version>/openssl-latest.so`,
    that exports one lookup call and hides every OpenSSL symbol, so `incore
    speed` loads it beside the system's libcrypto in one process without
    either binding to the other.  A run without the module has no such column.
  - libgcrypt: `gcry_cipher_*` on an open handle (key set once, IV per
    message), `gcry_md_hash_buffer`, `gcry_mac_*`.
  - libsodium: one-shot calls (`crypto_aead_*_ietf_encrypt` in combined mode,
    `crypto_aead_aes256gcm_*` where the CPU has AES-NI and PCLMUL,
    `crypto_stream_chacha20_ietf_xor_ic`, `crypto_onetimeauth_poly1305`,
    `crypto_hash_sha256/512`, `crypto_auth_hmacsha256`).
  - zlib `crc32`; ISA-L `crc32_gzip_refl` (zlib's CRC-32) and `crc32_iscsi`
    (CRC-32C); GMP `mpz_powm_sec`.
  - intel-ipsec-mb (`ipsec-mb`): its direct API on keys expanded once
    (`IMB_AES128/256_GCM_ENC`/`_DEC`, `IMB_CHACHA20_POLY1305_*`, `IMB_SHA1/256/512`,
    `IMB_CRC32_ETHERNET_FCS`); `ipsec-mb jobs`: its job API, one job per message
    submitted and flushed (AES-GCM, AES-CTR, ChaCha20-Poly1305), the manager from
    `init_mb_mgr_auto` in both.
- The sizes are message bytes (whole blocks for ECB and CBC); XTS sizes are
  data units.  `-open` rows decrypt and verify; the others encrypt or seal.
- `random` is `ic_random` (its DRBG) against OpenSSL's `RAND_bytes` (a
  DRBG too); `rand-NAME` reads one raw entropy source with
  `ic_rand_source_read` and `hwrand` the CPU's generator with `ic_rand_hw`,
  so beside `RAND_bytes` they show what a raw source costs, not a
  comparison of like with like.
- incore links none of the peers: `incore speed` loads them with `dlopen`
  (Debian packages libssl3, libgcrypt20, libsodium23, libisal2, zlib1g, libipsec-mb1,
  libgmp10; `scripts/install-deps.sh` installs them) and reports a missing
  one instead of failing; intel-ipsec-mb also needs its header
  (libipsec-mb-dev) when incore is built.
- To add a machine: `make build && make bench-doc` on it writes
  `docs/bench/<cpu>.jsonl`; or run `incore speed --vs all --json >
  docs/bench/<name>.jsonl` by hand and `make bench-doc-render`.
""".splitlines() + [""]


# ---- the plots --------------------------------------------------------------

def plots(ms):
    made = 0
    for m in ms:
        for path, title, algs in plot_files(m):
            out = os.path.join(ROOT, "docs", path)
            cmd = [sys.executable, PLOT_SCRIPT, "--prog", PROG, "-o", out,
                   "--title", "%s: %s" % (m.cpu, title)]
            for a in algs:
                cmd += ["--alg", a]
            cmd.append(m.path)
            rc = subprocess.call(cmd)
            if rc == 3:
                note("plots not regenerated (see above); docs/benchmarks.md is written")
                return
            if rc != 0:
                fail("plot %s failed" % path)
            made += 1
    note("wrote %d plot(s) in docs/plots/" % made)


def cmd_render(args):
    out, do_plots = DOC, True
    i = 0
    while i < len(args):
        if args[i] == "-o" and i + 1 < len(args):
            out = args[i + 1]
            i += 2
        elif args[i] == "--no-plots":
            do_plots = False
            i += 1
        else:
            fail("render: unknown argument %r (usage: render [-o FILE] [--no-plots])" % args[i], 2)
    text = render()
    try:
        with open(out + ".tmp", "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(out + ".tmp", out)
    except OSError as e:
        fail("cannot write %s: %s" % (out, e.strerror or e))
    note("wrote %s from %d machine file(s)" % (os.path.relpath(out), len(machines())))
    if do_plots:
        os.makedirs(PLOTS, exist_ok=True)
        plots(machines())


def cmd_check(args):
    if args:
        fail("check takes no arguments", 2)
    want = render()
    try:
        with open(DOC, encoding="utf-8") as f:
            have = f.read()
    except OSError as e:
        fail("cannot read %s: %s" % (DOC, e.strerror or e))
    if have == want:
        print("docs/benchmarks.md matches its rendering from docs/bench/*.jsonl")
        return
    sys.stdout.writelines(difflib.unified_diff(
        have.splitlines(True), want.splitlines(True),
        "docs/benchmarks.md (committed)", "docs/benchmarks.md (rendered)"))
    fail("docs/benchmarks.md differs from its rendering: run `make bench-doc-render` "
         "and commit the result")


# ---- measuring --------------------------------------------------------------

def slug_of(cpu, arch):
    s = re.sub(r"\((R|TM|tm|r)\)", "", cpu)
    s = re.sub(r"\b(CPU|Processor|with .*|@ .*)$", "", s.strip()).strip() or cpu
    s = re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")
    return "%s-%s" % (s or "unknown", re.sub(r"[^a-z0-9]+", "-", (arch or "").lower()).strip("-"))


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def package_versions():
    v = {}
    for pkg in PACKAGES.values():
        try:
            r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                               capture_output=True, text=True)
        except OSError:
            return v
        if r.returncode == 0 and r.stdout.strip():
            v[pkg] = r.stdout.strip()
    return v


def cmake_cache(build, key):
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return ""


def git_commit():
    try:
        r = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return ""
        c = r.stdout.strip()
        d = subprocess.run(["git", "-C", ROOT, "diff", "--quiet", "HEAD", "--",
                            "src", "include", "tools", "CMakeLists.txt", "cmake"])
        return c + ("+modified" if d.returncode == 1 else "")
    except OSError:
        return ""


def cmd_measure(args):
    if len(args) > 1:
        fail("measure takes one BUILD_DIR", 2)
    build = os.path.join(ROOT, args[0] if args else "build")
    incore = os.path.join(build, "incore")
    if not os.access(incore, os.X_OK):
        fail("%s is not built (make build)" % incore)
    secs = os.environ.get("BENCH_SECONDS", "0.2")
    try:
        if float(secs) <= 0:
            raise ValueError
    except ValueError:
        fail("BENCH_SECONDS=%r is not a positive number" % secs, 2)
    r = subprocess.run([incore, "speed", "--list"], capture_output=True, text=True)
    if r.returncode != 0:
        fail("`incore speed --list` failed: %s" % r.stderr.strip())
    algs = [l.split()[0] for l in r.stdout.splitlines()[1:] if l.strip()]
    if os.environ.get("BENCH_ALGS"):
        want = os.environ["BENCH_ALGS"].split(",")
        bad = [a for a in want if a not in algs]
        if bad:
            fail("BENCH_ALGS: unknown algorithm(s) %s (incore speed --list)" % ", ".join(bad), 2)
        algs = [a for a in algs if a in want]
    cmd = ["speed", "--vs", "all", "--json", "--seconds", secs]
    if os.environ.get("BENCH_ALGS"):
        cmd += algs
    load0 = loadavg()
    t0 = time.time()
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    note("incore %s" % " ".join(cmd))
    p = subprocess.run([incore] + cmd, stdout=subprocess.PIPE, text=True)
    if p.returncode != 0:
        fail("`incore %s` failed (exit status %d): no file written" % (" ".join(cmd), p.returncode))
    rows = [l for l in p.stdout.splitlines() if l.startswith("{")]
    load1 = loadavg()
    if not rows:
        fail("no rows measured")
    first = json.loads(rows[0])
    name = os.environ.get("BENCH_NAME") or slug_of(first.get("cpu_model", ""), first.get("arch", ""))
    if not re.fullmatch(r"[A-Za-z0-9._-]+", name):
        fail("BENCH_NAME=%r: use letters, digits, '.', '_' and '-'" % name, 2)

    meta = {"date": date,
            "kernel": "%s %s" % (platform.system(), platform.release()),
            "machine": platform.machine(),
            "nproc": os.cpu_count(),
            "load_before": load0,
            "load_after": load1,
            "minutes": round((time.time() - t0) / 60, 1),
            "command": "incore " + " ".join(cmd),
            "incore_commit": git_commit(),
            "build_type": cmake_cache(build, "CMAKE_BUILD_TYPE"),
            "packages": package_versions()}
    os.makedirs(BENCH_DIR, exist_ok=True)
    path = os.path.join(BENCH_DIR, name + ".jsonl")
    with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps({"meta": meta}, sort_keys=True) + "\n")
        f.write("\n".join(rows) + "\n")
    os.replace(path + ".tmp", path)
    note("wrote %s (%d rows, %.1f min, load %s -> %s)"
         % (os.path.relpath(path), len(rows), meta["minutes"], load0, load1))
    cmd_render([])


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        sys.stdout.write(__doc__)
        return 0 if args else 2
    cmds = {"measure": cmd_measure, "render": cmd_render, "check": cmd_check}
    if args[0] not in cmds:
        fail("unknown command %r (measure, render, check)" % args[0], 2)
    cmds[args[0]](args[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
