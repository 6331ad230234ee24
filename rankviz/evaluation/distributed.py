"""Evaluate runs larger than memory, and many runs at once, on Dask: trec_eval's numbers, digit for digit.

The in-memory engine (:func:`rankviz.evaluation.evaluator.evaluate`) reads a whole run, then
sorts and judges it at once; it is the fastest for anything that fits in memory. This engine
spreads the same work over Dask workers (a :class:`distributed.LocalCluster` on this machine or
a real cluster at a scheduler address) with bounded memory per worker:

1. **read in blocks**: every run file is cut into byte blocks at line ends
   (:func:`dask.bytes.read_bytes`; a ``.gz`` file is one block, a Parquet file one block per row
   group), each block parsed by :func:`rankviz.trec.readers.read_run` on a worker, each line
   keeping where it came from (block id and line number within the block);
2. **partition by query**: lines are shuffled on their query id (Dask's on-disk peer-to-peer
   shuffle with a distributed scheduler), so that every line of a query lands in one partition,
   whichever blocks and files it came from (an unsorted run is fine);
3. **evaluate each partition**: a docno listed twice in a query is an error naming the file and
   both line numbers (as the in-memory reader's message, even across blocks and files); then the
   partition's queries are evaluated by the in-memory :func:`~rankviz.evaluation.evaluator.evaluate`,
   the one definition of every measure, against the qrels rows of those queries (the qrels are
   read once, on the client, and are one task of the job's graph, sent to the workers that need
   them);
4. **combine on the client**: the per-query tables (one row per query: small) are concatenated,
   sorted by query id as strings, and aggregated by the same
   :func:`~rankviz.evaluation.evaluator.aggregate` as the in-memory engine, over the same values
   in the same order: means, ``gm_map`` and sums come out identical, not merely close. With
   ``complete=True`` (trec_eval ``-c``) the judged queries no partition retrieved are evaluated
   there as empty rankings.

trec_eval's conventions are the in-memory engine's, unchanged: score descending then docno
descending, ``-c``, ``-l``, ``-M``, ``-J``, the run's name being the tag of its last line.

**Surviving the workers.** A worker lost at any phase (killed, or restarted by its nanny for
passing its memory limit) costs time, never the job: every intermediate is a task of one graph
that the scheduler can recompute on any worker. The blocks are re-read from the files, the
shuffle restarts, and the qrels, which the client read, are a task of the graph too (holding the
table itself), not a scattered future: a scattered value lost with its worker "can't be
recovered" and cancels the job (``FutureCancelledError``). What memory a task needs is bounded by
the block size, so that follows the workers' memory limit when not given
(:func:`choose_blocksize`); a job that cannot fit, a block size too large for the limit or a
task that keeps killing its workers, stops with a :class:`ClusterLimitError` naming the setting
to change. The workers' and scheduler's logs (memory warnings, restarts, the shuffle's progress)
stay off the user's terminal unless ``verbose=True``.

``dask`` and ``distributed`` are imported here only, on use (``pip install "rankviz[dask]"``):
the in-memory path never imports them.
"""

from __future__ import annotations

import contextlib
import glob
import gzip
import logging
import os
import re
import sys
import uuid
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from rankviz.evaluation.evaluator import EvalResult, aggregate, evaluate
from rankviz.evaluation.measures import parse_measures
from rankviz.trec.formats import TrecFormatError, format_error
from rankviz.trec.readers import read_qrels, read_run

__all__ = ["DEFAULT_BLOCKSIZE", "ClusterLimitError", "RunEvaluation", "choose_blocksize", "dask_client",
           "evaluate_dask", "evaluate_runs", "evaluate_run_files", "quiet_dask_logs", "run_files"]

#: Bytes of run text per block (one task reads and parses one block) when the workers' memory
#: is not limited; below a limit, :func:`choose_blocksize` picks smaller blocks.
DEFAULT_BLOCKSIZE = "64MiB"
MIB = 1 << 20
#: A worker's memory apart from its blocks (interpreter, numpy, pandas, pyarrow, dask, rankviz,
#: the shuffle's buffers): with BLOCK_FOOTPRINT, a line above the peaks measured on a local
#: cluster (309, 552 and 1,286 MiB at 4, 16 and 64 MiB blocks: benchmarks/README.md, "Dask that
#: survives").
WORKER_BASE_BYTES = 320 * MIB
#: A worker's peak grows by this many times a block's bytes (the text, its parsed columns, their
#: shards in the shuffle, a partition's evaluation: 15-20x measured).
BLOCK_FOOTPRINT = 16
#: The share of its limit a worker may plan to use: Dask spills to disk at 0.7, pauses at 0.8
#: and its nanny restarts it at 0.95.
MEMORY_TARGET = 0.6
MIN_BLOCKSIZE = 1 * MIB
#: The shuffle's send buffer per worker of a local cluster (Dask's default: 1 GiB).
LOCAL_SHUFFLE_BUFFER = "32MiB"
DASK_EXTRA_HINT = 'the Dask engine needs dask and distributed: pip install "rankviz[dask]"'
_PARQUET_SUFFIXES = (".parquet", ".pq")
_DUPLICATE_EXPECTED = "each docno at most once per query"
_BARE_CR = re.compile(rb"\r(?!\n)")


# --------------------------------------------------------------------------------------------
# Which files


