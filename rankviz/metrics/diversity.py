r"""Diversity (intent-aware) metrics of one ranking: alpha-nDCG, ERR-IA, NRBP, AP-IA, P-IA, subtopic recall.

A topic has several subtopics (intents, aspects); a document may be relevant to some of them.
The input here is, for each rank, the subtopics its document is relevant to::

    ranking = [{"a"}, {"b"}, None, {"b"}]     # rank 3 relevant to none (or unjudged)

An entry is a collection of subtopic labels, one label (a str or an int), or None / an empty
collection; a 2-D array of 0/1 (ranks x subtopics) works too. Labels are compared as text
(``1`` and ``"1"`` are one subtopic).

``judged`` gives what the ranking alone cannot: the subtopics of *every* judged document of the
topic, retrieved or not, which set S (the subtopics with a relevant document) and the ideal
ranking. It is a mapping ``{docno: subtopics}`` (the greedy ideal ranking breaks equal gains by
docno, the greatest first, as ndeval does) or a sequence of entries (equal gains: the earlier
first). Without it, the ranking itself is the pool, and equal gains go to the higher rank.

The novelty-biased gain of rank i is g(i) = sum_s J(d_i, s) (1 - alpha)^{c_s(i)}, c_s(i) the
documents above i relevant to s (Clarke et al. 2008); the measures are defined in
:mod:`rankviz.metrics.kernels.diversity`, whose kernels :func:`rankviz.evaluate` runs over every
topic of a run (``qrels_format="subtopics"``) and these functions run over one list; each
``*_breakdown`` shows that kernel's per-rank arrays.
"""

from __future__ import annotations

import numbers
import re

import numpy as np

from rankviz.metrics._latex import number as _num
from rankviz.metrics._latex import sum_latex
from rankviz.metrics.breakdown import Breakdown
from rankviz.metrics.kernels import Cut
from rankviz.metrics.kernels import diversity as kernels
from rankviz.metrics.validation import check_k

__all__ = [
    "alpha_dcg",
    "alpha_dcg_breakdown",
    "alpha_ndcg",
    "alpha_ndcg_breakdown",
    "ap_ia",
    "ap_ia_breakdown",
    "err_ia",
    "err_ia_breakdown",
    "nerr_ia",
    "nerr_ia_breakdown",
    "nnrbp",
    "nnrbp_breakdown",
    "nrbp",
    "nrbp_breakdown",
    "p_ia",
    "p_ia_breakdown",
    "subtopic_recall",
    "subtopic_recall_breakdown",
]

_CLARKE_2008 = ("C. L. A. Clarke, M. Kolla, G. V. Cormack, O. Vechtomova, A. Ashkan, S. Büttcher and I. MacKinnon, "
                "'Novelty and diversity in information retrieval evaluation', SIGIR 2008")
_CHAPELLE_2009 = ("O. Chapelle, D. Metzler, Y. Zhang and P. Grinspan, 'Expected reciprocal rank for graded "
                  "relevance', CIKM 2009")
_CLARKE_2009 = ("C. L. A. Clarke, M. Kolla and O. Vechtomova, 'An effectiveness measure for ambiguous and "
                "underspecified queries', ICTIR 2009")
_AGRAWAL_2009 = ("R. Agrawal, S. Gollapudi, A. Halverson and S. Ieong, 'Diversifying search results', WSDM 2009")
_ZHAI_2003 = ("C. Zhai, W. W. Cohen and J. Lafferty, 'Beyond independent relevance: methods and evaluation "
              "metrics for subtopic retrieval', SIGIR 2003")
_NDEVAL = "ndeval 4.5, the TREC Web track's diversity evaluation program"
_NUMBER = re.compile(r"[+-]?[0-9]+\Z")


# ------------------------------------------------------------------------ input


def _label(value, func: str, name: str, where: str) -> str:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (str, numbers.Integral)):
        raise ValueError(
            f"The '{name}' parameter of {func} must hold, at each {where.split()[0]}, the subtopics its document is "
            f"relevant to: a label (str or int), a collection of labels, or None. Got {value!r} at {where}.")
    return str(value)


def _entries(values, func: str, name: str, position: str) -> list[tuple[str, ...]]:
    """Each entry of a ranking (or judged pool) as a tuple of distinct labels."""
    if values is None or isinstance(values, (str, bytes)):
        raise ValueError(f"The '{name}' parameter of {func} must be a sequence with, at each {position}, the "
                         f"subtopics its document is relevant to (e.g. [{{'a'}}, None, {{'a', 'b'}}]). "
                         f"Got {values!r} instead.")
    if isinstance(values, np.ndarray) and values.ndim == 2:
        if values.dtype.kind not in "biuf" or not np.isin(values, (0, 1)).all():
            raise ValueError(f"The '{name}' parameter of {func}, a 2-D array, must hold 0 or 1 (ranks x subtopics).")
        return [tuple(str(j) for j in np.flatnonzero(row)) for row in values]
    if hasattr(values, "to_numpy") or isinstance(values, np.ndarray):
        values = list(values)
    out = []
    for i, entry in enumerate(values, start=1):
        where = f"{position} {i}"
        if entry is None:
            out.append(())
        elif isinstance(entry, (str, numbers.Integral)) and not isinstance(entry, (bool, np.bool_)):
            out.append((str(entry),))
        elif isinstance(entry, (set, frozenset, list, tuple, np.ndarray)):
            out.append(tuple(dict.fromkeys(_label(v, func, name, where) for v in entry)))
        else:
            _label(entry, func, name, where)
    return out


def _order_key(label: str):
    """Subtopics are numbered in this order: numbers by value (ndeval's subtopic numbers), then text."""
    return (0, int(label), "") if _NUMBER.match(label) else (1, 0, label)


