"""Shared settings: hypothesis kept to modest example counts (the suite is
part of `make test`), the repository root for the project's vectors."""
import os
import pathlib

from hypothesis import HealthCheck, settings

settings.register_profile("incore", max_examples=int(os.environ.get("INCORE_HYPOTHESIS_EXAMPLES", "60")),
                          database=None,
                          deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("incore")

ROOT = pathlib.Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors"


def read_blocks(name):
    """The records of a tests/vectors file: dicts of NAME = value, one per
    blank-line-separated block ("[section]" lines start a block too and are
    kept as the record's "section")."""
    records, cur, section = [], {}, None
    for line in (VECTORS / name).read_text().splitlines():
        line = line.strip()
        if line.startswith("#"):
            continue
        if line.startswith("["):
            if cur:
                records.append(cur)
            cur, section = {}, line.strip("[]")
            continue
        if not line:
            if cur:
                records.append(cur)
            cur = {}
            continue
        if "=" in line:
            k, v = line.split("=", 1)
            cur[k.strip()] = v.strip()
            cur.setdefault("section", section)
    if cur:
        records.append(cur)
    return records
