"""Reference implementations: each metric the app works out, written as a student would write it.

The package computes every metric with one vectorised kernel (:mod:`rankviz.metrics.kernels`),
fast but hard to read: the public function validates its input and hands arrays to the kernel.
The functions here are the other half, in the spirit of scikit-learn's
``_average_precision_slow``: plain Python loops over the ranking with the formula visible, no
validation, no numpy. The app's "Show the code" shows them (:func:`reference_for`), and
``tests/metrics/test_reference.py`` holds each equal to its public function on random inputs,
so what a student reads is what the package computes.

Each function has the name and the parameters of the public function it mirrors (the metric's
name in :mod:`rankviz.registry`) and the same conventions: ``rels`` are grades in ranked order
(``rels[0]`` is rank 1); a document is relevant when its grade is ``>= rel_threshold``; ``k=None``
is the whole list; R is ``n_relevant``, else the relevant grades of ``judged``, else of ``rels``;
a ratio over zero is 0.0.

>>> average_precision([1, 0, 1, 0, 0, 1])  # (1/1 + 2/3 + 3/6) / 3
0.7222222222222222
>>> reference_for("average_precision") is average_precision, reference_for("no_such_metric")
(True, None)
"""

from __future__ import annotations

import functools
import inspect
import math
import sys
from collections.abc import Callable

__all__ = [
    "reference_for", "reference_source",
    # binary relevance
    "precision", "recall", "hit", "f_beta", "r_precision", "average_precision", "reciprocal_rank",
    "eleven_point_precision", "interpolated_average_precision",
    # graded relevance
    "cumulative_gain", "dcg", "ideal_dcg", "ndcg", "err",
    # two rankings
    "spearman_rho", "kendall_tau", "kendall_tau_distance",
    # labels and scores
    "auc", "gauc",
    # the user's view
    "coverage", "novelty", "relative_recall", "recall_effort", "expected_search_length", "satisfaction",
    "frustration",
]


def reference_for(name: str) -> Callable | None:
    """The reference implementation of the metric ``name`` (a registry name), or None."""
    function = None if name.startswith("_") else getattr(sys.modules[__name__], name, None)
    if not inspect.isfunction(function) or function.__module__ != __name__ or function in (reference_for,
                                                                                         reference_source):
        return None
    return function


@functools.cache  # read once per process: inspect re-reads and re-tokenizes the file each time (~3 ms a page run)
def reference_source(name: str) -> str | None:
    """The source of the reference implementation of ``name``, followed by the helpers of this
    module it calls (and theirs), so that what is shown is the whole computation; None when
    there is no reference.

    >>> print(reference_source("r_precision").split("def ")[2].splitlines()[0])
    _n_relevant(rels, n_relevant, judged, rel_threshold):
    """
    function = reference_for(name)
    if function is None:
        return None
    shown, queue = [], [function]
    while queue:
        current = queue.pop(0)
        if current not in shown:
            shown.append(current)
            queue += _functions_called(current.__code__)
    return "\n\n\n".join(inspect.getsource(part).rstrip("\n") for part in shown)


def _functions_called(code) -> list:
    """The functions of this module a code object names, its nested ones (a generator) included."""
    module = sys.modules[__name__]
    called = []
    for name in code.co_names:
        value = getattr(module, name, None)
        if inspect.isfunction(value) and (name.startswith("_") or reference_for(name) is not None):
            called.append(value)
    for constant in code.co_consts:
        if inspect.iscode(constant):
            called += _functions_called(constant)
    return called


# ------------------------------------------------------------------------------- binary relevance


def _n_relevant(rels, n_relevant, judged, rel_threshold):
    """R: given, else the relevant grades of the judged documents, else of the ranked list."""
    if n_relevant is not None:
        return n_relevant
    pool = rels if judged is None else judged
    return sum(1 for grade in pool if grade >= rel_threshold)


def precision(rels, k=None, *, rel_threshold=1):
    """P@k = (relevant documents in the top k) / k; missing ranks beyond the list count as non-relevant."""
    depth = len(rels) if k is None else k
    if depth == 0:
        return 0.0
    hits = sum(1 for grade in rels[:k] if grade >= rel_threshold)
    return hits / depth


def recall(rels, k=None, *, n_relevant=None, judged=None, rel_threshold=1):
    """R@k = (relevant documents in the top k) / R."""
    r = _n_relevant(rels, n_relevant, judged, rel_threshold)
    if r == 0:
        return 0.0
    hits = sum(1 for grade in rels[:k] if grade >= rel_threshold)
    return hits / r


