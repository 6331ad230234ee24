"""The course's exercises and sample rankings, as data with their sources.

Tests and the app read the same presets, so an exercise reproduced in the test suite is the
exercise a student sees. Each preset names the course note it comes from (files in the
project's ``shared/course/`` folder), the numbers the note prints, and, where the note rounds
early or uses another convention than the standard one, a sentence saying so.

>>> from rankviz.teaching.presets import PRESETS
>>> PRESETS["ndcg_exercise"].rels
(3, 2, 3, 0, 1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from rankviz.i18n import N_, _

__all__ = ["Preset", "PRESETS", "get_preset", "ranking_presets"]

LECTURE = "002_0700abc891719c11.txt (IR evaluation lecture)"
SUMMARY = "000_e9a93395dd34ae24.txt (learning-to-rank metrics summary)"
CHINESE_NOTES = "001_7d3de9483860babd.txt (notes in Chinese)"
NDCG_NOTE = "003_1421b74848abef4a.txt (NDCG, MAP, MRR nuances)"


@dataclass(frozen=True)
class Preset:
    """One course exercise.

    ``kind`` says which fields are set: ``"ranking"`` (``rels`` and ``doc_ids``, optional
    ``n_relevant`` / ``judged``), ``"two_rankings"`` (``doc_ids``, ``ranks_a``, ``ranks_b``),
    ``"queries"`` (``queries``: name -> ranking preset key) and ``"per_query_values"``
    (``runs``: run name -> per-query values). ``settings`` are the metric options the exercise
    uses (e.g. ``{"gain": "exponential"}``); ``printed`` the values the note prints, rounded
    as printed; ``note`` explains where the note's convention or rounding differs.

    Examples
    --------
    The Chinese notes' AP exercise: relevant documents at ranks 1, 3 and 6 of 6, R = 3. The note
    prints (1/1 + 2/3 + 3/6) / 3 = 0.722, and the metric computed on the preset agrees:

    >>> preset = PRESETS["ap_positions_1_3_6"]
    >>> preset.kind, preset.rels, preset.n_relevant, preset.printed["ap"]
    ('ranking', (1, 0, 1, 0, 0, 1), 3, 0.722)
    >>> from rankviz.metrics import average_precision
    >>> round(average_precision(preset.rels, n_relevant=preset.n_relevant), 3)
    0.722
    """

    key: str
    title: str
    source: str
    kind: str
    description: str
    rels: tuple = ()
    doc_ids: tuple = ()
    n_relevant: int | None = None
    judged: tuple | None = None
    ranks_a: tuple = ()
    ranks_b: tuple = ()
    queries: tuple = ()
    runs: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    settings: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    printed: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    note: str = ""

    def __getattribute__(self, name):
        # Title, description and note are written in English (N_) and read in the language in force.
        value = object.__getattribute__(self, name)
        return _(value) if name in ("title", "description", "note") and value else value


def _frozen(mapping: dict) -> MappingProxyType:
    return MappingProxyType(dict(mapping))


# The lecture's q1 ranking (slides "MRR - An example", "F-Measure - Homework Exercise"):
# 15 documents, relevant (the slide's bullet) at ranks 1, 3, 6, 10 and 15. The reference
# collection R_q1 (slide "Revised Reference Collections") holds 10 relevant documents, so
# five relevant documents were never retrieved.
_Q1_DOCS = ("d123", "d84", "d56", "d6", "d8", "d9", "d511", "d129", "d187", "d25",
            "d38", "d48", "d250", "d113", "d3")
_Q1_RELEVANT = {"d3", "d5", "d9", "d25", "d39", "d44", "d56", "d71", "d89", "d123"}
# Graded judgments of q1 on a 0-3 scale (slide "Revised Reference Collections").
_Q1_GRADES = {"d3": 3, "d5": 3, "d9": 3, "d25": 2, "d39": 2, "d44": 2,
              "d56": 1, "d71": 1, "d89": 1, "d123": 1}

_Q2_DOCS = ("d425", "d87", "d56", "d32", "d124", "d615", "d512", "d129", "d4", "d130",
            "d193", "d715", "d810", "d5", "d3")
_Q2_RELEVANT_RANKS = (3, 8, 15)

_SRCC_DOCS = ("d123", "d84", "d56", "d6", "d8", "d9", "d511", "d129", "d187", "d25")
_SRCC_R2 = (2, 3, 1, 5, 4, 7, 8, 10, 6, 9)

_PRESET_LIST = [
    Preset(
        key="ndcg_exercise",
        title=N_("CG, DCG and NDCG class exercise: grades 3, 2, 3, 0, 1, 2"),
        source=f"{LECTURE}, slides 'Class Exercise - Compute DCG / IDCG / NDCG'",
        kind="ranking",
        description=N_("An algorithm ranks d1..d6; an expert grades them 3, 2, 3, 0, 1, 2 on a 0-3 scale."),
        rels=(3, 2, 3, 0, 1, 2),
        doc_ids=("d1", "d2", "d3", "d4", "d5", "d6"),
        settings=_frozen({"gain": "exponential", "discount": "log2"}),
        printed=_frozen({"dcg": 13.846, "idcg": 14.588, "ndcg": 0.949,
                         # The two tables' last column, rank 1 first (the ideal ranking 3, 3, 2, 2, 1, 0).
                         "dcg_terms": (7, 1.892, 3.5, 0, 0.386, 1.068),
                         "idcg_terms": (7, 4.416, 1.5, 1.286, 0.386, 0)}),
        note=(
            N_("The slide shows log2(1+i) to three decimals (1.585, 2.322, 2.585, 2.807) and cuts each "
            "contribution to three decimals (3/1.585 = 1.8927 printed 1.892, 1/2.585 = 0.3868 printed "
            "0.386, 3/2.807 = 1.0688 printed 1.068), so its DCG is 13.846; the exact value is 13.848. "
            "Its IDCG table prints 1.286 at rank 4 where 3/2.322 = 1.292, so its IDCG is 14.588; "
            "the exact value is 14.595. NDCG is 0.949 either way.")
        ),
    ),
    Preset(
        key="q1_binary",
        title=N_("Query q1: 15 ranked documents, 10 relevant in the collection"),
        source=f"{LECTURE}, slides 'MAP - An example', 'MRR - An example', 'F-Measure - Homework Exercise'",
        kind="ranking",
        description=N_("Relevant documents (the slide's bullets) at ranks 1, 3, 6, 10 and 15; R = 10."),
        rels=tuple(int(d in _Q1_RELEVANT) for d in _Q1_DOCS),
        doc_ids=_Q1_DOCS,
        n_relevant=len(_Q1_RELEVANT),
        settings=_frozen({"rr_threshold": 3}),
        # "interpolated": the slide's precisions at recall 0.1, ..., 1.0, as its 'MAP' sums them.
        printed=_frozen({"map_slide": 0.28, "rr_at_3": 1.0, "interpolated": (1, 0.66, 0.5, 0.4, 0.33, 0, 0, 0, 0, 0)}),
        note=(
            N_("The slide's 'MAP' of q1 is the mean of interpolated precision at the 10 recall levels "
            "0.1, ..., 1.0. With the slide's two-decimal precisions, (1 + 0.66 + 0.5 + 0.4 + 0.33 + 0 + 0 "
            "+ 0 + 0 + 0) / 10 = 0.289, printed truncated as 0.28; exactly (1 + 2/3 + 1/2 + 2/5 + 1/3) / 10 "
            "= 0.290. Non-interpolated AP gives the same 0.290 here, (1/1 + 2/3 + 3/6 + 4/10 + 5/15) / 10, "
            "because precision only falls from one relevant rank to the next.")
        ),
    ),
    Preset(
        key="q2_binary",
        title=N_("Query q2: 15 ranked documents, 3 relevant in the collection"),
        source=f"{LECTURE}, slides 'MAP - An example', 'MRR - An example', 'F-Measure - Homework Exercise'",
        kind="ranking",
        description=N_("Relevant documents at ranks 3, 8 and 15; R = 3."),
        rels=tuple(int(i + 1 in _Q2_RELEVANT_RANKS) for i in range(len(_Q2_DOCS))),
        doc_ids=_Q2_DOCS,
        n_relevant=3,
        settings=_frozen({"rr_threshold": 3}),
        printed=_frozen({"map_slide": 0.254, "rr_at_3": 0.33,
                         "interpolated": (0.33, 0.33, 0.33, 0.25, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2)}),
        note=(
            N_("The slide's 'MAP' of q2 is the mean interpolated precision at recall 0.1, ..., 1.0: "
            "(3 x 0.33 + 3 x 0.25 + 4 x 0.2) / 10 = 0.254 with 1/3 rounded to 0.33; exactly "
            "(3 x 1/3 + 3 x 1/4 + 4 x 1/5) / 10 = 0.255. Non-interpolated AP is (1/3 + 2/8 + 3/15) / 3 = 0.261.")
        ),
    ),
    Preset(
        key="q1_graded",
        title=N_("Query q1 with graded judgments (0-3)"),
        source=f"{LECTURE}, slide 'Revised Reference Collections'",
        kind="ranking",
        description=(
            N_("The q1 ranking with the graded reference collection: d3, d5, d9 = 3; d25, d39, d44 = 2; "
            "d56, d71, d89, d123 = 1; the ideal ranking is 3, 3, 3, 2, 2, 2, 1, 1, 1, 1.")
        ),
        rels=tuple(_Q1_GRADES.get(d, 0) for d in _Q1_DOCS),
        doc_ids=_Q1_DOCS,
        judged=tuple(sorted(_Q1_GRADES.values(), reverse=True)) + (0,) * 10,
        settings=_frozen({"gain": "exponential", "discount": "log2"}),
        printed=_frozen({"ideal": "3,3,3,2,2,2,1,1,1,1"}),
        note=(
            N_("The ideal ranking comes from every judged document of q1, not only the retrieved ones: "
            "d5, d39, d44, d71 and d89 were never retrieved, so the ideal DCG is larger than the DCG of "
            "the retrieved grades sorted.")
        ),
    ),
    Preset(
        key="ap_positions_1_3_6",
        title=N_("AP with relevant documents at positions 1, 3 and 6"),
        source=f"{CHINESE_NOTES}, section 'MAP (Mean Average Precision)'",
        kind="ranking",
        description=N_("Three relevant documents, at ranks 1, 3 and 6: AP = (1/1 + 2/3 + 3/6) / 3."),
        rels=(1, 0, 1, 0, 0, 1),
        doc_ids=("a", "b", "c", "d", "e", "f"),
        n_relevant=3,
        printed=_frozen({"ap": 0.722}),
    ),
    Preset(
        key="srcc_exercise",
        title=N_("Spearman rank correlation class exercise (R1 ideal, R2 new ranking function)"),
        source=f"{LECTURE}, slides 'SRCC - class exercise'",
        kind="two_rankings",
        description=N_("Ten documents ranked by the ideal ranking R1 and by a new ranking function R2."),
        doc_ids=_SRCC_DOCS,
        ranks_a=tuple(range(1, 11)),
        ranks_b=_SRCC_R2,
        printed=_frozen({"sum_d2": 24, "srcc": 0.854}),
        note=N_("1 - 6 x 24 / (10 x (10^2 - 1)) = 0.8545..., printed as 0.854 (truncated, 0.855 rounded)."),
    ),
    Preset(
        key="gmap_runs",
        title=N_("GMAP vs MAP: Run 1 and Run 2 over five topics"),
        source=f"{LECTURE}, slide 'GMAP - example'",
        kind="per_query_values",
        description=N_("Per-topic AP of two runs with the same MAP but different GMAP."),
        runs=_frozen({
            "Run 1": (0.05, 0.10, 0.50, 0.50, 0.75),
            "Run 2": (0.10, 0.30, 0.45, 0.45, 0.60),
        }),
        printed=_frozen({"map": 0.38, "gmap_run1": 0.25, "gmap_run2": 0.33}),
        note=N_("Both MAPs are exactly 0.38; GMAP is 0.2480 and 0.3253 exactly, printed to two decimals."),
    ),
    Preset(
        key="mrr_threshold",
        title=N_("MRR with rank threshold S_h = 3 over q1 and q2"),
        source=f"{LECTURE}, slides 'Mean Reciprocal Rank (MRR) - An example'",
        kind="queries",
        description=N_("First relevant document at rank 1 (q1) and rank 3 (q2); both within S_h = 3."),
        queries=("q1_binary", "q2_binary"),
        settings=_frozen({"rr_threshold": 3}),
        printed=_frozen({"rr_q1": 1.0, "rr_q2": 0.33, "mrr": 0.67}),
        note=N_("The slide rounds 1/3 to 0.33; exactly, MRR = (1 + 1/3) / 2 = 0.667."),
    ),
    Preset(
        key="fmeasure_q1",
        title=N_("F-measure homework, Q1: P, R, F1, F2 and F0.5 at each relevant document"),
        source=f"{LECTURE}, slide 'F-Measure - Homework Exercise' (P and R as on 'MAP - An example')",
        kind="queries",
        description=(N_("Q1 as the lecture ranks it (relevant at ranks 1, 3, 6, 10 and 15; R = 10): the P and R "
                     "'computed in class' are those at each relevant document.")),
        queries=("q1_binary",),
        settings=_frozen({"cutoffs": (1, 3, 6, 10, 15)}),
        printed=_frozen({"P": (1.0, 0.66, 0.5, 0.4, 0.33), "R": (0.1, 0.2, 0.3, 0.4, 0.5)}),
        note=(
            N_("The lecture prints P and R at Q1's relevant documents as 1, 0.66, 0.5, 0.4, 0.33 and 0.1 ... 0.5 "
            "(2/3 and 1/3 cut to two decimals); the F-measures are the homework, so no value is printed. Its F0.5 "
            "slide writes 1.25 · P·R / ((0.5)P + R): β where the formula takes β² = 0.25. With the slide's "
            "denominator F0.5@1 = 1.25 × 0.1 / 0.6 = 0.208 instead of 1.25 × 0.1 / 0.35 = 0.357; the checker names "
            "that slip (trec_eval's set_F takes β² as its parameter, the same trap).")
        ),
    ),
    Preset(
        key="fmeasure_q2",
        title=N_("F-measure homework, Q2: P, R, F1, F2 and F0.5 at each relevant document"),
        source=f"{LECTURE}, slide 'F-Measure - Homework Exercise' (P and R as on 'MAP - An example')",
        kind="queries",
        description=(N_("Q2 as the lecture ranks it (relevant at ranks 3, 8 and 15; R = 3): the P and R 'computed "
                     "in class' are those at each relevant document.")),
        queries=("q2_binary",),
        settings=_frozen({"cutoffs": (3, 8, 15)}),
        printed=_frozen({"P": (0.33, 0.25, 0.2), "R": (0.33, 0.66, 1.0)}),
        note=(
            N_("The lecture prints P at Q2's relevant documents as 0.33, 0.25 and 0.2 and R as 0.33, 0.66 and 1 "
            "(1/3 and 2/3 cut to two decimals). Its F0.5 slide writes (0.5)P + R where the formula takes "
            "β²P = 0.25P: the checker names that slip.")
        ),
    ),
    Preset(
        key="map_q1_q2",
        title=N_("MAP over q1 and q2 (the lecture's interpolated variant)"),
        source=f"{LECTURE}, slide 'MAP - An example' (MAP for Q = {{q1, q2}})",
        kind="queries",
        description=N_("The lecture averages its per-query values 0.28 and 0.254 into MAP 0.267."),
        queries=("q1_binary", "q2_binary"),
        printed=_frozen({"map_slide": 0.267}),
        note=(
            N_("(0.28 + 0.254) / 2 = 0.267 on the slide. With the exact interpolated values "
            "(0.290 + 0.255) / 2 = 0.2725; with non-interpolated AP (0.290 + 0.261) / 2 = 0.276.")
        ),
    ),
    Preset(
        key="rr_same_first_relevant",
        title=N_("MRR only sees the first relevant document"),
        source=f"{NDCG_NOTE}, 'Some additional nuances'",
        kind="queries",
        description=N_("N, N, R, R, R and N, N, R, N, N both have reciprocal rank 1/3."),
        queries=("rr_nuance_a", "rr_nuance_b"),
        printed=_frozen({"rr": 0.333}),
    ),
    Preset(
        key="rr_nuance_a",
        title=N_("Not relevant, not relevant, relevant, relevant, relevant"),
        source=f"{NDCG_NOTE}, 'Some additional nuances' (Ranking 1)",
        kind="ranking",
        description=N_("Reciprocal rank 1/3."),
        rels=(0, 0, 1, 1, 1),
        doc_ids=("a", "b", "c", "d", "e"),
        printed=_frozen({"rr": 0.333}),
    ),
    Preset(
        key="rr_nuance_b",
        title=N_("Not relevant, not relevant, relevant, not relevant, not relevant"),
        source=f"{NDCG_NOTE}, 'Some additional nuances' (Ranking 2)",
        kind="ranking",
        description=N_("Reciprocal rank 1/3, the same as ranking 1."),
        rels=(0, 0, 1, 0, 0),
        doc_ids=("a", "b", "c", "d", "e"),
        printed=_frozen({"rr": 0.333}),
    ),
    Preset(
        key="ndcg_limit_bad_document",
        title=N_("NDCG does not penalize a bad document: {1,1,1} vs {1,1,1,0}"),
        source=f"{LECTURE}, slide 'DCG and NDCG - Limitations' (first)",
        kind="ranking",
        description=N_("Both {1,1,1} and {1,1,1,0} score NDCG 1 when the ideal comes from the list itself."),
        rels=(1, 1, 1, 0),
        doc_ids=("a", "b", "c", "d"),
        printed=_frozen({"ndcg": 1.0}),
    ),
    Preset(
        key="ndcg_limit_missing_documents",
        title=N_("NDCG does not penalize missing documents: {1,1,1} vs {1,1,1,1,1}"),
        source=f"{LECTURE}, slide 'DCG and NDCG - Limitations' (second)",
        kind="ranking",
        description=N_("{1,1,1} scores NDCG 1 like {1,1,1,1,1} unless the judged grades of the query are given."),
        rels=(1, 1, 1),
        doc_ids=("a", "b", "c"),
        printed=_frozen({"ndcg": 1.0}),
        note=N_("Given judged = (1, 1, 1, 1, 1), the ideal DCG includes the two unretrieved documents and NDCG drops below 1."),
    ),
]

PRESETS: MappingProxyType = MappingProxyType({p.key: p for p in _PRESET_LIST})


def get_preset(key: str) -> Preset:
    """The preset named ``key``; a ValueError lists the known keys otherwise.

    Examples
    --------
    The lecture's Spearman exercise ranks ten documents twice; the slide prints rho = 0.854
    (1 - 6 x 24 / (10 x 99) = 0.8545, truncated):

    >>> preset = get_preset("srcc_exercise")
    >>> preset.kind, preset.ranks_b, preset.printed["srcc"]
    ('two_rankings', (2, 3, 1, 5, 4, 7, 8, 10, 6, 9), 0.854)
    >>> get_preset("srcc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Unknown preset 'srcc'; known presets: ndcg_exercise, q1_binary, ...
    """
    try:
        return PRESETS[key]
    except KeyError:
        raise ValueError(f"Unknown preset {key!r}; known presets: {', '.join(PRESETS)}.") from None


def ranking_presets() -> list[Preset]:
    """The presets that hold one ranked list (what the ranking editor can load).

    Examples
    --------
    The first three, in the order the course presents them; presets of two rankings (the
    Spearman exercise) or of several queries are left out:

    >>> [preset.key for preset in ranking_presets()][:3]
    ['ndcg_exercise', 'q1_binary', 'q2_binary']
    >>> "srcc_exercise" in {preset.key for preset in ranking_presets()}
    False
    """
    return [p for p in PRESETS.values() if p.kind == "ranking"]
