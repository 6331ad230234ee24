"""One query's ranking measure under any tool's conventions (:mod:`rankviz.conventions`).

Two steps, each a plain function of numpy arrays:

* :func:`order_documents`: the ranked order of a query's documents from their scores, by a tie rule
  (``"docno_desc"``: trec_eval's score then docno descending; ``"docno_asc"``; ``"input_order"``: a
  stable sort by score; ``"quicksort"``: numba's unstable sort by score, twice, as ranx ranks;
  ``"random"``: ties shuffled, one fixed draw (TF-Ranking shuffles them at every call); ``"tie_groups"``: the stable order, plus the extent of each group of equal
  scores, which scikit-learn treats as a unit);
* one function per measure (:func:`ndcg_value`, :func:`ap_value`, :func:`precision_value`,
  :func:`recall_value`, :func:`rr_value`, :func:`success_value`; which is which is data:
  ``rankviz.conventions.KERNELS``) at an optional cutoff ``k`` of the ranked grades, with every
  convention as a keyword. ``None`` is returned when the convention for a query without relevant
  documents is to leave it out.
"""

from __future__ import annotations

import warnings

import numpy as np

__all__ = ["bpref_value", "partial_auc", "multiclass_auc", "fallout_value", "accuracy_value", "weighted_auc", "gauc_groups", "gauc_value", "kendall_tau_c", "weighted_tau", "order_documents", "quicksort_order", "tie_group_ends", "ndcg_value", "dcg_value", "ap_value", "precision_value", "recall_value",
           "success_value", "rr_value"]


def order_documents(scores, docnos, ties: str) -> np.ndarray:
    """The positions of the documents in ranked order (best first) under the tie rule ``ties``.

    >>> order_documents(np.array([1.0, 2.0, 1.0]), np.array(["b", "c", "a"]), "docno_desc").tolist()
    [1, 0, 2]
    >>> order_documents(np.array([1.0, 2.0, 1.0]), np.array(["b", "c", "a"]), "docno_asc").tolist()
    [1, 2, 0]
    >>> order_documents(np.array([1.0, 2.0, 1.0]), np.array(["b", "c", "a"]), "input_order").tolist()
    [1, 0, 2]
    """
    scores = np.asarray(scores, dtype=np.float64)
    if ties in ("docno_desc", "docno_asc"):
        # Docnos as their ranks in sorted order (codepoint order, as strcmp on UTF-8), so the sort is
        # numpy's lexsort (last key first): score descending, then docno either way.
        codes = np.unique(np.asarray(docnos), return_inverse=True)[1].reshape(-1)
        return np.lexsort((-codes if ties == "docno_desc" else codes, -scores)).astype(np.int64)
    if ties in ("input_order", "tie_groups"):
        return np.argsort(-scores, kind="stable").astype(np.int64)
    if ties == "random":
        shuffled = np.random.default_rng(0).permutation(len(scores))  # one draw, the same every time
        return shuffled[np.argsort(-scores[shuffled], kind="stable")].astype(np.int64)
    if ties == "quicksort":
        stable = np.argsort(-scores, kind="stable")
        if len(scores) <= QUICKSORT_SMALL or not np.any(np.diff(scores[stable]) == 0):
            return stable.astype(np.int64)  # insertion sort only (stable), or no tie to order
        first = quicksort_order(-scores)  # ranx sorts a Run when it is built, and again in make_comparable
        return first[quicksort_order(-scores[first])]
    raise ValueError(f"The 'ties' convention must be one of 'docno_desc', 'docno_asc', 'input_order', "
                     f"'quicksort', 'random', 'tie_groups'. Got {ties!r} instead.")


QUICKSORT_SMALL = 15  # numba's SMALL_QUICKSORT: a part of up to 15 items is insertion-sorted