def hit(rels, k=None, *, rel_threshold=1):
    """Hit@k = 1 if a relevant document is in the top k, else 0."""
    for grade in rels[:k]:
        if grade >= rel_threshold:
            return 1.0
    return 0.0


def f_beta(rels, k=None, *, beta=1.0, n_relevant=None, judged=None, rel_threshold=1):
    """F_beta = (1 + beta²) P R / (beta² P + R), P and R at the same k."""
    p = precision(rels, k, rel_threshold=rel_threshold)
    r = recall(rels, k, n_relevant=n_relevant, judged=judged, rel_threshold=rel_threshold)
    if p + r == 0:
        return 0.0
    return (1 + beta**2) * p * r / (beta**2 * p + r)


def r_precision(rels, *, n_relevant=None, judged=None, rel_threshold=1):
    """R-precision = P@R, R the relevant documents of the query."""
    r = _n_relevant(rels, n_relevant, judged, rel_threshold)
    if r == 0:
        return 0.0
    return precision(rels, r, rel_threshold=rel_threshold)


def average_precision(rels, k=None, *, n_relevant=None, judged=None, rel_threshold=1):
    """AP@k = (1/R) sum of P@i over the ranks i <= k holding a relevant document."""
    r = _n_relevant(rels, n_relevant, judged, rel_threshold)
    if r == 0:
        return 0.0
    hits, total = 0, 0.0
    for i, grade in enumerate(rels[:k], start=1):
        if grade >= rel_threshold:
            hits += 1
            total += hits / i  # P@i at a relevant rank
    return total / r


def reciprocal_rank(rels, k=None, *, rel_threshold=1):
    """RR = 1 / (rank of the first relevant document), 0 when it lies below rank k."""
    for i, grade in enumerate(rels[:k], start=1):
        if grade >= rel_threshold:
            return 1 / i
    return 0.0


def _interpolated_precision(rels, level, r, rel_threshold):
    """The best P@i over the ranks i whose recall reaches ``level``, 0 if none does (the textbook
    rule: the level needs ceil(level R) relevant documents)."""
    # 1e-9: binary noise is not one more document (9/11 of R = 77 is 63.00000000000001).
    needed = math.ceil(level * r - 1e-9 * max(1.0, level * r))
    best, hits = 0.0, 0
    for i, grade in enumerate(rels, start=1):
        if grade >= rel_threshold:
            hits += 1
            if hits >= max(needed, 1):
                best = max(best, hits / i)
    return best


def eleven_point_precision(rels, *, n_relevant=None, judged=None, rel_threshold=1):
    """(1/11) sum of the interpolated precisions at recall 0.0, 0.1, ..., 1.0."""
    r = _n_relevant(rels, n_relevant, judged, rel_threshold)
    if r == 0:
        return 0.0
    levels = [i / 10 for i in range(11)]
    return sum(_interpolated_precision(rels, level, r, rel_threshold) for level in levels) / 11


def interpolated_average_precision(rels, *, n_relevant=None, judged=None, rel_threshold=1, levels=10):
    """(1/L) sum of the interpolated precisions at recall 1/L, 2/L, ..., 1 (the lecture: L = 10)."""
    r = _n_relevant(rels, n_relevant, judged, rel_threshold)
    if r == 0:
        return 0.0
    return sum(_interpolated_precision(rels, j / levels, r, rel_threshold) for j in range(1, levels + 1)) / levels


# ------------------------------------------------------------------------------- graded relevance


def cumulative_gain(rels, k=None):
    """CG@k = sum of the grades in the top k."""
    return float(sum(rels[:k]))


def dcg(rels, k=None, *, gain="linear", discount="log2", log_base=2):
    """DCG@k = sum over the top k of g(rel_i) / d(i): g = rel or 2^rel - 1; d = log2(i + 1), or
    Järvelin & Kekäläinen's max(1, log_b i)."""
    total = 0.0
    for i, grade in enumerate(rels[:k], start=1):
        g = grade if gain == "linear" else 2**grade - 1
        d = math.log2(i + 1) if discount == "log2" else max(1.0, math.log(i, log_base))
        total += g / d
    return total


