"""Seeded generator of a synthetic click log as a Parquet dataset, written chunk by chunk.

    python benchmarks/generate_clicks.py --rows 100000000 --out /work/bench-data/clicks/1e8

writes ``part-00000.parquet``, ``part-00001.parquet``... of ``--chunk`` rows each (5,000,000 by
default), so memory stays at one chunk (~0.5 GB) whatever ``--rows`` is. Columns:

* ``session`` (int64): search sessions of 1-40 impressions (20.5 on average), contiguous within
  a file, ids increasing across files;
* ``score`` (float32): the model's predicted CTR rounded to 1e-4, so tied scores are common
  (at most 10,001 distinct values: the Dask engine's global-AUC histogram stays small);
* ``label`` (int8): 1 clicked with probability 0.6 x score: AUC about 0.76, and about 27% of the
  sessions of one class only (most without a click: left out of GAUC and of the ranking means).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

MAX_SESSION = 40


def chunk(rng: np.random.Generator, rows: int, first_session: int) -> tuple[pa.Table, int]:
    """``rows`` impressions in whole sessions (the last one cut at the chunk's end), and the next session id."""
    sizes = rng.integers(1, MAX_SESSION + 1, rows // 10 + MAX_SESSION)
    ends = np.cumsum(sizes)
    n_sessions = int(np.searchsorted(ends, rows)) + 1
    session = np.repeat(np.arange(first_session, first_session + n_sessions, dtype=np.int64), sizes[:n_sessions])[:rows]
    # A per-session bias makes scores of a session alike, as a real model's are.
    bias = rng.normal(0.0, 0.7, n_sessions)[session - first_session]
    score = 1.0 / (1.0 + np.exp(-(rng.normal(-2.0, 1.0, rows) + bias)))
    score = np.round(score, 4).astype(np.float32)
    label = (rng.random(rows) < 0.6 * score.astype(np.float64)).astype(np.int8)
    table = pa.table({"session": session, "score": score, "label": label})
    return table, first_session + n_sessions


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--chunk", type=int, default=5_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if any(args.out.glob("*.parquet")):
        raise SystemExit(f"{args.out} already holds Parquet files; remove them or choose another --out")
    rng = np.random.default_rng(args.seed)
    start, session, written, part = time.perf_counter(), 0, 0, 0
    while written < args.rows:
        rows = min(args.chunk, args.rows - written)
        table, session = chunk(rng, rows, session)
        pq.write_table(table, args.out / f"part-{part:05d}.parquet", row_group_size=1_000_000)
        written, part = written + rows, part + 1
    print(f"{written:,} rows, {session:,} sessions, {part} files in {args.out} ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