def quicksort_order(keys) -> np.ndarray:
    """The permutation numba's ``np.argsort(keys)`` (its default quicksort) returns: ranx ranks a query's
    documents by it, on -score, so tied documents of a list longer than 15 end up in an order the input
    order alone does not tell.

    The algorithm, written from numba's ``numba/misc/quicksort.py`` (numba 0.6x): parts of more than
    15 items are partitioned around the median of the first, middle and last (the larger side pushed
    on a stack, the smaller one partitioned next), parts of up to 15 insertion-sorted. Floats compare
    as numba's ``lt_floats``: ``a < b``, NaN last. A Python loop over the list: used only for a list
    long enough to be partitioned and holding a tie (:func:`order_documents`).

    >>> quicksort_order([0.0] * 20)[:6].tolist()  # twenty equal keys: not the input order
    [18, 17, 16, 15, 14, 13]
    """
    a = [float(x) for x in np.asarray(keys, dtype=np.float64)]

    def less(x, y):
        return x < y or (y != y and x == x)

    r = list(range(len(a)))
    stack = [(0, len(a) - 1)] if len(a) > 1 else []
    while stack:
        low, high = stack.pop()
        while high - low >= QUICKSORT_SMALL:
            mid = (low + high) >> 1
            if less(a[r[mid]], a[r[low]]):
                r[low], r[mid] = r[mid], r[low]
            if less(a[r[high]], a[r[mid]]):
                r[high], r[mid] = r[mid], r[high]
            if less(a[r[mid]], a[r[low]]):
                r[low], r[mid] = r[mid], r[low]
            pivot = a[r[mid]]
            r[high], r[mid] = r[mid], r[high]
            i, j = low, high - 1
            while True:
                while i < high and less(a[r[i]], pivot):
                    i += 1
                while j >= low and less(pivot, a[r[j]]):
                    j -= 1
                if i >= j:
                    break
                r[i], r[j] = r[j], r[i]
                i, j = i + 1, j - 1
            r[i], r[high] = r[high], r[i]
            if high - i > i - low:  # the larger side waits on the stack
                if high > i:
                    stack.append((i + 1, high))
                high = i - 1
            else:
                if i > low:
                    stack.append((low, i - 1))
                low = i + 1
        for i in range(low + 1, high + 1):  # insertion sort of a[r[low..high]]
            item, key, j = r[i], a[r[i]], i
            while j > low and less(key, a[r[j - 1]]):
                r[j] = r[j - 1]
                j -= 1
            r[j] = item
    return np.asarray(r, dtype=np.int64)


def tie_group_ends(sorted_scores) -> np.ndarray:
    """For each rank (0-based), the 1-based rank where its group of equal scores ends.

    >>> tie_group_ends(np.array([3.0, 2.0, 2.0, 1.0])).tolist()
    [1, 3, 3, 4]
    """
    s = np.asarray(sorted_scores, dtype=np.float64)
    starts = np.flatnonzero(s[1:] != s[:-1]) + 1  # where a new score begins (NaN never equals, as before)
    group = np.zeros(len(s), dtype=np.int64)
    group[starts] = 1
    return np.append(starts, len(s)).astype(np.int64)[np.cumsum(group)]