class _Input:
    """One validated ranking and its pool as a one-list DiversityContext, with the names its tables show."""

    def __init__(self, ranking, judged, func: str):
        rows = _entries(ranking, func, "ranking", "rank")
        if judged is None:
            pool, names = rows, [f"rank {i}" for i in range(1, len(rows) + 1)]
        elif isinstance(judged, dict):
            docnos = sorted(judged, key=str, reverse=True)  # equal gains: the greatest docno first (ndeval)
            pool = _entries([judged[d] for d in docnos], func, "judged", "document")
            names = [str(d) for d in docnos]
        else:
            pool = _entries(judged, func, "judged", "position")
            names = [f"judged {i}" for i in range(1, len(pool) + 1)]
        known = {label for entry in pool for label in entry}
        for i, entry in enumerate(rows, start=1):
            unknown = [label for label in entry if label not in known]
            if unknown:
                raise ValueError(f"The 'ranking' of {func} has subtopic {unknown[0]!r} at rank {i}, to which no "
                                 f"document of 'judged' is relevant; 'judged' must hold every judged document.")
        labels = sorted(known | {label for entry in rows for label in entry}, key=_order_key)
        number = {label: j for j, label in enumerate(labels)}

        def flat(entries):
            owner = np.repeat(np.arange(len(entries)), [len(e) for e in entries]).astype(np.int64)
            subtopic = np.array([number[label] for e in entries for label in sorted(e, key=_order_key)],
                                dtype=np.int64)
            order = np.lexsort((subtopic, owner))
            return owner[order], subtopic[order]

        hit_row, hit_subtopic = flat(rows)
        pool_doc, pool_subtopic = flat(pool)
        self.rows, self.labels, self.pool_names = rows, labels, names
        self.lists = kernels.SubtopicLists(
            n_queries=1, row_query=np.zeros(len(rows), dtype=np.int64), row_judged=np.ones(len(rows), dtype=bool),
            hit_row=hit_row, hit_subtopic=hit_subtopic, hit_grade=np.ones(hit_row.size),
            pool_query=np.zeros(len(pool), dtype=np.int64), pool_doc=pool_doc, pool_subtopic=pool_subtopic,
            pool_grade=np.ones(pool_doc.size), subtopic_query=np.zeros(len(labels), dtype=np.int64),
            subtopic_labels=tuple(labels), pool_labels=tuple(names))
        self.ctx = kernels.DiversityContext(self.lists)


def _check_unit(value, func: str, name: str) -> float:
    ok = isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)) and 0 <= float(value) <= 1
    if not ok:
        raise ValueError(f"The '{name}' parameter of {func} must be a number in the range [0, 1]. Got {value!r} instead.")
    return float(value)


def _prepared(ranking, func: str, *, k=None, alpha=None, beta=None, judged=None):
    """(input, Cut) of a call, validated."""
    k = check_k(k, func=func)
    params = {}
    if alpha is not None:
        params["alpha"] = _check_unit(alpha, func, "alpha")
    if beta is not None:
        params["beta"] = _check_unit(beta, func, "beta")
    return _Input(ranking, judged, func), Cut(k, params)


def _value(kernel, data: _Input, cut: Cut) -> float:
    """The kernel's value of the one list."""
    return float(kernel(data.ctx, cut)[0])


# ------------------------------------------------------------------------ worked tables


def _depth(data: _Input, cut: Cut) -> int:
    return len(data.rows) if cut.cutoff is None else int(cut.cutoff)


def _joined(entry) -> str:
    return ", ".join(sorted(entry, key=_order_key)) if entry else "–"


def _padded(values: np.ndarray, n: int) -> np.ndarray:
    """``values`` (one per rank of the list) on ranks 1..n: zeros past the end of the list."""
    out = np.zeros(n)
    shown = min(n, values.shape[0])
    out[:shown] = values[:shown]
    return out


def _rank_columns(data: _Input, n: int) -> dict:
    """``rank`` 1..n and the ``subtopics`` of the document there (past the list: none retrieved)."""
    shown = min(n, len(data.rows))
    return {"rank": np.arange(1, n + 1),
            "subtopics": [_joined(e) for e in data.rows[:shown]] + ["(none retrieved)"] * (n - shown)}


def _counting(ranking, func: str, k, judged):
    """(input, Cut, n ranks shown, the hits, S) of P-IA's and subtopic recall's tables."""
    data, cut = _prepared(ranking, func, k=k, judged=judged)
    return data, cut, _depth(data, cut), data.ctx.hits(1.0), int(data.ctx.subtopics(1.0)[0])


def _novelty_columns(data: _Input, cut: Cut, n: int) -> tuple[dict, dict]:
    """Per rank 1..n: the document's subtopics, each subtopic's novelty-biased gain and g(i), all
    the kernel's (:func:`~rankviz.metrics.kernels.diversity.novelty_gains`); and their roles."""
    per_hit, gains, hits = kernels.novelty_gains(data.ctx, cut)
    per_subtopic = np.zeros((n, len(data.labels)))
    inside = hits.rank <= n
    per_subtopic[hits.rank[inside] - 1, hits.subtopic[inside]] = per_hit[inside]
    columns = _rank_columns(data, n)
    for j, label in enumerate(data.labels):
        columns[f"gain {label}"] = per_subtopic[:, j]
    columns["g(i)"] = _padded(gains, n)
    return columns, {"rank": "rank", "subtopics": "subtopics", "gain": "g(i)"}


