"""Paired significance tests on per-query differences, with numpy and math only (no scipy at runtime).

Each test takes the per-query differences ``d = run - baseline`` of one measure and returns a
two-sided p-value for "the mean difference is zero". :func:`holm` and :func:`bonferroni` adjust
a family of p-values. :mod:`rankviz.evaluation.comparison` builds its results table from these.

References
----------
Smucker, Allan and Carterette (2007), "A comparison of statistical significance tests for
information retrieval evaluation", CIKM. Sakai (2006), "Evaluating evaluation metrics based on
the bootstrap", SIGIR. Holm (1979), "A simple sequentially rejective multiple test procedure".
"""

from __future__ import annotations

import math

import numpy as np

from rankviz._docstrings import fill_docstrings

__all__ = [
    "student_t_sf",
    "paired_t_test",
    "randomization_test",
    "bootstrap_test",
    "cohens_d",
    "holm",
    "bonferroni",
]

# Resampled statistics are compared to the observed one with this relative slack, so that a
# resample equal to it up to rounding (a sign flip of a symmetric sample) counts as "as extreme".
_RELATIVE_SLACK = 1e-12
# Rows of resamples drawn at once: bounds memory to about 8 MB per batch of float64.
_BATCH_CELLS = 1_000_000


def _regularized_incomplete_beta(a: float, b: float, x: float, y: float) -> float:
    """I_x(a, b) by its continued fraction (modified Lentz), as in Numerical Recipes' ``betai``.

    ``y`` is 1 - x, passed separately because the caller can compute it without cancellation.
    """
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log(y))
    # The fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise.
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_continued_fraction(b, a, y) / b


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-16:
            return h
    return h  # pragma: no cover - converges in O(sqrt(max(a, b))) steps


def student_t_sf(t: float, df: float) -> float:
    """Survival function P(T > t) of Student's t distribution with ``df`` degrees of freedom.

    P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2), the regularized incomplete beta function,
    and the distribution is symmetric, so P(T > t) is half of that for t >= 0.

    Parameters
    ----------
    t : float
        The statistic (may be infinite).
    df : float
        Degrees of freedom, > 0.

    Returns
    -------
    float
        P(T > t).

    Notes
    -----
    Accurate to about 1e-14 against ``scipy.stats.t.sf`` (tested); tiny tail probabilities
    keep their relative precision because the incomplete beta is computed directly, not as
    1 - CDF.

    References
    ----------
    Press et al., Numerical Recipes, 3rd ed., section 6.4 (incomplete beta function, Student's
    distribution).

    Examples
    --------
    With 1 degree of freedom t is Cauchy: P(T > 1) = 1/2 - arctan(1)/pi = 0.25.

    >>> round(student_t_sf(1.0, 1), 12)
    0.25
    """
    if not df > 0:
        raise ValueError(f"The 'df' parameter of student_t_sf must be a number in the range (0, inf). Got {df!r} instead.")
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    # P(|T| > |t|) = I_x(df/2, 1/2) with x = df / (df + t^2); 1 - x = t^2 / (df + t^2) exactly.
    two_tailed = _regularized_incomplete_beta(df / 2.0, 0.5, df / (df + t * t), t * t / (df + t * t))
    return 0.5 * two_tailed if t >= 0 else 1.0 - 0.5 * two_tailed


def _differences(differences) -> np.ndarray:
    d = np.asarray(differences, dtype=np.float64)
    if d.ndim != 1:
        raise ValueError(f"paired differences must be one-dimensional; got an array of shape {d.shape}.")
    if not np.all(np.isfinite(d)):
        raise ValueError("paired differences must be finite numbers; got NaN or infinity.")
    return d