def _group_means(values: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Each rank's value replaced by the mean of its tie group's values (a group: the ranks sharing an end)."""
    values = np.asarray(values, dtype=np.float64)
    if not len(values):
        return values.copy()
    first = np.flatnonzero(np.r_[True, ends[1:] != ends[:-1]])
    sizes = np.diff(np.append(first, len(values)))
    means = np.add.reduceat(values, first) / sizes
    return np.repeat(means, sizes)


def _gains(grades: np.ndarray, gain: str, rel_threshold: float) -> np.ndarray:
    g = np.asarray(grades, dtype=np.float64)
    if gain == "linear":
        return np.maximum(g, 0.0)
    if gain == "exponential":
        return np.where(g > 0, np.exp2(np.maximum(g, 0.0)) - 1.0, 0.0)
    if gain == "binary":
        return (g >= rel_threshold).astype(np.float64)
    raise ValueError(f"The 'gain' convention must be 'linear', 'exponential' or 'binary'. Got {gain!r} instead.")


def _discounts(n: int, log_base: float) -> np.ndarray:
    if not log_base > 1:
        raise ValueError(f"The 'log_base' convention must be a number > 1. Got {log_base!r} instead.")
    return np.log(log_base) / np.log(np.arange(2, n + 2, dtype=np.float64))


def _no_hits(scores, nonpositive_scores) -> np.ndarray | None:
    """The ranks that cannot be hits: none (``nonpositive_scores="rank"``: a score only ranks), or those
    scored 0 or below (``"no_hit"``: torchmetrics keeps a target only where ``preds > 0``); ``scores`` are
    the ranked documents' scores, needed by ``"no_hit"``."""
    if nonpositive_scores == "rank":
        return None
    if nonpositive_scores != "no_hit":
        raise ValueError(f"The 'nonpositive_scores' convention must be 'rank' or 'no_hit'. "
                         f"Got {nonpositive_scores!r} instead.")
    if scores is None:
        raise ValueError("nonpositive_scores='no_hit' needs the ranked documents' scores (scores=).")
    return np.asarray(scores, dtype=np.float64) <= 0


class _Ranked:
    """What every measure reads from one ranked list: the grades, the pool for the ideal and R, the depth,
    and the ranks that cannot be hits (``no_hits``, :func:`_no_hits`): relevant there, yet not counted
    as found; R still counts them."""

    def __init__(self, grades, judged, k, group_ends, ideal_from, no_hits=None):
        if ideal_from not in ("run", "judgments"):
            raise ValueError(f"The 'ideal_from' convention must be 'judgments' or 'run'. Got {ideal_from!r} instead.")
        self.grades = np.asarray(grades, dtype=np.float64)
        self.no_hits = None if no_hits is None else np.asarray(no_hits, dtype=bool)
        self.pool = self.grades if ideal_from == "run" or judged is None else np.asarray(judged, dtype=np.float64)
        self.n = len(self.grades)
        self.k = k
        self.depth = self.n if k is None else min(k, self.n)
        self.group_ends = None if group_ends is None else np.asarray(group_ends, dtype=np.int64)

    def binary(self, rel_threshold):
        """(relevance of each rank, relevance counted in the top k (group means with tie groups), R)."""
        relevant = self.grades >= rel_threshold
        if self.no_hits is not None:
            relevant = relevant & ~self.no_hits
        relevant = relevant.astype(np.float64)
        top = relevant if self.group_ends is None else _group_means(relevant, self.group_ends)
        return relevant, top[: self.depth], int(np.sum(self.pool >= rel_threshold))

    def ends(self):
        return np.minimum(self.group_ends, self.depth)


def _weighted(gains: np.ndarray, item_weights: str, weights) -> np.ndarray:
    """Each gain times its document's weight under ``item_weights="gains"`` (TF-Ranking's per-item
    ``weights``); unchanged when the weights are ignored or the run has none."""
    if item_weights == "ignored" or weights is None:
        return gains
    if item_weights != "gains":
        raise ValueError(f"The 'item_weights' convention must be 'ignored' or 'gains'. Got {item_weights!r} instead.")
    return gains * np.asarray(weights, dtype=np.float64)


def ndcg_value(grades, *, judged=None, k=None, group_ends=None, ideal_from="judgments", gain="linear",
               log_base=2, rel_threshold=1, no_relevant="zero", item_weights="ignored", weights=None,
               **_other) -> float | None:
    """nDCG@k of one ranked list: sum of gain(g_i)/log_b(i + 1) over the top k, over the same of the ideal order.

    ``grades``: the ranked documents' grades, best first; ``judged``: every judged grade of the query
    (the ideal when ``ideal_from="judgments"``); ``group_ends``: scikit-learn's tie groups
    (:func:`tie_group_ends`), whose documents share the mean of their gains. The conventions
    (``ideal_from``, ``gain``, ``log_base``, ``rel_threshold`` for the binary gain, ``no_relevant``
    when the ideal DCG is 0, which gives None for ``"skip"``, ``item_weights="gains"`` with ``weights``,
    one per ranked document: each gain weighted, the ideal the list's weighted gains sorted, as
    TF-Ranking's NDCGMetric) are those of :data:`rankviz.conventions.CONVENTIONS`.

    >>> ndcg_value(np.array([1, 0]), group_ends=np.array([2, 2]), k=1)  # mean gain 0.5 / IDCG 1
    0.5
    >>> round(ndcg_value(np.array([0, 2]), judged=np.array([2, 1])), 4)  # (2/log2 3) / (2 + 1/log2 3)
    0.4796
    """
    ranked = _Ranked(grades, judged, k, group_ends, ideal_from)
    gains = _weighted(_gains(ranked.grades, gain, rel_threshold), item_weights, weights)
    pool = _gains(ranked.pool, gain, rel_threshold)
    ideal = np.sort(gains if item_weights == "gains" and weights is not None else pool)[::-1]
    ideal = ideal[: (len(ideal) if k is None else k)]
    idcg = float(np.sum(ideal * _discounts(len(ideal), log_base)))
    if idcg <= 0:
        return _empty(no_relevant)
    if ranked.group_ends is not None:
        gains = _group_means(gains, ranked.group_ends)
    dcg = float(np.sum(gains[: ranked.depth] * _discounts(ranked.depth, log_base)))
    if dcg == 0 and no_relevant == "none_retrieved":
        return None
    return dcg / idcg


def dcg_value(grades, *, judged=None, k=None, group_ends=None, ideal_from="judgments", gain="linear",
              log_base=2, rel_threshold=1, no_relevant="zero", item_weights="ignored", weights=None,
              **_other) -> float | None:
    """DCG@k of one ranked list: the sum of gain(g_i)/log_b(i + 1) over the top k (scikit-learn's dcg_score,
    ranx's dcg); unlike nDCG it depends on the log base b. A query without relevant judgments follows
    ``no_relevant`` like the others.

    >>> round(dcg_value(np.array([1, 2])), 4), round(dcg_value(np.array([1, 2]), log_base=10), 4)  # 1/log_b 2 + 2/log_b 3
    (2.2619, 7.5137)
    """
    ranked = _Ranked(grades, judged, k, group_ends, ideal_from)
    if not np.any(_gains(ranked.pool, gain, rel_threshold) > 0):
        return _empty(no_relevant)
    gains = _weighted(_gains(ranked.grades, gain, rel_threshold), item_weights, weights)
    if ranked.group_ends is not None:
        gains = _group_means(gains, ranked.group_ends)
    return float(np.sum(gains[: ranked.depth] * _discounts(ranked.depth, log_base)))


def ap_value(grades, *, judged=None, k=None, group_ends=None, ideal_from="judgments", ap_denominator="R",
             rel_threshold=1, no_relevant="zero", scores=None, nonpositive_scores="rank", **_other) -> float | None:
    """AP@k: the sum of P@i over the relevant ranks i <= k, over R (``ap_denominator="R"``), min(R, k)
    (``"min_r_k"``) or the relevant documents of the top k (``"retrieved"``). With tie groups each
    relevant document gets the precision at its group's end (scikit-learn). With
    ``nonpositive_scores="no_hit"`` a relevant document whose score (``scores``, ranked) is 0 or below
    is not a hit (torchmetrics).

    >>> ap_value(np.array([0, 1, 0, 2]), judged=np.array([1, 2, 1]))  # (1/2 + 2/4) / 3
    0.3333333333333333
    >>> ap_value(np.array([0, 1, 0, 2]), judged=np.array([1, 2, 1]), k=2, ap_denominator="min_r_k")  # (1/2) / 2
    0.25
    >>> ap_value(np.array([1, 0, 1]), group_ends=np.array([2, 2, 3]))  # (1/2 + 2/3) / 2
    0.5833333333333333
    >>> ap_value(np.array([1, 0, 1]), scores=np.array([0.5, 0.0, -0.5]), nonpositive_scores="no_hit",
    ...          ap_denominator="retrieved")  # the second relevant document, scored -0.5, is no hit: 1 / 1
    1.0
    """
    ranked = _Ranked(grades, judged, k, group_ends, ideal_from, _no_hits(scores, nonpositive_scores))
    relevant, _top, r_total = ranked.binary(rel_threshold)
    if r_total == 0:
        return _empty(no_relevant)
    found = np.flatnonzero(relevant[: ranked.depth])
    counted = np.cumsum(relevant[: ranked.depth])
    if ranked.group_ends is not None:
        at = ranked.ends()[found]
        precisions = counted[at - 1] / at
    else:
        precisions = counted[found] / (found + 1)
    if ap_denominator == "R":
        denominator = r_total
    elif ap_denominator == "min_r_k":
        denominator = min(r_total, k) if k is not None else r_total
    elif ap_denominator == "retrieved":
        denominator = len(found)
    else:
        raise ValueError(f"The 'ap_denominator' convention must be 'R', 'retrieved' or 'min_r_k'. "
                         f"Got {ap_denominator!r} instead.")
    return float(np.sum(precisions)) / denominator if denominator else 0.0


def precision_value(grades, *, judged=None, k=None, group_ends=None, ideal_from="judgments",
                    precision_denominator="k", rel_threshold=1, no_relevant="zero", scores=None,
                    nonpositive_scores="rank", **_other) -> float | None:
    """P@k: the relevant documents of the top k over k, or over min(k, n) (``precision_denominator="retrieved"``).

    >>> precision_value(np.array([1, 0]), judged=np.array([1]), k=4), precision_value(
    ...     np.array([1, 0]), judged=np.array([1]), k=4, precision_denominator="retrieved")
    (0.25, 0.5)
    """
    ranked = _Ranked(grades, judged, k, group_ends, ideal_from, _no_hits(scores, nonpositive_scores))
    _relevant, top, r_total = ranked.binary(rel_threshold)
    if r_total == 0:
        return _empty(no_relevant)
    denominator = (k if k is not None else ranked.n) if precision_denominator == "k" else ranked.depth
    return float(np.sum(top)) / denominator if denominator else 0.0


def recall_value(grades, *, judged=None, k=None, group_ends=None, ideal_from="judgments", recall="recall",
                 rel_threshold=1, no_relevant="zero", scores=None, nonpositive_scores="rank", **_other) -> float | None:
    """R@k: the relevant documents of the top k over R (``recall="recall"``), over min(R, k) (``"capped"``),
    or 1 if there is any (``"hit_rate"``). With ``nonpositive_scores="no_hit"``, a relevant document
    scored 0 or below is not found, yet counts in R (torchmetrics' retrieval_recall).

    >>> recall_value(np.array([0, 1]), judged=np.array([1, 1, 1]), k=2, recall="hit_rate")
    1.0
    >>> recall_value(np.array([0, 1]), judged=np.array([1, 1, 1]), k=2, recall="capped")  # 1 / min(3, 2)
    0.5
    >>> recall_value(np.array([1, 1]), scores=np.array([1.0, 0.0]), nonpositive_scores="no_hit", ideal_from="run")
    0.5
    """
    ranked = _Ranked(grades, judged, k, group_ends, ideal_from, _no_hits(scores, nonpositive_scores))
    _relevant, top, r_total = ranked.binary(rel_threshold)
    if r_total == 0:
        return _empty(no_relevant)
    hits = float(np.sum(top))
    if recall == "hit_rate":
        return 1.0 if hits > 0 else 0.0
    if recall == "capped":
        return hits / min(r_total, k if k is not None else r_total)
    return hits / r_total


def success_value(grades, *, judged=None, k=None, group_ends=None, ideal_from="judgments", rel_threshold=1,
                  no_relevant="zero", scores=None, nonpositive_scores="rank", **_other) -> float | None:
    """Success@k (hit rate): 1 if the top k holds a relevant document.

    >>> success_value(np.array([0, 0, 1]), k=2), success_value(np.array([0, 0, 1]), k=3)
    (0.0, 1.0)
    """
    return recall_value(grades, judged=judged, k=k, group_ends=group_ends, ideal_from=ideal_from,
                        recall="hit_rate", rel_threshold=rel_threshold, no_relevant=no_relevant, scores=scores,
                        nonpositive_scores=nonpositive_scores)


def rr_value(grades, *, judged=None, k=None, group_ends=None, ideal_from="judgments", rel_threshold=1,
             no_relevant="zero", scores=None, nonpositive_scores="rank", **_other) -> float | None:
    """RR@k: 1 over the rank of the first relevant document in the top k (0 if none); with tie groups,
    1 over the end of the first group holding one.

    >>> rr_value(np.array([0, 0, 1])), rr_value(np.array([1, 0]), group_ends=np.array([2, 2]))
    (0.3333333333333333, 0.5)
    """
    ranked = _Ranked(grades, judged, k, group_ends, ideal_from, _no_hits(scores, nonpositive_scores))
    relevant, _top, r_total = ranked.binary(rel_threshold)
    if r_total == 0:
        return _empty(no_relevant)
    found = np.flatnonzero(relevant[: ranked.depth])
    if not len(found):
        return 0.0
    return 1.0 / float(ranked.ends()[found[0]] if ranked.group_ends is not None else found[0] + 1)


def _empty(no_relevant: str) -> float | None:
    if no_relevant == "zero":
        return 0.0
    if no_relevant == "one":
        return 1.0
    if no_relevant in ("skip", "none_retrieved"):
        return None
    raise ValueError(f"The 'no_relevant' convention must be 'zero', 'skip', 'none_retrieved' or 'one'. "
                     f"Got {no_relevant!r} instead.")


def accuracy_value(grades, *, judged=None, k=None, group_ends=None, ideal_from="judgments", rel_threshold=1,
                   no_relevant="zero", **_other) -> float | None:
    """ir_measures' Accuracy@k: the share of (relevant, non-relevant) pairs of the top k where the relevant
    document comes first, i.e. the AUC of the retrieved documents. Defined only when the top k holds a
    relevant document (None otherwise, as ir_measures reports nothing); 1.0 when it holds no non-relevant
    one (ir_measures 0.4.3 raises ZeroDivisionError there).

    >>> accuracy_value(np.array([0, 1, 0, 1]))  # relevant at 2 beats 1 non-relevant of 2, at 4 none: 1/4
    0.25
    """
    ranked = _Ranked(grades, judged, k, group_ends, ideal_from)
    relevant, _top, r_total = ranked.binary(rel_threshold)
    if r_total == 0:
        return _empty(no_relevant)
    top = relevant[: ranked.depth].astype(bool)
    if not top.any():
        return None
    nonrelevant = float(np.sum(~top))
    if nonrelevant == 0:
        return 1.0
    below = nonrelevant - np.cumsum(~top)[top]  # non-relevant documents ranked below each relevant one
    return float(np.sum(below)) / (nonrelevant * float(np.sum(top)))


def fallout_value(grades, *, judged=None, k=None, group_ends=None, ideal_from="judgments", is_judged=None,
                  fallout_denominator="judged", fallout_empty="zero", rel_threshold=1, **_other) -> float:
    """Fall-out@k: the share of the non-relevant documents that the top k retrieves.

    ``fallout_denominator="judged"``: the judged non-relevant documents of the top k over those of the
    query (``judged``; ``is_judged`` tells which ranked documents are judged, None: all); ``"run"``: the
    non-relevant documents of the top k over those of the list (torchmetrics' RetrievalFallOut, an
    unjudged document counting as non-relevant). When there is no non-relevant document to retrieve:
    0.0 (``fallout_empty="zero"``) or 1.0 (``"one"``, torchmetrics' RetrievalFallOut).

    >>> fallout_value(np.array([0, 1, 0, 0]), judged=np.array([0, 1, 0, 0, 0, 0]), k=2)  # 1 of 5 judged
    0.2
    >>> fallout_value(np.array([0, 1, 0, 0]), k=2, fallout_denominator="run")  # 1 of the list's 3
    0.3333333333333333
    >>> fallout_value(np.array([1, 2]), fallout_denominator="run", fallout_empty="one")  # nothing to fall out
    1.0
    """
    if fallout_empty not in ("zero", "one"):
        raise ValueError(f"The 'fallout_empty' convention must be 'zero' or 'one'. Got {fallout_empty!r} instead.")
    ranked = _Ranked(grades, judged, k, group_ends, ideal_from)
    nonrelevant = ranked.grades < rel_threshold
    if fallout_denominator == "run":
        retrieved, total = np.sum(nonrelevant[: ranked.depth]), np.sum(nonrelevant)
    elif fallout_denominator == "judged":
        known = np.ones(ranked.n, dtype=bool) if is_judged is None else np.asarray(is_judged, dtype=bool)
        retrieved = np.sum((nonrelevant & known)[: ranked.depth])
        pool = ranked.grades if judged is None else np.asarray(judged, dtype=np.float64)
        total = np.sum(pool < rel_threshold)
    else:
        raise ValueError(f"The 'fallout_denominator' convention must be 'judged' or 'run'. "
                         f"Got {fallout_denominator!r} instead.")
    if not total:
        return 1.0 if fallout_empty == "one" else 0.0
    return float(retrieved) / float(total)


def bpref_value(grades, *, judged=None, k=None, group_ends=None, ideal_from="judgments", is_judged=None,
                bpref_denominator="min_r_n", rel_threshold=1, no_relevant="zero", **_other) -> float | None:
    """bpref: (1/R) sum over the relevant documents retrieved of 1 − (judged non-relevant documents above
    it, capped) / D, where D = min(R, N) (trec_eval, ``bpref_denominator="min_r_n"``; N the judged
    non-relevant documents) or D = R (Buckley & Voorhees' first formula, TF-Ranking's
    ``use_trec_version=False``). Unjudged documents (``is_judged``) are ignored.

    >>> bpref_value(np.array([1, 0, 1]), judged=np.array([1, 0, 1, 1]))  # R = 3, N = 1: (1 + (1 − 1/1)) / 3
    0.3333333333333333
    >>> bpref_value(np.array([1, 0, 1]), judged=np.array([1, 0, 1, 1]), bpref_denominator="R")  # (1 + 2/3) / 3
    0.5555555555555556
    """
    ranked = _Ranked(grades, judged, k, group_ends, ideal_from)
    relevant, _top, r_total = ranked.binary(rel_threshold)
    if r_total == 0:
        return _empty(no_relevant)
    # A tool that knows only the list's labels (ideal_from="run") has every listed document judged.
    known = np.ones(ranked.n, dtype=bool) if is_judged is None or ideal_from == "run" else np.asarray(is_judged, dtype=bool)
    n_nonrelevant = int(np.sum(ranked.pool < rel_threshold))  # N: the judged non-relevant documents
    if bpref_denominator == "min_r_n":
        denominator = min(r_total, n_nonrelevant)
    elif bpref_denominator == "R":
        denominator = r_total
    else:
        raise ValueError(f"The 'bpref_denominator' convention must be 'min_r_n' or 'R'. Got {bpref_denominator!r} instead.")
    above = np.cumsum((relevant == 0) & known)[: ranked.depth]
    found = np.flatnonzero(relevant[: ranked.depth])
    if denominator == 0:
        return float(len(found)) / r_total
    penalties = np.minimum(above[found], denominator) / denominator
    return float(np.sum(1.0 - penalties)) / r_total


def _pair_signs(values: np.ndarray) -> np.ndarray:
    """sign(v_i - v_j) for every pair i < j, in the order of ``np.triu_indices``."""
    i, j = np.triu_indices(len(values), k=1)
    return np.sign(values[i] - values[j])


def _undefined(what: str) -> float:
    warnings.warn(f"{what} is undefined here; returning NaN.", RuntimeWarning, stacklevel=3)
    return float("nan")


def kendall_tau_c(x, y) -> float:
    """Stuart's tau-c (scipy's ``kendalltau(variant="c")``): for rectangular tables, where tau-b cannot reach 1.

    tau_c = 2 (C − D) / (n² (m − 1) / m), m the smaller number of distinct values of x and y.
    Undefined (NaN and a RuntimeWarning) when n < 2 or m < 2.

    >>> kendall_tau_c([1, 2, 3, 4], [1, 1, 2, 2])  # C − D = 4, m = 2: 8 / (16 / 2)
    1.0
    """
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    n = len(x)
    m = min(len(np.unique(x)), len(np.unique(y))) if n else 0
    if n < 2 or m < 2:
        return _undefined("Kendall's tau-c")
    s = float(np.sum(_pair_signs(x) * _pair_signs(y)))
    return 2 * s / (n * n * (m - 1) / m)


def _weighted_tau_by(x: np.ndarray, y: np.ndarray, first: np.ndarray, second: np.ndarray) -> float:
    order = sorted(range(len(x)), key=lambda i: (first[i], second[i]), reverse=True)
    rank = np.empty(len(x), dtype=np.int64)
    rank[order] = np.arange(len(x))
    weight = 1.0 / (rank + 1.0)
    i, j = np.triu_indices(len(x), k=1)
    pair_weight = weight[i] + weight[j]
    sx, sy = _pair_signs(x), _pair_signs(y)
    denominator = np.sqrt(np.sum(pair_weight * (sx != 0)) * np.sum(pair_weight * (sy != 0)))
    return float(np.sum(pair_weight * sx * sy) / denominator) if denominator > 0 else float("nan")


def weighted_tau(x, y) -> float:
    """Vigna's weighted tau, as scipy's ``weightedtau(x, y)`` defaults compute it.

    A pair (i, j) weighs w(r_i) + w(r_j) with the hyperbolic weigher w(r) = 1/(r + 1) of each element's
    rank r (0 for the largest), so exchanges at the top count more; ties are handled as tau-b does.
    The rank is the decreasing lexicographic order by (x, y), then by (y, x): the value is the mean of
    the two. Undefined (NaN and a RuntimeWarning) when either side is all tied.

    >>> round(weighted_tau([4, 3, 2, 1], [4, 3, 1, 2]), 4)  # only the bottom pair swapped
    0.8133
    """
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if len(x) < 2:
        return _undefined("Weighted tau")
    values = (_weighted_tau_by(x, y, x, y), _weighted_tau_by(x, y, y, x))
    if any(np.isnan(v) for v in values):
        return _undefined("Weighted tau")
    return (values[0] + values[1]) / 2


def weighted_auc(labels, scores, sample_weight=None) -> float:
    """AUC with a weight per impression (row): each (positive, negative) pair weighs w_p w_n, a tied pair
    half (scikit-learn's ``roc_auc_score(sample_weight=)``); without weights, the Mann-Whitney AUC.
    NaN when the weights of either class sum to 0.

    >>> weighted_auc([1, 0, 0], [0.9, 0.5, 0.95], sample_weight=[1, 3, 1])  # (1·3 + 0) / (1 · 4)
    0.75
    """
    y = np.asarray(labels).astype(bool)
    s = np.asarray(scores, dtype=np.float64)
    w = np.ones(len(s)) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    order = np.argsort(s, kind="stable")
    s, y, w = s[order], y[order], w[order]
    starts = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1]))) if len(s) else np.zeros(0, dtype=np.int64)
    pos = np.add.reduceat(w * y, starts) if len(s) else np.zeros(0)
    neg = np.add.reduceat(w * ~y, starts) if len(s) else np.zeros(0)
    below = np.cumsum(neg) - neg
    total_pos, total_neg = float(np.sum(pos)), float(np.sum(neg))
    if total_pos <= 0 or total_neg <= 0:
        return float("nan")
    return float(np.sum(pos * below + 0.5 * pos * neg)) / (total_pos * total_neg)