def _ideal_columns(data: _Input, cut: Cut, n: int, kind: str) -> dict:
    """Per rank 1..n of the greedy ideal ranking: the document, its subtopics, g*(i) and g*(i) D(i),
    from the kernel's ideal ranking and terms (:func:`~rankviz.metrics.kernels.diversity.ideal_terms`)."""
    ideal, terms = kernels.ideal_terms(data.ctx, 1.0, cut.param("alpha", kernels.ALPHA), kind)
    doc = ["–"] * n
    subtopics = ["–"] * n
    gain, discounted = np.zeros(n), np.zeros(n)
    pool_entries = {}
    for d, s in zip(data.lists.pool_doc, data.lists.pool_subtopic):
        pool_entries.setdefault(int(d), []).append(data.labels[s])
    for rank, d, g, term in zip(ideal.rank, ideal.doc, ideal.gain, terms):
        if rank <= n:
            doc[rank - 1] = data.pool_names[d]
            subtopics[rank - 1] = _joined(pool_entries.get(int(d), ()))
            gain[rank - 1], discounted[rank - 1] = g, term
    return {"ideal document": doc, "ideal subtopics": subtopics, "ideal g*(i)": gain,
            "ideal g*(i) D(i)": discounted, "running ideal sum": np.cumsum(discounted)}


def _discounted_breakdown(kernel, name: str, kind: str, normalised: str, data: _Input, cut: Cut) -> Breakdown:
    """alpha-DCG, alpha-nDCG, ERR-IA, nERR-IA (``kernel``, ``name`` its LaTeX): the novelty table,
    the discount D(i), and the greedy ideal (``normalised="ideal"``) or Z_k (``"Z_k"``), every
    column from the kernel's arrays."""
    import pandas as pd

    n = _depth(data, cut)
    alpha = cut.param("alpha", kernels.ALPHA)
    columns, roles = _novelty_columns(data, cut, n)
    weight = "1/log2(i+1)" if kind == "dcg" else "1/i"
    columns[weight] = kernels.discounts(kind, n)
    columns["g(i) D(i)"] = _padded(kernels.discounted_gains(data.ctx, cut, kind)[0], n)
    columns["running sum"] = np.cumsum(columns["g(i) D(i)"])
    roles.update({"weight": weight, "contribution": "g(i) D(i)", "running": "running sum"})
    subtopics = int(data.ctx.subtopics(1.0)[0])
    run_total = float(columns["running sum"][-1]) if n else 0.0
    if normalised == "ideal":
        columns.update(_ideal_columns(data, cut, n, kind))
        roles.update({"ideal_gain": "ideal g*(i)", "ideal_contribution": "ideal g*(i) D(i)",
                      "ideal_running": "running ideal sum"})
        denominator = float(columns["running ideal sum"][-1]) if n else 0.0
    else:  # documents relevant to all S subtopics: S (1 - alpha)^(i-1) at rank i
        columns["S (1-α)^(i-1)"] = subtopics * kernels.repeated_powers(1.0 - alpha, n)[:n]
        columns["S (1-α)^(i-1) D(i)"] = subtopics * kernels.collection_ideal_terms(alpha, kind, n)
        columns["running Z_k"] = np.cumsum(columns["S (1-α)^(i-1) D(i)"])
        roles.update({"ideal_gain": "S (1-α)^(i-1)", "ideal_contribution": "S (1-α)^(i-1) D(i)",
                      "ideal_running": "running Z_k"})
        denominator = float(columns["running Z_k"][-1]) if n else 0.0
    value = _value(kernel, data, cut)
    terms = [rf"{_num(g)} \cdot {_num(d)}" for g, d in zip(columns["g(i)"], columns[weight]) if g > 0]
    latex = (rf"\mathrm{{{name}}} = \frac{{{sum_latex(terms)}}}{{{_num(denominator)}}} "
             rf"= \frac{{{_num(run_total)}}}{{{_num(denominator)}}} = {value:.3f}")
    details = {"alpha": alpha, "subtopics": subtopics, "k": n, "sum": run_total, normalised: denominator}
    return Breakdown(pd.DataFrame(columns), value, latex, details, roles=roles)


def _rank_biased_breakdown(kernel, data: _Input, cut: Cut) -> Breakdown:
    """NRBP and nNRBP (``kernel``): the novelty table and the patience β^(i-1), from the kernel's
    terms (:func:`~rankviz.metrics.kernels.diversity.rank_biased_terms`) and factor."""
    import pandas as pd

    n = len(data.rows)
    alpha, beta = cut.param("alpha", kernels.ALPHA), cut.param("beta", kernels.BETA)
    columns, roles = _novelty_columns(data, cut, n)
    ranks = np.arange(1, n + 1)
    columns["β^(i-1)"] = kernels.repeated_powers(beta, n)[:n]
    columns["β^(i-1) g(i)"] = kernels.rank_biased_terms(columns["g(i)"], ranks, beta) if n else np.zeros(0)
    columns["running sum"] = np.cumsum(columns["β^(i-1) g(i)"])
    roles.update({"weight": "β^(i-1)", "contribution": "β^(i-1) g(i)", "running": "running sum"})
    subtopics = int(data.ctx.subtopics(1.0)[0])
    total = float(columns["running sum"][-1]) if n else 0.0
    scale = kernels.nrbp_factor(alpha, beta) / subtopics if subtopics else 0.0
    value = _value(kernel, data, cut)
    details = {"alpha": alpha, "beta": beta, "subtopics": subtopics, "sum": total, "scale": scale}
    terms = [rf"{_num(b)} \cdot {_num(g)}" for b, g in zip(columns["β^(i-1)"], columns["g(i)"]) if g > 0]
    nrbp_value = scale * total
    latex = (rf"\mathrm{{NRBP}} = \frac{{1 - (1 - {_num(alpha)}) {_num(beta)}}}{{{subtopics}}} "
             rf"\left({sum_latex(terms)}\right) = {nrbp_value:.3f}")
    if kernel is kernels.nnrbp:
        ideal = data.ctx.ideal(1.0, alpha)
        ideal_total = float(np.sum(kernels.rank_biased_terms(ideal.gain, ideal.rank, beta))) if ideal.rank.size else 0.0
        details["ideal_sum"] = ideal_total
        details["ideal_nrbp"] = scale * ideal_total
        latex = rf"\mathrm{{nNRBP}} = \frac{{{_num(nrbp_value)}}}{{{_num(scale * ideal_total)}}} = {value:.3f}"
    return Breakdown(pd.DataFrame(columns), value, latex, details, roles=roles)