def paired_t_test(differences) -> tuple[float, float]:
    """Two-sided paired t-test of mean difference zero.

    t = mean(d) / (sd(d) / sqrt(n)), sd with n - 1 in the denominator, df = n - 1,
    p = 2 P(T > |t|).

    Parameters
    ----------
    differences : sequence of float
        Per-query differences run - baseline.

    Returns
    -------
    (t, p_value) : tuple of float

    Notes
    -----
    Degenerate cases: fewer than 2 queries gives (nan, nan); all differences equal gives
    sd = 0: p = 1.0 when they are all 0 (identical runs, no evidence of a difference; scipy
    returns nan here) and p = 0.0 with t = +-inf otherwise.

    References
    ----------
    Student (1908); identical to ``scipy.stats.ttest_rel`` (tested).

    Examples
    --------
    d = 0.1, 0.2, 0.3: mean 0.2, sd 0.1, t = 0.2 / (0.1 / sqrt(3)) = 3.464 with 2 df.

    >>> t, p = paired_t_test([0.1, 0.2, 0.3])
    >>> round(t, 3), round(p, 4)
    (3.464, 0.0742)
    """
    d = _differences(differences)
    n = d.size
    if n < 2:
        return math.nan, math.nan
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    if sd == 0.0 or sd <= abs(mean) * 1e-14:  # all equal, up to rounding
        if mean == 0.0:
            return 0.0, 1.0
        return math.copysign(math.inf, mean), 0.0
    t = mean / (sd / math.sqrt(n))
    return t, min(1.0, 2.0 * student_t_sf(abs(t), n - 1))


