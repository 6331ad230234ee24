"""A tool's numbers, and why two tools disagree: :func:`evaluate_as_tool` and :func:`disagreement`.

Every tool profile of :mod:`rankviz.conventions` is a set of choices (tie order, where the ideal
ranking comes from, gain, log base, MAP@k's denominator, recall or hit rate, the relevance level,
what becomes of a query without relevant documents or missing from the run). Here one query at a
time is ranked and scored under those choices by the kernels of
:mod:`rankviz.metrics.kernels.conventions`, so:

* ``evaluate(qrels, run, measures, as_tool="sklearn")`` gives, per query, what scikit-learn gives
  for the same data (``rankviz.evaluate`` routes here);
* :func:`disagreement` scores the run under two profiles and, for each query where they differ,
  switches the conventions in which the profiles differ one at a time: a convention is named when
  switching it alone changes the query's value under either profile; when no single switch does,
  the difference needs several together and every differing convention is named (``jointly``).

Queries: every query of the qrels (judged documents of any grade) is evaluated; a query of the run
without judgments is ignored by every profile; a judged query the run misses is scored by the
profile's ``missing_query`` choice.

>>> import pandas as pd
>>> qrels = pd.DataFrame({"query_id": ["q1"] * 2, "doc_id": ["a", "b"], "relevance": [1, 0]})
>>> run = pd.DataFrame({"query_id": ["q1"] * 2, "doc_id": ["a", "b"], "score": [1.0, 1.0]})
>>> evaluate_as_tool(qrels, run, "AP", "trec_eval").per_query["AP"].tolist()  # b before a: docno descending
[0.5]
>>> evaluate_as_tool(qrels, run, "AP", "sklearn").per_query["AP"].tolist()  # one tie group: 1/2 at its end
[0.5]
>>> evaluate_as_tool(qrels, run, "AP", "ranx").per_query["AP"].tolist()  # the order given: a first
[1.0]
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass

import numpy as np

__all__ = ["Query", "read_queries", "parse_tool_measure", "profile_settings", "check_tool_measure", "query_values", "evaluate_as_tool",
           "disagreement", "disagreement_summary", "tools_table", "kendall_variants", "kendall_table",
           "gauc_as_tool", "gauc_rules_table"]


@dataclass(frozen=True)
class Query:
    """One query: its run's documents in the order given (``docnos``, ``scores``, and each one's
    ``grades``, 0 where unjudged, and ``is_judged``; all None when the run misses the query),
    ``judged``, the grades of every judged document of the query, and the run's per-document
    ``weights`` when it has a ``weight`` column (TF-Ranking's item weights), else None."""

    docnos: np.ndarray | None
    scores: np.ndarray | None
    grades: np.ndarray | None
    is_judged: np.ndarray | None
    judged: np.ndarray
    weights: np.ndarray | None = None


def read_queries(qrels, run) -> dict[str, Query]:
    """Every judged query (sorted as strings) with its run, read once: qrels and run as
    :func:`rankviz.read_qrels` and :func:`rankviz.read_run` accept them (path, text, dict, DataFrame).

    The run's grades come from one join of the two tables and each query is a slice of them
    (no Python loop over rows); a docno judged twice keeps its last grade. A run given as a
    DataFrame with a ``weight`` column carries per-document weights (the ``item_weights`` convention).
    """
    import pandas as pd

    from rankviz.trec.readers import read_qrels, read_run

    qrels_frame, run_frame = read_qrels(qrels), read_run(run)
    judgments = pd.DataFrame({"query_id": qrels_frame["query_id"].astype(str).to_numpy(),
                              "doc_id": qrels_frame["doc_id"].astype(str).to_numpy(),
                              "grade": qrels_frame["relevance"].to_numpy(dtype=np.float64)})
    judgments = judgments.drop_duplicates(["query_id", "doc_id"], keep="last")
    ranked = pd.DataFrame({"query_id": run_frame["query_id"].astype(str).to_numpy(),
                           "doc_id": run_frame["doc_id"].astype(str).to_numpy(),
                           "score": run_frame["score"].to_numpy(dtype=np.float64)})
    if _has_weights(run):  # read_run keeps every row in its order, so the column lines up
        ranked["weight"] = pd.to_numeric(run["weight"], errors="raise").to_numpy(dtype=np.float64)
    ranked = ranked.merge(judgments, how="left", on=["query_id", "doc_id"], sort=False)  # keeps the run's order
    is_judged = ranked["grade"].notna().to_numpy()
    grades = ranked["grade"].fillna(0.0).to_numpy(dtype=np.float64)
    run_slices = _slices(ranked["query_id"].to_numpy())
    judged_slices = _slices(judgments["query_id"].to_numpy())
    judged_grades = judgments["grade"].to_numpy()
    docnos, scores = ranked["doc_id"].to_numpy(), ranked["score"].to_numpy()
    weights = ranked["weight"].to_numpy() if "weight" in ranked else None
    queries = {}
    for q in sorted(judged_slices):
        at = run_slices.get(q)
        run_part = (None,) * 4 if at is None else (docnos[at], scores[at], grades[at], is_judged[at])
        queries[q] = Query(*run_part, judged=judged_grades[judged_slices[q]],
                           weights=None if weights is None or at is None else weights[at])
    return queries


def _has_weights(run) -> bool:
    import pandas as pd

    return isinstance(run, pd.DataFrame) and "weight" in run.columns


def _slices(query_ids: np.ndarray) -> dict[str, np.ndarray]:
    """Each query id's row positions, in the order of the rows (a stable sort by query, cut at its changes)."""
    import pandas as pd

    codes, names = pd.factorize(query_ids)
    order = np.argsort(codes, kind="stable")
    cuts = np.flatnonzero(np.diff(codes[order])) + 1
    return {names[codes[part[0]]]: part for part in np.split(order, cuts) if len(part)}


def profile_settings(profile, family: str, cutoff: int | None = None) -> dict:
    """Every convention's choice for measure ``family`` under ``profile``: a tool name of
    :data:`rankviz.TOOLS`, a :class:`~rankviz.conventions.ToolProfile`, or a dict of choices
    (``{"tool": "trec_eval", "ties": "input_order"}``: a tool's profile with some choices changed;
    without ``"tool"``, trec_eval's)."""
    from rankviz.conventions import CONVENTIONS, PROFILES, ToolProfile

    if isinstance(profile, ToolProfile):
        return profile.settings_for(family, cutoff)
    if isinstance(profile, str):
        return _profile(profile).settings_for(family, cutoff)
    if isinstance(profile, dict):
        changes = dict(profile)
        base = _profile(changes.pop("tool", "trec_eval"))
        unknown = sorted(set(changes) - set(CONVENTIONS))
        if unknown:
            raise ValueError(f"Unknown convention(s) {', '.join(map(repr, unknown))}; the conventions are "
                             f"{', '.join(CONVENTIONS)}.")
        return {**base.settings_for(family, cutoff), **changes}
    raise ValueError(f"A profile is a tool name ({', '.join(PROFILES)}), a ToolProfile or a dict of conventions. "
                     f"Got {profile!r} instead.")


def _profile(name: str):
    from rankviz.conventions import PROFILES

    if name not in PROFILES:
        raise ValueError(f"The tool must be one of {', '.join(map(repr, PROFILES))}. Got {name!r} instead.")
    return PROFILES[name]


def _kernel(family: str):
    from rankviz.conventions import KERNELS

    for each in KERNELS:
        if each.family == family:
            return getattr(importlib.import_module("rankviz.metrics.kernels.conventions"), each.function)
    raise ValueError(f"Tool profiles compute {', '.join(k.family for k in KERNELS)} (at any cutoff); "
                     f"got {family!r}.")


def check_tool_measure(profile, measure) -> str:
    """The tool's own name of a parsed ``measure`` (``"ndcg_cut.10"``); a ValueError naming the tool's
    measures when it does not have it (scikit-learn has no P@k, trec_eval no RR@k)."""
    own = profile.measure(measure.name)
    name = None if own is None else own.tool_name(measure.cutoff)
    if name is None:
        have = ", ".join(f"{x.family}{'@k' if x.cutoff else ''}" for x in profile.measures)
        raise ValueError(f"{profile.title} has no {measure} (its measures: {have}).")
    return name


def _measure_settings(measure) -> dict:
    """Conventions a measure name fixes itself: ``P(rel=2)@10`` the relevance level, ``nDCG(gain=exp)`` the gain."""
    fixed = {}
    for key, value in measure.params:
        if key == "rel":
            fixed["rel_threshold"] = value
        elif key == "gain" and isinstance(value, str):
            fixed["gain"] = value
    return fixed


def query_values(queries: dict[str, Query], measure, settings: dict) -> dict[str, float]:
    """``{query: value}`` of one parsed measure under ``settings`` (every convention's choice); a
    query left out by the conventions has no entry."""
    from rankviz.metrics.kernels.conventions import order_documents, tie_group_ends

    settings = {**settings, **_measure_settings(measure)}
    kernel = _kernel(measure.name)
    values = {}
    for q, query in queries.items():
        if query.docnos is None:
            if settings["missing_query"] == "zero":
                values[q] = 0.0
            continue
        order = order_documents(query.scores, query.docnos, settings["ties"])
        ends = tie_group_ends(query.scores[order]) if settings["ties"] == "tie_groups" else None
        value = kernel(query.grades[order], judged=query.judged, k=measure.cutoff, group_ends=ends,
                       is_judged=query.is_judged[order], scores=query.scores[order],
                       weights=None if query.weights is None else query.weights[order], **settings)
        if value is not None:
            values[q] = value
    return values


def parse_tool_measure(name: str):
    """rankviz's measure names, and Accuracy(@k) (ir_measures') and Fallout@k, which only the tool profiles compute."""
    import re

    from rankviz.evaluation.measures import Measure, parse_measure

    match = re.fullmatch(r"\s*(Accuracy|Fallout)(?:@(\d+))?\s*", name)
    if match:
        return Measure(match[1], int(match[2]) if match[2] else None, ())
    return parse_measure(name)


def _parsed(measures):
    names = [measures] if isinstance(measures, str) else list(measures)
    return [m if not isinstance(m, str) else parse_tool_measure(m) for m in names]


def evaluate_as_tool(qrels, run, measures, tool: str, *, per_query: bool = True):
    """The values ``tool`` gives for ``measures``, per query, as an :class:`~rankviz.evaluation.evaluator.EvalResult`.

    Parameters
    ----------
    qrels, run
        As :func:`rankviz.read_qrels` and :func:`rankviz.read_run` accept them.
    measures : str or list of str
        rankviz names (``"nDCG@10"``, ``"AP@10"``, ``"P@5"``, ``"R@100"``, ``"RR"``, ``"Success@1"``, or
        trec_eval's); each must exist in the tool (``ToolProfile.measures`` gives the tool's own name).
    tool : str
        A name of :data:`rankviz.TOOLS`.
    per_query : bool, default True
        False: ``per_query`` keeps its rows (the queries scored) and no columns, as
        :func:`rankviz.evaluate` does.

    Returns
    -------
    EvalResult
        ``per_query``: one row per query the tool scores for some measure (NaN where it leaves the
        query out of one measure), one column per measure; ``mean``: the mean over the queries each
        measure scores.

    Raises
    ------
    ValueError
        For an unknown tool, or a measure the tool does not have (naming the tool's measures).
    """
    import pandas as pd

    from rankviz.evaluation.evaluator import EvalResult

    profile = _profile(tool)
    parsed = _parsed(measures)
    for m in parsed:
        check_tool_measure(profile, m)
    queries = read_queries(qrels, run)
    columns = {str(m): query_values(queries, m, profile.settings_for(m.name, m.cutoff)) for m in parsed}
    frame = pd.DataFrame(columns, dtype=np.float64)
    frame = frame.reindex(sorted(frame.index, key=str))
    frame.index.name = "query_id"
    mean = pd.Series({name: (float(np.mean(list(v.values()))) if v else 0.0) for name, v in columns.items()},
                     dtype=np.float64)
    return EvalResult(per_query=frame if per_query else frame[[]], mean=mean, measures=tuple(parsed))


def tools_table(docnos, scores, grades, measures, judged=None, tools=None):
    """One query under every tool: rows the tools, columns the measures, NaN where a tool lacks the
    measure or leaves the query out. What the One ranking and Ties pages show side by side.

    ``docnos``, ``scores``, ``grades``: the query's documents in the order given; ``judged``: extra
    judgments ``{docno: grade}`` of documents not in the list (never retrieved); ``tools``: the
    profiles (default: every one of :data:`rankviz.TOOLS`).

    >>> table = tools_table(["a", "b", "c"], [1.0, 1.0, 0.5], [0, 1, 0], ["RR", "AP"], tools=["trec_eval", "ranx", "sklearn"])
    >>> table.round(3).to_dict("index")  # trec_eval: b (docno descending) first; ranx: a first; sklearn: the tie's end
    {'trec_eval': {'RR': 1.0, 'AP': 1.0}, 'ranx': {'RR': 0.5, 'AP': 0.5}, 'sklearn': {'RR': nan, 'AP': 0.5}}
    """
    import pandas as pd

    from rankviz.conventions import PROFILES

    qrels = {"q": {**{d: g for d, g in (judged or {}).items()}, **{d: g for d, g in zip(docnos, grades)}}}
    run = {"q": {d: float(s) for d, s in zip(docnos, scores)}}
    queries = read_queries(qrels, run)
    parsed = _parsed(measures)
    rows = {}
    for tool in tools or PROFILES:
        profile = _profile(tool)
        row = {}
        for m in parsed:
            try:
                check_tool_measure(profile, m)
            except ValueError:
                row[str(m)] = np.nan
                continue
            row[str(m)] = query_values(queries, m, profile.settings_for(m.name, m.cutoff)).get("q", np.nan)
        rows[tool] = row
    return pd.DataFrame.from_dict(rows, orient="index", columns=[str(m) for m in parsed], dtype=np.float64)


def _same(x: float | None, y: float | None) -> bool:
    if x is None or y is None:
        return x is None and y is None
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)