def run_files(source) -> list[str]:
    """The run files ``source`` names, in a stable order: a path, a glob, a directory, or a list of them.

    A glob (``runs/*.run``, ``shards/part-*.gz``) and a directory (its regular files not starting
    with ``.``) expand to their files sorted by name; a list keeps its order, each entry expanded.

    Raises
    ------
    FileNotFoundError
        When a path does not exist or a glob matches nothing (the message names it).

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name in ("b.run", "a.run"):
    ...     _ = (folder / name).write_text("q1 Q0 d1 1 1.0 t\\n")
    >>> [Path(p).name for p in run_files(str(folder / "*.run"))]
    ['a.run', 'b.run']
    """
    if isinstance(source, pd.DataFrame) or not isinstance(source, (str, os.PathLike, list, tuple)):
        raise ValueError(
            f"The Dask engine reads run files (a path, a glob, a directory or a list of them); got "
            f"{type(source).__name__}. Evaluate a run already in memory with engine='memory'.")
    if isinstance(source, (str, os.PathLike)):
        source = [source]
    files: list[str] = []
    for entry in source:
        text = os.fspath(entry)
        if glob.has_magic(text):
            matched = sorted(p for p in glob.glob(text) if os.path.isfile(p))
            if not matched:
                raise FileNotFoundError(f"no run file matches {text!r}")
            files += matched
        elif os.path.isdir(text):
            matched = sorted(str(p) for p in Path(text).iterdir() if p.is_file() and not p.name.startswith("."))
            if not matched:
                raise FileNotFoundError(f"no run file in the directory {text!r}")
            files += matched
        elif os.path.isfile(text):
            files.append(text)
        else:
            raise FileNotFoundError(f"no such run file: {text!r}")
    return files


# --------------------------------------------------------------------------------------------
# Memory: the block size a worker's limit allows


class ClusterLimitError(ValueError):
    """The job cannot fit the workers' memory as set: the message names the setting to change
    (``memory_limit`` / ``--memory-limit``, ``blocksize`` / ``--blocksize``)."""


def _size(value) -> int:
    """Bytes of a size given as an int or a string (``"64MiB"``, ``"2.5GiB"``)."""
    from dask.utils import parse_bytes

    return int(value) if isinstance(value, (int, np.integer)) else int(parse_bytes(value))


def _mib(nbytes: float) -> str:
    """A size as the command line takes it, rounded down to whole MiB (``"16MiB"``; bytes below 1 MiB)."""
    return f"{int(nbytes // MIB)}MiB" if nbytes >= MIB else f"{max(int(nbytes), 0)}B"