def gauc_groups(labels, scores, groups, *, constant_predictions="keep") -> dict:
    """What GAUC does with each group (in order of first appearance): ``"counted"``; ``"one class"``
    (only positives or only negatives: no pair to order, left out under every convention); or
    ``"constant predictions"`` (both classes, every score equal: left out when
    ``constant_predictions="drop"``, torchrec's rule; counted with AUC 0.5 otherwise).

    >>> gauc_groups([1, 0, 1, 0, 0], [0.9, 0.1, 0.5, 0.5, 0.3], list("uuvvw"), constant_predictions="drop")
    {'u': 'counted', 'v': 'constant predictions', 'w': 'one class'}
    """
    labels = np.asarray(labels).astype(bool)
    scores = np.asarray(scores, dtype=np.float64)
    groups = np.asarray(groups)
    fates = {}
    for g in dict.fromkeys(groups.tolist()):
        rows = groups == g
        y, s = labels[rows], scores[rows]
        if y.all() or not y.any():
            fates[g] = "one class"
        elif constant_predictions == "drop" and np.all(s == s[0]):
            fates[g] = "constant predictions"
        else:
            fates[g] = "counted"
    return fates


def gauc_value(labels, scores, groups, *, weights="size", constant_predictions="keep", no_groups="nan",
               sample_weight=None) -> float:
    """Group AUC under the GAUC conventions: the mean of the groups' AUCs, weighted by ``weights``
    (``"size"``: impressions, ``"positives"``, ``"uniform"``), over the groups with both classes, and
    with ``constant_predictions="drop"`` only those whose scores are not all equal (torchrec); when no
    group counts, NaN (``no_groups="nan"``) or 0.5 (``"half"``, torchrec). ``sample_weight``: a weight per
    impression in each group's AUC (:func:`weighted_auc`).

    >>> labels, scores, groups = [1, 0, 1, 0, 1, 0, 0], [0.9, 0.1, 0.5, 0.5, 0.2, 0.8, 0.1], list("uuvvwww")
    >>> gauc_value(labels, scores, groups)  # u: 1, v: tied 0.5, w: 1/2; weighed 2, 2, 3: (2 + 1 + 1.5) / 7
    0.6428571428571429
    >>> gauc_value(labels, scores, groups, weights="uniform", constant_predictions="drop")  # v out: (1 + 1/2) / 2
    0.75
    >>> gauc_value([1, 1], [0.3, 0.4], ["u", "u"], no_groups="half")
    0.5
    """
    labels = np.asarray(labels).astype(bool)
    scores = np.asarray(scores, dtype=np.float64)
    groups = np.asarray(groups)
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    values, group_weights = [], []
    for g, fate in gauc_groups(labels, scores, groups, constant_predictions=constant_predictions).items():
        if fate != "counted":
            continue
        rows = groups == g
        y, s = labels[rows], scores[rows]
        values.append(weighted_auc(y, s, None if w is None else w[rows]))
        group_weights.append({"size": len(y), "positives": int(y.sum()), "uniform": 1}[weights])
    if not values or sum(group_weights) == 0:
        return 0.5 if no_groups == "half" else float("nan")
    return float(np.dot(values, group_weights) / np.sum(group_weights))