def disagreement(qrels, run, measure: str, a="trec_eval", b="sklearn"):
    """Why two tools give different values of ``measure`` on this run: the conventions, query by query.

    Parameters
    ----------
    qrels, run
        As :func:`rankviz.read_qrels` and :func:`rankviz.read_run` accept them.
    measure : str
        One measure (``"nDCG@10"``, ``"AP@10"``, ``"P@5"``, ``"R@10"``, ``"RR@10"``, ``"Success@1"``).
    a, b : str, ToolProfile or dict
        Two profiles: a tool name of :data:`rankviz.TOOLS`, or a dict of conventions
        (``{"tool": "trec_eval", "missing_query": "zero"}`` is trec_eval -c). A tool named must have
        the measure (a ValueError names its measures otherwise).

    Returns
    -------
    pandas.DataFrame
        One row per judged query, columns ``query``, ``a`` and ``b`` (the values; NaN where a profile
        leaves the query out), ``conventions`` (a tuple of convention ids of
        :data:`rankviz.CONVENTIONS`; empty where the values agree) and ``jointly`` (True when no single
        convention changes the value and the difference needs several of them together).
        ``frame.attrs`` holds ``"summary"`` (:func:`disagreement_summary`), ``"measure"``, ``"a"``, ``"b"``
        and ``"differing"`` (every convention in which the profiles differ for this measure).

    Notes
    -----
    A convention is named for a query when switching it alone, from a's choice to b's, changes a's
    value, or from b's to a's changes b's. Only conventions that can change the measure
    (``Convention.measures``) are switched. The profiles may not be the tools themselves: see which
    are checked against the tool in ``docs/conventions.md``.

    Examples
    --------
    >>> qrels = {"q1": {"a": 1, "b": 0, "c": 1}}
    >>> run = {"q1": {"a": 2.0, "b": 2.0}}   # a and b tied; c never retrieved
    >>> table = disagreement(qrels, run, "AP", a="trec_eval", b="ranx")
    >>> table[["query", "a", "b", "conventions"]].to_dict("records")  # trec_eval: b first, 1/2 / 2; ranx: a first, 1 / 2
    [{'query': 'q1', 'a': 0.25, 'b': 0.5, 'conventions': ('ties',)}]
    >>> table.attrs["summary"]
    '1 of 1 queries differ: tie order 1'
    """
    import pandas as pd

    from rankviz.conventions import CONVENTIONS

    (parsed,) = _parsed(measure)
    for profile in (a, b):
        if isinstance(profile, str):
            check_tool_measure(_profile(profile), parsed)
    settings_a = profile_settings(a, parsed.name, parsed.cutoff)
    settings_b = profile_settings(b, parsed.name, parsed.cutoff)
    differing = tuple(c for c in CONVENTIONS if settings_a[c] != settings_b[c]
                      and parsed.name in CONVENTIONS[c].measures)
    queries = read_queries(qrels, run)
    values_a = query_values(queries, parsed, settings_a)
    values_b = query_values(queries, parsed, settings_b)
    switched = {c: (query_values(queries, parsed, {**settings_a, c: settings_b[c]}),
                    query_values(queries, parsed, {**settings_b, c: settings_a[c]})) for c in differing}
    rows = []
    for q in queries:
        va, vb = values_a.get(q), values_b.get(q)
        named, jointly = (), False
        if not _same(va, vb):
            named = tuple(c for c in differing if not _same(switched[c][0].get(q), va)
                          or not _same(switched[c][1].get(q), vb))
            if not named:
                named, jointly = differing, True
        rows.append({"query": q, "a": np.nan if va is None else va, "b": np.nan if vb is None else vb,
                     "conventions": named, "jointly": jointly})
    frame = pd.DataFrame(rows, columns=["query", "a", "b", "conventions", "jointly"])
    frame.attrs.update(measure=str(parsed), a=_name(a), b=_name(b), differing=differing)
    frame.attrs["summary"] = disagreement_summary(frame)
    return frame


