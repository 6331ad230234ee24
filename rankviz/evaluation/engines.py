"""``rankviz.evaluate``: one entry point, two engines.

* ``engine="memory"`` (the default): :func:`rankviz.evaluation.evaluator.evaluate`, the whole run
  read and evaluated at once in this process. The fastest for any run that fits in memory (a
  few GB of run text on a laptop).
* ``engine="dask"``: :func:`rankviz.evaluation.distributed.evaluate_dask`, the run read in
  blocks and evaluated partition by partition on Dask workers (this machine's cores, or a
  cluster at a scheduler address) with bounded memory per worker; the numbers are the in-memory
  engine's, digit for digit. For runs larger than memory, runs cut into many files, and many
  runs at once (:func:`rankviz.evaluation.distributed.evaluate_runs`).

Kept apart from both so that neither imports the other: the Dask engine evaluates each
partition with the in-memory one, and the in-memory path never imports dask.
"""

from __future__ import annotations

__all__ = ["ENGINES", "evaluate"]

ENGINES = ("memory", "dask")


def evaluate(qrels, run, measures="official", *, engine: str = "memory", client=None, scheduler: str | None = None,
             workers: int | None = None, memory_limit: str | None = None, blocksize=None,
             npartitions: int | None = None, progress: bool = False, as_tool: str | None = None, **options):
    """Evaluate a run against qrels with trec_eval's conventions, in memory or on Dask.

    Parameters
    ----------
    qrels, run, measures
        As for :func:`rankviz.evaluation.evaluator.evaluate` (which documents every measure
        option and convention). With ``engine="dask"``, ``run`` is a path, a glob, a directory
        or a list of paths (one run, possibly cut into several text, ``.gz`` or Parquet files)
        and ``qrels`` a path or a DataFrame.
    engine : {"memory", "dask"}, default "memory"
        ``"memory"``: read the whole run and evaluate it at once (fastest when it fits in memory).
        ``"dask"``: read it in blocks, partition the lines by query, evaluate the partitions on
        Dask workers (bounded memory; same numbers, digit for digit); see
        :mod:`rankviz.evaluation.distributed`.
    as_tool : str or None, default None
        Another tool's numbers instead of trec_eval's: a name of :data:`rankviz.TOOLS`
        (``"sklearn"``, ``"ranx"``, ``"recbole"``...). Each query is ranked and scored with that
        tool's conventions (tie order, ideal ranking, gain, MAP@k's denominator...:
        :data:`rankviz.CONVENTIONS`), for nDCG, AP, P, R, RR and Success at any cutoff where the
        tool has the measure; the tool's own names of the measures are in
        ``rankviz.conventions.PROFILES[tool].measures`` and docs/conventions.md. In memory only,
        without the other options; see :func:`rankviz.evaluation.tools.evaluate_as_tool`.
    client, scheduler, workers, memory_limit, blocksize, npartitions, progress
        Dask engine only: a ``distributed.Client``, or a scheduler address (``"tcp://host:8786"``),
        or the size of a local cluster to start (``workers`` processes with ``memory_limit``
        each, ``"2GiB"``); bytes per block (``blocksize``, default: what the workers' memory
        limit allows, at most ``"64MiB"``: :func:`~rankviz.evaluation.distributed.choose_blocksize`);
        partitions of the shuffle by query; a progress bar on stderr.
    **options
        ``per_query``, ``complete``, ``rel_threshold``, ``depth``, ``judged_only``,
        ``trec_eval_version``, ``collection_size``, and for the memory engine also
        ``qrels_format`` and ``zscores``: as for :func:`rankviz.evaluation.evaluator.evaluate`.

    Returns
    -------
    EvalResult
        ``per_query`` and ``mean``, the same for both engines.

    Notes
    -----
    Ties are broken as trec_eval breaks them (score descending, then docno descending) by both
    engines: the Dask engine runs the in-memory one on each partition of whole queries.

    References
    ----------
    trec_eval 10.0, https://github.com/usnistgov/trec_eval

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "relevance": [1]})
    >>> run = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d2", "d1"], "score": [2.0, 1.0]})
    >>> float(evaluate(qrels, run, "AP").mean["AP"])  # d1 at rank 2: (1/2) / 1
    0.5
    >>> float(evaluate(qrels, run, "AP", as_tool="sklearn").mean["AP"])  # the same for scikit-learn
    0.5
    """
    if as_tool is not None:
        given = sorted(name for name, value in options.items() if name != "per_query")
        if engine != "memory" or given:
            raise ValueError(f"evaluate(as_tool=...) takes no other options; got engine={engine!r}"
                             f"{''.join(', ' + n for n in given)}. A tool's conventions are fixed by its profile.")
        from rankviz.evaluation.tools import evaluate_as_tool

        return evaluate_as_tool(qrels, run, measures, as_tool, per_query=options.get("per_query", True))
    if engine == "memory":
        dask_only = {"client": client, "scheduler": scheduler, "workers": workers, "memory_limit": memory_limit,
                     "blocksize": blocksize, "npartitions": npartitions, "progress": progress or None}
        given = [name for name, value in dask_only.items() if value is not None]
        if given:
            raise ValueError(f"The {', '.join(repr(n) for n in given)} parameter(s) of evaluate are for "
                             f"engine='dask'; got them with engine='memory'.")
        from rankviz.evaluation.evaluator import evaluate as evaluate_in_memory

        return evaluate_in_memory(qrels, run, measures, **options)
    if engine == "dask":
        unsupported = [name for name in ("qrels_format", "zscores") if options.get(name) not in (None, "qrels")]
        if unsupported:
            raise ValueError(f"evaluate(engine='dask') does not support {', '.join(unsupported)} (only TREC qrels, "
                             f"no z-scores); use engine='memory'.")
        options.pop("qrels_format", None)
        options.pop("zscores", None)
        from rankviz.evaluation.distributed import evaluate_dask

        return evaluate_dask(qrels, run, measures, client=client, scheduler=scheduler, workers=workers,
                             memory_limit=memory_limit, blocksize=blocksize,
                             npartitions=npartitions, progress=progress, **options)
    raise ValueError(f"The 'engine' parameter of evaluate must be one of {', '.join(repr(e) for e in ENGINES)}. "
                     f"Got {engine!r} instead.")