# ------------------------------------------------------------------------ alpha-DCG, alpha-nDCG


def alpha_ndcg(ranking, k=None, *, alpha=0.5, judged=None) -> float:
    r"""alpha-nDCG@k (Clarke et al. 2008): nDCG whose gain rewards subtopics not yet covered.

    .. math::

        g(i) = \sum_s J(d_i, s)\,(1-\alpha)^{c_s(i)},\qquad
        \alpha\text{-nDCG@}k = \frac{\sum_{i=1}^{k} g(i) / \log_2(i+1)}{\sum_{i=1}^{k} g^*(i) / \log_2(i+1)}

    c_s(i) is the number of documents above rank i relevant to subtopic s; g* are the gains of
    ndeval's greedy ideal ranking of the judged documents (rank after rank, the document of
    largest gain given those placed). The greedy ranking is not always the best one, so a
    ranking can score above 1.

    Parameters
    ----------
    ranking : sequence
        Per rank, the subtopics its document is relevant to (a collection of labels, one label,
        or None); or a 2-D 0/1 array, ranks x subtopics.
    k : int or None, default None
        Cut-off (ndeval reports 5, 10 and 20); None: the whole list.
    alpha : float in [0, 1], default 0.5
        Redundancy intolerance: a subtopic seen n times before is worth (1 - alpha)^n.
    judged : mapping or sequence or None, default None
        The subtopics of every judged document of the topic, for the ideal ranking:
        ``{docno: subtopics}`` (equal gains: greatest docno first, as ndeval) or a sequence
        (equal gains: the earlier first). None: the ranking itself.

    Returns
    -------
    float
        0.0 for a topic without relevant documents or a ranking without gain.

    References
    ----------
    .. [1] C. L. A. Clarke et al., "Novelty and diversity in information retrieval evaluation",
       SIGIR 2008; ndeval 4.5 (TREC Web track) for the greedy ideal ranking and its tie rule.

    Examples
    --------
    Documents A, D, E, B retrieved; A relevant to subtopic a, B and D to b, C (not retrieved)
    to c; E unjudged. Gains 1, 1, 0, 0.5 (b is seen again at rank 4). The greedy ideal ranking
    is D, C, A, B (gains 1, 1, 1, 0.5), so alpha-nDCG@5 = (1 + 1/log2 3 + 0.5/log2 5) /
    (1 + 1/log2 3 + 1/2 + 0.5/log2 5) = 1.846 / 2.346:

    >>> judged = {"A": {"a"}, "B": {"b"}, "C": {"c"}, "D": {"b"}}
    >>> round(alpha_ndcg([{"a"}, {"b"}, None, {"b"}], k=5, judged=judged), 4)
    0.7869
    """
    return _value(kernels.alpha_ndcg, *_prepared(ranking, "alpha_ndcg", k=k, alpha=alpha, judged=judged))


def alpha_ndcg_breakdown(ranking, k=None, *, alpha=0.5, judged=None):
    r"""Worked table of :func:`alpha_ndcg`: the novelty discount rank by rank, and the greedy ideal.

    Parameters
    ----------
    ranking, k, alpha, judged
        As in :func:`alpha_ndcg`; the table shows ranks 1 to k (the whole list without k).

    Returns
    -------
    Breakdown
        ``table``: ``rank``, ``subtopics``, one ``gain <s>`` column per subtopic ((1 - alpha)^c
        where the document is relevant to s, c its earlier relevant documents), ``g(i)`` (role
        ``gain``), ``1/log2(i+1)`` (``weight``), ``g(i) D(i)`` (``contribution``), ``running
        sum``, ``ideal document``, ``ideal subtopics``, ``ideal g*(i)``, ``ideal g*(i) D(i)``,
        ``running ideal sum`` (the ``ideal_*`` roles): every number an array of the kernel's.
        ``details``: ``alpha``, ``subtopics`` (S), ``k``, ``sum`` (alpha-DCG of the ranking,
        unnormalised), ``ideal`` (that of the ideal ranking).

    References
    ----------
    .. [1] Clarke et al., SIGIR 2008; ndeval 4.5.

    Examples
    --------
    Subtopic b is worth 1 at rank 2, then 0.5 at rank 4:

    >>> worked = alpha_ndcg_breakdown([{"a"}, {"b"}, None, {"b"}], k=5, judged={"A": {"a"}, "B": {"b"},
    ...                                                                             "C": {"c"}, "D": {"b"}})
    >>> worked.table["gain b"].tolist(), worked.table["ideal document"].tolist()
    ([0.0, 1.0, 0.0, 0.5, 0.0], ['D', 'C', 'A', 'B', '–'])
    >>> round(worked.value, 4)
    0.7869
    """
    return _discounted_breakdown(kernels.alpha_ndcg, r"\alpha\text{-}nDCG", "dcg", "ideal",
                                 *_prepared(ranking, "alpha_ndcg_breakdown", k=k, alpha=alpha, judged=judged))