def _name(profile) -> str:
    if isinstance(profile, str):
        return profile
    if isinstance(profile, dict):
        base = profile.get("tool", "trec_eval")
        changes = ", ".join(f"{k}={v}" for k, v in profile.items() if k != "tool")
        return f"{base} ({changes})" if changes else base
    return getattr(profile, "name", str(profile))


def disagreement_summary(frame) -> str:
    """One line over the queries of a :func:`disagreement` table: how many differ, and for each
    convention (most queries first) in how many it is named.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"query": ["1", "2", "3"], "a": [0.5, 1.0, 0.2], "b": [0.25, 1.0, 0.1],
    ...                       "conventions": [("ties",), (), ("ties", "ideal_from")], "jointly": [False] * 3})
    >>> disagreement_summary(frame)
    '2 of 3 queries differ: tie order 2, IDCG and R from the run 1'
    """
    from rankviz.conventions import CONVENTIONS, SUMMARY_WORDS
    from rankviz.i18n import _

    total = len(frame)
    differ = frame[frame["conventions"].map(len) > 0]
    if differ.empty:
        return _(SUMMARY_WORDS["none"]).format(measure=frame.attrs.get("measure", ""), total=total)
    counts: dict[str, int] = {}
    together = int(differ["jointly"].sum())
    for named, jointly in zip(differ["conventions"], differ["jointly"]):
        if not jointly:
            for c in named:
                counts[c] = counts.get(c, 0) + 1
    parts = [_(SUMMARY_WORDS["reason"]).format(title=_(CONVENTIONS[c].title), n=n)
             for c, n in sorted(counts.items(), key=lambda item: (-item[1], list(CONVENTIONS).index(item[0])))]
    if together:
        parts.append(_(SUMMARY_WORDS["together"]).format(n=together))
    head = _(SUMMARY_WORDS["differ"]).format(n=len(differ), total=total)
    return _(SUMMARY_WORDS["line"]).format(head=head, reasons=_(SUMMARY_WORDS["separator"]).join(parts))


