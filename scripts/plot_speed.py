#!/usr/bin/env python3
"""plot_speed.py - cycles/byte against message size from `incore speed --json`.

    incore speed --json ... > rows.json
    python3 scripts/plot_speed.py -o speed.svg rows.json      (or .png, .pdf)
    incore speed ... --plot speed.svg                          (runs this script)

One panel per algorithm, one line per provider and implementation (incore's
backends and the peers), the message size on a log2 x axis, reference cycles
per byte on the y axis (log scale when the lines span more than 30x, so a
portable and a hardware path both stay readable).  Needs matplotlib (Debian:
python3-matplotlib); when the python3 running this lacks it and the system's
/usr/bin/python3 is another interpreter, the script re-runs itself there,
since a pyenv or venv python does not see Debian's packages.

`plot_speed.py --check [-o FILE]` exits 0 when matplotlib can be imported
(and FILE can be written, in a format matplotlib knows), so `incore speed
--plot` can refuse before a long run rather than after it.

Every error is one line on stderr, prefixed by --prog (default
"plot_speed.py"), never a traceback.  Exit status: 0; 1 when the plot
cannot be made or written; 2 on bad usage; 3 when matplotlib is missing.
"""
import argparse
import json
import os
import sys

SYSTEM_PYTHON = "/usr/bin/python3"
PROG = "plot_speed.py"
EXIT_FAILED, EXIT_NO_MATPLOTLIB = 1, 3


def fail(msg, status=EXIT_FAILED):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(status)