def ideal_dcg(rels, k=None, *, judged=None, gain="linear", discount="log2", log_base=2):
    """IDCG@k = DCG@k of the judged grades sorted best first (the ranked list's when not given)."""
    ideal = sorted(rels if judged is None else judged, reverse=True)
    return dcg(ideal, k, gain=gain, discount=discount, log_base=log_base)


def ndcg(rels, k=None, *, judged=None, gain="linear", discount="log2", log_base=2):
    """nDCG@k = DCG@k / IDCG@k (0 when the ideal is 0)."""
    best = ideal_dcg(rels, k, judged=judged, gain=gain, discount=discount, log_base=log_base)
    if best == 0:
        return 0.0
    return dcg(rels, k, gain=gain, discount=discount, log_base=log_base) / best


def err(rels, k=None, *, max_grade=None, judged=None):
    """ERR@k = sum over r of (1/r) R_r prod_{i<r} (1 - R_i), with R_i = (2^g_i - 1) / 2^g_max: the
    user reads down the list and stops at rank r, satisfied, with probability R_r."""
    if max_grade is None:
        max_grade = max(judged if judged is not None else rels, default=0)
    total, reaches = 0.0, 1.0  # reaches: the probability that the user reads rank r
    for r, grade in enumerate(rels[:k], start=1):
        satisfied = (2**grade - 1) / 2**max_grade
        total += reaches * satisfied / r
        reaches *= 1 - satisfied
    return total


# ----------------------------------------------------------------------------------- two rankings


