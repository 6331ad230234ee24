"""Data shipped with rankviz: a small sample test collection, so the app works with no files.

``sample/`` holds TREC-format files generated once by ``make_sample.py`` (seeded; re-running it
rewrites identical files): ``qrels.txt`` (20 queries, grades 0-3) and three runs over the same
queries, ``bm25.run``, ``dense.run`` (a better system) and ``bm25_rounded.run`` (bm25's scores
rounded to one decimal, so many documents tie: the run the ties page teaches with).

>>> sorted(SAMPLE_RUNS)
['bm25', 'bm25_rounded', 'dense']
>>> SAMPLE_QRELS.is_file()
True
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["SAMPLE_DIR", "SAMPLE_QRELS", "SAMPLE_RUNS"]

SAMPLE_DIR = Path(__file__).resolve().parent / "sample"
SAMPLE_QRELS = SAMPLE_DIR / "qrels.txt"
SAMPLE_RUNS = {
    "bm25": SAMPLE_DIR / "bm25.run",
    "dense": SAMPLE_DIR / "dense.run",
    "bm25_rounded": SAMPLE_DIR / "bm25_rounded.run",
}