def partial_auc(labels, scores, max_fpr: float, standardized: str = "mcclish") -> float:
    """The area under the ROC curve up to a false-positive rate ``max_fpr`` (ties as one step of the
    curve, the curve interpolated linearly at ``max_fpr``), raw (``standardized="raw"``) or
    McClish-standardized to [0.5, 1] as scikit-learn's ``roc_auc_score(max_fpr=)`` reports it:
    ½ (1 + (A − ½ max_fpr²) / (max_fpr − ½ max_fpr²)).

    >>> partial_auc([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], 0.5, "raw")  # TPR 1/2 until FPR 1/2
    0.25
    >>> round(partial_auc([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], 0.5), 4)  # ½ (1 + (0.25 − 0.125) / 0.375)
    0.6667
    """
    y = np.asarray(labels).astype(bool)
    s = np.asarray(scores, dtype=np.float64)
    if not 0 < max_fpr <= 1:
        raise ValueError(f"max_fpr must be in (0, 1]; got {max_fpr!r}.")
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        return _undefined("Partial AUC")
    order = np.argsort(-s, kind="stable")
    s, y = s[order], y[order]
    ends = np.flatnonzero(np.concatenate((s[1:] != s[:-1], [True])))  # the last row of each tie
    tpr = np.concatenate(([0.0], np.cumsum(y)[ends] / n_pos))
    fpr = np.concatenate(([0.0], np.cumsum(~y)[ends] / n_neg))
    stop = np.searchsorted(fpr, max_fpr, side="right")
    x = np.concatenate((fpr[:stop], [max_fpr]))
    t = np.concatenate((tpr[:stop], [np.interp(max_fpr, fpr, tpr)]))
    area = float(np.sum(np.diff(x) * (t[1:] + t[:-1]) / 2))
    if standardized == "raw":
        return area
    low, high = max_fpr ** 2 / 2, max_fpr
    return 0.5 * (1 + (area - low) / (high - low))