def alpha_dcg(ranking, k=None, *, alpha=0.5, judged=None) -> float:
    r"""alpha-DCG@k with ndeval's collection-independent normalisation.

    .. math::

        \alpha\text{-DCG@}k = \frac{\sum_{i=1}^{k} g(i) / \log_2(i+1)}{Z_k},\qquad
        Z_k = S \sum_{i=1}^{k} \frac{(1-\alpha)^{i-1}}{\log_2(i+1)}

    Z_k is the score of k documents each relevant to all S subtopics, so no ideal ranking is
    needed (ndeval's "alpha-DCG"; ir_measures' alpha_DCG). ndeval leaves rank 1 unnormalised
    (its alpha-DCG@1 is the raw gain, up to S); rankviz divides at every k.

    Parameters
    ----------
    ranking, k, alpha
        As in :func:`alpha_ndcg`.
    judged : mapping or sequence or None, default None
        The subtopics of every judged document, for S (the subtopics with a relevant document).

    Returns
    -------
    float
        In [0, 1], 1 when each of the k documents is relevant to all S subtopics; 0.0 without
        relevant documents.

    References
    ----------
    .. [1] Clarke et al., SIGIR 2008; ndeval 4.5 ("collection-independent normalization").

    Examples
    --------
    The example of :func:`alpha_ndcg`: 1.846 over Z_5 = 3 (1 + 0.5/log2 3 + 0.25/2 +
    0.125/log2 5 + 0.0625/log2 6) = 4.555:

    >>> judged = {"A": {"a"}, "B": {"b"}, "C": {"c"}, "D": {"b"}}
    >>> round(alpha_dcg([{"a"}, {"b"}, None, {"b"}], k=5, judged=judged), 4)
    0.4053
    """
    return _value(kernels.alpha_dcg, *_prepared(ranking, "alpha_dcg", k=k, alpha=alpha, judged=judged))


def alpha_dcg_breakdown(ranking, k=None, *, alpha=0.5, judged=None):
    r"""Worked table of :func:`alpha_dcg`: the novelty discount and the normaliser Z_k.

    Parameters
    ----------
    ranking, k, alpha, judged
        As in :func:`alpha_dcg`: ``judged`` only sets S, the subtopics counted.

    Returns
    -------
    Breakdown
        ``table``: the novelty columns of :func:`alpha_ndcg_breakdown`, then Z_k's terms, those
        of k documents relevant to every subtopic: ``S (1-α)^(i-1)``, its discounted value and
        ``running Z_k`` (the ``ideal_*`` roles). ``details``: ``alpha``, ``subtopics``, ``k``,
        ``sum``, ``Z_k``.

    References
    ----------
    .. [1] Clarke et al., SIGIR 2008; ndeval 4.5.

    Examples
    --------
    >>> worked = alpha_dcg_breakdown([{"a", "b"}, {"a"}], judged=[{"a", "b"}, {"a"}])
    >>> worked.table["g(i)"].tolist(), worked.table["S (1-α)^(i-1)"].tolist()
    ([2.0, 0.5], [2.0, 1.0])
    """
    return _discounted_breakdown(kernels.alpha_dcg, r"\alpha\text{-}DCG", "dcg", "Z_k",
                                 *_prepared(ranking, "alpha_dcg_breakdown", k=k, alpha=alpha, judged=judged))


# ------------------------------------------------------------------------ ERR-IA, nERR-IA


def err_ia(ranking, k=None, *, alpha=0.5, judged=None) -> float:
    r"""ERR-IA@k (Chapelle et al. 2009) with ndeval's collection-independent normalisation.

    .. math::

        \mathrm{ERR\text{-}IA@}k = \frac{\sum_{i=1}^{k} g(i) / i}{S \sum_{i=1}^{k} (1-\alpha)^{i-1} / i}

    With binary subtopic judgments and every relevant document satisfying an intent with
    probability alpha, Chapelle et al.'s ERR-IA (intents equally likely) is alpha/S times the
    numerator; ndeval divides it by the same quantity for documents relevant to every intent.

    Parameters
    ----------
    ranking, k, alpha, judged
        As in :func:`alpha_dcg` (ir_measures fixes alpha at 0.5 for ERR-IA; ndeval's -alpha
        changes it).

    Returns
    -------
    float
        In [0, 1]; 0.0 for a topic without relevant documents.

    References
    ----------
    .. [1] O. Chapelle, D. Metzler, Y. Zhang and P. Grinspan, "Expected reciprocal rank for
       graded relevance", CIKM 2009, section 7 (intent-aware ERR); ndeval 4.5.

    Examples
    --------
    Gains 1, 1, 0, 0.5 (the example of :func:`alpha_ndcg`): (1 + 1/2 + 0.5/4) / (3 (1 + 0.5/2
    + 0.25/3 + 0.125/4 + 0.0625/5)) = 1.625 / 4.1313:

    >>> judged = {"A": {"a"}, "B": {"b"}, "C": {"c"}, "D": {"b"}}
    >>> round(err_ia([{"a"}, {"b"}, None, {"b"}], k=5, judged=judged), 4)
    0.3933
    """
    return _value(kernels.err_ia, *_prepared(ranking, "err_ia", k=k, alpha=alpha, judged=judged))


def err_ia_breakdown(ranking, k=None, *, alpha=0.5, judged=None):
    r"""Worked table of :func:`err_ia`: the discount D(i) = 1/i and Z_k, row by row.

    Parameters
    ----------
    ranking, k, alpha, judged
        The arguments of :func:`err_ia`.

    Returns
    -------
    Breakdown
        The columns of :func:`alpha_dcg_breakdown`, ``1/i`` in place of ``1/log2(i+1)``, with
        the same roles and ``details``.

    References
    ----------
    .. [1] O. Chapelle et al., CIKM 2009, section 7; ndeval 4.5 (Z_k).

    Examples
    --------
    Two documents relevant to a, the only subtopic: g = 1, 0.5 and D = 1, 1/2; Z_2 = 1 + 0.5/2.

    >>> worked = err_ia_breakdown([{"a"}, {"a"}], judged=[{"a"}, {"a"}])
    >>> worked.column("contribution").tolist(), worked.details["Z_k"]
    ([1.0, 0.25], 1.25)
    """
    return _discounted_breakdown(kernels.err_ia, r"ERR\text{-}IA", "err", "Z_k",
                                 *_prepared(ranking, "err_ia_breakdown", k=k, alpha=alpha, judged=judged))


