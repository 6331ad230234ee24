"""CG, DCG, IDCG and nDCG of one ranking under every gain and discount, side by side.

The graded-relevance page shows this table so that a student sees at once how much the
convention moves the numbers (the lecture writes DCG three ways; trec_eval, scikit-learn and
the lecture's final formula disagree). Every value comes from :mod:`rankviz.metrics`.

>>> table = graded_variants([3, 2, 3, 0, 1, 2])
>>> row = table[(table["gain"] == "exponential") & (table["discount"] == "log2")].iloc[0]
>>> [round(float(row[name]), 3) for name in ("DCG", "IDCG", "nDCG")]
[13.848, 14.595, 0.949]
"""

from __future__ import annotations

from rankviz.registry import DISCOUNT, GAIN

__all__ = ["graded_variants"]


def graded_variants(rels, k=None, *, judged=None):
    """One row per (gain, discount) pair: CG@k, DCG@k, IDCG@k and nDCG@k of ``rels``.

    Parameters
    ----------
    rels, k, judged
        As in :func:`rankviz.metrics.ndcg` (``judged``: every judged grade, for the ideal).

    Returns
    -------
    pandas.DataFrame
        Columns ``gain``, ``discount``, ``gain formula``, ``discount formula`` (the registry's
        plain-text formulas: ``2^g − 1``, ``1 / log2(i + 1)``), ``CG``, ``DCG``, ``IDCG``,
        ``nDCG``; one row per discount, then gain, in the registry's order: linear/log2
        (trec_eval's default), exponential/log2 (the lecture's final formula), linear/jarvelin,
        exponential/jarvelin.
        CG ignores gain and discount and is the same in every row.

    Raises
    ------
    ValueError
        From the metric functions, for bad grades, k or judged grades.

    Examples
    --------
    Grades 2, 0, 1 (ideal order 2, 1, 0). Linear gain, log2(i + 1): DCG = 2/1 + 0 + 1/log2(4)
    = 2.5, IDCG = 2/1 + 1/log2(3) = 2.631, nDCG = 0.950. Exponential gain 2^g - 1 turns 2 into
    3: DCG = 3 + 1/2 = 3.5, IDCG = 3 + 1/log2(3) = 3.631. Järvelin's max(1, log2 i) does not
    discount rank 2: IDCG = 2/1 + 1/1 = 3 (linear) and 3 + 1 = 4 (exponential).

    >>> table = graded_variants([2, 0, 1])
    >>> for row in table[["gain", "discount", "DCG", "IDCG", "nDCG"]].round(3).values.tolist():
    ...     print(*row)
    linear log2 2.5 2.631 0.95
    exponential log2 3.5 3.631 0.964
    linear jarvelin 2.631 3.0 0.877
    exponential jarvelin 3.631 4.0 0.908
    >>> table["CG"].tolist()  # 2 + 0 + 1, whatever the gain and discount
    [3.0, 3.0, 3.0, 3.0]
    """
    import pandas as pd

    from rankviz.metrics import cumulative_gain, dcg, ideal_dcg, ndcg

    cg = cumulative_gain(rels, k)
    rows = []
    for discount in DISCOUNT.choices:
        for gain in GAIN.choices:
            options = {"gain": gain.value, "discount": discount.value}
            rows.append({
                "gain": gain.value, "discount": discount.value, "gain formula": gain.text,
                "discount formula": discount.text, "CG": cg, "DCG": dcg(rels, k, **options),
                "IDCG": ideal_dcg(rels, k, judged=judged, **options),
                "nDCG": ndcg(rels, k, judged=judged, **options),
            })
    return pd.DataFrame(rows)