def import_matplotlib():
    """pyplot with the file-only Agg backend, or None when it is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["svg.fonttype"] = "none"   # text stays text: small, greppable SVG
        matplotlib.rcParams["svg.hashsalt"] = "incore"  # stable ids: regenerated plots diff less
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


def reexec_or_fail(plt):
    if plt is not None:
        return plt
    here = os.path.realpath(sys.executable)
    if (os.path.exists(SYSTEM_PYTHON) and os.path.realpath(SYSTEM_PYTHON) != here
            and not os.environ.get("INCORE_PLOT_REEXEC")):
        os.environ["INCORE_PLOT_REEXEC"] = "1"
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
    fail("the plots need python3 with matplotlib, which %s lacks "
         "(Debian: apt-get install python3-matplotlib)" % sys.executable, EXIT_NO_MATPLOTLIB)


def check_output(plt, out):
    """Fail now, in one line, if `out` cannot be written or has a format
    matplotlib does not know, rather than after a long run."""
    ext = os.path.splitext(out)[1][1:].lower()
    fig = plt.figure()
    known = fig.canvas.get_supported_filetypes()
    plt.close(fig)
    if ext and ext not in known:
        fail("cannot write plot %r: unknown format %r (use one of %s)"
             % (out, ext, ", ".join(sorted(known))))
    existed = os.path.lexists(out)
    try:
        with open(out, "ab"):
            pass
    except OSError as e:
        fail("cannot write plot %r: %s" % (out, e.strerror or e))
    if not existed:
        os.unlink(out)


def read_rows(paths):
    """JSON objects, one per line; lines that are not JSON are skipped."""
    rows = []
    for path in paths:
        f = sys.stdin if path == "-" else open(path, encoding="utf-8")
        with f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                r = json.loads(line)
                if all(k in r for k in ("alg", "provider", "impl", "size", "cpb")):
                    rows.append(r)
    return rows


def size_label(v, _pos=None):
    v = int(v)
    if v >= 1 << 20 and v % (1 << 20) == 0:
        return "%d MiB" % (v >> 20)
    if v >= 1024 and v % 1024 == 0:
        return "%d KiB" % (v >> 10)
    return "%d" % v


# one colour per peer in every panel and plot; incore's implementations take
# the others, in order (solid lines; the peers' are dashed)
PEER_COLOURS = {"openssl": "C1", "libsodium": "C2", "libgcrypt": "C3", "isal": "C4",
                "zlib": "C5", "gmp": "C6"}
INCORE_COLOURS = ["C0", "C9", "C8", "C7", "k", "C0", "C9", "C8"]


def plot(plt, rows, out, title):
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    algs = []
    for r in rows:
        if r["alg"] not in algs:
            algs.append(r["alg"])
    n = len(algs)
    cols = 1 if n == 1 else 2 if n <= 4 else 3
    nrows = (n + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(6.4 * cols, 4.2 * nrows), squeeze=False)
    for i, alg in enumerate(algs):
        ax = axes[i // cols][i % cols]
        lines = {}
        for r in rows:
            if r["alg"] == alg and r["cpb"] > 0:
                key = "%s %s" % (r["provider"], r["impl"])
                lines.setdefault(key, []).append((r["size"], r["cpb"]))
        lo = min(c for pts in lines.values() for _, c in pts)
        hi = max(c for pts in lines.values() for _, c in pts)
        own = iter(INCORE_COLOURS)
        for key, pts in lines.items():
            pts.sort()
            incore = key.startswith("incore ")
            colour = next(own, None) if incore else PEER_COLOURS.get(key.split(" ")[0])
            ax.plot([p[0] for p in pts], [p[1] for p in pts],
                    marker="o" if len(pts) <= 12 else None, markersize=3.5,
                    linewidth=2.0 if incore else 1.4, color=colour,
                    linestyle="-" if incore else "--", label=key)
        ax.set_xscale("log", base=2)
        # ticks at the measured sizes when there are few, else at powers of 4
        sizes = sorted({p[0] for pts in lines.values() for p in pts})
        if len(sizes) <= 8:
            ax.set_xticks(sizes)
        else:
            ax.xaxis.set_major_locator(LogLocator(base=4))
        ax.xaxis.set_major_formatter(FuncFormatter(size_label))
        ax.xaxis.set_minor_formatter(NullFormatter())
        if hi / lo > 30:
            ax.set_yscale("log")
            ax.yaxis.set_major_locator(LogLocator(base=10))
        else:
            ax.set_ylim(bottom=0)
        ax.set_title(alg)
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel("reference cycles / byte")
        ax.grid(True, which="major", alpha=0.35)
        ax.legend(fontsize=8, loc="best")
    for j in range(n, nrows * cols):
        axes[j // cols][j % cols].set_visible(False)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    # the format from the extension, PNG without one; passed explicitly so
    # matplotlib writes exactly `out` rather than appending ".png" to it.  No
    # creation date in an SVG or PDF: the same rows give the same file.
    fmt = os.path.splitext(out)[1][1:].lower() or "png"
    meta = {"Date": None} if fmt == "svg" else {"CreationDate": None} if fmt == "pdf" else None
    fig.savefig(out, format=fmt, metadata=meta)
    plt.close(fig)


def main():
    global PROG
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prog", default=PROG, help="name to prefix error messages with")
    ap.add_argument("-o", "--out", help="output file: .svg, .png or .pdf")
    ap.add_argument("--title", default="", help="figure title")
    ap.add_argument("--alg", action="append", help="only this algorithm (repeatable)")
    ap.add_argument("--check", action="store_true", help="exit 0 if matplotlib is usable")
    ap.add_argument("rows", nargs="*", help="files of `incore speed --json` rows ('-': stdin)")
    a = ap.parse_args()
    PROG = a.prog
    plt = reexec_or_fail(import_matplotlib())
    if a.out:
        check_output(plt, a.out)
    if a.check:
        return 0
    if not a.out:
        ap.error("-o FILE is required")
    try:
        rows = read_rows(a.rows or ["-"])
    except (OSError, ValueError) as e:
        fail("cannot read the rows: %s" % e)
    if a.alg:
        rows = [r for r in rows if r["alg"] in a.alg]
    if not rows:
        fail("no rows to plot")
    try:
        plot(plt, rows, a.out, a.title)
    except OSError as e:
        fail("cannot write plot %r: %s" % (a.out, e.strerror or e))
    except Exception as e:   # one line, never a traceback
        fail("cannot plot to %r: %s: %s" % (a.out, type(e).__name__, e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