def nerr_ia(ranking, k=None, *, alpha=0.5, judged=None) -> float:
    r"""nERR-IA@k: ERR-IA of the ranking over ERR-IA of ndeval's greedy ideal ranking.

    .. math:: \mathrm{nERR\text{-}IA@}k = \frac{\sum_{i=1}^{k} g(i)/i}{\sum_{i=1}^{k} g^*(i)/i}

    Parameters
    ----------
    ranking, k, alpha, judged
        As in :func:`alpha_ndcg`.

    Returns
    -------
    float
        1 for the greedy ideal ranking (a ranking can score above 1: greedy is not always
        best); 0.0 without relevant documents.

    References
    ----------
    .. [1] Chapelle et al., CIKM 2009; ndeval 4.5 ("collection-dependent normalization").

    Examples
    --------
    (1 + 1/2 + 0.5/4) / (1 + 1/2 + 1/3 + 0.5/4) = 1.625 / 1.9583:

    >>> judged = {"A": {"a"}, "B": {"b"}, "C": {"c"}, "D": {"b"}}
    >>> round(nerr_ia([{"a"}, {"b"}, None, {"b"}], k=5, judged=judged), 4)
    0.8298
    """
    return _value(kernels.nerr_ia, *_prepared(ranking, "nerr_ia", k=k, alpha=alpha, judged=judged))


def nerr_ia_breakdown(ranking, k=None, *, alpha=0.5, judged=None):
    r"""Worked table of :func:`nerr_ia`: the discount 1/i, the ranking beside ndeval's greedy ideal.

    Parameters
    ----------
    ranking, k, alpha, judged
        See :func:`nerr_ia`; the ideal ranking is drawn from ``judged``.

    Returns
    -------
    Breakdown
        What :func:`alpha_ndcg_breakdown` returns, with ``1/i`` for ``1/log2(i+1)``.

    References
    ----------
    .. [1] Chapelle, Metzler, Zhang & Grinspan (2009); ndeval's nERR-IA.

    Examples
    --------
    >>> worked = nerr_ia_breakdown([{"b"}, {"a", "b"}], judged=[{"a", "b"}, {"b"}])
    >>> worked.table["ideal subtopics"].tolist(), round(worked.value, 4)   # (1 + 1.5/2) / (2 + 0.5/2)
    (['a, b', 'b'], 0.7778)
    """
    return _discounted_breakdown(kernels.nerr_ia, r"nERR\text{-}IA", "err", "ideal",
                                 *_prepared(ranking, "nerr_ia_breakdown", k=k, alpha=alpha, judged=judged))


# ------------------------------------------------------------------------ NRBP, nNRBP


def nrbp(ranking, *, alpha=0.5, beta=0.5, judged=None) -> float:
    r"""NRBP, novelty- and rank-biased precision (Clarke, Kolla & Vechtomova 2009), the whole list.

    .. math:: \mathrm{NRBP} = \frac{1 - (1-\alpha)\beta}{S} \sum_{i} \beta^{i-1} g(i)

    The factor makes an infinite list of documents relevant to every subtopic score 1.

    Parameters
    ----------
    ranking, alpha, judged
        As in :func:`alpha_dcg`.
    beta : float in [0, 1], default 0.5
        Patience: the chance of reading on to the next rank (RBP's p).

    Returns
    -------
    float
        In [0, 1); 0.0 without relevant documents.

    References
    ----------
    .. [1] C. L. A. Clarke, M. Kolla and O. Vechtomova, "An effectiveness measure for ambiguous
       and underspecified queries", ICTIR 2009; ndeval 4.5.

    Examples
    --------
    (1 - 0.5 * 0.5) / 3 * (1 + 0.5 + 0.125 * 0.5) = 0.25 * 1.5625:

    >>> judged = {"A": {"a"}, "B": {"b"}, "C": {"c"}, "D": {"b"}}
    >>> nrbp([{"a"}, {"b"}, None, {"b"}], judged=judged)
    0.390625
    """
    return _value(kernels.nrbp, *_prepared(ranking, "nrbp", alpha=alpha, beta=beta, judged=judged))


def nrbp_breakdown(ranking, *, alpha=0.5, beta=0.5, judged=None):
    r"""Worked table of :func:`nrbp`: the novelty gains weighted by the patience β^(i-1).

    Parameters
    ----------
    ranking, alpha, beta, judged
        As in :func:`nrbp` (the whole list: NRBP has no cutoff).

    Returns
    -------
    Breakdown
        ``table``: the novelty columns, ``β^(i-1)`` (role ``weight``), ``β^(i-1) g(i)``
        (``contribution``), ``running sum``, from the kernel's terms. ``details``: ``alpha``,
        ``beta``, ``subtopics``, ``sum``, ``scale`` ((1 - (1 - alpha) beta) / S).

    References
    ----------
    .. [1] Clarke, Kolla and Vechtomova, ICTIR 2009; ndeval 4.5.

    Examples
    --------
    >>> nrbp_breakdown([{"a"}, {"a"}]).table["β^(i-1) g(i)"].tolist()
    [1.0, 0.25]
    """
    return _rank_biased_breakdown(kernels.nrbp,
                                  *_prepared(ranking, "nrbp_breakdown", alpha=alpha, beta=beta, judged=judged))


def nnrbp(ranking, *, alpha=0.5, beta=0.5, judged=None) -> float:
    r"""nNRBP: NRBP of the ranking over NRBP of ndeval's greedy ideal ranking.

    .. math:: \mathrm{nNRBP} = \frac{\sum_i \beta^{i-1} g(i)}{\sum_i \beta^{i-1} g^*(i)}

    Parameters
    ----------
    ranking, alpha, beta, judged
        As in :func:`nrbp`; the greedy ideal ranking is that of :func:`alpha_ndcg`, drawn from
        ``judged`` (the ranking itself without it).

    Returns
    -------
    float
        1 for the greedy ideal ranking; 0.0 without relevant documents (ndeval divides 0 by 0
        and prints nan).

    References
    ----------
    .. [1] Clarke, Kolla and Vechtomova, ICTIR 2009; ndeval 4.5.

    Examples
    --------
    1.5625 over the ideal D, C, A, B: 1 + 0.5 + 0.25 + 0.125 * 0.5 = 1.8125:

    >>> judged = {"A": {"a"}, "B": {"b"}, "C": {"c"}, "D": {"b"}}
    >>> round(nnrbp([{"a"}, {"b"}, None, {"b"}], judged=judged), 4)
    0.8621
    """
    return _value(kernels.nnrbp, *_prepared(ranking, "nnrbp", alpha=alpha, beta=beta, judged=judged))