def randomization_test(differences, *, n_resamples: int = 10_000, rng=None) -> float:
    """Two-sided paired randomization (sign-flip permutation) test of mean difference zero.

    Under the null hypothesis the two runs are exchangeable on each query, so each difference
    is as likely to have either sign. p = the fraction of sign assignments whose
    |mean| is at least the observed |mean(d)|.

    Parameters
    ----------
    differences : sequence of float
        Per-query differences run - baseline.
    n_resamples : int, default 10000
        When 2^n <= n_resamples every one of the 2^n sign assignments is enumerated and the
        p-value is exact. Otherwise ``n_resamples`` random assignments are drawn and
        p = (1 + count) / (1 + n_resamples), which is never 0 (Phipson and Smyth, 2010).
    rng : numpy.random.Generator, optional
        Source of the random signs (default: ``numpy.random.default_rng(0)``).

    Returns
    -------
    float
        The p-value.

    Notes
    -----
    An empty input gives nan; all-zero differences give 1.0. Vectorized: signs are drawn in
    batches of rows, so memory stays bounded for thousands of queries.

    References
    ----------
    Fisher (1935); Smucker, Allan and Carterette (2007).

    Examples
    --------
    d = 1, 2, 3 (n = 3, 8 sign patterns, enumerated): |mean| >= 2 only for +++ and ---.

    >>> randomization_test([1.0, 2.0, 3.0])
    0.25
    """
    d = _differences(differences)
    n = d.size
    if n == 0:
        return math.nan
    observed = abs(float(d.mean()))
    if observed == 0.0:
        return 1.0
    threshold = observed * (1.0 - _RELATIVE_SLACK)
    if n <= 30 and 2 ** n <= n_resamples:
        patterns = np.arange(2 ** n, dtype=np.int64)[:, None] >> np.arange(n, dtype=np.int64) & 1
        signs = 1.0 - 2.0 * patterns
        return float(np.mean(np.abs(signs @ d) / n >= threshold))
    rng = np.random.default_rng(0) if rng is None else rng
    count = 0
    batch = max(1, _BATCH_CELLS // n)
    total = d.sum()
    n_bytes = (n + 7) // 8
    for start in range(0, n_resamples, batch):
        rows = min(batch, n_resamples - start)
        # One random bit per query (8 per random byte: half the time of drawing floats).
        bits = np.frombuffer(rng.bytes(rows * n_bytes), dtype=np.uint8).reshape(rows, n_bytes)
        flipped = np.unpackbits(bits, axis=1, count=n).astype(np.float64)
        # Flipping the sign of a subset S changes the sum by -2 * sum(d[S]).
        sums = total - 2.0 * (flipped @ d)
        count += int(np.count_nonzero(np.abs(sums) / n >= threshold))
    return (1 + count) / (1 + n_resamples)


def bootstrap_test(differences, *, n_resamples: int = 10_000, rng=None) -> float:
    """Two-sided paired bootstrap test of mean difference zero (the shift method).

    Resample the n differences with replacement ``n_resamples`` times; centred on the observed
    mean, the resampled means estimate the null distribution of the mean difference.
    p = (1 + #{|mean(d*) - mean(d)| >= |mean(d)|}) / (1 + n_resamples).

    Parameters
    ----------
    differences : sequence of float
        Per-query differences run - baseline.
    n_resamples : int, default 10000
    rng : numpy.random.Generator, optional
        Source of the resampling indices (default: ``numpy.random.default_rng(0)``).

    {Returns of randomization_test}

    Notes
    -----
    Fewer than 2 differences give nan (as :func:`paired_t_test`); all-zero differences give
    1.0. The shift method is Efron and
    Tibshirani's (1993, section 16.4) test of a mean; Sakai (2006) uses its studentized
    variant for IR metrics.

    References
    ----------
    Efron and Tibshirani, An Introduction to the Bootstrap (1993); Sakai (2006).

    Examples
    --------
    >>> p = bootstrap_test([0.2, 0.25, 0.3, 0.22, 0.28, 0.24], n_resamples=2000)
    >>> p < 0.001   # every difference is positive: no resample mean strays that far
    True
    """
    d = _differences(differences)
    n = d.size
    if n < 2:  # one difference has nothing to resample: every resample would be "extreme"
        return math.nan
    mean = float(d.mean())
    observed = abs(mean)
    if observed == 0.0:
        return 1.0
    threshold = observed * (1.0 - _RELATIVE_SLACK)
    rng = np.random.default_rng(0) if rng is None else rng
    count = 0
    batch = max(1, _BATCH_CELLS // n)
    index_type = np.uint16 if n <= 1 << 16 else np.int64  # narrower draws are faster
    for start in range(0, n_resamples, batch):
        rows = min(batch, n_resamples - start)
        means = d[rng.integers(0, n, size=(rows, n), dtype=index_type)].mean(axis=1)
        count += int(np.count_nonzero(np.abs(means - mean) >= threshold))
    return (1 + count) / (1 + n_resamples)


def cohens_d(differences) -> float:
    """Cohen's d for paired samples (d_z): mean(d) / sd(d), sd with n - 1 in the denominator.

    Parameters
    ----------
    differences : sequence of float

    Returns
    -------
    float
        nan with fewer than 2 differences; with sd = 0, 0.0 when every difference is 0 and
        +-inf otherwise.

    References
    ----------
    Cohen, Statistical Power Analysis for the Behavioral Sciences (1988); Lakens (2013),
    "Calculating and reporting effect sizes", eq. 6.

    Examples
    --------
    d = 0.1, 0.2, 0.3: 0.2 / 0.1 = 2.0

    >>> round(cohens_d([0.1, 0.2, 0.3]), 12)
    2.0
    """
    d = _differences(differences)
    if d.size < 2:
        return math.nan
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    if sd == 0.0 or sd <= abs(mean) * 1e-14:
        return 0.0 if mean == 0.0 else math.copysign(math.inf, mean)
    return mean / sd


def _p_values(p_values) -> np.ndarray:
    p = np.asarray(p_values, dtype=np.float64)
    if p.ndim != 1:
        raise ValueError(f"p-values must be one-dimensional; got an array of shape {p.shape}.")
    ok = ~np.isnan(p)
    if np.any((p[ok] < 0) | (p[ok] > 1)):
        raise ValueError("p-values must lie in [0, 1].")
    return p


def bonferroni(p_values) -> np.ndarray:
    """Bonferroni adjustment: min(1, m p), m = the number of p-values that are not NaN.

    Examples
    --------
    >>> bonferroni([0.01, 0.04, 0.5]).tolist()   # 3 x each, capped at 1
    [0.03, 0.12, 1.0]
    """
    p = _p_values(p_values)
    m = int(np.count_nonzero(~np.isnan(p)))
    return np.minimum(1.0, p * m)


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjustment (controls the family-wise error rate, uniformly more powerful
    than Bonferroni).

    With the m p-values sorted ascending, p_(1) <= ... <= p_(m), the adjusted value of the
    i-th smallest is max over j <= i of min(1, (m - j + 1) p_(j)). NaN p-values are left NaN and
    not counted in m.

    References
    ----------
    Holm (1979), Scandinavian Journal of Statistics 6(2), 65-70.

    Examples
    --------
    p = 0.01, 0.04, 0.03, 0.005 (m = 4). Sorted: 0.005 x 4 = 0.02; 0.01 x 3 = 0.03;
    0.03 x 2 = 0.06; 0.04 x 1 = 0.04, raised to the running maximum 0.06.

    >>> holm([0.01, 0.04, 0.03, 0.005]).round(10).tolist()
    [0.03, 0.06, 0.06, 0.02]
    """
    p = _p_values(p_values)
    adjusted = np.full(p.shape, np.nan)
    valid = np.flatnonzero(~np.isnan(p))
    m = valid.size
    if m == 0:
        return adjusted
    order = valid[np.argsort(p[valid], kind="stable")]
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


fill_docstrings(globals())  # the {Returns of ...} lines of the docstrings above