def multiclass_auc(labels, probabilities, average: str = "ovr") -> float:
    """The AUC of a multiclass classifier (a probability per class per sample): one class against the
    rest, averaged over the classes (``"ovr"``, scikit-learn's macro ``multi_class="ovr"``), or Hand &
    Till's one against one (``"ovo"``): the mean over pairs of classes j, k of ½ (A(j|k) + A(k|j)), each
    A the AUC on the samples of j and k only with the score of the first class.

    >>> labels = [0, 2, 2, 2, 2, 0, 1]
    >>> probs = [[.16, .03, .8], [.24, .57, .19], [.44, .01, .55], [.25, .61, .14], [.22, .09, .7], [.86, .03, .11],
    ...          [.84, .11, .06]]
    >>> round(multiclass_auc(labels, probs, "ovr"), 4), round(multiclass_auc(labels, probs, "ovo"), 4)
    (0.6111, 0.6667)
    """
    y = np.asarray(labels)
    p = np.asarray(probabilities, dtype=np.float64)
    classes = np.unique(y)
    if average == "ovr":
        return float(np.mean([weighted_auc(y == c, p[:, i]) for i, c in enumerate(classes)]))
    if average == "ovo":
        pairs = []
        for a in range(len(classes)):
            for b in range(a + 1, len(classes)):
                rows = (y == classes[a]) | (y == classes[b])
                pairs.append((weighted_auc(y[rows] == classes[a], p[rows, a])
                              + weighted_auc(y[rows] == classes[b], p[rows, b])) / 2)
        return float(np.mean(pairs))
    raise ValueError(f"The 'average' of multiclass_auc must be 'ovr' or 'ovo'. Got {average!r} instead.")