def nnrbp_breakdown(ranking, *, alpha=0.5, beta=0.5, judged=None):
    r"""Worked table of :func:`nnrbp`: NRBP's table, and the sum of the greedy ideal ranking.

    Parameters
    ----------
    ranking, alpha, beta, judged
        Those of :func:`nnrbp`; ``judged`` holds the ideal ranking's documents.

    Returns
    -------
    Breakdown
        The table of :func:`nrbp_breakdown`; ``details`` adds ``ideal_sum`` and ``ideal_nrbp``.

    References
    ----------
    .. [1] NRBP normalised by the ideal's NRBP: ndeval 4.5's nNRBP (Clarke, Kolla & Vechtomova's measure).

    Examples
    --------
    >>> nnrbp_breakdown([{"a"}, {"a", "b"}]).details["ideal_sum"]   # ideal: {a, b} then {a}
    2.25
    """
    return _rank_biased_breakdown(kernels.nnrbp,
                                  *_prepared(ranking, "nnrbp_breakdown", alpha=alpha, beta=beta, judged=judged))


# ------------------------------------------------------------------------ AP-IA, P-IA, subtopic recall


def ap_ia(ranking, *, judged=None) -> float:
    r"""AP-IA (ndeval's MAP-IA): average precision per subtopic, averaged over the S subtopics.

    .. math:: \mathrm{AP\text{-}IA} = \frac{1}{S} \sum_s \frac{1}{R_s} \sum_{i : J(d_i, s) = 1} \frac{c_s(i) + 1}{i}

    R_s is the number of judged documents relevant to s (Agrawal et al.'s intent-aware form of
    a measure with intents equally likely).

    Parameters
    ----------
    ranking : sequence
        As in :func:`alpha_ndcg`.
    judged : mapping or sequence or None, default None
        The subtopics of every judged document, for S and R_s. None: the ranking itself.

    Returns
    -------
    float
        The mean of the S subtopics' APs, in [0, 1]; 0.0 without relevant documents.

    References
    ----------
    .. [1] R. Agrawal, S. Gollapudi, A. Halverson and S. Ieong, "Diversifying search results",
       WSDM 2009 (intent-aware measures); ndeval 4.5, MAP-IA.

    Examples
    --------
    AP_a = 1/1, AP_b = (1/2 + 2/4) / 2 = 0.5, AP_c = 0: (1 + 0.5 + 0) / 3:

    >>> judged = {"A": {"a"}, "B": {"b"}, "C": {"c"}, "D": {"b"}}
    >>> ap_ia([{"a"}, {"b"}, None, {"b"}], judged=judged)
    0.5
    """
    return _value(kernels.ap_ia, *_prepared(ranking, "ap_ia", judged=judged))


def ap_ia_breakdown(ranking, *, judged=None):
    r"""Worked table of :func:`ap_ia`: one row per subtopic.

    Parameters
    ----------
    ranking, judged
        As in :func:`ap_ia`.

    Returns
    -------
    Breakdown
        ``table``: ``subtopic``, ``R_s``, ``ranks`` (where documents relevant to s are),
        ``precisions`` there, ``AP_s``. ``details``: ``subtopics`` (S).

    References
    ----------
    .. [1] Agrawal et al., WSDM 2009; ndeval 4.5.

    Examples
    --------
    >>> worked = ap_ia_breakdown([{"a"}, {"b"}, None, {"b"}], judged={"A": {"a"}, "B": {"b"}, "C": {"c"}, "D": {"b"}})
    >>> worked.table[["subtopic", "R_s", "AP_s"]].values.tolist()
    [['a', 1, 1.0], ['b', 2, 0.5], ['c', 1, 0.0]]
    """
    import pandas as pd

    data, cut = _prepared(ranking, "ap_ia_breakdown", judged=judged)
    every_precision, hits = kernels.subtopic_precisions(data.ctx, cut)  # the kernel's terms of each AP_s
    relevant = data.ctx.relevant_per_subtopic(1.0)
    rows = []
    for j, label in enumerate(data.labels):
        if relevant[j] == 0:
            continue
        mine = hits.subtopic == j
        ranks = hits.rank[mine]
        precisions = every_precision[mine]
        rows.append({"subtopic": label, "R_s": int(relevant[j]), "ranks": ", ".join(map(str, ranks)) or "–",
                     "precisions": ", ".join(_num(p) for p in precisions) or "–",
                     "AP_s": float(precisions.sum() / relevant[j])})
    value = _value(kernels.ap_ia, data, cut)
    subtopics = len(rows)
    terms = [_num(row["AP_s"]) for row in rows]
    latex = rf"\mathrm{{AP\text{{-}}IA}} = \frac{{{sum_latex(terms)}}}{{{subtopics}}} = {value:.3f}"
    table = pd.DataFrame(rows, columns=["subtopic", "R_s", "ranks", "precisions", "AP_s"])
    return Breakdown(table, value, latex, {"subtopics": subtopics})


