"""Compare runs against a baseline: per-query deltas, paired significance tests, effect sizes.

:func:`compare` evaluates every run with :func:`rankviz.evaluate` and hands the per-query tables
to :func:`compare_per_query`, the statistics core, which can also be called directly with any
per-query scores (one DataFrame per run, index query_id, one column per measure).
"""

from __future__ import annotations

import math
import numbers
import warnings
import zlib
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from rankviz.evaluation import significance
from rankviz.formatting import latex_escape

__all__ = ["Comparison", "WinsTiesLosses", "compare", "compare_per_query", "count_wins_ties_losses"]

TESTS = ("t", "randomization", "bootstrap")
CORRECTIONS = ("holm", "bonferroni", None)
FAMILIES = ("measure", "all")


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` and :func:`compare_per_query` return.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (run, measure) compared with the baseline, columns ``run``, ``measure``,
        ``baseline_mean``, ``mean``, ``delta`` (mean of the per-query differences),
        ``p_value``, ``p_adjusted``, ``significant`` (p_adjusted < alpha), ``effect_size``
        (Cohen's d of the paired differences), ``wins``, ``ties``, ``losses`` (queries where
        the run is above, equal to, below the baseline) and ``n_queries``.
    deltas : pandas.DataFrame
        Tidy per-query differences: ``query_id``, ``measure``, ``run``, ``baseline_value``,
        ``value``, ``delta`` (= value - baseline_value).
    means : pandas.DataFrame
        The mean of every run (baseline included, first) for every measure: index run,
        one column per measure.
    baseline : str
    test : str
    correction : str or None
    alpha : float
    n_resamples : int
    seed : int
    """

    table: pd.DataFrame
    deltas: pd.DataFrame
    means: pd.DataFrame
    baseline: str
    test: str
    correction: str | None
    alpha: float
    n_resamples: int
    seed: int

    # Rich display (notebooks) and a readable print: the means, the significance marks, the conventions.
    def __repr__(self) -> str:
        from rankviz.evaluation.presentation import comparison_text

        return comparison_text(self)

    __str__ = __repr__

    def _repr_html_(self) -> str:
        from rankviz.evaluation.presentation import comparison_html

        return comparison_html(self)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        bundle = {"text/plain": repr(self), "text/html": self._repr_html_()}
        return {k: v for k, v in bundle.items() if (include is None or k in include) and not (exclude and k in exclude)}

    def to_latex(self, *, digits: int = 4, caption: str | None = None, label: str | None = None) -> str:
        """A booktabs LaTeX table: one row per run, one column per measure.

        The best mean of each column is bold; a dagger marks a run significantly better than
        the baseline and a double dagger one significantly worse (after the correction).

        Parameters
        ----------
        digits : int, default 4
            Decimals printed.
        caption, label : str, optional
            Default caption: the test, the correction and alpha.

        Returns
        -------
        str
            A ``table`` environment (needs ``\\usepackage{booktabs}``).

        Examples
        --------
        >>> a = pd.DataFrame({"AP": [0.1, 0.2, 0.3, 0.2]}, index=["q1", "q2", "q3", "q4"])
        >>> b = pd.DataFrame({"AP": [0.5, 0.6, 0.8, 0.6]}, index=["q1", "q2", "q3", "q4"])
        >>> latex = compare_per_query({"bm25": a, "my_run": b}).to_latex()
        >>> print(latex.splitlines()[7])   # bm25's row is line 6
        my\\_run & \\textbf{0.6250}$^{\\dagger}$ \\\\
        """
        measures = list(self.means.columns)
        lines = [
            r"\begin{table}[t]",
            r"\centering",
            r"\begin{tabular}{l" + "r" * len(measures) + "}",
            r"\toprule",
            "Run & " + " & ".join(latex_escape(m) for m in measures) + r" \\",
            r"\midrule",
        ]
        rows = self.table.set_index(["run", "measure"])
        for run in self.means.index:
            cells = []
            for measure in measures:
                value = self.means.loc[run, measure]
                column = self.means[measure]
                text = "--" if pd.isna(value) else f"{value:.{digits}f}"
                if not pd.isna(value) and np.isclose(value, column.max(), rtol=0, atol=0.5 * 10 ** -digits):
                    text = rf"\textbf{{{text}}}"
                if (run, measure) in rows.index:
                    row = rows.loc[(run, measure)]
                    if bool(row["significant"]):
                        text += r"$^{\dagger}$" if row["delta"] > 0 else r"$^{\ddagger}$"
                cells.append(text)
            lines.append(latex_escape(run) + " & " + " & ".join(cells) + r" \\")
        if caption is None:
            test_name = {"t": "paired t-test", "randomization": "paired randomization test",
                         "bootstrap": "paired bootstrap test"}[self.test]
            correction = f", {self.correction.capitalize()} correction" if self.correction else ""
            caption = (rf"$\dagger$ / $\ddagger$: significantly better / worse than {latex_escape(self.baseline)} "
                       rf"({test_name}{correction}, $\alpha = {self.alpha:g}$). Best in bold.")
        lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{caption}}}"]
        if label:
            lines.append(rf"\label{{{label}}}")
        lines.append(r"\end{table}")
        return "\n".join(lines) + "\n"


class WinsTiesLosses(NamedTuple):
    """How many queries a run wins, ties and loses against another (see :func:`count_wins_ties_losses`)."""

    wins: int
    ties: int
    losses: int


def count_wins_ties_losses(differences, *, tolerance: float = 0.0) -> WinsTiesLosses:
    """Count the queries where one run is better than, level with and worse than another.

    With per-query differences :math:`d_q = \\mathrm{run}_q - \\mathrm{other}_q`:
    wins :math:`= |\\{q : d_q > \\varepsilon\\}|`, ties :math:`= |\\{q : |d_q| \\le \\varepsilon\\}|`,
    losses :math:`= |\\{q : d_q < -\\varepsilon\\}|`, with :math:`\\varepsilon` = ``tolerance``.

    Parameters
    ----------
    differences : array-like of float
        One difference per query (a list, a NumPy array or a pandas Series), the run's score
        minus the other run's.
    tolerance : float, default 0.0
        Differences no larger than this in absolute value count as ties (0: only exact
        equality ties).

    Returns
    -------
    WinsTiesLosses
        Named tuple ``(wins, ties, losses)`` of Python ints.

    Notes
    -----
    A NaN difference (a query one run has no score for) is neither a win, a tie nor a loss,
    so the three counts may sum to fewer than the number of differences. The same counts fill
    the ``wins``, ``ties`` and ``losses`` columns of :func:`compare_per_query`.

    References
    ----------
    ranx's ``compare`` (Bassani, ECIR 2022) reports the same W/T/L counts (exact equality
    ties, i.e. ``tolerance=0``).

    Examples
    --------
    Differences 0.5, 0.0, -0.25, 0.1: two above 0, one equal, one below.

    >>> count_wins_ties_losses([0.5, 0.0, -0.25, 0.1])
    WinsTiesLosses(wins=2, ties=1, losses=1)

    With a tolerance of 0.1, |0.1| <= 0.1 becomes a tie as well:

    >>> count_wins_ties_losses([0.5, 0.0, -0.25, 0.1], tolerance=0.1)
    WinsTiesLosses(wins=1, ties=2, losses=1)
    """
    func = "count_wins_ties_losses"
    if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real) or not 0 <= tolerance < math.inf:
        raise ValueError(
            f"The 'tolerance' parameter of {func} must be a number in the range [0, inf). Got {tolerance!r} instead."
        )
    try:
        values = np.asarray(differences, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"The 'differences' parameter of {func} must be a 1-D sequence of numbers. Got {differences!r} instead."
        ) from None
    if values.ndim != 1:
        raise ValueError(
            f"The 'differences' parameter of {func} must be a 1-D sequence of numbers. Got {values.ndim} dimensions."
        )
    return WinsTiesLosses(
        wins=int(np.count_nonzero(values > tolerance)),
        ties=int(np.count_nonzero(np.abs(values) <= tolerance)),
        losses=int(np.count_nonzero(values < -tolerance)),
    )


# --------------------------------------------------------------------------------------------
# Validation


def _check_choice(value, choices, name: str, func: str):
    if value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise ValueError(f"The '{name}' parameter of {func} must be one of {options}. Got {value!r} instead.")
    return value


def _check_options(func, test, correction, family, alpha, n_resamples, seed):
    _check_choice(test, TESTS, "test", func)
    _check_choice(correction, CORRECTIONS, "correction", func)
    _check_choice(family, FAMILIES, "family", func)
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0 < alpha < 1:
        raise ValueError(f"The 'alpha' parameter of {func} must be a number in the range (0, 1). Got {alpha!r} instead.")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, numbers.Integral) or n_resamples < 1:
        raise ValueError(
            f"The 'n_resamples' parameter of {func} must be an int in the range [1, inf). Got {n_resamples!r} instead."
        )
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"The 'seed' parameter of {func} must be an int in the range [0, inf). Got {seed!r} instead.")


def _check_runs(runs, func: str, baseline) -> tuple[list[str], str]:
    if not isinstance(runs, dict):
        raise ValueError(
            f"The 'runs' parameter of {func} must be a dict {{run name: run}}. Got {type(runs).__name__} instead."
        )
    if len(runs) < 2:
        raise ValueError(f"The 'runs' parameter of {func} needs at least 2 runs to compare. Got {len(runs)}.")
    names = [str(name) for name in runs]
    if len(set(names)) != len(names):
        raise ValueError(f"The run names given to {func} must be distinct as strings. Got {names}.")
    if baseline is None:
        baseline = names[0]
    elif str(baseline) not in names:
        raise ValueError(f"The 'baseline' parameter of {func} must be one of the run names {names}. Got {baseline!r} instead.")
    return names, str(baseline)


# --------------------------------------------------------------------------------------------
# Public functions


def compare(qrels, runs: dict, measures="official", *, test: str = "t", correction: str | None = "holm",
            baseline=None, alpha: float = 0.05, n_resamples: int = 10_000, seed: int = 0,
            complete: bool = False, family: str = "measure", **evaluate_options) -> Comparison:
    """Compare runs with a baseline on every measure: deltas, paired tests, effect sizes.

    Each run is evaluated with :func:`rankviz.evaluate` (trec_eval's conventions); then, per
    measure, the per-query differences ``run - baseline`` feed a paired two-sided test.

    Parameters
    ----------
    qrels : DataFrame, TrecTable, path, file object, text or dict
        As :func:`rankviz.evaluate` takes it (read once, shared by every run).
    runs : dict {name: run}
        Two runs or more; each value as :func:`rankviz.evaluate` takes it.
    measures : str, Measure or list, default "official"
        Measure names in either family (``"AP"``, ``"nDCG@10"``, ``"P_10"``...).
    test : {"t", "randomization", "bootstrap"}, default "t"
        Paired t-test, sign-flip randomization (permutation) test, or paired bootstrap
        (shift method); see :mod:`rankviz.evaluation.significance`.
    correction : {"holm", "bonferroni", None}, default "holm"
        Multiple-comparison adjustment of the p-values.
    baseline : str, optional
        The run every other run is compared with (default: the first one).
    alpha : float, default 0.05
        Significance level applied to the adjusted p-values.
    n_resamples : int, default 10000
        Resamples of the randomization and bootstrap tests.
    seed : int, default 0
        Seeds the resampling. Each (run, measure) pair gets its own generator derived from the
        seed and the two names, so a result does not change when runs are added or reordered.
    complete : bool, default False
        trec_eval's ``-c``: qrels queries missing from a run count as 0 for it. Without it,
        each pair of runs is compared on the queries both retrieved for (a RuntimeWarning says
        how many were left out).
    family : {"measure", "all"}, default "measure"
        The family of p-values adjusted together: the comparisons of one measure (the
        usual choice: each measure is its own question) or every comparison in the table.
    **evaluate_options
        Passed to :func:`rankviz.evaluate` (``rel_threshold``, ``depth``, ``judged_only``...).

    Returns
    -------
    Comparison
        ``table``, ``deltas``, ``means`` and ``to_latex()``; see :class:`Comparison`.

    Notes
    -----
    ``mean`` is the aggregate :func:`rankviz.evaluate` reports (the geometric mean for GMAP),
    ``delta`` the arithmetic mean of the per-query differences. Count measures (num_ret...)
    are compared like the others; ``relstring`` is skipped. Degenerate cases: fewer than 2
    common queries give NaN p-values; identical runs give p = 1.

    References
    ----------
    Smucker, Allan and Carterette (2007), CIKM; ranx's ``compare`` (Bassani, ECIR 2022).

    Examples
    --------
    >>> qrels = "q1 0 a 1\\nq2 0 b 1\\nq3 0 c 1\\n"
    >>> runs = {"bm25": "q1 Q0 x 1 2 r\\nq1 Q0 a 2 1 r\\nq2 Q0 b 1 1 r\\nq3 Q0 x 1 2 r\\nq3 Q0 c 2 1 r\\n",
    ...         "dense": "q1 Q0 a 1 2 r\\nq2 Q0 b 1 1 r\\nq3 Q0 c 1 2 r\\n"}
    >>> result = compare(qrels, runs, ["RR"], test="randomization")
    >>> result.table[["run", "measure", "mean", "delta", "p_value", "wins", "ties"]]
         run measure  mean     delta  p_value  wins  ties
    0  dense      RR   1.0  0.333333      0.5     2     1

    RR: bm25 = (1/2 + 1 + 1/2) / 3 = 0.667, dense = 1. The deltas 1/2, 0, 1/2 have 2^3 sign
    patterns (enumerated, since 8 <= n_resamples); |mean| reaches 1/3 when both halves have the
    same sign, whatever the sign of the 0: 4 patterns, p = 4/8 = 0.5.
    """
    func = "compare"
    _check_options(func, test, correction, family, alpha, n_resamples, seed)
    names, baseline = _check_runs(runs, func, baseline)
    from rankviz.evaluation.evaluator import evaluate  # loaded on use: keeps `import rankviz.evaluation.comparison` light

    from rankviz.trec.readers import TrecTable, read_qrels_table

    if not isinstance(qrels, (pd.DataFrame, TrecTable)):
        qrels = read_qrels_table(qrels)  # read once for every run, with the keys evaluate reuses
    per_query, means = {}, {}
    for name, run in zip(names, runs.values()):
        result = evaluate(qrels, run, measures, per_query=True, complete=complete, **evaluate_options)
        per_query[name] = result.per_query
        means[name] = result.mean
    return compare_per_query(per_query, test=test, correction=correction, baseline=baseline, alpha=alpha,
                             n_resamples=n_resamples, seed=seed, family=family, means=means, _func=func)


def compare_per_query(per_query_by_run: dict, *, test: str = "t", correction: str | None = "holm",
                      baseline=None, alpha: float = 0.05, n_resamples: int = 10_000, seed: int = 0,
                      family: str = "measure", measures=None, means: dict | None = None,
                      _func: str = "compare_per_query") -> Comparison:
    """The statistics of :func:`compare` on per-query scores that are already computed.

    Parameters
    ----------
    per_query_by_run : dict {name: DataFrame}
        One table per run: index query_id, one numeric column per measure (what
        ``evaluate(...).per_query`` holds). Non-numeric columns are skipped.
    test, correction, baseline, alpha, n_resamples, seed, family
        As in :func:`compare`.
    measures : list of str, optional
        Columns to compare (default: the numeric columns of the baseline's table).
    means : dict {name: Series}, optional
        Aggregates to report per run and measure (default: arithmetic means of the per-query
        values on the queries compared).

    Returns
    -------
    Comparison

    Notes
    -----
    Each run is paired with the baseline on the queries both tables hold; when that drops
    queries, a RuntimeWarning says how many (evaluate with ``complete=True`` to score missing
    queries as 0 instead).

    Examples
    --------
    >>> base = pd.DataFrame({"AP": [0.2, 0.4, 0.3]}, index=["q1", "q2", "q3"])
    >>> new = pd.DataFrame({"AP": [0.3, 0.6, 0.6]}, index=["q1", "q2", "q3"])
    >>> row = compare_per_query({"base": base, "new": new}).table.iloc[0]
    >>> round(float(row["delta"]), 3), round(float(row["effect_size"]), 3)   # d = 0.1, 0.2, 0.3
    (0.2, 2.0)
    """
    _check_options(_func, test, correction, family, alpha, n_resamples, seed)
    names, baseline = _check_runs(per_query_by_run, _func, baseline)
    tables = {}
    for name, frame in zip(names, per_query_by_run.values()):
        if not isinstance(frame, pd.DataFrame):
            raise ValueError(
                f"{_func}: the per-query scores of run {name!r} must be a DataFrame (index query_id, one column "
                f"per measure). Got {type(frame).__name__} instead."
            )
        if frame.index.has_duplicates:
            raise ValueError(f"{_func}: the per-query table of run {name!r} lists a query twice.")
        tables[name] = frame
    base_table = tables[baseline]
    if measures is None:
        measures = [c for c in base_table.columns if pd.api.types.is_numeric_dtype(base_table[c])
                    and not pd.api.types.is_bool_dtype(base_table[c])]
    else:
        measures = [str(m) for m in ([measures] if isinstance(measures, str) else measures)]
    if not measures:
        raise ValueError(f"{_func}: no numeric measure column to compare in the baseline's table.")
    for name, frame in tables.items():
        missing = [m for m in measures if m not in frame.columns]
        if missing:
            raise ValueError(f"{_func}: the per-query table of run {name!r} has no column {missing[0]!r}; "
                             f"its columns are {list(frame.columns)}.")

    rows, delta_frames = [], []
    for name in names:
        if name == baseline:
            continue
        common = base_table.index.intersection(tables[name].index, sort=False)
        dropped = len(base_table.index.union(tables[name].index)) - len(common)
        if dropped:
            warnings.warn(
                f"{_func}: {dropped} quer{'y' if dropped == 1 else 'ies'} scored for only one of {baseline!r} and "
                f"{name!r} left out of their comparison; evaluate with complete=True to score missing queries as 0.",
                RuntimeWarning, stacklevel=3 if _func == "compare" else 2,
            )
        order = np.argsort(common.astype(str).to_numpy(), kind="stable")
        common = common[order]
        for measure in measures:
            base_values = base_table.loc[common, measure].to_numpy(dtype=np.float64)
            values = tables[name].loc[common, measure].to_numpy(dtype=np.float64)
            d = values - base_values
            rng = np.random.default_rng([seed, zlib.crc32(name.encode()), zlib.crc32(str(measure).encode())])
            rows.append({
                "run": name,
                "measure": str(measure),
                "baseline_mean": _mean(means, baseline, measure, base_values),
                "mean": _mean(means, name, measure, values),
                "delta": float(d.mean()) if d.size else math.nan,
                "p_value": _p_value(d, test, n_resamples, rng),
                "effect_size": significance.cohens_d(d) if d.size else math.nan,
                **count_wins_ties_losses(d)._asdict(),
                "n_queries": int(d.size),
            })
            delta_frames.append(pd.DataFrame({
                "query_id": common.astype(str), "measure": str(measure), "run": name,
                "baseline_value": base_values, "value": values, "delta": d,
            }))
    table = pd.DataFrame(rows)
    table["p_adjusted"] = _adjust(table, correction, family)
    table["significant"] = (table["p_adjusted"] < alpha).to_numpy()
    table = table[["run", "measure", "baseline_mean", "mean", "delta", "p_value", "p_adjusted", "significant",
                   "effect_size", "wins", "ties", "losses", "n_queries"]]
    deltas = pd.concat(delta_frames, ignore_index=True)
    mean_table = pd.DataFrame(
        {measure: [_mean(means, name, measure, tables[name][measure].to_numpy(dtype=np.float64))
                   for name in [baseline, *[n for n in names if n != baseline]]] for measure in measures},
        index=pd.Index([baseline, *[n for n in names if n != baseline]], name="run"),
    )
    return Comparison(table=table, deltas=deltas, means=mean_table, baseline=baseline, test=test,
                      correction=correction, alpha=float(alpha), n_resamples=int(n_resamples), seed=int(seed))


def _mean(means, run: str, measure: str, values: np.ndarray) -> float:
    if means is not None and run in means and measure in means[run].index:
        return float(means[run][measure])
    return float(np.mean(values)) if values.size else math.nan


def _p_value(d: np.ndarray, test: str, n_resamples: int, rng) -> float:
    if test == "t":
        return significance.paired_t_test(d)[1]
    if d.size < 2:
        return math.nan
    if test == "randomization":
        return significance.randomization_test(d, n_resamples=n_resamples, rng=rng)
    return significance.bootstrap_test(d, n_resamples=n_resamples, rng=rng)


def _adjust(table: pd.DataFrame, correction, family: str) -> np.ndarray:
    p = table["p_value"].to_numpy(dtype=np.float64)
    if correction is None:
        return p.copy()
    adjust = significance.holm if correction == "holm" else significance.bonferroni
    if family == "all":
        return adjust(p)
    adjusted = np.empty_like(p)
    for _, positions in table.groupby("measure", sort=False).indices.items():
        adjusted[positions] = adjust(p[positions])
    return adjusted