def kendall_variants(x, y) -> dict:
    """Kendall's tau of two rankings of the same items under every variant of the ``kendall`` convention:
    ``{"a": ..., "b": ..., "c": ..., "weighted": ...}`` (tau-a and tau-b by :func:`rankviz.metrics.kendall_tau`,
    tau-c and Vigna's weighted tau by :mod:`rankviz.metrics.kernels.conventions`).

    >>> {k: round(v, 4) for k, v in kendall_variants([1, 2, 3, 4], [1, 1, 2, 2]).items()}  # one grade tie per pair
    {'a': 0.6667, 'b': 0.8165, 'c': 1.0, 'weighted': 0.8165}
    """
    from rankviz.conventions import CONVENTIONS
    from rankviz.metrics.correlation import kendall_tau
    from rankviz.metrics.kernels.conventions import kendall_tau_c, weighted_tau

    functions = {"c": kendall_tau_c, "weighted": weighted_tau}
    return {v: (functions[v](x, y) if v in functions else kendall_tau(x, y, variant=v))
            for v in CONVENTIONS["kendall"].param.values}


def kendall_table(ranks_a, ranks_b):
    """Two rankings of the same items (ranks, 1 first, tied items sharing a rank) under every variant of
    the ``kendall`` convention, side by side with the tools that use each: what the Correlation page shows.

    Returns
    -------
    pandas.DataFrame
        One row per variant, in the convention's order (tau-a, tau-b, tau-c, weighted tau): ``variant``
        (the choice's value), ``tau``, ``label`` and ``formula`` (the choice's words, in English, and its
        LaTeX) and ``tools`` (a tuple of ``(tool, the tool's own name)`` from ``CONVENTIONS["kendall"].tools``;
        empty when no catalogued tool defaults to it).

    Notes
    -----
    Rank 1 is the top: tau-a, tau-b and tau-c do not depend on the direction (reversing both rankings
    reverses every pair on both sides), but weighted tau weighs the top, which scipy's ``weightedtau``
    takes to be the *largest* values; the ranks are negated first, as ``weightedtau(-ranks_a, -ranks_b)``.
    Undefined variants (fewer than 2 items, a ranking all tied) are NaN with a RuntimeWarning.

    Examples
    --------
    >>> table = kendall_table([1, 2, 3, 4], [1, 1, 3, 4])  # the top two tied in the second ranking
    >>> table[["variant", "tau"]].round(4).values.tolist()  # tau-a 5 / 6 pairs; tau-c 2·5 / (4² · 2/3)
    [['a', 0.8333], ['b', 0.9129], ['c', 0.9375], ['weighted', 0.8718]]
    >>> table.loc[table["variant"] == "c", "tools"].item()[0]
    ('scipy', "kendalltau(variant='c')")
    """
    import pandas as pd

    from rankviz.conventions import CONVENTIONS

    convention = CONVENTIONS["kendall"]
    values = kendall_variants(-np.asarray(ranks_a, dtype=np.float64), -np.asarray(ranks_b, dtype=np.float64))
    rows = [{"variant": c.value, "tau": values[c.value], "label": c.source_label, "formula": c.formula,
             "tools": tuple((use.tool, use.name) for use in convention.tools if use.choice == c.value)}
            for c in convention.param.choices]
    return pd.DataFrame(rows, columns=["variant", "tau", "label", "formula", "tools"])