def p_ia(ranking, k=None, *, judged=None) -> float:
    r"""P-IA@k, intent-aware precision (Agrawal et al. 2009, intents equally likely).

    .. math:: \mathrm{P\text{-}IA@}k = \frac{1}{S} \sum_s \frac{|\{i \le k : J(d_i, s) = 1\}|}{k}

    Parameters
    ----------
    ranking : sequence
        As in :func:`alpha_ndcg`.
    k : int or None, default None
        Cut-off; ranks past the list count as non-relevant (P@k's rule). None: the list's length.
    judged : mapping or sequence or None, default None
        The subtopics of every judged document, for S. None: the ranking itself.

    Returns
    -------
    float
        In [0, 1], 1 only when every document of the top k is relevant to all S subtopics; 0.0
        without relevant documents.

    References
    ----------
    .. [1] Agrawal et al., WSDM 2009; ndeval 4.5, P-IA@k.

    Examples
    --------
    3 relevant (document, subtopic) pairs in the top 5, S = 3: 3 / (5 * 3):

    >>> judged = {"A": {"a"}, "B": {"b"}, "C": {"c"}, "D": {"b"}}
    >>> p_ia([{"a"}, {"b"}, None, {"b"}], k=5, judged=judged)
    0.2
    """
    return _value(kernels.p_ia, *_prepared(ranking, "p_ia", k=k, judged=judged))


def p_ia_breakdown(ranking, k=None, *, judged=None):
    r"""Worked table of :func:`p_ia`: relevant (document, subtopic) pairs counted down the ranking.

    Parameters
    ----------
    ranking, k, judged
        As in :func:`p_ia`; ranks past the list hold no document.

    Returns
    -------
    Breakdown
        ``table``: ``rank``, ``subtopics``, ``relevant subtopics`` (how many), ``running
        count``, ``P-IA@i``. ``details``: ``subtopics`` (S), ``k``, ``count``.

    References
    ----------
    .. [1] Agrawal et al., WSDM 2009; ndeval 4.5.

    Examples
    --------
    >>> p_ia_breakdown([{"a", "b"}, None], judged=[{"a", "b"}]).table["P-IA@i"].tolist()
    [1.0, 0.5]
    """
    import pandas as pd

    data, cut, n, hits, subtopics = _counting(ranking, "p_ia_breakdown", k, judged)
    per_rank = np.bincount(hits.rank[hits.rank <= n] - 1, minlength=n) if n else np.zeros(0, dtype=np.int64)
    running = np.cumsum(per_rank)
    table = pd.DataFrame({**_rank_columns(data, n), "relevant subtopics": per_rank, "running count": running,
                          "P-IA@i": running / (np.arange(1, n + 1) * subtopics) if subtopics else np.zeros(n)})
    value = _value(kernels.p_ia, data, cut)
    count = int(running[-1]) if n else 0
    latex = rf"\mathrm{{P\text{{-}}IA@}}{n} = \frac{{{count}}}{{{n} \cdot {subtopics}}} = {value:.3f}"
    return Breakdown(table, value, latex, {"subtopics": subtopics, "k": n, "count": count})


def subtopic_recall(ranking, k=None, *, judged=None) -> float:
    r"""Subtopic recall@k (Zhai, Cohen & Lafferty 2003; ndeval's strec@k).

    .. math:: \mathrm{S\text{-}recall@}k = \frac{|\bigcup_{i \le k} \{s : J(d_i, s) = 1\}|}{S}

    Parameters
    ----------
    ranking, judged
        As in :func:`p_ia`.
    k : int or None, default None
        Cut-off; None: the whole list.

    Returns
    -------
    float
        The share of the S subtopics covered, in [0, 1]; 0.0 without relevant documents.

    References
    ----------
    .. [1] C. Zhai, W. W. Cohen and J. Lafferty, "Beyond independent relevance: methods and
       evaluation metrics for subtopic retrieval", SIGIR 2003; ndeval 4.5, strec@k.

    Examples
    --------
    a and b of the 3 subtopics are covered:

    >>> judged = {"A": {"a"}, "B": {"b"}, "C": {"c"}, "D": {"b"}}
    >>> round(subtopic_recall([{"a"}, {"b"}, None, {"b"}], k=5, judged=judged), 4)
    0.6667
    """
    return _value(kernels.subtopic_recall, *_prepared(ranking, "subtopic_recall", k=k, judged=judged))


def subtopic_recall_breakdown(ranking, k=None, *, judged=None):
    r"""Worked table of :func:`subtopic_recall`: the subtopics each rank is the first to cover.

    Parameters
    ----------
    ranking, k, judged
        The arguments of :func:`subtopic_recall`.

    Returns
    -------
    Breakdown
        ``table``: ``rank``, ``subtopics``, ``new subtopics``, ``covered so far``,
        ``S-recall@i``. ``details``: ``subtopics`` (S), ``k``, ``covered``.

    References
    ----------
    .. [1] Zhai, Cohen and Lafferty, SIGIR 2003; ndeval 4.5.

    Examples
    --------
    >>> subtopic_recall_breakdown([{"a"}, {"a", "b"}], judged=[{"a"}, {"b"}, {"c"}]).table["new subtopics"].tolist()
    ['a', 'b']
    """
    import pandas as pd

    data, cut, n, hits, subtopics = _counting(ranking, "subtopic_recall_breakdown", k, judged)
    new = [[] for _ in range(n)]
    for rank, subtopic, seen in zip(hits.rank, hits.subtopic, hits.seen):
        if seen == 0 and rank <= n:
            new[rank - 1].append(data.labels[subtopic])
    covered = np.cumsum([len(labels) for labels in new]) if n else np.zeros(0, dtype=np.int64)
    table = pd.DataFrame({**_rank_columns(data, n), "new subtopics": [_joined(labels) for labels in new],
                          "covered so far": covered, "S-recall@i": covered / subtopics if subtopics else np.zeros(n)})
    value = _value(kernels.subtopic_recall, data, cut)
    count = int(covered[-1]) if n else 0
    latex = rf"\mathrm{{S\text{{-}}recall@}}{n} = \frac{{{count}}}{{{subtopics}}} = {value:.3f}"
    return Breakdown(table, value, latex, {"subtopics": subtopics, "k": n, "covered": count})
