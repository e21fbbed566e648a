#!/usr/bin/env python3
"""plot_poly1305_sweep.py PRODUCT.csv ALGO.csv OUT.svg

Poly1305 cycles/byte against message length from two CSV files of
scripts/poly1305_sweep.c: PRODUCT from the normal build (every backend,
scalar below each crossover), ALGO from a build with
-DIC_POLY1305_AVX2_MIN=1 (avx2 and avx2-gg vector code at every length,
the setting of the M.Tech dissertation "Improved SIMD Implementation of
Poly1305").  Top: cycles/byte of every backend against message length.
Bottom: how many fewer cycles complete decimation (avx2) takes than
Goll-Gueron's incomplete one (avx2-gg), per length and as a 64-byte moving
average, beside the averages the dissertation reports up to 1 KiB.
"""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt


def load(path):
    rows = list(csv.DictReader(open(path)))
    cols = [c for c in rows[0] if c != "size"]
    size = [int(r["size"]) for r in rows]
    return size, {c: [float(r[c]) for r in rows] for c in cols}


def main():
    prod, algo, out = sys.argv[1:4]
    ps, pc = load(prod)
    as_, ac = load(algo)
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(10, 9), sharex=True)
    for name, ys in pc.items():
        a1.plot(ps, ys, lw=0.7, label=name)
    a1.set_ylabel("TSC ticks per byte (one-shot ic_poly1305)")
    a1.set_yscale("log")
    a1.set_title("Poly1305 on this machine, every backend (normal build)")
    a1.grid(True, which="both", alpha=0.3)
    a1.legend()
    gain = [(g - c) / g * 100 for c, g in zip(ac["avx2"], ac["avx2-gg"])]
    w = 64
    avg = [sum(gain[max(0, i - w // 2):i + w // 2]) / len(gain[max(0, i - w // 2):i + w // 2])
           for i in range(len(gain))]
    a2.plot(as_, gain, lw=0.4, color="0.7", label="per length")
    a2.plot(as_, avg, lw=1.5, color="C0", label="64-byte moving average")
    a2.axhline(0, color="k", lw=0.6)
    a2.set_ylim(-25, 40)
    a2.fill_between([49, 1024], 12.58, 14.44, color="C3", alpha=0.25,
                    label="dissertation: 12.58 % (Skylake) / 14.44 % (Kaby Lake) on average, 49 B..1 KiB")
    a2.set_ylabel("% fewer cycles: complete (avx2) vs Goll-Gueron (avx2-gg)")
    a2.set_xlabel("message length (bytes)")
    a2.set_title("Complete vs incomplete 4-decimation, vector code at every length (-DIC_POLY1305_AVX2_MIN=1)")
    a2.grid(True, alpha=0.3)
    a2.legend(loc="upper right")
    fig.tight_layout()
    fig.savefig(out)


if __name__ == "__main__":
    main()
