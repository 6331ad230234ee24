"""One ``MetricSpec`` per metric: the single source the app, the glossary and the tests read.

A spec names the metric, its formula in LaTeX, its parameters (with choices and defaults),
its value range, a reference, and the public function and breakdown twin that compute it.
The functions are looked up on first use, so importing the registry stays cheap.

>>> from rankviz.registry import get_spec
>>> spec = get_spec("ndcg")
>>> spec.pretty_name
'nDCG@k'
>>> round(spec.function([3, 2, 3, 0, 1, 2], gain="exponential"), 3)
0.949
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field

__all__ = [
    "Param",
    "MetricSpec",
    "METRICS",
    "get_spec",
    "specs_for",
    "ranking_metric_table",
]


@dataclass(frozen=True)
class Param:
    """A parameter of a metric: its keyword, default, allowed values and meaning.

    Examples
    --------
    nDCG's parameters and the defaults the app starts from: the whole list, the ideal from the
    list itself, linear gain and the log2(i + 1) discount (trec_eval's nDCG).

    >>> [(p.name, p.default) for p in get_spec("ndcg").params]
    [('k', None), ('judged', None), ('gain', 'linear'), ('discount', 'log2'), ('log_base', 2)]
    >>> get_spec("ndcg").params[2].choices
    ('linear', 'exponential')
    """

    name: str
    default: object
    description: str
    choices: tuple = ()
    kind: str = "choice"  # "int", "float", "choice", "grades" (a list of grades)


@dataclass(frozen=True)
class MetricSpec:
    """Everything the app and the tests need to know about one metric.

    ``inputs`` says what the metric takes first: ``"ranking"`` (grades in ranked order),
    ``"two_rankings"`` (two rank vectors or id lists), ``"labels_scores"``, ``"groups"``,
    ``"sets"`` (relevant, answer, known), ``"counts"`` or ``"per_query_values"``.
    ``monotone``: moving a relevant document up never lowers the value (ranking metrics).
    ``binary``: uses ``grade >= rel_threshold`` rather than the grades themselves.

    Examples
    --------
    P@k of the grades 1, 0, 1, 1 at k = 3: ranks 1 and 3 of the top 3 are relevant, 2/3 = 0.667.
    The spec reaches the function and its worked table, whose running count of relevant
    documents gives the same 2 at rank 3.

    >>> spec = get_spec("precision")
    >>> spec.pretty_name, sorted(spec.param_names)
    ('P@k', ['k', 'rel_threshold'])
    >>> round(spec.function([1, 0, 1, 1], k=3), 3)
    0.667
    >>> spec.breakdown([1, 0, 1, 1], k=3).table["relevant so far"].tolist()
    [1, 1, 2]
    """

    name: str
    pretty_name: str
    family: str
    formula: str
    description: str
    reference: str
    inputs: str = "ranking"
    params: tuple[Param, ...] = ()
    value_range: tuple[float, float] = (0.0, 1.0)
    monotone: bool = False
    binary: bool = True
    module: str = field(default="", repr=False)

    @property
    def function(self):
        """The public per-query function, e.g. ``rankviz.metrics.ndcg``."""
        return getattr(importlib.import_module(f"rankviz.metrics.{self.module}"), self.name)

    @property
    def breakdown(self):
        """The worked-table twin, e.g. ``rankviz.metrics.ndcg_breakdown``."""
        return getattr(importlib.import_module(f"rankviz.metrics.{self.module}"), self.name + "_breakdown")

    @property
    def param_names(self) -> frozenset[str]:
        return frozenset(p.name for p in self.params)

    def applicable(self, settings: dict) -> dict:
        """The keywords to call this metric with: its parameters, from ``settings`` or their defaults.

        Defaults are passed explicitly so that a caller can always say which variant a value
        used; parameters whose value is None are left to the function.

        Examples
        --------
        Recall takes ``k`` from the settings and ``rel_threshold`` from its default; ``gain`` is
        not one of its parameters, and ``n_relevant`` and ``judged`` default to None (R is then
        counted by the function), so none of the three is passed.

        >>> get_spec("recall").applicable({"k": 5, "gain": "exponential"})
        {'k': 5, 'rel_threshold': 1}
        """
        chosen = {p.name: settings.get(p.name, p.default) for p in self.params}
        return {name: value for name, value in chosen.items() if value is not None}


# Parameters shared by many ranking metrics.
K = Param("k", None, "Cut-off: only the top k ranks count (None: the whole list).", kind="int")
THRESHOLD = Param("rel_threshold", 1, "A document is relevant when its grade is at least this (trec_eval -l).",
                  kind="float")
N_RELEVANT = Param("n_relevant", None, "R, the relevant documents of the query in the whole collection "
                   "(None: those in the list, or in 'judged').", kind="int")
JUDGED = Param("judged", None, "Grades of every judged document of the query, retrieved or not.", kind="grades")
GAIN = Param("gain", "linear", "Gain of a grade g: 'linear' g (trec_eval), 'exponential' 2^g - 1 (Burges).",
             choices=("linear", "exponential"))
DISCOUNT = Param("discount", "log2", "Discount at rank i: 'log2' 1/log2(i+1), 'jarvelin' 1/max(1, log_b i) "
                 "(Järvelin & Kekäläinen 2002).", choices=("log2", "jarvelin"))
LOG_BASE = Param("log_base", 2, "Base b of the Järvelin-Kekäläinen discount.", kind="float")
ROUNDING = Param("rounding", "ceil", "How a recall level r becomes a count of relevant documents: 'ceil' "
                 "ceil(r R) (textbook), 'floor_plus_0.9' floor(r R + 0.9) (trec_eval 9), 'lround' (trec_eval 10).",
                 choices=("ceil", "floor_plus_0.9", "lround"))
RANKED_BINARY = (K, THRESHOLD)
RANKED_WITH_R = (K, N_RELEVANT, JUDGED, THRESHOLD)
GRADED = (K, GAIN, DISCOUNT, LOG_BASE)

MANNING = "Manning, Raghavan & Schütze, Introduction to Information Retrieval, ch. 8 (2008)"
TREC = "trec_eval 10.0, NIST (https://github.com/usnistgov/trec_eval)"
LECTURE = "Course lecture 'Evaluating IR Systems' (shared/course/002)"

METRICS: tuple[MetricSpec, ...] = (
    MetricSpec(
        name="hit", pretty_name="Hit@k (Accuracy@k)", family="binary", module="binary",
        formula=r"\mathrm{Hit@}k = \mathbb{1}\left[\sum_{i=1}^{k} \mathrm{rel}(i) > 0\right]",
        description="1 if any of the top k documents is relevant, else 0 (success@k).",
        reference=f"{TREC}: success_k; course note 000 'Accuracy@K'",
        params=RANKED_BINARY, monotone=True,
    ),
    MetricSpec(
        name="precision", pretty_name="P@k", family="binary", module="binary",
        formula=r"P@k = \frac{1}{k} \sum_{i=1}^{k} \mathrm{rel}(i)",
        description="Fraction of the top k that is relevant; missing ranks count as non-relevant.",
        reference=f"{MANNING}, 8.3; {TREC}: P_k",
        params=RANKED_BINARY, monotone=True,
    ),
    MetricSpec(
        name="recall", pretty_name="R@k", family="binary", module="binary",
        formula=r"R@k = \frac{1}{R} \sum_{i=1}^{k} \mathrm{rel}(i)",
        description="Fraction of all R relevant documents found in the top k.",
        reference=f"{MANNING}, 8.3; {TREC}: recall_k",
        params=RANKED_WITH_R, monotone=True,
    ),
    MetricSpec(
        name="f_beta", pretty_name="F_β@k", family="binary", module="binary",
        formula=r"F_\beta = (1 + \beta^2) \frac{P \cdot R}{\beta^2 P + R}",
        description="Weighted harmonic mean of P@k and R@k; β > 1 favours recall.",
        reference="van Rijsbergen, Information Retrieval, ch. 7 (1979); course lecture 'F-Measure'",
        params=(K, Param("beta", 1.0, "Weight of recall relative to precision (F1, F2, F0.5).", kind="float"),
                N_RELEVANT, JUDGED, THRESHOLD),
    ),
    MetricSpec(
        name="r_precision", pretty_name="R-precision", family="binary", module="binary",
        formula=r"\mathrm{R\text{-}Prec} = P@R = \frac{1}{R}\sum_{i=1}^{R} \mathrm{rel}(i)",
        description="Precision at rank R, the number of relevant documents of the query.",
        reference=f"{MANNING}, 8.4; {TREC}: Rprec",
        params=(N_RELEVANT, JUDGED, THRESHOLD), monotone=True,
    ),
    MetricSpec(
        name="average_precision", pretty_name="AP@k", family="binary", module="binary",
        formula=r"\mathrm{AP@}k = \frac{1}{R} \sum_{i=1}^{k} P@i \cdot \mathrm{rel}(i)",
        description="Mean of the precisions at the ranks of the relevant documents; unretrieved ones add 0.",
        reference=f"{MANNING}, 8.4; {TREC}: map, map_cut_k",
        params=RANKED_WITH_R, monotone=True,
    ),
    MetricSpec(
        name="eleven_point_precision", pretty_name="11-point interpolated precision", family="binary",
        module="precision_recall",
        formula=r"\frac{1}{11} \sum_{r \in \{0, 0.1, \ldots, 1\}} \max_{r' \ge r} P(r')",
        description="Mean interpolated precision at the 11 recall levels 0.0, 0.1, ..., 1.0.",
        reference=f"{MANNING}, 8.4; {TREC}: 11pt_avg",
        params=(N_RELEVANT, JUDGED, THRESHOLD, ROUNDING),
    ),
    MetricSpec(
        name="interpolated_average_precision", pretty_name="Interpolated AP (lecture's MAP)", family="binary",
        module="precision_recall",
        formula=r"\frac{1}{10} \sum_{r \in \{0.1, \ldots, 1\}} \max_{r' \ge r} P(r')",
        description="The lecture's per-query 'MAP': mean interpolated precision at recall 0.1, ..., 1.0.",
        reference=f"{LECTURE}, slides 'MAP - An example'",
        params=(N_RELEVANT, JUDGED, THRESHOLD, ROUNDING),
    ),
    MetricSpec(
        name="reciprocal_rank", pretty_name="RR@S_h", family="binary", module="binary",
        formula=r"\mathrm{RR} = \begin{cases} 1 / S_{\mathrm{correct}} & S_{\mathrm{correct}} \le S_h \\ "
                r"0 & \text{otherwise} \end{cases}",
        description="1 / rank of the first relevant document, 0 if it lies below the threshold S_h = k.",
        reference=f"Voorhees, TREC-8 QA track (1999); {LECTURE}, 'Mean Reciprocal Rank'; {TREC}: recip_rank",
        params=RANKED_BINARY, monotone=True,
    ),
    MetricSpec(
        name="cumulative_gain", pretty_name="CG@k", family="graded", module="graded",
        formula=r"\mathrm{CG@}k = \sum_{i=1}^{k} \mathrm{rel}_i",
        description="Sum of the grades in the top k; blind to their order.",
        reference="Järvelin & Kekäläinen, ACM TOIS 20(4) (2002)",
        params=(K,), value_range=(0.0, math.inf), binary=False,
    ),
    MetricSpec(
        name="dcg", pretty_name="DCG@k", family="graded", module="graded",
        formula=r"\mathrm{DCG@}k = \sum_{i=1}^{k} \frac{g(\mathrm{rel}_i)}{\log_2(i + 1)}",
        description="Grades turned into gains and discounted by rank, summed over the top k.",
        reference="Järvelin & Kekäläinen (2002); Burges et al., ICML (2005)",
        params=GRADED, value_range=(0.0, math.inf), binary=False, monotone=True,
    ),
    MetricSpec(
        name="ideal_dcg", pretty_name="IDCG@k", family="graded", module="graded",
        formula=r"\mathrm{IDCG@}k = \mathrm{DCG@}k \text{ of the judged grades sorted descending}",
        description="DCG of the best possible ranking of the judged documents.",
        reference="Järvelin & Kekäläinen (2002)",
        params=(K, JUDGED, GAIN, DISCOUNT, LOG_BASE), value_range=(0.0, math.inf), binary=False,
    ),
    MetricSpec(
        name="ndcg", pretty_name="nDCG@k", family="graded", module="graded",
        formula=r"\mathrm{nDCG@}k = \frac{\mathrm{DCG@}k}{\mathrm{IDCG@}k}",
        description="DCG divided by the DCG of the ideal ranking: 1 means the best possible order.",
        reference=f"Järvelin & Kekäläinen (2002); {TREC}: ndcg, ndcg_cut_k",
        params=(K, JUDGED, GAIN, DISCOUNT, LOG_BASE), binary=False, monotone=True,
    ),
    MetricSpec(
        name="err", pretty_name="ERR@k", family="graded", module="graded",
        formula=r"\mathrm{ERR} = \sum_{r=1}^{k} \frac{1}{r} R_r \prod_{i=1}^{r-1} (1 - R_i),\quad "
                r"R_i = \frac{2^{g_i} - 1}{2^{g_{\max}}}",
        description="Expected reciprocal rank at which a cascading user stops, satisfied.",
        reference="Chapelle, Metzler, Zhang & Grinspan, CIKM (2009)",
        params=(K, Param("max_grade", None, "g_max, the top of the grade scale (None: the list's maximum).",
                         kind="float")),
        binary=False, monotone=True,
    ),
    MetricSpec(
        name="spearman_rho", pretty_name="Spearman's ρ", family="correlation", module="correlation",
        inputs="two_rankings",
        formula=r"\rho = 1 - \frac{6 \sum_j (s_{1,j} - s_{2,j})^2}{K (K^2 - 1)}",
        description="Correlation of the ranks two rankings give the same documents (+1 same, -1 reversed).",
        reference=f"Spearman, Am. J. Psychol. 15 (1904); {LECTURE}, 'SRCC'",
        value_range=(-1.0, 1.0), binary=False,
    ),
    MetricSpec(
        name="kendall_tau", pretty_name="Kendall's τ", family="correlation", module="correlation",
        inputs="two_rankings",
        formula=r"\tau_b = \frac{C - D}{\sqrt{(C + D + T_1)(C + D + T_2)}}",
        description="Concordant minus discordant pairs, normalized (tau-b by default, tau-a available).",
        reference="Kendall, Biometrika 30 (1938); Kendall, Biometrika 33 (1945) for tau-b",
        params=(Param("variant", "b", "tau-a (no tie correction) or tau-b (ties corrected).", choices=("a", "b")),),
        value_range=(-1.0, 1.0), binary=False,
    ),
    MetricSpec(
        name="kendall_tau_distance", pretty_name="Normalized Kendall τ distance@K", family="correlation",
        module="correlation", inputs="two_rankings",
        formula=r"K_n@K(\tau_1, \tau_2) = \frac{2}{n(n-1)} \sum_{\{i,j\} \in \mathbb{K}} \bar K_{i,j}(\tau_1, \tau_2)",
        description="Share of item pairs of the two top-K lists that the lists order differently (0 same).",
        reference="Fagin, Kumar & Sivakumar, SODA (2003); course note 000",
        params=(K, Param("penalty", 0.5, "p: the cost of a pair whose two items appear in only one of the "
                         "top-K lists (Fagin et al.'s K^(p); 0.5 is their neutral choice).", kind="float")),
        binary=False,
    ),
    MetricSpec(
        name="auc", pretty_name="AUC", family="classification", module="classification",
        inputs="labels_scores",
        formula=r"\mathrm{AUC} = \frac{1}{|P||N|} \sum_{p \in P} \sum_{n \in N} "
                r"\left(\mathbb{1}[s_p > s_n] + \tfrac{1}{2}\mathbb{1}[s_p = s_n]\right)",
        description="Probability that a random positive is scored above a random negative.",
        reference="Hanley & McNeil, Radiology 143 (1982); course note 001",
    ),
    MetricSpec(
        name="gauc", pretty_name="GAUC", family="classification", module="classification",
        inputs="groups",
        formula=r"\mathrm{GAUC} = \frac{\sum_g w_g \, \mathrm{AUC}_g}{\sum_g w_g}",
        description="AUC per group (user, session, query) averaged with weights; one-class groups left out.",
        reference="Zhou et al., Deep Interest Network, KDD (2018); course note 001",
        params=(Param("weights", "size", "Weight of each group: its size (impressions), its positives, or "
                      "uniform.", choices=("size", "positives", "uniform")),),
    ),
    MetricSpec(
        name="mean_average_precision", pretty_name="MAP", family="aggregate", module="aggregate",
        inputs="per_query_values",
        formula=r"\mathrm{MAP} = \frac{1}{Q} \sum_{q=1}^{Q} \mathrm{AP}(q)",
        description="Arithmetic mean of the per-query average precisions.",
        reference=f"{MANNING}, 8.4; {LECTURE}",
    ),
    MetricSpec(
        name="geometric_mean_average_precision", pretty_name="GMAP", family="aggregate", module="aggregate",
        inputs="per_query_values",
        formula=r"\mathrm{GMAP} = \exp\left(\frac{1}{Q} \sum_{q=1}^{Q} \ln \max(\mathrm{AP}(q), \epsilon)\right)",
        description="Geometric mean of per-query AP (floored at 1e-5): rewards lifting the worst queries.",
        reference=f"Robertson, CIKM (2006); TREC 2004 Robust track; {TREC}: gm_map",
        params=(Param("floor", 1e-5, "ε: APs below it count as ε (trec_eval uses 1e-5).", kind="float"),),
    ),
    MetricSpec(
        name="harmonic_mean_average_precision", pretty_name="HMAP", family="aggregate", module="aggregate",
        inputs="per_query_values",
        formula=r"\mathrm{HMAP} = \frac{Q}{\sum_{q=1}^{Q} 1 / \max(\mathrm{AP}(q), \epsilon)}",
        description="Harmonic mean of per-query AP: dominated by the worst queries.",
        reference=f"{LECTURE}, slide 'Mean based metrics' (HMAP listed among the popular metrics)",
        params=(Param("floor", 1e-5, "ε: APs below it count as ε.", kind="float"),),
    ),
    MetricSpec(
        name="mean_reciprocal_rank", pretty_name="MRR", family="aggregate", module="aggregate",
        inputs="per_query_values",
        formula=r"\mathrm{MRR} = \frac{1}{Q} \sum_{q=1}^{Q} \mathrm{RR}(q)",
        description="Arithmetic mean of the per-query reciprocal ranks.",
        reference=f"Voorhees (1999); {LECTURE}",
    ),
    MetricSpec(
        name="coverage", pretty_name="Coverage", family="user", module="user", inputs="sets",
        formula=r"\mathrm{coverage} = \frac{|K \cap R \cap A|}{|K \cap R|}",
        description="Share of the relevant documents the user knew of that the system returned.",
        reference=f"Korfhage, Information Storage and Retrieval (1997); {LECTURE}",
    ),
    MetricSpec(
        name="novelty", pretty_name="Novelty", family="user", module="user", inputs="sets",
        formula=r"\mathrm{novelty} = \frac{|(R \cap A) - K|}{|R \cap A|}",
        description="Share of the relevant documents returned that the user did not know of.",
        reference=f"Korfhage (1997); {LECTURE}",
    ),
    MetricSpec(
        name="relative_recall", pretty_name="Relative recall", family="user", module="user", inputs="counts",
        formula=r"\text{relative recall} = \frac{\#\text{found}}{\#\text{expected}}",
        description="Relevant documents found over those the user expected to find.",
        reference=f"Korfhage (1997); {LECTURE}",
    ),
    MetricSpec(
        name="recall_effort", pretty_name="Recall effort", family="user", module="user", inputs="counts",
        formula=r"\text{recall effort} = \frac{\#\text{expected}}{\#\text{examined}}",
        description="Relevant documents expected over documents examined until all were found.",
        reference=f"Korfhage (1997); {LECTURE}",
    ),
    MetricSpec(
        name="expected_search_length", pretty_name="Expected search length", family="user", module="user",
        formula=r"\mathrm{ESL} = j + \frac{i \cdot s}{r + 1}",
        description="Expected non-relevant documents examined before finding the wanted relevant ones.",
        reference="Cooper, American Documentation 19(1) (1968)",
        params=(Param("wanted", 1, "How many relevant documents the user wants.", kind="int"),
                Param("levels", None, "Tie level of each rank for a weak ordering (None: a strict order).",
                      kind="levels"),
                THRESHOLD),
        value_range=(0.0, math.inf), monotone=False,
    ),
    MetricSpec(
        name="satisfaction", pretty_name="Satisfaction@k", family="user", module="user",
        formula=r"\mathrm{satisfaction} = \frac{|\text{relevant returned}|}{|\text{returned}|}",
        description="Share of the returned documents that are relevant.",
        reference=LECTURE, params=RANKED_BINARY,
    ),
    MetricSpec(
        name="frustration", pretty_name="Frustration@k", family="user", module="user",
        formula=r"\mathrm{frustration} = \frac{|\text{non-relevant returned}|}{|\text{returned}|}",
        description="Share of the returned documents that are not relevant (1 - satisfaction).",
        reference=LECTURE, params=RANKED_BINARY,
    ),
)

_BY_NAME = {spec.name: spec for spec in METRICS}


def get_spec(name: str) -> MetricSpec:
    """The spec of ``name``; a ValueError lists close matches otherwise.

    Examples
    --------
    >>> get_spec("average_precision").pretty_name
    'AP@k'

    A misspelt name gets the closest known ones:

    >>> get_spec("ndgc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Unknown metric 'ndgc'. Did you mean 'ndcg'? Known metrics: hit, precision, ...
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        import difflib

        close = difflib.get_close_matches(name, _BY_NAME, n=3)
        hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise ValueError(f"Unknown metric {name!r}.{hint} Known metrics: {', '.join(_BY_NAME)}.") from None


def specs_for(*, inputs: str | None = None, families: tuple[str, ...] | None = None) -> list[MetricSpec]:
    """Specs filtered by input kind and/or family, in registry order.

    Examples
    --------
    The metrics that compare two rankings of the same documents, and the aggregates of
    per-query values:

    >>> [spec.name for spec in specs_for(inputs="two_rankings")]
    ['spearman_rho', 'kendall_tau', 'kendall_tau_distance']
    >>> [spec.pretty_name for spec in specs_for(families=("aggregate",))]
    ['MAP', 'GMAP', 'HMAP', 'MRR']
    """
    return [s for s in METRICS
            if (inputs is None or s.inputs == inputs) and (families is None or s.family in families)]


def ranking_metric_table(rels, **settings):
    """Every metric that takes one ranked list, computed on ``rels`` with shared settings.

    ``settings`` may hold any of ``k``, ``n_relevant``, ``judged``, ``rel_threshold``, ``gain``,
    ``discount``, ``log_base``, ``beta``, ``max_grade``, ``wanted``; each metric receives those it
    accepts. Returns one row per metric with columns ``metric`` (name), ``name`` (pretty name),
    ``value``, ``family``, ``variant`` (the settings the value used) and ``definition``.

    >>> table = ranking_metric_table([3, 2, 3, 0, 1, 2], k=5, gain="exponential")
    >>> float(table.set_index("metric").loc["precision", "value"])  # 4 of the top 5 are relevant
    0.8
    """
    import pandas as pd

    rows = []
    for spec in specs_for(inputs="ranking"):
        used = spec.applicable(settings)
        value = float(spec.function(rels, **used))
        variant = ", ".join(f"{k}={v}" for k, v in used.items() if k not in ("judged",))
        rows.append({"metric": spec.name, "name": spec.pretty_name, "value": value, "family": spec.family,
                     "variant": variant, "definition": spec.description})
    return pd.DataFrame(rows)


def metrics_markdown() -> str:
    """The metric reference as Markdown, generated from the registry (``docs/metrics.md``).

    Regenerate with ``python -m rankviz.registry > docs/metrics.md``; a test fails when the file
    and the registry disagree, so the documentation cannot drift from the code.

    Examples
    --------
    One section per family, one entry per metric, in registry order (Hit@k comes first):

    >>> lines = metrics_markdown().splitlines()
    >>> lines[0], lines[4], lines[6]
    ('# rankviz metric reference', '## Binary', '### Hit@k (Accuracy@k) — `rankviz.metrics.hit`')
    """
    lines = [
        "# rankviz metric reference",
        "",
        "Generated from `rankviz/registry.py` by `python -m rankviz.registry > docs/metrics.md`; do not edit.",
        "",
    ]
    family = None
    for spec in METRICS:
        if spec.family != family:
            family = spec.family
            lines += [f"## {family.capitalize()}", ""]
        low, high = spec.value_range
        lines += [
            f"### {spec.pretty_name} — `rankviz.metrics.{spec.name}`",
            "",
            spec.description,
            "",
            f"$$ {spec.formula} $$",
            "",
            f"- Input: {spec.inputs.replace('_', ' ')}; range [{low:g}, {high:g}]"
            + ("; binary relevance (grade >= rel_threshold)" if spec.binary and spec.inputs == "ranking" else ""),
            f"- Worked table: `rankviz.metrics.{spec.name}_breakdown`",
            f"- Reference: {spec.reference}",
        ]
        for p in spec.params:
            choices = f" (one of {', '.join(repr(c) for c in p.choices)})" if p.choices else ""
            lines.append(f"- `{p.name}` = `{p.default!r}`{choices}: {p.description}")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - exercised by tests/test_registry.py via the file
    print(metrics_markdown(), end="")
