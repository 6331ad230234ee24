"""Why do the tools disagree? Each convention that changes a ranking measure, by name, and each tool's profile.

The same run scored by trec_eval, scikit-learn, ranx or RecBole can give different numbers for
"nDCG@10" or "MAP@10" without any of them being wrong: they order tied scores differently,
take the ideal ranking from the judgments or from the ranked list, weigh grades as g or 2^g − 1,
divide MAP@k by R or by min(R, k), and so on. This module is the catalogue of those choices,
as data (like :mod:`rankviz.registry`, which it extends):

* :data:`CONVENTIONS`: convention id -> :class:`Convention` (its choices as registry
  :class:`~rankviz.registry.Param`/:class:`~rankviz.registry.Choice` objects, a description,
  and the tools that use each choice, each with the tool's own name for it and a reference);
* :data:`PROFILES`: tool name -> :class:`ToolProfile` (the choice the tool makes for every
  convention, per measure where it differs, and the tool's own name for each measure);
  :data:`TOOLS` is their names.

The numbers are computed by :mod:`rankviz.evaluation.tools` (``evaluate(..., as_tool=...)``,
:func:`~rankviz.evaluation.tools.disagreement`) over the kernels of
:mod:`rankviz.metrics.kernels.conventions`.

Every profile marked ``checked`` is compared, query by query, with the tool itself in
``tests/test_tool_profiles.py`` (torchmetrics in ``tests/test_tool_profiles_torch.py``, Spark's in
``tests/test_tool_profiles_spark.py``, TF-Ranking's and RecBole's, each in an environment of its own,
in ``tests/test_tool_profiles_tf_ranking.py`` and ``tests/test_tool_profiles_recbole.py``; the
versions pinned in ``requirements-dev.txt`` and ``.ci/run``); the others
are read from the tool's source and documentation (the reference given) and say so.

>>> TOOLS[:3]
('trec_eval', 'pytrec_eval', 'ir_measures')
>>> CONVENTIONS["ap_denominator"].tool_choice("recbole")
'min_r_k'
>>> PROFILES["sklearn"].setting("nDCG", "ideal_from")
'run'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rankviz.i18n import N_
from rankviz.registry import AP_DENOMINATOR, GAIN, GAUC_WEIGHT, KENDALL_VARIANT, Choice, Param

__all__ = ["Convention", "ToolUse", "ToolMeasure", "ToolProfile", "MeasureKernel", "CONVENTIONS", "PROFILES",
           "TOOLS", "KERNELS", "MEASURE_FAMILIES", "DEFAULTS", "SUMMARY_WORDS", "conventions_markdown"]

#: The measures (the ``Measure.name`` of :func:`rankviz.parse_measure`) whose conventions are catalogued.
MEASURE_FAMILIES = ("nDCG", "AP", "P", "R", "RR", "Success", "DCG", "Accuracy", "Fallout", "Bpref")


@dataclass(frozen=True)
class MeasureKernel:
    """The function of :mod:`rankviz.metrics.kernels.conventions` computing one measure under any conventions."""

    family: str
    function: str


#: Which kernel computes which measure (the registry's way: functions named, not imported).
KERNELS = tuple(MeasureKernel(family, function) for family, function in zip(
    MEASURE_FAMILIES, ("ndcg_value", "ap_value", "precision_value", "recall_value", "rr_value", "success_value", "dcg_value",
                              "accuracy_value", "fallout_value", "bpref_value")))


@dataclass(frozen=True)
class ToolUse:
    """One tool's use of a convention: which choice, the tool's own name for it, a reference."""

    tool: str
    choice: object
    name: str
    reference: str


@dataclass(frozen=True)
class Convention:
    """A way two tools may compute the same measure differently.

    Attributes
    ----------
    id : str
        Its name here (``"ties"``), what :func:`rankviz.disagreement` reports.
    title : str
        A few words (``"tie order"``), as a summary line names it.
    param : Param
        Its choices (value, label, formula, description) and the default (trec_eval's);
        ``kind="int"``/``"float"`` when any number is allowed (the relevance threshold, the log base).
    description : str
        What it changes and why tools differ.
    measures : tuple of str
        The measures (``Measure.name``) it can change.
    tools : tuple of ToolUse
        Who makes which choice, with their own name for it and a reference.
    example : str
        The teaching page where the convention is worked through (its url path).
    """

    id: str
    title: str
    param: Param
    description: str
    measures: tuple[str, ...]
    tools: tuple[ToolUse, ...] = ()
    example: str = ""

    @property
    def default(self):
        return self.param.default

    def tool_choice(self, tool: str):
        """The choice ``tool`` makes (its profile's setting for the first measure it applies to)."""
        profile = PROFILES[tool]
        for family in self.measures:
            if profile.measure(family) is not None:
                return profile.setting(family, self.id)
        return profile.settings.get(self.id, self.default)

    def label(self, value) -> str:
        """Words for one of its values (a number for the numeric conventions)."""
        if self.param.choices:
            return self.param.label(value)
        return f"{self.param.name} = {value:g}" if isinstance(value, (int, float)) else str(value)


@dataclass(frozen=True)
class ToolMeasure:
    """A tool's own name for a measure: ``name`` with ``{k}`` where the cutoff goes (``"ndcg_cut.{k}"``),
    ``name_no_cutoff`` for the whole list (None: the tool needs a cutoff), ``cutoff`` False when
    the tool has the measure only for the whole list."""

    family: str
    name: str
    name_no_cutoff: str | None = None
    cutoff: bool = True

    def tool_name(self, k: int | None) -> str | None:
        """The tool's name of this measure at cutoff ``k`` (None: the tool does not compute it)."""
        if k is None:
            return self.name_no_cutoff if self.name_no_cutoff else (None if "{k}" in self.name else self.name)
        if not self.cutoff:
            return None
        return self.name.format(k=k)


@dataclass(frozen=True)
class ToolProfile:
    """What one tool does: its choices of every convention and its names of the measures.

    ``settings`` are its choices where they differ from trec_eval's (:data:`DEFAULTS`),
    ``per_measure`` the choices it makes for one measure only (``(("nDCG", {...}),)``),
    ``checked`` whether ``tests/test_tool_profiles.py`` compares it with the tool itself.
    """

    name: str
    title: str
    version: str
    reference: str
    measures: tuple[ToolMeasure, ...]
    settings: dict = field(default_factory=dict)
    per_measure: tuple = ()
    checked: bool = False
    notes: str = ""

    def measure(self, family: str) -> ToolMeasure | None:
        return next((m for m in self.measures if m.family == family), None)

    def settings_for(self, family: str, cutoff: int | None = None) -> dict:
        """Every convention's choice for measure ``family`` (at ``cutoff``): defaults, the tool's, then its
        per-measure ones (a key ``"RR"`` applies to RR at any cutoff, ``"RR@k"`` only with a cutoff)."""
        chosen = dict(DEFAULTS)
        chosen.update(self.settings)
        for each, overrides in self.per_measure:
            if each == family or (cutoff is not None and each == f"{family}@k"):
                chosen.update(overrides)
        return chosen

    def setting(self, family: str, convention: str, cutoff: int | None = None):
        return self.settings_for(family, cutoff)[convention]


def _param(name, default, description, *choices, kind="choice"):
    return Param(name, default, description, choices=tuple(choices), kind=kind)


TIES = _param(
    "ties", "docno_desc", N_("How documents with equal scores are ordered."),
    Choice("docno_desc", N_("score, then docno descending"), r"(s_d \downarrow, \mathrm{docno} \downarrow)",
           N_("trec_eval's rule (and so pytrec_eval's and ir_measures'): the rank column of the run is ignored."),
           "docno desc"),
    Choice("docno_asc", N_("score, then docno ascending"), r"(s_d \downarrow, \mathrm{docno} \uparrow)",
           N_("Sorted by the key (−score, docno), as ir_measures' msmarco provider (its RR@k) does."),
           "docno asc"),
    Choice("input_order", N_("score, ties in the order given"), r"(s_d \downarrow, \text{input order})",
           N_("A stable sort by score: tied documents keep the order of the run (the file, the list of hits)."),
           "input order"),
    Choice("quicksort", N_("score, ties as numba's quicksort leaves them"), r"(s_d \downarrow, \text{quicksort})",
           N_("ranx sorts by score with numba's argsort, a quicksort, when a run is built and again in "
              "evaluate(make_comparable=True): the order given for lists of up to 15 documents; past that, tied "
              "documents are reordered by the sort's partitions (both passes reproduced exactly)."),
           "quicksort"),
    Choice("random", N_("score, ties shuffled at random"), r"(s_d \downarrow, \text{random})",
           N_("TF-Ranking shuffles the documents before its sort (sort_by_scores(shuffle_ties=True), no seed): a tied "
              "list gets a new order, and may get another value, at every call; rankviz shows one fixed draw."),
           "random"),
    Choice("tie_groups", N_("tied documents as one group"), r"\bar g_{G}, \; P@\max G",
           N_("scikit-learn: a group of tied documents shares its gains (nDCG averages them over the group's ranks) "
              "and each relevant document of a group gets the precision at the group's end (average_precision_score)."),
           "tie groups"),
)
IDEAL_FROM = _param(
    "ideal_from", "judgments", N_("Where the ideal ranking (IDCG) and R, the number of relevant documents, come from."),
    Choice("judgments", N_("IDCG and R from the judgments"), r"R = |\{d \in \mathrm{qrels}: g_d \ge \ell\}|",
           N_("Every judged document of the query, retrieved or not (trec_eval): a relevant document the run "
              "misses lowers nDCG, AP and recall."), "from qrels"),
    Choice("run", N_("IDCG and R from the run"), r"R = |\{d \in \mathrm{run}: g_d \ge \ell\}|",
           N_("Only the documents of the ranked list (scikit-learn, torchmetrics, TF-Ranking: the labels given with "
              "the scores): a relevant document never retrieved does not count."), "from run"),
)
GAINS = _param(
    "gain", "linear", N_("Gain of a document of grade g in DCG."),
    *GAIN.choices,
    Choice("binary", N_("binary gain 1 if relevant"), r"[g \ge \ell]",
           N_("RecBole and Spark: a document is relevant or not; grades above the threshold count as 1."), "0/1"),
)
LOG_BASE = _param("log_base", 2, N_("Base b of the discount 1/log_b(i + 1) at rank i (scikit-learn's log_base)."),
                  kind="float")
RECALL = _param(
    "recall", "recall", N_("What 'recall at k' divides by."),
    Choice("recall", N_("recall: relevant in the top k over R"), r"\frac{|\mathrm{rel} \cap \mathrm{top}_k|}{R}",
           N_("trec_eval's recall.k and everyone's 'recall@k'."), "÷ R"),
    Choice("hit_rate", N_("hit rate: 1 if any relevant in the top k"), r"[\,|\mathrm{rel} \cap \mathrm{top}_k| > 0\,]",
           N_("Hit@k, success@k, HR@k: what many recommender papers call recall@k when each user has one held-out item."),
           "hit"),
    Choice("capped", N_("capped recall: over min(R, k)"), r"\frac{|\mathrm{rel} \cap \mathrm{top}_k|}{\min(R, k)}",
           N_("BEIR's R_cap@k and MTEB: a top k full of relevant documents scores 1."), "÷ min(R, k)"),
)
PRECISION = _param(
    "precision_denominator", "k", N_("What P@k divides by when the list is shorter than k."),
    Choice("k", N_("P@k over k"), r"\frac{|\mathrm{rel} \cap \mathrm{top}_k|}{k}",
           N_("trec_eval: missing ranks count as non-relevant."), "÷ k"),
    Choice("retrieved", N_("P@k over the documents retrieved"), r"\frac{|\mathrm{rel} \cap \mathrm{top}_k|}{\min(k, n)}",
           N_("Elasticsearch's precision (over the hits returned) and torchmetrics' adaptive_k=True."), "÷ min(k, n)"),
)
FALLOUT = _param(
    "fallout_denominator", "judged", N_("The non-relevant documents fall-out@k divides by."),
    Choice("judged", N_("fall-out over the judged non-relevant documents"),
           r"\frac{|\mathrm{nonrel} \cap \mathrm{top}_k|}{|\{d \in \mathrm{qrels}: g_d < \ell\}|}",
           N_("The judged non-relevant documents of the top k over those of the query (an unjudged document in "
              "neither count): the test collection's view."), "÷ judged non-relevant"),
    Choice("run", N_("fall-out over the non-relevant documents of the list"),
           r"\frac{|\mathrm{nonrel} \cap \mathrm{top}_k|}{|\{d \in \mathrm{run}: g_d < \ell\}|}",
           N_("torchmetrics' RetrievalFallOut: the scored items are all there is, unjudged ones non-relevant."),
           "÷ non-relevant in the list"),
)
FALLOUT_EMPTY = _param(
    "fallout_empty", "zero", N_("Fall-out of a query with no non-relevant document to retrieve."),
    Choice("zero", N_("0 when there is no non-relevant document"), "0",
           N_("Nothing could be retrieved wrongly, so nothing was (rankviz's fall-out)."), "0"),
    Choice("one", N_("1 when there is no non-relevant document"), "1",
           N_("torchmetrics' RetrievalFallOut: a query without a negative target counts as 1.0 "
              "(its default empty_target_action='pos')."), "1"),
)
NONPOSITIVE = _param(
    "nonpositive_scores", "rank", N_("What a score of 0 or below means for the binary measures."),
    Choice("rank", N_("a score only ranks the documents"), r"[g_d \ge \ell]",
           N_("trec_eval and most tools: a relevant document is found wherever it is ranked, whatever its score."),
           "ranks only"),
    Choice("no_hit", N_("a document scored 0 or below is never a hit"), r"[g_d \ge \ell \wedge s_d > 0]",
           N_("torchmetrics' AP, precision, recall and RR keep a target only where preds > 0: a relevant document "
              "scored 0 or below is not found (recall still counts it in R)."), "score > 0"),
)
THRESHOLD = _param("rel_threshold", 1, N_("A document is relevant when its grade is at least this (trec_eval -l)."),
                   kind="int")
NO_RELEVANT = _param(
    "no_relevant", "zero", N_("The value of a query with no relevant document (R = 0, or IDCG = 0)."),
    Choice("zero", N_("0 for a query without relevant documents"), "0",
           N_("trec_eval: the query counts, with 0, in the mean."), "0"),
    Choice("skip", N_("a query without relevant documents is left out"), r"\varnothing",
           N_("The query has no value and does not count in the mean."), "skipped"),
    Choice("none_retrieved", N_("a query with no relevant document in the top k is left out"), r"\varnothing",
           N_("trectools' get_ndcg: a query whose top k holds no relevant document gets no value (NaN), so the mean "
              "is over the queries that found something."), "skipped if none found"),
    Choice("one", N_("1 for a query without relevant documents"), "1",
           N_("scikit-learn's label_ranking_average_precision_score: a sample with no relevant label scores 1."), "1"),
)
MISSING_QUERY = _param(
    "missing_query", "skip", N_("The value of a judged query the run did not answer."),
    Choice("skip", N_("a query missing from the run is left out"), r"\varnothing",
           N_("trec_eval without -c: the mean is over the queries of the run."), "skipped"),
    Choice("zero", N_("0 for a query missing from the run"), "0",
           N_("trec_eval -c: the mean is over every judged query."), "0"),
)

KENDALL = _param(
    "kendall", "b", N_("Which Kendall's tau two rankings of the same items get."),
    *KENDALL_VARIANT.choices,
    Choice("c", N_("tau-c (Stuart, rectangular tables)"), r"\tau_c = \frac{2 (C - D)}{n^2 (m - 1) / m}",
           N_("Stuart's tau-c, scipy's kendalltau(variant='c'): m is the smaller number of distinct values, so a "
              "table of few grades against many scores can still reach 1."), "tau-c"),
    Choice("weighted", N_("weighted tau (Vigna, hyperbolic weights)"),
           r"\tau_w = \frac{\sum_{i<j} w_{ij} s^x_{ij} s^y_{ij}}{\sqrt{\sum w_{ij} |s^x_{ij}| \sum w_{ij} |s^y_{ij}|}}",
           N_("scipy's weightedtau: a pair weighs 1/(r_i + 1) + 1/(r_j + 1) by the ranks of its items, so swaps at "
              "the top cost more; the mean over ranking by x then y and by y then x."), "weighted tau"),
)

GAUC_WEIGHTS = _param("gauc_weights", "size", N_("Weight of each group in the mean of the groups' AUCs."),
                      *GAUC_WEIGHT.choices)
GAUC_CONSTANT = _param(
    "gauc_constant", "keep", N_("A group whose predictions are all equal (but holds both classes)."),
    Choice("keep", N_("a group with constant predictions counts, with AUC 0.5"), r"\mathrm{AUC}_g = 0.5",
           N_("Every pair of the group is a tie, worth one half (Zhou et al.'s GAUC, rankviz)."), "0.5"),
    Choice("drop", N_("a group with constant predictions is left out"), r"\varnothing",
           N_("torchrec's GAUCMetric skips 'identical prediction sessions' (and treats a prediction of exactly 0 as "
              "padding)."), "skipped"),
)
GAUC_EMPTY = _param(
    "gauc_empty", "nan", N_("GAUC when no group counts (none has both classes, or all were dropped)."),
    Choice("nan", N_("undefined (NaN) when no group counts"), r"\mathrm{NaN}",
           N_("rankviz: NaN with a warning, so an empty evaluation is never read as a result."), "NaN"),
    Choice("half", N_("0.5 when no group counts"), "0.5",
           N_("torchrec: (0 + 1e-9) / (0 + 2e-9), the value of a coin toss."), "0.5"),
)
IMPRESSION_WEIGHTS = _param(
    "impression_weights", "used", N_("Whether a weight per impression (row) weighs the pairs of the AUC."),
    Choice("used", N_("impression weights weigh each pair w_p w_n"), r"\frac{\sum w_p w_n [s_p > s_n]}{\sum w_p \sum w_n}",
           N_("scikit-learn's roc_auc_score(sample_weight=): a positive of weight 2 counts as two impressions."), "w_p w_n"),
    Choice("ignored", N_("impression weights are ignored"), "1",
           N_("torchrec's GAUCMetric accepts weights and does not use them."), "ignored"),
)

ITEM_WEIGHTS = _param(
    "item_weights", "ignored", N_("Whether a weight per ranked document (a weight column of the run) weighs its gain."),
    Choice("ignored", N_("no document weights"), "g_i", N_("trec_eval and most tools: a run has no weights."), "ignored"),
    Choice("gains", N_("gains weighted, the ideal by weighted gain"), r"w_i\,g_i",
           N_("TF-Ranking's NDCGMetric(weights=): each document's gain times its weight in DCG, and the ideal ranking "
              "the list's weighted gains sorted."), "w_i g_i"),
)

BPREF = _param(
    "bpref_denominator", "min_r_n", N_("What bpref divides the judged non-relevant documents above a relevant one by."),
    Choice("min_r_n", N_("bpref over min(R, N)"), r"1 - \frac{\min(|n \succ r|, \min(R, N))}{\min(R, N)}",
           N_("trec_eval's bpref (N the judged non-relevant documents): a query with few non-relevant judgments "
              "is not penalised beyond them."), "÷ min(R, N)"),
    Choice("R", N_("bpref over R"), r"1 - \frac{\min(|n \succ r|, R)}{R}",
           N_("Buckley & Voorhees' first formula, TF-Ranking's BPrefMetric(use_trec_version=False)."), "÷ R"),
)
PARTIAL_AUC = _param(
    "partial_auc", "mcclish", N_("How the area under the ROC curve up to a false-positive rate is reported."),
    Choice("mcclish", N_("partial AUC standardized (McClish)"),
           r"\tfrac12\left(1 + \frac{A - m^2/2}{m - m^2/2}\right)",
           N_("scikit-learn's roc_auc_score(max_fpr=m): rescaled so that a random ranking scores 0.5 and a "
              "perfect one 1."), "McClish"),
    Choice("raw", N_("partial AUC as a raw area"), r"A = \int_0^m \mathrm{TPR}\, d\mathrm{FPR}",
           N_("The area itself, at most m (pROC's partial.auc without correction)."), "raw area"),
)
MULTICLASS_AUC = _param(
    "multiclass_auc", "ovr", N_("How the AUC of a classifier with more than two classes is averaged."),
    Choice("ovr", N_("one class against the rest"), r"\frac{1}{c}\sum_j A(j \mid \lnot j)",
           N_("scikit-learn's roc_auc_score(multi_class='ovr'), macro average."), "one vs rest"),
    Choice("ovo", N_("one class against one (Hand & Till)"),
           r"\frac{2}{c(c-1)}\sum_{j<k} \tfrac12 (A(j \mid k) + A(k \mid j))",
           N_("Hand & Till (2001), scikit-learn's multi_class='ovo': each pair of classes on their own samples, "
              "insensitive to how many samples each class has."), "one vs one"),
)

_TREC = "trec_eval 10.0, https://github.com/usnistgov/trec_eval"
_SKLEARN = "scikit-learn 1.9, sklearn/metrics/_ranking.py, https://scikit-learn.org/stable/api/sklearn.metrics.html"
_IRM = "ir_measures 0.4.3, https://ir-measur.es"
_RANX = "ranx 0.3.21, https://amenra.github.io/ranx/metrics/"
_TRECTOOLS = "trectools 0.0.50, trectools/trec_eval.py, https://github.com/joaopalotti/trectools"
_TORCHMETRICS = ("torchmetrics 1.9.0, torchmetrics/retrieval/ and functional/retrieval/, "
                 "https://lightning.ai/docs/torchmetrics")
_RECBOLE = "RecBole 1.2, recbole/evaluator/metrics.py, https://recbole.io/docs/recbole/recbole.evaluator.metrics.html"
_SPARK = ("Apache Spark 4.3 MLlib RankingMetrics (pyspark 4.3.0), "
          "mllib/src/main/scala/org/apache/spark/mllib/evaluation/RankingMetrics.scala, "
          "https://spark.apache.org/docs/latest/mllib-evaluation-metrics.html#ranking-systems")
_TFR = "TensorFlow Ranking 0.5, tensorflow_ranking/python/metrics_impl.py, https://www.tensorflow.org/ranking"
_ES = ("Elasticsearch 8 ranking evaluation API, "
       "https://www.elastic.co/guide/en/elasticsearch/reference/current/search-rank-eval.html")
_TORCHREC = "TorchRec 1.0, torchrec/metrics/ndcg.py, https://pytorch.org/torchrec/"
_TORCHREC_GAUC = "TorchRec, torchrec/metrics/gauc.py (compute_gauc_3d), https://github.com/pytorch/torchrec"
_KAGGLE = "Kaggle / ml_metrics apk and mapk, https://github.com/benhamner/Metrics"
_SCIPY = "scipy 1.17, scipy.stats.kendalltau and weightedtau, https://docs.scipy.org/doc/scipy/reference/stats.html"

#: Every convention's default: trec_eval's choice.
DEFAULTS = {p.name: p.default for p in (TIES, IDEAL_FROM, GAINS, LOG_BASE, AP_DENOMINATOR, RECALL, PRECISION,
                                        THRESHOLD, NO_RELEVANT, MISSING_QUERY)}
# AP_DENOMINATOR's keyword is "denominator" (the homework checker's); here it is the convention "ap_denominator".
DEFAULTS["ap_denominator"] = DEFAULTS.pop(AP_DENOMINATOR.name)
DEFAULTS[KENDALL.name] = KENDALL.default
DEFAULTS[FALLOUT.name] = FALLOUT.default
DEFAULTS.update({p.name: p.default for p in (FALLOUT_EMPTY, NONPOSITIVE)})
DEFAULTS[BPREF.name] = BPREF.default
DEFAULTS[ITEM_WEIGHTS.name] = ITEM_WEIGHTS.default
DEFAULTS.update({p.name: p.default for p in (PARTIAL_AUC, MULTICLASS_AUC)})
DEFAULTS.update({p.name: p.default for p in (GAUC_WEIGHTS, GAUC_CONSTANT, GAUC_EMPTY, IMPRESSION_WEIGHTS)})

_ALL = MEASURE_FAMILIES
_BINARY = ("AP", "P", "R", "RR", "Success")

CONVENTIONS = {c.id: c for c in (
    Convention("ties", N_("tie order"), TIES, N_(
        "Runs often give equal scores. trec_eval ignores the rank column and orders a tie by docno, descending; "
        "most libraries keep the order they were given (a stable sort by score); scikit-learn treats a tie as a "
        "group whose documents share the group's gain and precision. Every measure that reads ranks can change."),
        _ALL, (ToolUse("trec_eval", "docno_desc", "sort by sim, then docno (descending)", _TREC),
               ToolUse("ir_measures", "docno_asc", "msmarco provider: sorted(key=(-score, docid)) for RR@k", _IRM),
               ToolUse("ranx", "quicksort", "numba's np.argsort of -score, in Run() and make_comparable", _RANX),
               ToolUse("trectools", "input_order", "get_ndcg keeps the run's row order", _TRECTOOLS),
               ToolUse("sklearn", "tie_groups", "ignore_ties=False (ndcg_score); thresholds (average_precision_score)",
                       _SKLEARN),
               ToolUse("torchmetrics", "input_order", "topk/argsort on preds, ties in an order torch leaves "
                       "unspecified (nDCG: sklearn's tie averaging)", _TORCHMETRICS),
               ToolUse("tensorflow_ranking", "random", "sort_by_scores(shuffle_ties=True)", _TFR)),
        example="ties"),
    Convention("ideal_from", N_("IDCG and R from the run"), IDEAL_FROM, N_(
        "trec_eval builds the ideal ranking and counts R from every judged document of the query; libraries that "
        "take one label per scored item (scikit-learn, torchmetrics, TF-Ranking) only know the documents of the "
        "list, so a relevant document the run never retrieved does not lower their nDCG, AP or recall."),
        ("nDCG", "AP", "R"),
        (ToolUse("trec_eval", "judgments", "qrels", _TREC),
         ToolUse("sklearn", "run", "y_true of the scored items", _SKLEARN),
         ToolUse("torchmetrics", "run", "target of the scored items", _TORCHMETRICS),
         ToolUse("tensorflow_ranking", "run", "labels of the list", _TFR)),
        example="graded"),
    Convention("gain", N_("gain 2^g − 1 vs g"), GAINS, N_(
        "DCG weighs a document of grade g by g (trec_eval, scikit-learn, ranx's ndcg) or by 2^g − 1 (Burges et al. "
        "2005: ranx's ndcg_burges, TF-Ranking, Elasticsearch); recommender libraries use 1 for relevant. With "
        "binary judgments all agree."),
        ("nDCG", "DCG"),
        (ToolUse("trec_eval", "linear", "ndcg (gain = grade)", _TREC),
         ToolUse("ranx", "exponential", "ndcg_burges", _RANX),
         ToolUse("tensorflow_ranking", "exponential", "gain_fn=2^label − 1", _TFR),
         ToolUse("elasticsearch", "exponential", "dcg: 2^rating − 1", _ES),
         ToolUse("recbole", "binary", "NDCG (positive items)", _RECBOLE),
         ToolUse("spark", "binary", "ndcgAt over (predicted, labels) rows (all pyspark passes)", _SPARK),
         ToolUse("spark", "exponential", "Scala ndcgAt over (predicted, labels, relevance) rows, labels by grade", _SPARK)),
        example="graded"),
    Convention("log_base", N_("discount log base"), LOG_BASE, N_(
        "The discount at rank i is 1/log_b(i + 1). Base 2 is everyone's default; scikit-learn's dcg_score takes "
        "log_base. nDCG does not depend on b (it cancels in DCG/IDCG); DCG does."),
        ("DCG",), (ToolUse("sklearn", 2, "dcg_score(log_base=2)", _SKLEARN), ToolUse("ranx", 2, "dcg", _RANX)),
        example="graded"),
    Convention("ap_denominator", N_("MAP@k over R or min(R, k)"), AP_DENOMINATOR, N_(
        "AP@k sums the precision at each relevant rank of the top k. trec_eval's map_cut divides by R, so a "
        "perfect top k scores below 1 when R > k; RecBole, Spark's meanAveragePrecisionAt and Kaggle's apk divide "
        "by min(R, k); torchmetrics by the relevant documents found in the top k."),
        ("AP",),
        (ToolUse("trec_eval", "R", "map_cut.k", _TREC),
         ToolUse("recbole", "min_r_k", "MAP@k", _RECBOLE),
         ToolUse("spark", "min_r_k", "meanAveragePrecisionAt(k)", _SPARK),
         ToolUse("kaggle", "min_r_k", "apk / mapk", _KAGGLE),
         ToolUse("torchmetrics", "retrieved", "RetrievalMAP(top_k)", _TORCHMETRICS)),
        example="precision_recall"),
    Convention("recall", N_("recall@k vs hit rate"), RECALL, N_(
        "Recall@k divides the relevant documents of the top k by R. Hit rate (success@k) is 1 when the top k holds "
        "any relevant document: the two agree only when R = 1, which is why recommender papers with one held-out "
        "item call hit rate 'recall'. BEIR's R_cap divides by min(R, k)."),
        ("R",),
        (ToolUse("trec_eval", "recall", "recall.k", _TREC),
         ToolUse("trec_eval", "hit_rate", "success.k", _TREC),
         ToolUse("recbole", "hit_rate", "Hit@k", _RECBOLE),
         ToolUse("torchmetrics", "hit_rate", "RetrievalHitRate", _TORCHMETRICS),
         ToolUse("beir", "capped", "R_cap@k", "BEIR, https://github.com/beir-cellar/beir")),
        example="precision_recall"),
    Convention("precision_denominator", N_("P@k over k or over the list"), PRECISION, N_(
        "When a query retrieves fewer than k documents, trec_eval still divides by k; Elasticsearch divides by the "
        "hits returned."),
        ("P",),
        (ToolUse("trec_eval", "k", "P.k", _TREC),
         ToolUse("elasticsearch", "retrieved", "precision (over the hits)", _ES),
         ToolUse("torchmetrics", "retrieved", "RetrievalPrecision(adaptive_k=True)", _TORCHMETRICS),
         ToolUse("tensorflow_ranking", "retrieved", "PrecisionMetric(topn): ÷ min(topn, list size)", _TFR)),
        example="precision_recall"),
    Convention("fallout_denominator", N_("fall-out's non-relevant documents"), FALLOUT, N_(
        "Fall-out@k (the false-positive rate of the top k) divides the non-relevant documents retrieved by all the "
        "non-relevant ones: those judged (a test collection) or those of the list (torchmetrics, which knows only "
        "the scored items, an unjudged one counting as non-relevant)."),
        ("Fallout",),
        (ToolUse("torchmetrics", "run", "RetrievalFallOut(top_k)", _TORCHMETRICS),
         ToolUse("rankviz", "judged", "Fallout@k (tool profiles)", "Manning et al., IIR ch. 8 (2008)")),
        example="precision_recall"),
    Convention("fallout_empty", N_("fall-out with no non-relevant document"), FALLOUT_EMPTY, N_(
        "Fall-out divides by the non-relevant documents; a query without any (every document of the list "
        "relevant) has nothing to fall out: rankviz gives 0, torchmetrics' RetrievalFallOut 1 (its functional "
        "retrieval_fall_out gives 0)."),
        ("Fallout",),
        (ToolUse("torchmetrics", "one", "RetrievalFallOut(empty_target_action='pos')", _TORCHMETRICS),
         ToolUse("rankviz", "zero", "Fallout@k (tool profiles)", "rankviz.metrics.kernels.conventions.fallout_value")),
        example="precision_recall"),
    Convention("nonpositive_scores", N_("scores of 0 or below"), NONPOSITIVE, N_(
        "A run's scores usually only rank its documents, and scores below 0 are common (log-probabilities, dot "
        "products). torchmetrics' AP, precision, recall and reciprocal rank take a score of 0 or below as 'not "
        "retrieved': a relevant document scored so is no hit, so shifting every score below 0 lowers them. Its hit "
        "rate, fall-out and nDCG read the ranking only."),
        _BINARY,
        (ToolUse("trec_eval", "rank", "sort by sim", _TREC),
         ToolUse("torchmetrics", "no_hit", "torch.where(preds > 0, target, 0): RetrievalMAP, RetrievalPrecision, "
                 "RetrievalRecall, RetrievalMRR", _TORCHMETRICS)),
        example="one_ranking"),
    Convention("bpref_denominator", N_("bpref over min(R, N) or R"), BPREF, N_(
        "bpref counts, for each relevant document retrieved, the judged non-relevant documents ranked above it, "
        "divided by min(R, N) in trec_eval and by R in Buckley & Voorhees' first formula (TF-Ranking's "
        "use_trec_version=False): they differ when a query has fewer judged non-relevant documents than relevant ones."),
        ("Bpref",),
        (ToolUse("trec_eval", "min_r_n", "bpref", _TREC),
         ToolUse("tensorflow_ranking", "R", "BPrefMetric(use_trec_version=False)", _TFR)),
        example="many_queries"),
    Convention("rel_threshold", N_("relevance level"), THRESHOLD, N_(
        "Binary measures count a document as relevant from a grade on: 1 by default (trec_eval -l 1), 2 for "
        "MS MARCO / TREC DL passages (trec_eval -l 2, ir_measures AP(rel=2)); nDCG uses the grades themselves."),
        _BINARY,
        (ToolUse("trec_eval", 1, "-l 1", _TREC), ToolUse("ir_measures", 1, "rel=1", _IRM),
         ToolUse("elasticsearch", 1, "relevant_rating_threshold", _ES)),
        example="precision_recall"),
    Convention("no_relevant", N_("queries with no relevant documents"), NO_RELEVANT, N_(
        "A query whose judgments hold no relevant document (or, with IDCG from the run, whose list holds none) "
        "scores 0 in trec_eval and counts in the mean; some tools leave it out (RecBole, trectools' "
        "AP and nDCG) and scikit-learn's label_ranking_average_precision_score gives it 1."),
        _ALL,
        (ToolUse("trec_eval", "zero", "num_rel = 0", _TREC),
         ToolUse("trectools", "skip", "get_map: NaN", _TRECTOOLS),
         ToolUse("trectools", "none_retrieved", "get_ndcg: NaN when the top k has no relevant document", _TRECTOOLS),
         ToolUse("recbole", "skip", "users without positives are not evaluated", _RECBOLE),
         ToolUse("spark", "zero", "empty ground truth set: 0 and a log warning", _SPARK),
         ToolUse("sklearn", "one", "label_ranking_average_precision_score", _SKLEARN)),
        example="one_ranking"),
    Convention("missing_query", N_("queries missing from the run"), MISSING_QUERY, N_(
        "A judged query the run did not answer is left out by trec_eval (the mean is over the run's queries) and "
        "scored 0 by trec_eval -c, ir_measures and ranx (make_comparable), which lowers the mean."),
        _ALL,
        (ToolUse("trec_eval", "skip", "default", _TREC), ToolUse("trec_eval", "zero", "-c", _TREC),
         ToolUse("ir_measures", "zero", "iter_calc", _IRM), ToolUse("ranx", "zero", "make_comparable=True", _RANX)),
        example="many_queries"),
    Convention("kendall", N_("Kendall's tau variant"), KENDALL, N_(
        "Two rankings of the same items (two systems' scores, a system against the judgments) are compared by "
        "Kendall's tau, and the variants differ as soon as there are ties or the top matters more: tau-b (scipy's, "
        "pandas' and R's default) corrects for ties, tau-a does not, tau-c (Stuart) suits tables of few grades "
        "against many scores, and weighted tau (Vigna) counts swaps near the top more."),
        ("Kendall",),
        (ToolUse("scipy", "b", "kendalltau (default variant='b')", _SCIPY),
         ToolUse("pandas", "b", "DataFrame.corr(method='kendall')", "pandas, https://pandas.pydata.org"),
         ToolUse("scipy", "c", "kendalltau(variant='c')", _SCIPY),
         ToolUse("scipy", "weighted", "weightedtau (hyperbolic weigher, additive)", _SCIPY),
         ToolUse("R DescTools", "c", "StuartTauC", "DescTools, https://andrisignorell.github.io/DescTools/")),
        example="correlation"),
    Convention("gauc_weights", N_("GAUC group weights"), GAUC_WEIGHTS, N_(
        "GAUC averages the AUC of each group (user, session); Zhou et al. weigh a group by its impressions, "
        "others by its clicks or equally: torchrec's GAUCMetric takes the plain mean over sessions."),
        ("GAUC",),
        (ToolUse("rankviz", "size", "gauc(weights='size')", "Zhou et al., 'Deep Interest Network', KDD (2018)"),
         ToolUse("torchrec", "uniform", "GAUCMetric: auc_sum / num_samples (sessions)", _TORCHREC_GAUC)),
        example="user_measures"),
    Convention("gauc_constant", N_("GAUC groups with constant predictions"), GAUC_CONSTANT, N_(
        "A group whose predictions are all equal has only tied pairs: its AUC is 0.5 if it counts; torchrec leaves "
        "such sessions out, which raises GAUC for a model that cannot rank within them."),
        ("GAUC",),
        (ToolUse("rankviz", "keep", "gauc", "rankviz.metrics.gauc"),
         ToolUse("torchrec", "drop", "identical_prediction_mask", _TORCHREC_GAUC)),
        example="user_measures"),
    Convention("gauc_empty", N_("GAUC with no group to count"), GAUC_EMPTY, N_(
        "When no group has both a click and a non-click, GAUC has nothing to average: rankviz says NaN, torchrec "
        "reports 0.5."),
        ("GAUC",),
        (ToolUse("rankviz", "nan", "gauc: NaN and a RuntimeWarning", "rankviz.metrics.gauc"),
         ToolUse("torchrec", "half", "compute_window_auc: (auc + 1e-9) / (num_samples + 2e-9)", _TORCHREC_GAUC)),
        example="user_measures"),
    Convention("impression_weights", N_("per-impression weights"), IMPRESSION_WEIGHTS, N_(
        "A row may carry a weight (an impression shown several times, a sampling correction): scikit-learn's AUC "
        "weighs each pair by the product of its weights; torchrec's GAUC ignores them."),
        ("AUC", "GAUC"),
        (ToolUse("sklearn", "used", "roc_auc_score(sample_weight=)", _SKLEARN),
         ToolUse("torchrec", "ignored", "GAUCMetric.update(weights=...) unused", _TORCHREC_GAUC)),
        example="user_measures"),
    Convention("item_weights", N_("per-document weights"), ITEM_WEIGHTS, N_(
        "A ranked list may carry a weight per document (a position-bias correction, an importance): TF-Ranking's "
        "nDCG multiplies each gain by its weight and sorts the ideal ranking by weighted gain; trec_eval and the "
        "other tools have no such column."),
        ("nDCG", "DCG"),
        (ToolUse("trec_eval", "ignored", "no weight column", _TREC),
         ToolUse("tensorflow_ranking", "gains", "NDCGMetric weights=", _TFR))),  # no worked example yet
    Convention("partial_auc", N_("partial AUC standardization"), PARTIAL_AUC, N_(
        "The AUC up to a false-positive rate m (the left of the ROC curve, where a ranking is used) is a raw area "
        "of at most m, or, as scikit-learn reports it, McClish's rescaling to [0.5, 1]: the same model gives two "
        "very different numbers."),
        ("AUC",),
        (ToolUse("sklearn", "mcclish", "roc_auc_score(max_fpr=)", _SKLEARN),
         ToolUse("pROC", "raw", "auc(partial.auc=, partial.auc.correct=FALSE)", "pROC (R), https://xrobin.github.io/pROC/")),
        example="user_measures"),
    Convention("multiclass_auc", N_("multiclass AUC averaging"), MULTICLASS_AUC, N_(
        "With more than two classes, AUC is averaged over one-against-the-rest problems (scikit-learn's 'ovr') or "
        "over pairs of classes (Hand & Till's 'ovo'); they differ when the classes are unbalanced."),
        ("AUC",),
        (ToolUse("sklearn", "ovr", "roc_auc_score(multi_class='ovr')", _SKLEARN),
         ToolUse("sklearn", "ovo", "roc_auc_score(multi_class='ovo')", _SKLEARN)),
        example="user_measures"),
)}


def _m(family, name, no_cutoff=None, cutoff=True):
    return ToolMeasure(family, name, no_cutoff, cutoff)


PROFILES = {p.name: p for p in (
    ToolProfile("trec_eval", "trec_eval", "10.0", _TREC,
                (_m("nDCG", "ndcg_cut.{k}", "ndcg"), _m("AP", "map_cut.{k}", "map"), _m("P", "P.{k}"),
                 _m("R", "recall.{k}"), _m("RR", "recip_rank", cutoff=False), _m("Success", "success.{k}"),
                 _m("Bpref", "bpref", cutoff=False)),
                checked=True, notes=N_("rankviz.evaluate is trec_eval, digit for digit (without -c).")),
    ToolProfile("pytrec_eval", "pytrec_eval", "0.5 (pytrec-eval-terrier)", "https://github.com/cvangysel/pytrec_eval",
                (_m("nDCG", "ndcg_cut_{k}", "ndcg"), _m("AP", "map_cut_{k}", "map"), _m("P", "P_{k}"),
                 _m("R", "recall_{k}"), _m("RR", "recip_rank", cutoff=False), _m("Success", "success_{k}"),
                 _m("Bpref", "bpref", cutoff=False)),
                checked=True, notes=N_("trec_eval inside Python: the queries of the run only.")),
    ToolProfile("ir_measures", "ir_measures", "0.4.3", _IRM,
                (_m("nDCG", "nDCG@{k}", "nDCG"), _m("AP", "AP@{k}", "AP"), _m("P", "P@{k}"), _m("R", "R@{k}"),
                 _m("RR", "RR@{k}", "RR"), _m("Success", "Success@{k}"), _m("Accuracy", "Accuracy@{k}", "Accuracy")),
                settings={"missing_query": "zero"},
                # RR@k comes from the msmarco provider, Accuracy from its own (a stable sort, run queries only)
                per_measure=(("RR@k", {"ties": "docno_asc"}),
                             ("Accuracy", {"ties": "input_order", "missing_query": "skip",
                                           "no_relevant": "none_retrieved"})),
                checked=True, notes=N_("pytrec_eval for most measures, its msmarco provider for RR@k; judged queries "
                                       "missing from the run score 0.")),
    ToolProfile("ranx", "ranx", "0.3.21", _RANX,
                (_m("nDCG", "ndcg@{k}", "ndcg"), _m("AP", "map@{k}", "map"), _m("P", "precision@{k}"),
                 _m("R", "recall@{k}"), _m("RR", "mrr@{k}", "mrr"), _m("Success", "hit_rate@{k}"),
                 _m("DCG", "dcg", cutoff=False)),
                settings={"ties": "quicksort", "missing_query": "zero"},
                checked=True, notes=N_("evaluate(make_comparable=True); ties as numba's argsort (a quicksort) leaves "
                                       "them: the input order for lists of up to 15 documents, the sort's own order "
                                       "beyond, reproduced.")),
    ToolProfile("trectools", "trectools", "0.0.50", _TRECTOOLS,
                (_m("nDCG", "get_ndcg(depth={k})", "get_ndcg()"), _m("AP", "get_map(depth={k})", "get_map()"),
                 _m("P", "get_precision(depth={k})")),
                per_measure=(("nDCG", {"ties": "input_order", "no_relevant": "none_retrieved"}),
                             ("AP", {"no_relevant": "skip"})),
                checked=True, notes=N_("TrecEval(run, qrels), per_query=True; get_ndcg takes the run's row order as "
                                       "the ranking (its trec_eval=True only chooses the gain).")),
    ToolProfile("sklearn", "scikit-learn", "1.9", _SKLEARN,
                (_m("nDCG", "ndcg_score(k={k})", "ndcg_score"), _m("AP", "average_precision_score", cutoff=False),
                 _m("DCG", "dcg_score", cutoff=False), _m("AUC", "roc_auc_score(sample_weight=)", cutoff=False)),
                settings={"ties": "tie_groups", "ideal_from": "run"},
                checked=True, notes=N_("One query's scored documents as a sample: y_true their grades (0 if "
                                       "unjudged), y_score the run's scores.")),
    ToolProfile("torchmetrics", "torchmetrics", "1.9.0", _TORCHMETRICS,
                (_m("nDCG", "RetrievalNormalizedDCG(top_k={k})", "RetrievalNormalizedDCG()"),
                 _m("AP", "RetrievalMAP(top_k={k})", "RetrievalMAP()"), _m("P", "RetrievalPrecision(top_k={k})"),
                 _m("R", "RetrievalRecall(top_k={k})", "RetrievalRecall()"),
                 _m("RR", "RetrievalMRR(top_k={k})", "RetrievalMRR()"), _m("Success", "RetrievalHitRate(top_k={k})"),
                 _m("Fallout", "RetrievalFallOut(top_k={k})", "RetrievalFallOut()")),
                settings={"ties": "input_order", "ideal_from": "run", "ap_denominator": "retrieved",
                          "fallout_denominator": "run", "fallout_empty": "one", "nonpositive_scores": "no_hit"},
                per_measure=(("nDCG", {"ties": "tie_groups"}), ("Success", {"nonpositive_scores": "rank"})),
                checked=True, notes=N_(
                    "The Retrieval* classes with their defaults, fed each query's scored documents (preds: the "
                    "scores; target: the grade for nDCG, 1 if relevant for the others, 0 if unjudged), in float32. "
                    "nDCG averages tied scores; the other measures order ties as torch.topk and an unstable sort of "
                    "the query indexes leave them, an order torch does not specify: this profile keeps the order "
                    "given.")),
    ToolProfile("recbole", "RecBole", "1.2.1", _RECBOLE,
                (_m("nDCG", "NDCG@{k}"), _m("AP", "MAP@{k}"), _m("P", "Precision@{k}"), _m("R", "Recall@{k}"),
                 _m("RR", "MRR@{k}"), _m("Success", "Hit@{k}")),
                settings={"ties": "input_order", "gain": "binary", "ap_denominator": "min_r_k", "no_relevant": "skip"},
                checked=True,
                notes=N_("Its top-k metrics (recbole.evaluator.metrics) on each user's top-k hits and number of "
                         "positives: binary relevance, MAP@k over min(R, k), users without positives not evaluated; "
                         "ties as torch.topk leaves them, unspecified (checked on distinct scores).")),
    ToolProfile("spark", "Spark MLlib", "4.3", _SPARK,
                (_m("nDCG", "ndcgAt({k})"), _m("AP", "meanAveragePrecisionAt({k})", "meanAveragePrecision"),
                 _m("P", "precisionAt({k})"), _m("R", "recallAt({k})")),
                settings={"ties": "input_order", "gain": "binary", "ap_denominator": "min_r_k"},
                checked=True, notes=N_("RankingMetrics with one row per judged query of the run: its documents "
                                       "best first (ties in the run's order), the judged documents of grade ≥ 1 "
                                       "as the ground truth set (an empty set scores 0). pyspark passes Spark no "
                                       "relevance values, so nDCG is binary; Scala's ndcgAt over (predicted, "
                                       "labels, relevance) rows weighs 2^g − 1 and takes the labels in the order "
                                       "given as the ideal ranking.")),
    ToolProfile("tensorflow_ranking", "TensorFlow Ranking", "0.5.5", _TFR,
                (_m("nDCG", "NDCGMetric(topn={k})", "NDCGMetric()"),
                 _m("AP", "MeanAveragePrecisionMetric(topn={k})", "MeanAveragePrecisionMetric()"),
                 _m("P", "PrecisionMetric(topn={k})"), _m("R", "RecallMetric(topn={k})", "RecallMetric()"),
                 _m("RR", "MRRMetric(topn={k})", "MRRMetric()"), _m("Success", "HitsMetric(topn={k})"),
                 _m("Bpref", "BPrefMetric(topn={k}, use_trec_version=False)", "BPrefMetric(use_trec_version=False)")),
                settings={"ties": "random", "ideal_from": "run", "gain": "exponential",
                          "precision_denominator": "retrieved", "item_weights": "gains", "bpref_denominator": "R"},
                checked=True,
                notes=N_("metrics_impl's metrics on one list per query: the labels of the listed documents (0 where "
                         "unjudged), 2^label − 1, precision over min(topn, list size); a list without a relevant "
                         "label scores 0 and weighs 1 in the mean; tied scores shuffled at random at every call (the "
                         "differential test uses lists without ties); a weight column of the run weighs nDCG's gains.")),
    ToolProfile("elasticsearch", "Elasticsearch", "8", _ES,
                (_m("nDCG", "dcg(k={k}, normalize=true)"), _m("P", "precision(k={k})"), _m("R", "recall(k={k})"),
                 _m("RR", "mean_reciprocal_rank(k={k})")),
                settings={"ties": "input_order", "gain": "exponential", "precision_denominator": "retrieved"},
                notes=N_("From the documentation: the hits in the engine's order, ratings as judgments.")),
    ToolProfile("torchrec", "TorchRec", "1.0", _TORCHREC,
                (_m("nDCG", "NDCGMetric(k={k})"), _m("GAUC", "GAUCMetric", cutoff=False)),
                settings={"ties": "input_order", "ideal_from": "run"},
                per_measure=(("GAUC", {"gauc_weights": "uniform", "gauc_constant": "drop", "gauc_empty": "half",
                                       "impression_weights": "ignored"}),),
                notes=N_("From the source (needs torch): one session's labels give the ideal ranking; GAUC is the "
                         "plain mean over sessions with both classes and varied predictions, 0.5 when none.")),
)}

#: The profile names, what ``evaluate(..., as_tool=)`` and ``disagreement(a=, b=)`` accept.
TOOLS = tuple(PROFILES)

#: The words of :func:`rankviz.evaluation.tools.disagreement_summary` (translated where shown).
SUMMARY_WORDS = {
    "differ": N_("{n} of {total} queries differ"),
    "none": N_("no query differs: both give the same {measure} for all {total} queries"),
    "reason": N_("{title} {n}"),
    "together": N_("several conventions together {n}"),
    "line": N_("{head}: {reasons}"),
    "separator": N_(", "),
}


def _cell(text: str) -> str:
    """Text for a Markdown table cell: a | of a formula would end the cell."""
    return text.replace("|", r"\|")


def conventions_markdown() -> str:
    """docs/conventions.md: every convention with its choices and tools, then every profile (generated; a test
    keeps the file equal to this)."""
    lines = ["# Why do the tools disagree? Conventions and tool profiles", "",
             "Generated from `rankviz/conventions.py` by `python -m rankviz.conventions > docs/conventions.md`; "
             "do not edit by hand.", "",
             "`rankviz.evaluate(qrels, run, measures, as_tool=NAME)` gives a tool's number per query; "
             "`rankviz.disagreement(qrels, run, measure, a=, b=)` names the conventions behind each difference "
             "(`rankviz why QRELS RUN -m nDCG@10 --a trec_eval --b sklearn` on the command line). Each convention "
             "below is a setting a profile makes; the default is trec_eval's.", "", "## Conventions", ""]
    for c in CONVENTIONS.values():
        lines += [f"### `{c.id}`: {c.title}", "", c.description, "",
                  f"Measures: {', '.join(c.measures)}. Default: `{c.default}`.", ""]
        if c.param.choices:
            lines += ["| choice | meaning | formula |", "|---|---|---|"]
            lines += [f"| `{ch.value}` | {ch.label}: {ch.description} | ${_cell(ch.formula)}$ |" for ch in c.param.choices]
            lines.append("")
        else:
            lines += [f"Any {c.param.kind}: {c.param.description}", ""]
        if c.tools:
            lines += ["| tool | choice | the tool's name | reference |", "|---|---|---|---|"]
            lines += [f"| {u.tool} | `{u.choice}` | {u.name} | {u.reference} |" for u in c.tools]
            lines.append("")
    lines += ["## Tool profiles", "",
              "Each profile's choices where they differ from trec_eval's, and its names of the measures "
              "(`{k}` is the cutoff). *Checked* profiles are compared query by query with the tool itself in "
              "`tests/test_tool_profiles.py` (torchmetrics in `tests/test_tool_profiles_torch.py`, Spark's in "
              "`tests/test_tool_profiles_spark.py`, TF-Ranking's in `tests/test_tool_profiles_tf_ranking.py`, "
              "RecBole's in `tests/test_tool_profiles_recbole.py`).", ""]
    for p in PROFILES.values():
        checked = "checked against the tool" if p.checked else "from the tool's source and documentation"
        lines += [f"### `{p.name}`: {p.title} {p.version} ({checked})", "", p.notes, "", f"Reference: {p.reference}", ""]
        own = ", ".join(f"`{k}` = `{v}`" for k, v in p.settings.items()) or "none (trec_eval's)"
        lines.append(f"Settings: {own}.")
        for family, overrides in p.per_measure:
            lines.append(f"For {family.replace('@k', ' with a cutoff')} only: " + ", ".join(f"`{k}` = `{v}`" for k, v in overrides.items()) + ".")
        lines += ["", "| rankviz | the tool's name | whole list |", "|---|---|---|"]
        lines += [f"| {m.family}@k | `{m.name}` | `{m.tool_name(None) or '-'}` |" for m in p.measures]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - python -m rankviz.conventions > docs/conventions.md
    import sys

    sys.stdout.write(conventions_markdown())