def choose_blocksize(memory_limit: int | None, blocksize=None, qrels_bytes: int = 0) -> int:
    """The block size (bytes of run text per task) for workers of ``memory_limit`` bytes each.

    A worker plans to use ``MEMORY_TARGET`` (60%) of its limit, below Dask's thresholds (spill at
    70%, pause at 80%, restart at 95%): ``WORKER_BASE_BYTES`` to start, twice the qrels (the
    table and a partition's share of it) and ``BLOCK_FOOTPRINT`` times a block::

        blocksize = min(DEFAULT_BLOCKSIZE, (0.6 * limit - base - 2 * qrels) / footprint)

    in whole MiB. Without a limit (``None`` or 0) it is ``DEFAULT_BLOCKSIZE``. A ``blocksize``
    given is kept unless its plan passes 80% of the limit (where Dask pauses the worker).

    Raises
    ------
    ClusterLimitError
        When even a 1 MiB block does not fit (naming the ``--memory-limit`` it needs), or when the
        given ``blocksize`` does not (naming the largest that does).

    Examples
    --------
    >>> choose_blocksize(None) // MIB, choose_blocksize(4 << 30) // MIB  # no limit; 4 GiB: the default
    (64, 64)
    >>> choose_blocksize(1 << 30) // MIB  # 1 GiB: (614.4 - 320) / 16 MiB, in whole MiB
    18
    >>> choose_blocksize(1 << 30, "16MiB") // MIB
    16
    >>> choose_blocksize(1 << 30, "128MiB")
    Traceback (most recent call last):
    ...
    rankviz.evaluation.distributed.ClusterLimitError: a block size of 128MiB (--blocksize) needs ~2368MiB per worker, more than 80% of the workers' memory limit of 1024MiB (--memory-limit): use --blocksize 31MiB or less (or leave it out: it then follows the limit), or a larger --memory-limit
    """
    default = _size(DEFAULT_BLOCKSIZE)
    if not memory_limit:
        return _size(blocksize) if blocksize is not None else default
    fixed = WORKER_BASE_BYTES + 2 * qrels_bytes
    if blocksize is not None:
        wanted = _size(blocksize)
        largest = _largest_block(memory_limit, qrels_bytes)
        if wanted > largest:
            raise ClusterLimitError(
                f"a block size of {_mib(wanted)} (--blocksize) needs ~{_mib(fixed + BLOCK_FOOTPRINT * wanted)} per "
                f"worker, more than 80% of the workers' memory limit of {_mib(memory_limit)} (--memory-limit): use "
                + (f"--blocksize {_mib(largest)} or less (or leave it out: it then follows the limit), or "
                   if largest >= MIN_BLOCKSIZE else "") + "a larger --memory-limit")
        return wanted
    fitting = (MEMORY_TARGET * memory_limit - fixed) / BLOCK_FOOTPRINT
    if fitting < MIN_BLOCKSIZE:
        needed = (fixed + BLOCK_FOOTPRINT * MIN_BLOCKSIZE) / MEMORY_TARGET
        raise ClusterLimitError(
            f"the workers' memory limit of {_mib(memory_limit)} (--memory-limit) is too small for this job: a "
            f"worker needs ~{_mib(WORKER_BASE_BYTES)} besides its blocks"
            + (f" and ~{_mib(2 * qrels_bytes)} for the qrels" if qrels_bytes else "")
            + f" within {MEMORY_TARGET:.0%} of its limit; use --memory-limit {_mib(needed + MIB - 1)} or more")
    return int(min(default, fitting // MIB * MIB))


def _largest_block(memory_limit: int, qrels_bytes: int) -> float:
    """Bytes of the largest block whose plan stays under 80% of ``memory_limit`` (Dask's pause)."""
    return (0.8 * memory_limit - WORKER_BASE_BYTES - 2 * qrels_bytes) / BLOCK_FOOTPRINT


def _gzip_size(path: str) -> int:
    """The uncompressed size of a .gz file as its trailer gives it (modulo 4 GiB, of the last
    member: a lower bound, good enough to refuse a file far too big for a worker)."""
    with open(path, "rb") as handle:
        handle.seek(-4, os.SEEK_END)
        return max(int.from_bytes(handle.read(4), "little"), os.path.getsize(path))


def _killed_error(error, blocksize: int, memory_limit: int | None) -> ClusterLimitError:
    """The ClusterLimitError of a task Dask gave up on after it took down worker after worker."""
    key = str(getattr(error, "task", "") or "")
    # Which phase, when the key tells (tasks lost with a worker that held them are rerun too, so
    # the task Dask gives up on may be a shuffle's output rather than the one that took the memory).
    phase = ("reading the run" if "rankviz-parse" in key or "read-block" in key else
             "evaluating a partition" if "rankviz-evaluate" in key else
             "shuffling the lines by query" if "shuffle" in key or "p2p" in key else "running")
    limit = f"{_mib(memory_limit)} per worker" if memory_limit else "not limited"
    return ClusterLimitError(
        f"the Dask job stopped while {phase}: the workers running one of its tasks died again and again, and "
        f"Dask gave up on it; a worker usually dies for passing its memory limit ({limit}, --memory-limit): "
        f"use a smaller --blocksize (this job's: {_mib(blocksize)}) or a larger --memory-limit")


def _workers_memory_limit(client) -> int | None:
    """The smallest memory limit of the cluster's workers in bytes (None: unlimited, or no worker yet)."""
    limits = [info.get("memory_limit") or 0 for info in client.scheduler_info().get("workers", {}).values()]
    return min(limits) if limits and all(limits) else None


@contextlib.contextmanager
def quiet_dask_logs(verbose: bool):
    """Dask's own logs (the local scheduler's and nannies': memory warnings, restarts, each
    shuffle's start and end; worker processes started meanwhile, through dask's configuration in
    the environment, ``DASK_LOGGING__DISTRIBUTED``) and its "large graph" warning kept off the
    user's terminal, unless ``verbose``: rankviz reports what matters (a result or a named error)."""
    if verbose:
        yield
        return
    logger, variable = logging.getLogger("distributed"), "DASK_LOGGING__DISTRIBUTED"
    level, before = logger.level, os.environ.get(variable)
    os.environ[variable] = "critical"
    logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Sending large graph")
            yield
    finally:
        logger.setLevel(level)
        if before is None:
            os.environ.pop(variable, None)
        else:
            os.environ[variable] = before


# --------------------------------------------------------------------------------------------
# Blocks: what a task reads, and where its lines are in their file


@dataclass(frozen=True)
class _Block:
    """One unit of reading: a byte range of a text file, a whole .gz file, or a Parquet row group."""

    run: int  # index of the run the file belongs to
    file: str
    kind: str  # "text", "gzip" or "parquet"
    index: int  # block number within the file
    first_line: int | None  # line number of the block's first line, when known before reading (Parquet)


class BlockFormatError(ValueError):
    """A problem found by a worker in one block; the client turns it into a TrecFormatError naming
    the file and the line numbers within the file (counting the lines of the blocks before)."""

    def __init__(self, block_id: int, line: int | None, expected: str, got: str,
                 other: tuple[int, int] | None = None):
        super().__init__(block_id, line, expected, got, other)
        self.block_id, self.line, self.expected, self.got, self.other = block_id, line, expected, got, other


def _parse_block(data, block_id: int) -> pd.DataFrame:
    """Parse one block of run text (bytes) or a Parquet row group (pyarrow Table) with the
    in-memory reader; add the ``block`` and ``line`` (1-based, within the block) of every row."""
    is_text = isinstance(data, (bytes, bytearray))
    if is_text and not _has_data_line(data):
        return _empty_lines()
    try:
        frame = read_run(data)
    except TrecFormatError as error:
        message = str(error)
        got = message.split(", got ", 1)[1] if ", got " in message else message
        raise BlockFormatError(block_id, error.line, error.expected, got) from None
    if is_text:
        bare_cr = _BARE_CR.search(data)
        if bare_cr is not None:  # the reader's fast path would split a line there, and our line numbers would not
            raise BlockFormatError(block_id, data.count(b"\n", 0, bare_cr.start()) + 1,
                                   "lines ending in \\n or \\r\\n", "a carriage return (\\r) inside a line")
        lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
        numbers = np.arange(1, len(frame) + 1, dtype=np.int64) if lines == len(frame) else _data_line_numbers(data)
    else:
        numbers = np.arange(1, len(frame) + 1, dtype=np.int64)
    frame = frame.assign(block=np.int32(block_id), line=numbers)
    frame.attrs = {}
    return frame


def _has_data_line(data: bytes) -> bool:
    """Whether some line is neither blank nor a comment (looked for line by line from the start:
    the first line answers for any ordinary block, without splitting 64 MB into lines)."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        line = data[start:end].strip()
        if line and not line.startswith(b"#"):
            return True
        start = end + 1
    return False


def _data_line_numbers(data: bytes) -> np.ndarray:
    """1-based numbers of the lines read_run keeps (not blank, not a comment): the slow path, for
    blocks holding comment or blank lines only."""
    return np.array([number for number, line in enumerate(data.split(b"\n"), start=1)
                     if line.strip() and not line.lstrip().startswith(b"#")], dtype=np.int64)


def _empty_lines() -> pd.DataFrame:
    text = pd.StringDtype("pyarrow", na_value=np.nan)
    return pd.DataFrame({"query_id": pd.Series([], dtype=text), "doc_id": pd.Series([], dtype=text),
                         "score": pd.Series([], dtype=np.float64), "block": pd.Series([], dtype=np.int32),
                         "line": pd.Series([], dtype=np.int64)})


def _read_parquet_row_group(path: str, row_group: int):
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).read_row_group(row_group)


def _read_gzip(path: str) -> bytes:
    with gzip.open(path, "rb") as handle:
        return handle.read()


def _blocks(runs: list[list[str]], blocksize, largest: float | None = None) -> tuple[list[_Block], list]:
    """Every block of every file of every run, and a Delayed reading each one (bytes or a Table);
    a ``.gz`` file (one block) larger than ``largest`` bytes uncompressed is a ClusterLimitError."""
    from dask import delayed
    from dask.bytes import read_bytes

    blocks, readers = [], []
    for run_index, files in enumerate(runs):
        for path in files:
            suffixes = [s.lower() for s in Path(path).suffixes]
            if suffixes and suffixes[-1] in _PARQUET_SUFFIXES:
                import pyarrow.parquet as pq

                metadata = pq.ParquetFile(path).metadata
                first = 1
                for group in range(metadata.num_row_groups):
                    blocks.append(_Block(run_index, path, "parquet", group, first))
                    readers.append(delayed(_read_parquet_row_group, pure=True)(path, group))
                    first += metadata.row_group(group).num_rows
            elif suffixes and suffixes[-1] == ".gz":
                if largest is not None and _gzip_size(path) > largest:
                    raise ClusterLimitError(
                        f"{path} is one block of ~{_mib(_gzip_size(path))} of text (a .gz file cannot be split), "
                        f"more than a worker's memory limit allows (~{_mib(largest)}): cut it into smaller files, or "
                        f"use a larger --memory-limit")
                blocks.append(_Block(run_index, path, "gzip", 0, 1))  # gzip cannot be split: one block
                readers.append(delayed(_read_gzip, pure=True)(path))
            else:
                _, [file_blocks] = read_bytes(os.path.abspath(path), delimiter=b"\n", blocksize=blocksize,
                                              sample=False)
                for index, reader in enumerate(file_blocks):
                    blocks.append(_Block(run_index, path, "text", index, 1 if index == 0 else None))
                    readers.append(reader)
    return blocks, readers


# --------------------------------------------------------------------------------------------
# Per partition (on the workers)


def _evaluate_partition(frame: pd.DataFrame, qrels: pd.DataFrame, run_of_block: np.ndarray, measures: list,
                        options: dict) -> list[tuple[int, pd.DataFrame, np.ndarray]]:
    """(run index, per-query table, query ids the run retrieved) for each run with lines in this
    partition; raise BlockFormatError naming both lines of a docno listed twice in a query."""
    if frame.empty:
        return []
    runs = run_of_block[frame["block"].to_numpy()]
    out = []
    for run_index in np.unique(runs):
        lines = frame[runs == run_index] if len(np.unique(runs)) > 1 else frame
        _check_duplicates(lines)
        retrieved = lines["query_id"].unique()
        judged_rows = lines["query_id"].isin(qrels["query_id"].unique())
        if not judged_rows.any():
            out.append((int(run_index), None, np.asarray(retrieved, dtype=object)))
            continue
        judged_lines = lines[judged_rows.to_numpy()]
        query_qrels = _with_top_grade(qrels[qrels["query_id"].isin(judged_lines["query_id"].unique()).to_numpy()],
                                      qrels)
        result = evaluate(query_qrels, judged_lines[["query_id", "doc_id", "score"]].reset_index(drop=True),
                          measures, per_query=True, complete=False, **options)
        out.append((int(run_index), result.per_query, np.asarray(retrieved, dtype=object)))
    return out


# A query id no run line can hold (the readers refuse NUL bytes in text).
_TOP_GRADE_QUERY = "\x00rankviz: the qrels' top grade"


def _with_top_grade(query_qrels: pd.DataFrame, qrels: pd.DataFrame) -> pd.DataFrame:
    """The partition's judgments plus one judgment, of a query no run lists, holding the whole
    qrels' top grade: measures that read the scale's top (ERR's and NERR's g_max, INST's and
    INSQ's and SDCG's max_rel) take it from all the qrels in memory, so each partition must see
    it too, not the top of its own queries. Unevaluated (no run line has that query)."""
    top = max(int(qrels["relevance"].max()) if len(qrels) else 0, 0)
    extra = pd.DataFrame({"query_id": [_TOP_GRADE_QUERY], "doc_id": [_TOP_GRADE_QUERY], "relevance": [top]})
    extra = extra.astype({"relevance": query_qrels["relevance"].dtype})
    return pd.concat([query_qrels, extra], ignore_index=True)


def _check_duplicates(lines: pd.DataFrame) -> None:
    """Raise BlockFormatError when a (query, docno) occurs twice, naming the later line and the earlier one."""
    repeated = lines.duplicated(["query_id", "doc_id"], keep=False).to_numpy()
    if not repeated.any():
        return
    copies = lines[repeated].sort_values(["block", "line"], kind="stable")
    later = copies[copies.duplicated(["query_id", "doc_id"], keep="first").to_numpy()]
    # The first line (in file order) that repeats an earlier one, as a line-by-line reader meets it.
    second = later.iloc[0]
    first = copies[(copies["query_id"] == second["query_id"]).to_numpy()
                   & (copies["doc_id"] == second["doc_id"]).to_numpy()].iloc[0]
    raise BlockFormatError(int(second["block"]), int(second["line"]), _DUPLICATE_EXPECTED,
                           f"doc {second['doc_id']!r} of query {second['query_id']!r} again",
                           other=(int(first["block"]), int(first["line"])))


# --------------------------------------------------------------------------------------------
# The client


@dataclass(frozen=True)
class RunEvaluation:
    """One run's result from :func:`evaluate_run_files`.

    Attributes
    ----------
    files : tuple of str
        The run's files (one run may be cut into several).
    result : EvalResult
        What :func:`rankviz.evaluation.evaluator.evaluate` returns for the same run read whole.
    retrieved : frozenset of str
        The query ids the run lists (judged or not): the command line's ``--trec-eval-version 9
        -c -q`` prints no lines for the others, as trec_eval 9 does.
    """

    files: tuple
    result: EvalResult
    retrieved: frozenset


def dask_client(client=None, scheduler: str | None = None, workers: int | None = None,
                memory_limit: str | None = None, verbose: bool = False):
    """(client, owned): the Dask client to use, and whether this call started it (then close it).

    ``client`` if given; else a client of the scheduler at ``scheduler`` (``"tcp://host:8786"``);
    else the current default client, if any; else a new :class:`distributed.LocalCluster` of
    ``workers`` processes (one thread each; default: one per core) with ``memory_limit`` per worker
    (``"2GiB"``; default: Dask's share of the machine's memory), whose workers log only critical
    messages to this terminal unless ``verbose`` (then warnings: memory, restarts).
    """
    try:
        from distributed import Client, LocalCluster, default_client
    except ImportError as error:  # pragma: no cover - dask is a dev dependency
        raise ImportError(f"{DASK_EXTRA_HINT} ({error})") from None
    if client is not None:
        return client, False
    if scheduler is not None:
        return Client(scheduler), True
    try:
        return default_client(), False
    except ValueError:
        pass
    # Loopback only; the dashboard on a free port of its own (the default 8787 may be taken).
    # Workers whose memory follows their blocks: Arrow's allocator (mimalloc) returns freed pages
    # to the system at once rather than keeping them for reuse, and the shuffle buffers 32 MiB of
    # outgoing lines per worker before sending them, not Dask's 1 GiB. A worker's peak at 64 MiB
    # blocks fell by a quarter at about the same speed (the system allocator instead saved as
    # much but cost 40% more time; benchmarks/README.md, "Dask that survives").
    options = {"threads_per_worker": 1, "processes": True, "host": "127.0.0.1", "dashboard_address": "127.0.0.1:0",
               "silence_logs": logging.WARNING if verbose else logging.CRITICAL,
               "env": {"MIMALLOC_PURGE_DELAY": "0"}}
    if workers is not None:
        options["n_workers"] = workers
    if memory_limit is not None:
        options["memory_limit"] = memory_limit
    # Given to the nannies (which pass it to every worker they start or restart): a copy of
    # this process's configuration, not a dask.config.set around the start, which other threads
    # starting the cluster would see half-restored.
    import copy

    import dask

    config = copy.deepcopy(dask.config.config)
    config.setdefault("distributed", {}).setdefault("p2p", {}).setdefault("comm", {})["buffer"] = LOCAL_SHUFFLE_BUFFER
    options["config"] = config
    cluster = LocalCluster(**options)
    return Client(cluster, set_as_default=False), True


def evaluate_run_files(qrels, runs, measures="official", *, client=None, scheduler: str | None = None,
                       workers: int | None = None, memory_limit: str | None = None,
                       blocksize=None, npartitions: int | None = None, progress: bool = False,
                       verbose: bool = False, per_query: bool = True, complete: bool = False, rel_threshold: int = 1,
                       depth: int | None = None, judged_only: bool = False, trec_eval_version: str = "10",
                       collection_size: int = 0) -> list[RunEvaluation]:
    """Evaluate several runs, each one file or several, in one Dask job against one qrels read once.

    Parameters
    ----------
    qrels : path, DataFrame or anything :func:`rankviz.read_qrels` reads
        Read once, on the client; one task of the job's graph (recomputed if its worker is lost).
    runs : list of (path, glob, directory, or list of them)
        One entry per run; an entry naming several files (a glob, a directory, a list) is one run
        cut into pieces (its lines may be in any order, a query's lines in several files). Text
        (``qid Q0 docno rank score tag``, split into blocks of ``blocksize`` bytes), ``.gz`` (one
        block per file) and Parquet (one block per row group; line = row number + 1).
    measures, per_query, complete, rel_threshold, depth, judged_only, trec_eval_version, collection_size
        As for :func:`rankviz.evaluation.evaluator.evaluate`.
    client, scheduler, workers, memory_limit
        Where to compute: see :func:`dask_client`. A cluster this call starts is closed at the end.
    blocksize : int or str, optional
        Bytes of text per block (one reading task): smaller blocks bound the memory of a task.
        Default: :func:`choose_blocksize` of the workers' memory limit (``DEFAULT_BLOCKSIZE``,
        64 MiB, from a limit of ~2.2 GiB up, or with no limit; ~18 MiB at 1 GiB).
    npartitions : int, optional
        Partitions of the shuffle by query (default: the number of blocks, so a partition holds
        about one block of lines).
    progress : bool, default False
        Show Dask's progress bar on stderr while the job runs.
    verbose : bool, default False
        Let Dask's logs through (workers' memory warnings and restarts, the shuffle's progress).

    Returns
    -------
    list of RunEvaluation
        One per entry of ``runs``, in that order: ``.result`` equals (to the last digit) what the
        in-memory ``evaluate`` gives for the run read whole.

    Raises
    ------
    TrecFormatError
        (a ``ValueError``) naming the file and line of a malformed run line, or of a docno listed
        twice in a query, with the line of its first occurrence (``run.txt line 9: expected each
        docno at most once per query, got doc 'd1' of query 'q1' again (first on line 2)``; when
        the copies are in two files, the first one's file is named too).
    ClusterLimitError
        (a ``ValueError``) when the job cannot fit the workers' memory limit, naming the setting
        to change (see :func:`choose_blocksize`), or when Dask gave up on a task that kept killing
        its workers.
    ValueError
        When no query of a run has judgments, as ``evaluate``.

    Notes
    -----
    A worker lost at any phase is replaced and its work recomputed (the blocks re-read, the
    shuffle restarted, the qrels task rerun): the job takes longer, its result is the same.
    Lines are partitioned by a hash of their query id, so a partition's queries are whole; each
    partition is evaluated by the in-memory engine (same kernels, same tie rule: score
    descending, then docno descending), and the client concatenates the per-query rows, sorts
    them by query id as strings and aggregates them with the in-memory engine's ``aggregate``
    (arithmetic mean, geometric mean floored at 1e-5, sums for counts): the numbers are the
    in-memory engine's, bit for bit.

    References
    ----------
    trec_eval 10.0, https://github.com/usnistgov/trec_eval ; Dask, https://docs.dask.org

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "qrels").write_text("q1 0 d1 1\\nq2 0 d2 1\\n")
    >>> _ = (folder / "a.run").write_text("q1 Q0 d1 1 2.0 a\\nq2 Q0 d1 1 1.0 a\\nq2 Q0 d2 2 1.0 a\\n")
    >>> from distributed import Client  # not run as a doctest: the tests share one cluster (tests/)
    >>> with Client(n_workers=2, threads_per_worker=1) as client:  # doctest: +SKIP
    ...     [run] = evaluate_run_files(folder / "qrels", [folder / "a.run"], ["P@1", "AP"], client=client)
    ...     run.result.mean.to_dict()  # q2: tie at 1.0, d2 > d1 by docno: d2 first
    {'P@1': 1.0, 'AP': 1.0}
    """
    parsed = parse_measures(measures)
    if not isinstance(runs, (list, tuple)):
        raise ValueError(f"The 'runs' parameter of evaluate_run_files must be a list (one entry per run). "
                         f"Got {type(runs).__name__} instead.")
    files = [run_files(entry) for entry in runs]
    computed = [m for m in parsed if m.spec.kernel is not None]
    options = {"rel_threshold": rel_threshold, "depth": depth, "judged_only": judged_only,
               "trec_eval_version": trec_eval_version, "collection_size": collection_size}
    qrels = getattr(qrels, "frame", qrels)  # a TrecTable: its DataFrame
    qrels_frame = qrels if isinstance(qrels, pd.DataFrame) else read_qrels(qrels)
    qrels_frame = qrels_frame[["query_id", "doc_id", "relevance"]]
    # Ids compare as strings, as the in-memory engine compares them (a DataFrame may hold ints).
    qrels_frame = qrels_frame.assign(**{c: qrels_frame[c].astype(str) for c in ("query_id", "doc_id")
                                        if not pd.api.types.is_string_dtype(qrels_frame[c])})
    for run_files_ in files:
        if all(os.path.getsize(path) == 0 for path in run_files_):
            read_run(run_files_[0])  # raises the in-memory reader's "empty input" error, naming the file

    if client is None and scheduler is None and memory_limit is not None:  # a local cluster: refuse before starting it
        choose_blocksize(_size(memory_limit), blocksize, int(qrels_frame.memory_usage(deep=True).sum()))
    with quiet_dask_logs(verbose):
        client, owned = dask_client(client, scheduler, workers, memory_limit, verbose)
        try:
            parts = _compute(client, qrels_frame, files, computed, options, blocksize, npartitions, progress)
        finally:
            if owned:
                cluster = getattr(client, "cluster", None)
                client.close()
                if cluster is not None:
                    cluster.close()
    return [_combine(index, run_files_, parts, qrels_frame, computed, options, per_query, complete)
            for index, run_files_ in enumerate(files)]


def _compute(client, qrels_frame, files, computed, options, blocksize, npartitions, progress):
    """Run the job: read blocks, shuffle by query, evaluate partitions; return the partitions'
    outputs (or raise the TrecFormatError a worker's BlockFormatError stands for)."""
    import dask.dataframe as dd
    from dask import delayed
    from distributed import KilledWorker

    limit = _workers_memory_limit(client)
    qrels_bytes = int(qrels_frame.memory_usage(deep=True).sum())
    blocksize = choose_blocksize(limit, blocksize, qrels_bytes)
    blocks, readers = _blocks(files, blocksize, _largest_block(limit, qrels_bytes) if limit else None)
    run_of_block = np.array([block.run for block in blocks], dtype=np.int32)
    # A token of its own per job: two jobs over the same files get distinct task keys and shuffle ids
    # (a p2p shuffle whose id a finishing job is still releasing would otherwise be shared).
    job = uuid.uuid4().hex
    parsed_blocks = [delayed(_parse_block)(reader, block_id, dask_key_name=f"rankviz-parse-{job}-{block_id}")
                     for block_id, reader in enumerate(readers)]
    lines = dd.from_delayed(parsed_blocks, meta=_empty_lines(), verify_meta=False)
    partitions = npartitions or max(1, len(blocks))
    if len(blocks) > 1 or partitions > 1:  # a query's lines may be in any block: always regroup them
        lines = lines.shuffle(on="query_id", npartitions=partitions, shuffle_method="p2p")
    # The qrels as a task holding the table, not a scattered future: the scheduler can run it
    # again on any worker when the ones holding it are lost (a scattered value cannot be
    # recovered and would cancel the job). A key of this job's own: two jobs never share it.
    judgments = delayed(_judgments)(qrels_frame, dask_key_name=f"rankviz-qrels-{job}")
    tasks = [delayed(_evaluate_partition)(part, judgments, run_of_block, computed, options,
                                          dask_key_name=f"rankviz-evaluate-{job}-{index}")
             for index, part in enumerate(lines.to_delayed())]
    futures = client.compute(tasks)
    try:
        if progress:
            from distributed import progress as show_progress

            with contextlib.redirect_stdout(sys.stderr):  # Dask draws on stdout, where the results go
                show_progress(futures, multi=False, scheduler=client.scheduler.address)
        return [item for output in client.gather(futures) for item in output]
    except BlockFormatError as error:
        raise _file_error(error, blocks, readers, client) from None
    except KilledWorker as error:
        raise _killed_error(error, blocksize, limit) from None
    finally:
        client.cancel(futures)


def _judgments(frame: pd.DataFrame) -> pd.DataFrame:
    """The qrels task's value: the table the client read (carried in the task itself)."""
    return frame


def _combine(index: int, files: list[str], parts, qrels_frame, computed, options, per_query, complete) -> RunEvaluation:
    """One run's EvalResult from its partitions' per-query tables: sorted and aggregated as the
    in-memory engine does."""
    tables = [table for run, table, _ in parts if run == index and table is not None and len(table)]
    retrieved = frozenset(str(q) for run, _, ids in parts if run == index for q in ids)
    if complete:
        absent = sorted(set(qrels_frame["query_id"].unique()) - retrieved)
        if absent:
            empty = _empty_lines()[["query_id", "doc_id", "score"]]
            missing = _with_top_grade(qrels_frame[qrels_frame["query_id"].isin(absent).to_numpy()], qrels_frame)
            table = evaluate(missing, empty, computed, per_query=True, complete=True, **options).per_query
            tables.append(table[table.index.astype(str) != _TOP_GRADE_QUERY])
    if not tables:
        raise ValueError(
            f"evaluate: no query of the run {', '.join(files)} has judgments in the qrels (query ids must match "
            f"exactly, as strings); nothing to evaluate."
        )
    table = pd.concat(tables) if len(tables) > 1 else tables[0]
    order = sorted(range(len(table)), key=list(table.index.astype(str)).__getitem__)  # strcmp order, as evaluate
    table = table.iloc[order]
    table.index = pd.Index(table.index.astype(str), name="query_id", dtype=object)
    means = {str(m): aggregate(m, table[str(m)].to_numpy()) for m in computed if m.aggregate != "none"}
    result = EvalResult(per_query=table if per_query else table[[]], mean=pd.Series(means, dtype=np.float64, name="mean"),
                        measures=tuple(computed), run_name=_run_name(files[-1]))
    return RunEvaluation(tuple(files), result, retrieved)


def _run_name(path: str) -> str | None:
    """The tag of the run's last line (trec_eval keeps that one), from the end of its last file."""
    suffixes = [s.lower() for s in Path(path).suffixes]
    if suffixes and suffixes[-1] in _PARQUET_SUFFIXES:
        import pyarrow.parquet as pq

        handle = pq.ParquetFile(path)
        last = handle.read_row_group(handle.metadata.num_row_groups - 1) if handle.metadata.num_row_groups else None
        return read_run(last).attrs.get("run_name") if last is not None and last.num_rows else None
    if suffixes and suffixes[-1] == ".gz":
        tail = _read_gzip(path)[-(1 << 16):]
    else:
        size = os.path.getsize(path)
        with open(path, "rb") as handle:
            handle.seek(max(0, size - (1 << 16)))
            tail = handle.read()
    for line in reversed(tail.split(b"\n")):
        parts = line.split()
        if len(parts) >= 6 and not parts[0].startswith(b"#"):
            return parts[5].decode("utf-8", "replace")
    return None


def _file_error(error: BlockFormatError, blocks: list[_Block], readers: list, client) -> TrecFormatError:
    """The TrecFormatError of a worker's BlockFormatError: block-relative line numbers made file
    line numbers, counting the lines of the file's blocks before (only on this error path)."""
    from dask import delayed

    def file_line(block_id: int, line: int | None) -> int | None:
        if line is None:
            return None
        block = blocks[block_id]
        if block.first_line is not None:
            return block.first_line + line - 1
        before = [b for b, other in enumerate(blocks) if other.file == block.file and other.index < block.index]
        counts = client.compute([delayed(_count_lines)(readers[b]) for b in before], sync=True)
        return sum(counts) + line

    block = blocks[error.block_id]
    line = file_line(error.block_id, error.line)
    got = error.got
    if error.other is not None:
        other_block = blocks[error.other[0]]
        other_line = file_line(*error.other)
        where = f"line {other_line}" if other_block.file == block.file else f"{other_block.file} line {other_line}"
        got = f"{got} (first on {where})"
    elif error.expected == _DUPLICATE_EXPECTED and line is not None:
        # read_run found both copies in this one block: its "first on line N" is block-relative.
        offset = line - error.line
        got = re.sub(r"\(first on line (\d+)\)", lambda m: f"(first on line {int(m.group(1)) + offset})", got)
    return format_error(block.file, line, error.expected, got)


def _count_lines(data: bytes) -> int:
    return data.count(b"\n")


def evaluate_dask(qrels, run, measures="official", *, client=None, scheduler: str | None = None,
                  workers: int | None = None, memory_limit: str | None = None, blocksize=None,
                  npartitions: int | None = None, progress: bool = False, verbose: bool = False,
                  **options) -> EvalResult:
    """:func:`rankviz.evaluation.evaluator.evaluate` of one run on Dask: the same EvalResult, digit for digit.

    Parameters
    ----------
    qrels : path or DataFrame
        As for ``evaluate``; read once on the client.
    run : path, glob, directory or list of paths
        One run, possibly cut into several files (text, ``.gz``, Parquet), lines in any order.
    measures : str, Measure or list of them
        As for ``evaluate``.
    client, scheduler, workers, memory_limit, blocksize, npartitions, progress, verbose
        See :func:`evaluate_run_files`.
    **options
        ``per_query``, ``complete``, ``rel_threshold``, ``depth``, ``judged_only``,
        ``trec_eval_version``, ``collection_size``: as for ``evaluate``.

    Returns
    -------
    EvalResult

    Notes
    -----
    See :func:`evaluate_run_files` for how the work is split and why the numbers are identical.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "qrels").write_text("q1 0 d1 1\\n")
    >>> _ = (folder / "a.run").write_text("q1 Q0 d2 1 2.0 a\\nq1 Q0 d1 2 1.0 a\\n")
    >>> from distributed import Client  # not run as a doctest: the tests share one cluster (tests/)
    >>> with Client(n_workers=2, threads_per_worker=1) as client:  # doctest: +SKIP
    ...     evaluate_dask(folder / "qrels", folder / "a.run", "AP", client=client).mean["AP"]  # (1/2) / 1
    0.5
    """
    [evaluation] = evaluate_run_files(qrels, [run], measures, client=client, scheduler=scheduler, workers=workers,
                                      memory_limit=memory_limit, blocksize=blocksize, npartitions=npartitions,
                                      progress=progress, verbose=verbose, **options)
    return evaluation.result


def evaluate_runs(qrels, runs, measures="official", *, engine: str = "dask", per_query: bool = False,
                  **options) -> pd.DataFrame:
    """Evaluate every run of a directory, a glob or a list against one qrels: one results table.

    Parameters
    ----------
    qrels : path or DataFrame
        Read once.
    runs : path, glob, directory or list of them
        Each file is one run (see :func:`run_files`).
    measures : str, Measure or list of them
        As for :func:`rankviz.evaluation.evaluator.evaluate`.
    engine : {"dask", "memory"}, default "dask"
        ``"dask"``: all runs in one Dask job (:func:`evaluate_run_files`); ``"memory"``: one
        in-memory ``evaluate`` per run.
    per_query : bool, default False
        Also give one row per run and query.
    **options
        The other options of ``evaluate`` (``complete``, ``rel_threshold``, ``depth``...) and, for
        the Dask engine, those of :func:`evaluate_run_files` (``client``, ``scheduler``, ``blocksize``...).

    Returns
    -------
    pandas.DataFrame
        Index (``run``: the file path, ``query_id``: ``"all"`` for the aggregate, then each query
        with ``per_query=True``), columns ``run_name`` (the run's tag) and one per measure
        (``str(measure)``). Aggregate rows hold ``EvalResult.mean``; per-query rows
        ``EvalResult.per_query``.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "qrels").write_text("q1 0 d1 1\\n")
    >>> _ = (folder / "runs").mkdir()
    >>> _ = (folder / "runs" / "a.run").write_text("q1 Q0 d1 1 2.0 a\\n")
    >>> _ = (folder / "runs" / "b.run").write_text("q1 Q0 d2 1 2.0 b\\nq1 Q0 d1 2 1.0 b\\n")
    >>> table = evaluate_runs(folder / "qrels", folder / "runs", ["AP"], engine="memory")
    >>> table["AP"].tolist()
    [1.0, 0.5]
    """
    files = run_files(runs)
    if engine == "memory":
        from rankviz.trec.readers import read_qrels_table

        judged = qrels if isinstance(qrels, pd.DataFrame) else read_qrels_table(qrels)
        results = [evaluate(judged, path, measures, per_query=per_query, **options)
                   for path in files]
    elif engine == "dask":
        results = [e.result for e in evaluate_run_files(qrels, [[f] for f in files], measures, per_query=per_query,
                                                        **options)]
    else:
        raise ValueError(f"The 'engine' parameter of evaluate_runs must be 'dask' or 'memory'. Got {engine!r} instead.")
    frames = []
    for path, result in zip(files, results):
        rows = [result.mean.to_frame().T.assign(query_id="all")]
        if per_query:
            rows.append(result.per_query.reset_index())
        frame = pd.concat(rows, ignore_index=True).assign(run=path, run_name=result.run_name)
        frames.append(frame)
    table = pd.concat(frames, ignore_index=True).set_index(["run", "query_id"])
    measure_columns = [c for c in table.columns if c != "run_name"]
    return table[["run_name", *measure_columns]]