def _average_ranks(values):
    """Ranks 1..n of ``values`` (smallest first), tied values sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda j: values[j])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            ranks[order[position]] = (start + end) / 2 + 1  # the mean of ranks start+1 .. end+1
        start = end + 1
    return ranks


def spearman_rho(a, b, *, items=None):
    """rho = the Pearson correlation of the two rankings' (average) ranks; without ties
    1 - 6 sum d_j² / (K (K² - 1)). NaN when undefined (K < 2, or one side all tied)."""
    x, y = _average_ranks(list(a)), _average_ranks(list(b))
    n = len(x)
    if n < 2:
        return math.nan
    mean_x, mean_y = sum(x) / n, sum(y) / n
    covariance = sum((xi - mean_x) * (yi - mean_y) for xi, yi in zip(x, y))
    spread_x = math.sqrt(sum((xi - mean_x) ** 2 for xi in x))
    spread_y = math.sqrt(sum((yi - mean_y) ** 2 for yi in y))
    if spread_x == 0 or spread_y == 0:
        return math.nan
    return covariance / (spread_x * spread_y)


def kendall_tau(a, b, variant="b", *, items=None):
    """tau_a = (C - D) / (n(n-1)/2), tau_b = (C - D) / sqrt((C + D + T_a)(C + D + T_b)), over
    every pair of documents: C concordant, D discordant, T_a (T_b) tied in a (b) only."""
    n = len(a)
    concordant = discordant = tied_a = tied_b = 0
    for i in range(n):
        for j in range(i + 1, n):
            da, db = a[i] - a[j], b[i] - b[j]
            if da == 0 and db == 0:
                continue
            if da == 0:
                tied_a += 1
            elif db == 0:
                tied_b += 1
            elif (da > 0) == (db > 0):
                concordant += 1
            else:
                discordant += 1
    if variant == "a":
        pairs = n * (n - 1) / 2
        undefined = n < 2 or len(set(a)) == 1 or len(set(b)) == 1
        return math.nan if undefined else (concordant - discordant) / pairs
    denominator = math.sqrt((concordant + discordant + tied_a) * (concordant + discordant + tied_b))
    return math.nan if denominator == 0 else (concordant - discordant) / denominator


def kendall_tau_distance(ranking_a, ranking_b, k=None, normalized=True, *, penalty=0.5):
    """K@k = the penalties of the pairs of items of the two top-k lists (Fagin et al.'s K^(p)),
    divided by the n(n-1)/2 pairs of their union when ``normalized``."""
    top_a, top_b = list(ranking_a)[:k], list(ranking_b)[:k]
    rank_a = {item: i for i, item in enumerate(top_a)}
    rank_b = {item: i for i, item in enumerate(top_b)}
    union = list(dict.fromkeys(top_a + top_b))
    total = 0.0
    for x in range(len(union)):
        for y in range(x + 1, len(union)):
            i, j = union[x], union[y]
            if i in rank_a and j in rank_a and i in rank_b and j in rank_b:
                # 1. both lists rank both: do they agree?
                total += (rank_a[i] < rank_a[j]) != (rank_b[i] < rank_b[j])
            elif (i in rank_a and j in rank_a) or (i in rank_b and j in rank_b):
                both, other = (rank_a, rank_b) if i in rank_a and j in rank_a else (rank_b, rank_a)
                if i in other or j in other:
                    # 2. one list ranks both, the other only one: it ranks that one higher.
                    shown = i if i in other else j
                    hidden = j if shown == i else i
                    total += both[hidden] < both[shown]
                else:
                    # 4. one list ranks both, the other neither: its order is unknown.
                    total += penalty
            else:
                # 3. each list ranks only its own item, above the other's.
                total += 1
    if not normalized:
        return total
    n = len(union)
    return 0.0 if n < 2 else total / (n * (n - 1) / 2)


# ------------------------------------------------------------------------------- labels and scores


def auc(labels, scores, *, items=None):
    """AUC = (1 / |P||N|) sum over positive-negative pairs of [s_p > s_n] + 1/2 [s_p = s_n]."""
    positives = [s for label, s in zip(labels, scores) if label]
    negatives = [s for label, s in zip(labels, scores) if not label]
    if not positives or not negatives:
        return math.nan
    wins = 0.0
    for p in positives:
        for n in negatives:
            wins += 1.0 if p > n else 0.5 if p == n else 0.0
    return wins / (len(positives) * len(negatives))


def gauc(labels, scores, groups, weights="size"):
    """GAUC = sum_g w_g AUC_g / sum_g w_g over the groups holding a positive and a negative;
    w_g their size (impressions), their positives, or 1."""
    members = {}
    for label, score, group in zip(labels, scores, groups):
        members.setdefault(group, []).append((label, score))
    weighted = total_weight = 0.0
    for rows in members.values():
        group_labels = [label for label, _ in rows]
        if all(group_labels) or not any(group_labels):
            continue  # one class only: no AUC
        w = {"size": len(rows), "impressions": len(rows), "positives": sum(group_labels), "uniform": 1}[weights]
        weighted += w * auc(group_labels, [score for _, score in rows])
        total_weight += w
    return math.nan if total_weight == 0 else weighted / total_weight


# --------------------------------------------------------------------------------- the user's view


def coverage(relevant, answer, known):
    """coverage = |K ∩ R ∩ A| / |K ∩ R|: of the relevant documents the user knew, those returned."""
    known_relevant = set(known) & set(relevant)
    return 0.0 if not known_relevant else len(known_relevant & set(answer)) / len(known_relevant)


def novelty(relevant, answer, known):
    """novelty = |(R ∩ A) - K| / |R ∩ A|: of the relevant documents returned, those new to the user."""
    found = set(relevant) & set(answer)
    return 0.0 if not found else len(found - set(known)) / len(found)


def relative_recall(found, expected):
    """relative recall = min(#found, #expected) / #expected."""
    return min(found, expected) / expected


def recall_effort(expected, examined):
    """recall effort = #expected / #examined."""
    return expected / examined


def expected_search_length(rels, wanted=1, *, rel_threshold=1, levels=None):
    """ESL = j + i s / (r + 1): j non-relevant documents in the levels read before the one where the
    wanted-th relevant document lies; in that level r relevant, i non-relevant, s still wanted."""
    if levels is None:
        levels = list(range(len(rels)))  # a strict order: each rank its own level
    groups = {}
    for level, grade in zip(levels, rels):
        groups.setdefault(level, []).append(grade >= rel_threshold)
    seen_non_relevant, still_wanted = 0, wanted
    for level in sorted(groups):
        r = sum(groups[level])
        i = len(groups[level]) - r
        if r >= still_wanted:
            return seen_non_relevant + i * still_wanted / (r + 1)
        seen_non_relevant += i  # the whole level is read
        still_wanted -= r
    return float(seen_non_relevant)  # fewer relevant documents than wanted: the whole list is read


def satisfaction(rels, k=None, *, rel_threshold=1):
    """satisfaction@k = relevant returned / returned, the top min(k, n) being returned."""
    returned = rels[:k]
    return 0.0 if not returned else sum(1 for grade in returned if grade >= rel_threshold) / len(returned)


def frustration(rels, k=None, *, rel_threshold=1):
    """frustration@k = non-relevant returned / returned = 1 - satisfaction@k."""
    returned = rels[:k]
    return 0.0 if not returned else sum(1 for grade in returned if grade < rel_threshold) / len(returned)