def gauc_as_tool(labels, scores, groups, tool=None, *, sample_weight=None) -> float:
    """GAUC of a click log (a label, a score and a group per impression) under a tool's GAUC conventions
    (``gauc_weights``, ``gauc_constant``, ``gauc_empty``, ``impression_weights``): ``tool=None`` is
    rankviz's own (:func:`rankviz.metrics.gauc`), ``"torchrec"`` its GAUCMetric; a dict of conventions
    (``{"gauc_constant": "drop"}``) changes some.

    >>> labels, scores, groups = [1, 0, 1, 0, 1, 0, 0], [0.9, 0.1, 0.5, 0.5, 0.2, 0.8, 0.1], list("uuvvwww")
    >>> gauc_as_tool(labels, scores, groups), gauc_as_tool(labels, scores, groups, "torchrec")
    (0.6428571428571429, 0.75)
    """
    from rankviz.conventions import DEFAULTS
    from rankviz.metrics.kernels.conventions import gauc_value

    settings = dict(DEFAULTS) if tool is None else profile_settings(tool, "GAUC")
    use_weights = settings["impression_weights"] == "used"
    return gauc_value(labels, scores, groups, weights=settings["gauc_weights"],
                      constant_predictions=settings["gauc_constant"], no_groups=settings["gauc_empty"],
                      sample_weight=sample_weight if use_weights else None)


