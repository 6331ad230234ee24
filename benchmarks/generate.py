"""Seeded generator of realistic synthetic TREC qrels and run files for the benchmark.

    python benchmarks/generate.py --queries 5000 --docs 1000 --out benchmarks/data

writes ``qrels.txt`` (``qid iter docno rel``) and ``run.txt`` (``qid Q0 docno rank score tag``).
The data is shaped like a real ad hoc test collection, including the parts that make evaluation
tools disagree when they cut corners:

* ``--queries`` run topics with ``--docs`` documents each (5,000 x 1,000 = 5M run lines);
* scores rounded to 3 decimals, so a query has tens of tied scores (trec_eval breaks ties by
  docno descending, and the rank column is ignored);
* about 200 judgments per query: a pool of the top 40-140 ranks judged in full, 10% of the deeper
  ranks sampled, plus ~30 judged documents the run never retrieved (some of them relevant, so
  recall and nDCG's ideal ranking need the qrels, not the run);
* grades 0..3, with relevance more likely near the top, and 5% of the non-relevant judgments
  written as -1 ("pooled but not judged" for trec_eval 10);
* 1% of the run topics have no judgments (trec_eval ignores them) and 1% extra judged topics have
  no run (left out of the mean, or scored 0 with ``-c``);
* ClueWeb09-style docnos (``clueweb09-en0042-17-03125``), unique within a query, shared across
  queries; numeric qids, so ordering them as strings ("10" < "9") is exercised.

Everything is built as whole columns with numpy and pyarrow (no Python loop per line), so the
5M-line run is written in a few seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

RUN_TAG = "rankviz-synth"
UNRETRIEVED_SLOTS = 80  # max judged-but-never-retrieved documents per query
DOCNO_SPACE = 10**11  # clueweb09-en{0000..9999}-{00..99}-{00000..99999}


def _docnos(numbers: np.ndarray) -> pa.Array:
    """Format integers in [0, DOCNO_SPACE) as ClueWeb09 docnos, vectorized with pyarrow."""

    def padded(values: np.ndarray, width: int) -> pa.Array:
        return pc.utf8_lpad(pc.cast(pa.array(values), pa.string()), width, "0")

    return pc.binary_join_element_wise(
        "clueweb09-en",
        padded(numbers // 10**7, 4),
        "-",
        padded((numbers // 10**5) % 100, 2),
        "-",
        padded(numbers % 10**5, 5),
        "",
    )


def _grades(rng: np.random.Generator, relevant: np.ndarray) -> np.ndarray:
    """Grades 1..3 (60/30/10%) for relevant documents; 0, or -1 for 5% of them, otherwise."""
    graded = rng.choice(np.array([1, 2, 3], dtype=np.int8), size=relevant.shape, p=[0.6, 0.3, 0.1])
    unjudged = np.where(rng.random(relevant.shape) < 0.05, np.int8(-1), np.int8(0))
    return np.where(relevant, graded, unjudged)


def generate(queries: int, docs: int, seed: int = 42, *, first_query: int = 1, sparse: bool = False
             ) -> tuple[pa.Table, pa.Table]:
    """Build the (qrels, run) tables; see the module docstring for their shape.

    ``first_query``: the id of the first topic (chunks of a big collection get disjoint ids).
    ``sparse``: MS MARCO-like judgments, the top 5-15 ranks pooled, no deeper sample, ~5
    unretrieved judged documents: ~15 judgments per query instead of ~200, so the qrels of a
    200M-line run stay small (3M lines) as they are in the collections that have such runs.
    """
    if queries < 1 or docs < 1:
        raise ValueError(f"generate: queries and docs must be >= 1; got queries={queries}, docs={docs}")
    rng = np.random.default_rng(seed)
    qrels_only = max(1, queries // 100)
    total_queries = queries + qrels_only
    slots = docs + UNRETRIEVED_SLOTS

    # Docnos: doc j of query q is (offset_q + perm_q(j) * stride) mod DOCNO_SPACE. The stride is
    # coprime with DOCNO_SPACE (not a multiple of 2 or 5), so docnos are distinct within a query.
    stride = 1_000_003 * 7
    offsets = rng.integers(0, DOCNO_SPACE, size=(total_queries, 1), dtype=np.int64)
    permutation = rng.permuted(np.tile(np.arange(slots, dtype=np.int64), (total_queries, 1)), axis=1)
    docno_numbers = (offsets + permutation * stride) % DOCNO_SPACE
    query_ids = np.arange(first_query, first_query + total_queries)  # numeric ids written as strings

    # Run: scores descending per query, rounded to 3 decimals so that some of them tie.
    spread = rng.uniform(2.0, 8.0, size=(total_queries, 1))
    centre = rng.uniform(5.0, 25.0, size=(total_queries, 1))
    scores = np.round(-np.sort(-(centre + spread * rng.standard_normal((total_queries, docs))), axis=1), 3)

    # Relevance: likelier near the top; query difficulty varies. Pool the top 40-140 ranks, plus
    # a 10% sample deeper down, plus up to UNRETRIEVED_SLOTS documents the run never retrieved.
    ranks = np.arange(1, docs + 1)
    easiness = rng.beta(2.0, 3.0, size=(total_queries, 1))
    relevant_retrieved = rng.random((total_queries, docs)) < easiness * np.exp(-ranks / 150.0) + 0.01
    pool_depth = rng.integers(5, 16, size=(total_queries, 1)) if sparse else rng.integers(40, 141, size=(total_queries, 1))
    judged_retrieved = (ranks <= pool_depth) | (rng.random((total_queries, docs)) < (0.0 if sparse else 0.10))
    unretrieved_count = np.minimum(rng.poisson(5 if sparse else 30, size=(total_queries, 1)), UNRETRIEVED_SLOTS)
    judged_unretrieved = np.arange(UNRETRIEVED_SLOTS) < unretrieved_count
    relevant_unretrieved = rng.random((total_queries, UNRETRIEVED_SLOTS)) < 0.3 * easiness
    judged = np.hstack([judged_retrieved, judged_unretrieved])
    grades = _grades(rng, np.hstack([relevant_retrieved, relevant_unretrieved]))

    # Which queries appear where: the last `qrels_only` ids have no run, and 1% of the run
    # queries have no judgments.
    in_run = np.arange(total_queries) < queries
    in_qrels = np.ones(total_queries, dtype=bool)
    in_qrels[rng.choice(queries, size=max(1, queries // 100), replace=False)] = False

    judged &= in_qrels[:, None]
    qrels_query = np.broadcast_to(query_ids[:, None], judged.shape)[judged]
    qrels = pa.table(
        {
            "qid": pa.array(qrels_query),
            "iter": pa.array(np.zeros(qrels_query.size, dtype=np.int8)),
            "docno": _docnos(docno_numbers[judged]),
            "rel": pa.array(grades[judged]),
        }
    )
    # Real qrels are sorted by topic and docno, which also hides the run's order.
    qrels = qrels.sort_by([("qid", "ascending"), ("docno", "ascending")])
    qrels = qrels.set_column(0, "qid", pc.cast(qrels["qid"], pa.string()))

    run_rows = in_run[:, None] & np.ones((1, docs), dtype=bool)
    run_query = np.broadcast_to(query_ids[:, None], run_rows.shape)[run_rows]
    n_run = run_query.size
    run = pa.table(
        {
            "qid": pc.cast(pa.array(run_query), pa.string()),
            "Q0": pa.array(np.full(n_run, "Q0")),
            "docno": _docnos(docno_numbers[:, :docs][run_rows]),
            "rank": pa.array(np.broadcast_to(ranks, run_rows.shape)[run_rows]),
            "score": pc.cast(pa.array(scores[run_rows]), pa.string()),
            "tag": pa.array(np.full(n_run, RUN_TAG)),
        }
    )
    return qrels, run


def write_trec(table: pa.Table, path: Path) -> None:
    """Write a table as whitespace-separated TREC lines (no header, no quoting)."""
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    pacsv.write_csv(table, path, write_options=options)


def write_chunked(out: Path, queries: int, docs: int, seed: int = 42, *, chunk_queries: int = 2000,
                  sparse: bool = False) -> tuple[int, int]:
    """Write qrels.txt and run.txt of ``queries`` topics in chunks of ``chunk_queries`` topics
    (each chunk :func:`generate` with its own seed and disjoint query ids), so that a run of
    hundreds of millions of lines is written with the memory of one chunk. Returns the numbers
    of judgments and run lines written."""
    out.mkdir(parents=True, exist_ok=True)
    judgments = lines = 0
    with open(out / "qrels.txt", "wb") as qrels_file, open(out / "run.txt", "wb") as run_file:
        for number, first in enumerate(range(0, queries, chunk_queries)):
            size = min(chunk_queries, queries - first)
            # Ids of a chunk: its run topics, then its qrels-only topics (size // 100, at least 1).
            qrels, run = generate(size, docs, seed + number, first_query=first + number * (chunk_queries // 100 + 1) + 1,
                                  sparse=sparse)
            for table, handle in ((qrels, qrels_file), (run, run_file)):
                pacsv.write_csv(table, handle, write_options=pacsv.WriteOptions(
                    include_header=False, delimiter=" ", quoting_style="none"))
            judgments += qrels.num_rows
            lines += run.num_rows
    return judgments, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=5000, help="run topics (default 5000)")
    parser.add_argument("--docs", type=int, default=1000, help="retrieved documents per topic (default 1000)")
    parser.add_argument("--seed", type=int, default=42, help="random seed (default 42)")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "data", help="output folder")
    parser.add_argument("--chunk-queries", type=int, default=None,
                        help="write the files in chunks of this many topics (bounded memory, for runs of 10M+ lines)")
    parser.add_argument("--sparse", action="store_true",
                        help="MS MARCO-like judgments: ~15 per query instead of ~200 (small qrels for huge runs)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.chunk_queries:
        judgments, lines = write_chunked(args.out, args.queries, args.docs, args.seed,
                                         chunk_queries=args.chunk_queries, sparse=args.sparse)
        print(f"wrote {args.out / 'qrels.txt'} ({judgments:,} judgments) and {args.out / 'run.txt'} ({lines:,} lines) "
              f"in {time.perf_counter() - start:.1f} s", file=sys.stderr)
        return 0
    qrels, run = generate(args.queries, args.docs, args.seed, sparse=args.sparse)
    args.out.mkdir(parents=True, exist_ok=True)
    write_trec(qrels, args.out / "qrels.txt")
    write_trec(run, args.out / "run.txt")
    print(
        f"wrote {args.out / 'qrels.txt'} ({qrels.num_rows:,} judgments) and {args.out / 'run.txt'} "
        f"({run.num_rows:,} lines) in {time.perf_counter() - start:.1f} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