#: The conventions of a GAUC, in the order the GAUC rules table lists them.
GAUC_CONVENTIONS = ("gauc_weights", "gauc_constant", "gauc_empty", "impression_weights")


def gauc_rules_table(labels, scores, groups, *, sample_weight=None):
    """A click log's GAUC under rankviz's conventions and under every tool profile that computes GAUC
    (``ToolProfile.measure("GAUC")``, torchrec's GAUCMetric today), with what each rule does with each
    group and which conventions alone make a tool's number differ from rankviz's.

    Parameters
    ----------
    labels, scores, groups, sample_weight
        As :func:`gauc_as_tool` takes them (a label, a score, a group and optionally a weight per impression).

    Returns
    -------
    pandas.DataFrame
        One row per rule, indexed by ``rule`` (``"rankviz"``, then the tools): ``gauc``
        (:func:`gauc_as_tool`), one column per convention of :data:`GAUC_CONVENTIONS` (the rule's choice),
        ``counted`` (the groups averaged, a tuple), ``left_out`` (a tuple of ``(group, reason)``, the
        reason ``"one class"`` or ``"constant predictions"``, :func:`~rankviz.metrics.kernels.conventions.gauc_groups`)
        and ``differs_by`` (the conventions that, switched alone from rankviz's choice to the rule's, change
        rankviz's value; all the differing ones when only together they do; empty when the values agree).

    Examples
    --------
    Session v's predictions are all 0.5 (torchrec drops it), w has no click (left out by both):

    >>> table = gauc_rules_table([1, 0, 1, 0, 0, 0], [0.9, 0.1, 0.5, 0.5, 0.3, 0.2], list("uuvvww"))
    >>> table["gauc"].tolist()  # rankviz (2·1 + 2·0.5) / 4; torchrec u alone
    [0.75, 1.0]
    >>> table.loc["torchrec", "left_out"], table.loc["torchrec", "differs_by"]
    ((('v', 'constant predictions'), ('w', 'one class')), ('gauc_constant',))
    """
    import pandas as pd

    from rankviz.conventions import DEFAULTS, PROFILES
    from rankviz.metrics.kernels.conventions import gauc_groups

    rules = {"rankviz": dict(DEFAULTS)}
    rules.update({tool: profile_settings(tool, "GAUC") for tool, profile in PROFILES.items()
                  if profile.measure("GAUC") is not None})
    ours = rules["rankviz"]

    def value(settings):
        return gauc_as_tool(labels, scores, groups, {c: settings[c] for c in GAUC_CONVENTIONS},
                            sample_weight=sample_weight)

    base = value(ours)
    rows = []
    for rule, settings in rules.items():
        fates = gauc_groups(labels, scores, groups, constant_predictions=settings["gauc_constant"])
        gauc = base if rule == "rankviz" else value(settings)
        differing = tuple(c for c in GAUC_CONVENTIONS if settings[c] != ours[c])
        differs_by = ()
        if not _same_or_both_nan(gauc, base):
            differs_by = tuple(c for c in differing if not _same_or_both_nan(value({**ours, c: settings[c]}), base))
            differs_by = differs_by or differing
        rows.append({"rule": rule, "gauc": gauc, **{c: settings[c] for c in GAUC_CONVENTIONS},
                     "counted": tuple(g for g, fate in fates.items() if fate == "counted"),
                     "left_out": tuple((g, fate) for g, fate in fates.items() if fate != "counted"),
                     "differs_by": differs_by})
    return pd.DataFrame(rows).set_index("rule")


def _same_or_both_nan(x: float, y: float) -> bool:
    return (math.isnan(x) and math.isnan(y)) or _same(x, y)
