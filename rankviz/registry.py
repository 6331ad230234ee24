"""One ``MetricSpec`` per metric: the single source the app, the parser, the CLI, the docs and the tests read.

A spec names the metric, its formula in LaTeX, its parameters (with choices, defaults and
meanings), its value range and a reference. Where the metric has them, it also names

* the per-query function and its worked-table twin (``rankviz.metrics.ndcg``, ``ndcg_breakdown``);
* the batch kernel :func:`rankviz.evaluate` runs over every query at once
  (``rankviz.metrics.kernels.graded.ndcg``);
* its names in measure strings: the canonical ir_measures-style name (``nDCG``), other
  spellings, trec_eval's names without and with a cutoff (``ndcg``, ``ndcg_cut``) and default
  cutoffs, the kind of cutoff it takes, how ``evaluate`` aggregates it over queries, and
  trec_eval's named sets and printing order.

Metrics with only a per-query form (Spearman's rho, AUC, coverage...) and measures with only a
batch form (num_ret, bpref, infAP, relstring...) are entries too. Adding a measure is one entry
here plus its kernel: :mod:`rankviz.evaluation.measures` derives the parser from these entries,
and ``evaluate`` finds the kernel through them.

Functions and kernels are named by module path and looked up on first use, so importing the
registry imports nothing else of rankviz but :mod:`rankviz.i18n` (a leaf), and no numpy or pandas.

The words a person reads (choice labels and descriptions, parameter help, metric names and
descriptions) are written in English in the source, marked for the ``words`` catalogue, and
translated when read (``choice.label``, ``param.description``, ``spec.pretty_name``) in the
language in force; ``source_*`` attributes keep the English (the CLI and the docs use it).

>>> spec = get_spec("ndcg")
>>> spec.pretty_name, spec.measure, spec.trec, spec.trec_cut
('nDCG@k', 'nDCG', 'ndcg', 'ndcg_cut')
>>> round(spec.function([3, 2, 3, 0, 1, 2], gain="exponential"), 3)
0.949
>>> spec.kernel.__module__, spec.kernel.__name__
('rankviz.metrics.kernels.graded', 'ndcg')
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field

from rankviz.i18n import N_, _

__all__ = [
    "Choice",
    "Param",
    "Cut",
    "MetricSpec",
    "GAIN",
    "DISCOUNT",
    "ROUNDING",
    "KENDALL_VARIANT",
    "GAUC_WEIGHT",
    "ELEVEN_LEVELS",
    "AP_DENOMINATOR",
    "SPEARMAN_TIES",
    "SHEET_CONVENTIONS",
    "METRICS",
    "TREC_PRINT_ORDER",
    "EVALUATE_SOURCES",
    "get_spec",
    "specs_for",
    "named_sets",
    "ranking_metric_table",
    "metrics_markdown",
]


@dataclass(frozen=True)
class Choice:
    r"""One allowed value of a :class:`Param`, with the words and the formula a reader sees for it.

    Every page, worked exercise, caption and document that names a choice reads it here, so a
    choice is spelled once (and, later, translated once).

    Attributes
    ----------
    value : object
        What the functions take (``"exponential"``).
    label : str
        The choice in a few words, as a sentence, a caption or a table names it
        (``"exponential gain 2^g − 1"``).
    formula : str
        Its formula in LaTeX (``2^{g} - 1``).
    description : str
        One line: what it means and who uses it.
    text : str
        The formula in plain text, for widget captions and text tables (``"2^g − 1"``).
    aliases : tuple of str
        Other spellings accepted for the value (``"exp"`` in measure names); see
        :meth:`Param.canonical`.

    Examples
    --------
    >>> GAIN.choice("exponential").formula, GAIN.choice("exponential").text
    ('2^{g} - 1', '2^g − 1')
    """

    value: object
    source_label: str
    formula: str
    source_description: str
    source_text: str = ""
    aliases: tuple = ()

    # The English source is kept (the CLI, the docs and the architecture tests read it); what a
    # page reads is translated when read, in the language in force (rankviz.i18n.use).
    @property
    def label(self) -> str:
        """:attr:`source_label` in the language in force."""
        return _(self.source_label)

    @property
    def description(self) -> str:
        """:attr:`source_description` in the language in force."""
        return _(self.source_description)

    @property
    def text(self) -> str:
        """:attr:`source_text` in the language in force (a formula's text stays as it is)."""
        return _(self.source_text) if self.source_text else ""


@dataclass(frozen=True)
class Param:
    """A parameter of a metric: its keyword, default, allowed values and meaning.

    One ``Param`` serves the per-query function and the measure names where they share the
    parameter: ``rel_threshold`` of the functions is ``rel`` in ``"P(rel=2)@10"``, and nDCG's
    ``gain`` is one parameter in both.

    Attributes
    ----------
    name : str
        The keyword of the per-query function (for a parameter only measures have, its
        keyword in measure names).
    default, description, kind
        Default value, meaning and the kind of value: ``"int"``, ``"float"``, ``"bool"``,
        ``"choice"``, ``"grades"`` (a list of grades), ``"levels"`` (a list of recall levels or
        of tie levels), ``"labels"`` (names of items).
    choices : tuple of Choice
        The allowed values with their labels and formulas (empty: any value of ``kind``);
        :attr:`values`, :meth:`choice`, :meth:`label` read them.
    measure_key : str or None
        The keyword in measure names (``"rel"``, ``"gain"``); None: not settable there.
    measure_kind : str or None
        How the measure parser reads it, when it differs from ``kind``: ``"grade"`` (an
        integer grade >= 0), ``"gain"`` (a choice, or trec_eval's map of gains per grade).
    per_query : bool
        Whether the per-query function has this keyword (utility's ``a``, ``b``, ``c``, ``d``
        are measure-only).
    evaluate : str or None
        Where :func:`rankviz.evaluate` takes this value from when the measure name does not
        give it, and so what the per-query function must be given to compute the same number:
        a key of :data:`EVALUATE_SOURCES` (``"cutoff"``, ``"judged"``, ``"rel_threshold"``...).
        A measure parameter with such a source overrides evaluate's value, so it is kept in
        the measure even at its default (``P(rel=1)@10`` is not ``P@10``).

    Examples
    --------
    nDCG's parameters and the defaults the app starts from: the whole list, the ideal from the
    list itself, linear gain and the log2(i + 1) discount (trec_eval's nDCG).

    >>> [(p.name, p.default) for p in get_spec("ndcg").params]
    [('k', None), ('judged', None), ('gain', 'linear'), ('discount', 'log2'), ('log_base', 2)]
    >>> gain = get_spec("ndcg").param("gain")
    >>> gain.values, gain.measure_key, gain.label("exponential")
    (('linear', 'exponential'), 'gain', 'exponential gain 2^g − 1')
    """

    name: str
    default: object
    source_description: str
    choices: tuple[Choice, ...] = ()
    kind: str = "choice"
    measure_key: str | None = None
    measure_kind: str | None = None
    per_query: bool = True
    evaluate: str | None = None

    @property
    def description(self) -> str:
        """:attr:`source_description` (English) in the language in force."""
        return _(self.source_description)

    def __post_init__(self):
        if not all(isinstance(c, Choice) for c in self.choices):
            raise TypeError(f"The choices of parameter {self.name!r} must be Choice objects (value, label, formula, "
                            f"description). Got {self.choices!r} instead.")
        if self.choices and self.default not in self.values:
            raise ValueError(f"The default {self.default!r} of parameter {self.name!r} is not one of its choices "
                             f"{self.values!r}.")

    @property
    def values(self) -> tuple:
        """The allowed values, in the registry's order (the default need not be first).

        >>> DISCOUNT.values
        ('log2', 'jarvelin')
        """
        return tuple(c.value for c in self.choices)

    def choice(self, value) -> Choice:
        """The :class:`Choice` of ``value``; a ValueError names the parameter and its values otherwise.

        >>> ROUNDING.choice("lround").label
        'trec_eval 10: round(r·R)'
        >>> GAIN.choice("exp")
        Traceback (most recent call last):
        ...
        ValueError: The 'gain' parameter must be one of 'linear', 'exponential'. Got 'exp' instead.
        """
        for c in self.choices:
            if c.value == value:
                return c
        raise ValueError(f"The {self.name!r} parameter must be one of {', '.join(map(repr, self.values))}. "
                         f"Got {value!r} instead.")

    @property
    def accepted(self) -> tuple:
        """Every spelling accepted: the values, then their aliases.

        >>> GAIN.accepted
        ('linear', 'exponential', 'exp', 'exp2')
        """
        return self.values + tuple(a for c in self.choices for a in c.aliases)

    def canonical(self, spelling):
        """The value a spelling stands for (itself, or the value of which it is an alias); None if none.

        >>> GAIN.canonical("exp"), GAUC_WEIGHT.canonical("impressions"), GAIN.canonical("log")
        ('exponential', 'size', None)
        """
        for c in self.choices:
            if spelling == c.value or spelling in c.aliases:
                return c.value
        return None

    def label(self, value) -> str:
        """The words naming choice ``value``: ``GAIN.label("linear")`` is ``'linear gain g'``."""
        return self.choice(value).label

    def ordered(self, first) -> tuple:
        """The values with ``first`` first (a page or an exercise that starts from another default).

        >>> GAIN.ordered("exponential")
        ('exponential', 'linear')
        """
        self.choice(first)
        return (first, *(v for v in self.values if v != first))

    def other(self, value):
        """The other value of a two-way switch (gain, discount): what "the other convention" means.

        >>> GAIN.other("linear"), DISCOUNT.other("jarvelin")
        ('exponential', 'log2')
        """
        if len(self.choices) != 2:
            raise ValueError(f"The {self.name!r} parameter has {len(self.choices)} choices, not a two-way switch.")
        self.choice(value)
        return next(v for v in self.values if v != value)


#: Where ``evaluate`` takes a parameter from (``Param.evaluate``), in words.
EVALUATE_SOURCES = {
    "cutoff": "the measure's cutoff",
    "judged": "the grades of the query's judged documents in the qrels (negative grades left out)",
    "rel_threshold": "the measure's rel=, else evaluate's rel_threshold (trec_eval -l)",
    "qrels_max_grade": "the largest grade in the whole qrels (one g_max for every query)",
    "trec_eval_version": "'lround' for trec_eval 10 (the default), 'floor_plus_0.9' for 9",
    "judged_subtopics": "the subtopics of every document the subtopic qrels judge for the topic",
}
# What the batch kernels read of a per-query call from the lists themselves (RankedLists), never
# from a Cut: the judged grades and R.
_FROM_THE_LISTS = frozenset({"judged", "n_relevant"})


@dataclass(frozen=True)
class Cut:
    """What a kernel reads of a measure: its cutoff and parameters.

    :class:`rankviz.evaluation.measures.Measure` answers the same two questions; the per-query
    functions and :meth:`MetricSpec.cut` pass a ``Cut`` so that :mod:`rankviz.metrics` never needs
    the measure parser. It lives here, with the vocabulary, so that a spec can say how its kernel
    computes its function (``rankviz.metrics.kernels.Cut`` is this class).

    >>> Cut(10, {"gain": "exponential"}).param("gain"), Cut().param("rel")
    ('exponential', None)
    """

    cutoff: int | float | None = None
    params: dict = field(default_factory=dict)

    def param(self, key: str, default=None):
        return self.params.get(key, default)


# How each trec_eval version turns a recall level into a number of relevant documents,
# in the per-query functions' words (rankviz.metrics.precision_recall.ROUNDINGS).
_ROUNDING_OF_TREC_EVAL = {"10": "lround", "9": "floor_plus_0.9"}


@dataclass(frozen=True)
class MetricSpec:
    """Everything rankviz knows about one metric or measure.

    ``inputs`` says what the per-query function takes first: ``"ranking"`` (grades in ranked
    order), ``"ranking_levels"`` (grades and recall levels, one value per level),
    ``"two_rankings"``, ``"labels_scores"``, ``"groups"``, ``"sets"`` (relevant, answer,
    known), ``"counts"``, ``"per_query_values"``, or ``"qrels_run"`` for a measure that only
    :func:`rankviz.evaluate` computes (``"prefs_run"``: from preference judgments, evaluate's
    ``qrels_format="prefs"`` or ``"qrels_prefs"``; ``"qrels_jg_run"``: from judgment-group qrels,
    ``qrels_format="qrels_jg"``). ``monotone``: moving a relevant document up never lowers
    the value (ranking metrics). ``binary``: uses ``grade >= rel_threshold`` rather than the
    grades themselves. ``module``: the module of ``rankviz.metrics`` holding the per-query
    function (called ``name``) and its breakdown; empty when there is none.

    The measure fields are used when ``measure`` is set (the canonical name in measure strings,
    ir_measures' spelling where it has one):

    * ``aliases``: other spellings accepted; ``trec`` / ``trec_cut``: trec_eval's names without
      / with a cutoff (None when trec_eval has none); ``default_cutoffs``: what the bare
      trec_eval name stands for (``-m P`` is P_5 ... P_1000);
    * ``cutoff``: ``"none"``, ``"int"`` (a rank cutoff k, required), ``"optional_int"`` (the
      whole list without one), ``"float"`` (a multiple of R) or ``"recall"`` (a recall level in
      [0, 1]);
    * ``aggregate``: how ``evaluate`` forms the value over queries: ``"mean"``, ``"gmean"``
      (geometric mean, values floored at 1e-5 as trec_eval does), ``"sum"`` or ``"none"``;
    * ``integer``: a count, printed without decimals; ``per_query_printed``: trec_eval ``-q``
      prints per-query lines for it;
    * ``trec_sets``: the trec_eval named sets holding it (``official``, ``all_trec``, ``set``, and
      ``all_prefs``, ``prefs``, ``qrels_jg`` for the measures of the other relevance formats);
      ``new_in_trec_eval_10``: absent from trec_eval 9's ``all_trec``;
    * ``trec_param_syntax``: how trec_eval's ``-m name.params`` reads its parameters:
      ``"gains"`` (``ndcg.1=3,2=9``), ``"values"`` (``utility.1,-1,0,0``, ``11pt_avg..25,.5``)
      or ``"keywords"`` (``rbp.p=0.8``);
    * ``kernel_path``: the batch kernel, ``"<module>.<function>"`` in ``rankviz.metrics.kernels``
      (also for a metric without a measure, e.g. F_β: :meth:`cut` then says how the kernel computes
      its per-query function, for the behaviour explorer).

    What the teaching side reads of a metric:

    * ``chart``: the kind of chart :func:`rankviz.explain` draws of its worked table
      (``"precision_at_rank"``, ``"precision_recall_curve"``, ``"ap_area"``, ``"eleven_point"``,
      ``"gain_contribution"``, ``"err_cascade"``, ``"rank_scatter"``, ``"pair_matrix"``, ``"roc"``,
      ``"per_query"``); empty: none;
    * ``sweep``: a ranking metric with values in [0, 1] that the behaviour explorer can sweep;
    * ``from_clicks``: a click table can be scored with it (``rankviz.evaluate_clicks``): its
      kernel needs no qrels beyond the labels, and a group's value depends on its own rows only;
    * ``order_free``: the order of the retrieved documents cannot change it (counts, set
      measures), so every tie rule gives the same value;
    * ``tie_average_path``: the function of :mod:`rankviz.evaluation.ties` giving its exact
      expectation over the orders of tied documents (empty: estimated by sampling orders).

    Examples
    --------
    P@k of the grades 1, 0, 1, 1 at k = 3: ranks 1 and 3 of the top 3 are relevant, 2/3 = 0.667.
    The spec reaches the function and its worked table, whose running count of relevant
    documents gives the same 2 at rank 3, and the measure ``P@3`` evaluate computes with it.

    >>> spec = get_spec("precision")
    >>> spec.pretty_name, sorted(spec.param_names)
    ('P@k', ['k', 'rel_threshold'])
    >>> round(spec.function([1, 0, 1, 1], k=3), 3)
    0.667
    >>> spec.breakdown([1, 0, 1, 1], k=3).table["relevant so far"].tolist()
    [1, 1, 2]
    >>> spec.measure, spec.trec_cut, spec.cutoff, spec.aggregate, spec.kernel_path
    ('P', 'P', 'int', 'mean', 'binary.precision')
    """

    name: str
    source_pretty_name: str
    family: str
    formula: str
    source_description: str
    reference: str
    inputs: str = "ranking"
    params: tuple[Param, ...] = ()
    value_range: tuple[float, float] | None = (0.0, 1.0)
    monotone: bool = False
    binary: bool = True
    module: str = field(default="", repr=False)
    # -- as a measure of evaluate --------------------------------------------------------
    measure: str | None = None
    aliases: tuple[str, ...] = ()
    trec: str | None = None
    trec_cut: str | None = None
    default_cutoffs: tuple = ()
    cutoff: str = "none"
    aggregate: str = "mean"
    integer: bool = False
    per_query_printed: bool = True
    trec_sets: tuple[str, ...] = ()
    new_in_trec_eval_10: bool = False
    trec_param_syntax: str | None = None
    kernel_path: str = field(default="", repr=False)
    # -- as the teaching side shows it -----------------------------------------------------
    chart: str = ""
    sweep: bool = False
    from_clicks: bool = False
    order_free: bool = False
    tie_average_path: str = field(default="", repr=False)

    @property
    def pretty_name(self) -> str:
        """The name a person reads (``"nDCG@k"``, ``"Interpolated precision at recall r"``) in the
        language in force; symbols stay as they are. :attr:`source_pretty_name` is the English."""
        return _(self.source_pretty_name)

    @property
    def description(self) -> str:
        """One sentence on what the metric measures, in the language in force (:attr:`source_description`: English)."""
        return _(self.source_description)

    @property
    def function(self):
        """The public per-query function, e.g. ``rankviz.metrics.ndcg``; None for a batch-only measure."""
        if not self.module:
            return None
        return getattr(importlib.import_module(f"rankviz.metrics.{self.module}"), self.name)

    @property
    def breakdown(self):
        """The worked-table twin, e.g. ``rankviz.metrics.ndcg_breakdown``; None for a batch-only measure."""
        if not self.module:
            return None
        return getattr(importlib.import_module(f"rankviz.metrics.{self.module}"), self.name + "_breakdown")

    @property
    def kernel(self):
        """The batch kernel ``kernel(context, measure) -> one value per query``; None without one.

        >>> get_spec("average_precision").kernel.__name__, get_spec("auc").kernel
        ('average_precision', None)
        """
        return _resolve("rankviz.metrics.kernels", self.kernel_path)

    @property
    def tie_average(self):
        """``f(layout, measure, rel_threshold)``: the exact mean over the orders of tied documents; None without one.

        >>> get_spec("ndcg").tie_average.__name__, get_spec("err").tie_average
        ('expected_ndcg', None)
        """
        return _resolve("rankviz.evaluation", self.tie_average_path)

    def param(self, name: str) -> Param:
        """The parameter called ``name`` (a keyword of the function, or a measure key).

        >>> get_spec("ndcg").param("discount").values
        ('log2', 'jarvelin')
        """
        for p in self.params:
            if name in (p.name, p.measure_key):
                return p
        raise KeyError(f"{self.name} has no parameter {name!r}; it has {', '.join(p.name for p in self.params)}")

    def cut(self, keywords: dict) -> Cut | None:
        """The :class:`Cut` with which :attr:`kernel` computes ``self.function(rels, **keywords)``; None without a kernel.

        The kernel then gives, for many lists at once (the lists carrying ``judged`` and
        ``n_relevant``), what the per-query function gives one list at a time: the behaviour
        explorer scores thousands of rankings this way. Each keyword goes where the kernel reads
        it: ``k`` is the cutoff (None: the whole list, as for the function), ``judged`` and
        ``n_relevant`` are the lists' own, every other one a parameter of the Cut under its
        measure key (``rel``) or its name (``gain``, ``discount``, ``beta``, ``rounding``);
        defaults are passed explicitly, as :meth:`applicable` does.

        Examples
        --------
        >>> get_spec("ndcg").cut({"k": 5, "gain": "exponential"})
        Cut(cutoff=5, params={'gain': 'exponential', 'discount': 'log2', 'log_base': 2})
        >>> get_spec("precision").cut({})  # P with k=None divides by the list's length, as the kernel does
        Cut(cutoff=None, params={'rel': 1})
        >>> get_spec("satisfaction").cut({}) is None  # no kernel: scored list by list
        True
        """
        if not self.kernel_path:
            return None
        cutoff, params = None, {}
        for p in self.params:
            if not p.per_query or p.name in _FROM_THE_LISTS:
                continue
            value = keywords.get(p.name, p.default)
            if p.evaluate == "cutoff":
                if p.kind == "levels":  # the kernel takes one recall level per measure, not a list
                    return None
                cutoff = value
            elif value is not None:
                params[p.measure_key or p.name] = value
        return Cut(cutoff, params)

    @property
    def param_names(self) -> frozenset[str]:
        """The keywords of the per-query function."""
        return frozenset(p.name for p in self.params if p.per_query)

    @property
    def measure_params(self) -> tuple[Param, ...]:
        """The parameters measure names may set (``rel``, ``gain``, ``p``...), in order.

        >>> [p.measure_key for p in get_spec("utility").measure_params]
        ['rel', 'a', 'b', 'c', 'd']
        """
        return tuple(p for p in self.params if p.measure_key is not None)

    def measure_default(self, key: str):
        """The value a measure has for parameter ``key`` when its name does not give one.

        None for a parameter that ``evaluate`` supplies (``rel``: its ``rel_threshold``).

        >>> get_spec("rank_biased_precision").measure_default("p"), get_spec("precision").measure_default("rel")
        (0.9, None)
        """
        for p in self.measure_params:
            if p.measure_key == key:
                return None if p.evaluate else p.default
        raise KeyError(f"{self.measure or self.name} has no measure parameter {key!r}")

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
        chosen = {p.name: settings.get(p.name, p.default) for p in self.params if p.per_query}
        return {name: value for name, value in chosen.items() if value is not None}

    def per_query_keywords(self, measure, *, judged, qrels_max_grade, rel_threshold=1,
                           trec_eval_version="10") -> dict | None:
        """The keywords with which the per-query function computes what ``evaluate`` gives for ``measure``.

        ``self.function(rels, **keywords)`` then equals evaluate's value of ``measure`` for a
        query whose retrieved documents, in evaluate's order (score descending, then docno
        descending), have the grades ``rels`` (0 for a document without a judgment or with a
        negative grade). Each parameter takes its value from the measure name, else from where
        its ``Param.evaluate`` says (:data:`EVALUATE_SOURCES`), else its default.

        Parameters
        ----------
        measure : rankviz.evaluation.measures.Measure
            A measure of this spec (``measure.name == self.measure``).
        judged : sequence of int
            The grades of every judged document of the query (non-negative ones).
        qrels_max_grade : int
            The largest grade in the whole qrels.
        rel_threshold, trec_eval_version
            evaluate's options of the same name.

        Returns
        -------
        dict or None
            None when the per-query function cannot compute this measure: the spec has no
            ranking function, or the measure sets a parameter the function does not have
            (e.g. trec_eval's gain maps, ``11pt_avg`` at other recall levels).

        Examples
        --------
        ERR's g_max is the qrels' largest grade in evaluate, the list's own by default:

        >>> from rankviz.evaluation.measures import parse_measure
        >>> get_spec("err").per_query_keywords(parse_measure("ERR@10"), judged=[2, 1], qrels_max_grade=3)
        {'k': 10, 'max_grade': 3, 'judged': [2, 1]}
        >>> get_spec("ndcg").per_query_keywords(parse_measure("ndcg.1=3,2=9"), judged=[2], qrels_max_grade=2) is None
        True
        """
        if self.function is None or self.inputs not in ("ranking", "ranking_levels"):
            return None
        sources = {
            "cutoff": measure.cutoff,
            "judged": list(judged),
            "rel_threshold": rel_threshold,
            "qrels_max_grade": qrels_max_grade,
            "trec_eval_version": _ROUNDING_OF_TREC_EVAL[str(trec_eval_version)],
        }
        keywords = {}
        for p in self.params:
            given = measure.param(p.measure_key) if p.measure_key is not None else None
            value = given if given is not None else sources[p.evaluate] if p.evaluate else p.default
            if not p.per_query:
                if value != p.default:
                    return None
                continue
            if p.choices and value not in p.values:
                return None
            if value is None:
                continue
            if p.kind == "levels" and p.evaluate == "cutoff":
                value = [value]
            keywords[p.name] = value
        return keywords


def _resolve(package: str, path: str):
    """The function ``"<module>.<function>"`` of ``package`` names (imported on first use); None for ""."""
    if not path:
        return None
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(f"{package}.{module}"), name)


# Parameters shared by many ranking metrics.
K = Param("k", None, N_("Cut-off: only the top k ranks count (None: the whole list)."), kind="int", evaluate="cutoff")
THRESHOLD = Param("rel_threshold", 1, N_("A document is relevant when its grade is at least this (trec_eval -l)."),
                  kind="float", measure_key="rel", measure_kind="grade", evaluate="rel_threshold")
N_RELEVANT = Param("n_relevant", None, N_("R, the relevant documents of the query in the whole collection "
                   "(None: those in the list, or in 'judged')."), kind="int")
JUDGED = Param("judged", None, N_("Grades of every judged document of the query, retrieved or not."), kind="grades",
               evaluate="judged")
GAIN = Param("gain", "linear", N_("Gain of a grade g. In measure names also 'exp', or trec_eval's map of gains per "
             "grade (gain=1:3;2:9, ndcg.1=3,2=9)."),
             choices=(Choice("linear", N_("linear gain g"), "g", N_("The grade itself: trec_eval's, ranx's, ir_measures' and "
                             "scikit-learn's gain."), "g"),
                      Choice("exponential", N_("exponential gain 2^g − 1"), "2^{g} - 1",
                             N_("Burges et al. (2005), the lecture's final formula, LightGBM's and XGBoost's: a grade-3 "
                             "document is worth 7 instead of 3, so the order of the best documents weighs more."),
                             "2^g − 1", aliases=("exp", "exp2"))),
             measure_key="gain", measure_kind="gain")
DISCOUNT = Param("discount", "log2", N_("Discount at rank i (Järvelin & Kekäläinen 2002 for both)."),
                 choices=(Choice("log2", N_("log2(i + 1) discount"), r"\frac{1}{\log_2(i + 1)}",
                                 N_("Divide the gain at rank i by log2(i + 1): trec_eval's, scikit-learn's and the "
                                 "lecture's final formula."), "1 / log2(i + 1)"),
                          Choice("jarvelin", N_("Järvelin-Kekäläinen discount max(1, log2 i)"),
                                 r"\frac{1}{\max(1, \log_b i)}",
                                 N_("The original formula (log base b = log_base, 2 by default): ranks 1 and 2 are not "
                                 "discounted, later ranks less than by log2(i + 1)."), "1 / max(1, log2 i)")))
LOG_BASE = Param("log_base", 2, N_("Base b of the Järvelin-Kekäläinen discount."), kind="float")
# How a recall level r becomes a count c of relevant documents, R being the query's relevant documents.
_CEIL = Choice("ceil", N_("textbook: ceil(r·R)"), r"c = \lceil r R \rceil", N_("The textbook's 'recall reaches r'."),
               "ceil(r·R)")
_TREC_EVAL_9 = Choice("floor_plus_0.9", N_("trec_eval 9: floor(r·R + 0.9)"), r"c = \lfloor r R + 0.9 \rfloor",
                      N_("trec_eval 9.x (and pytrec_eval, ranx, ir_measures, which bundle it)."), "floor(r·R + 0.9)")
_TREC_EVAL_10 = Choice("lround", N_("trec_eval 10: round(r·R)"), r"c = \mathrm{round}(r R)",
                       N_("trec_eval 10.0: r·R rounded, halves up."), "round(r·R)")
ROUNDING = Param("rounding", "ceil", N_("How a recall level r becomes a count c of relevant documents (R relevant)."),
                 choices=(_CEIL, _TREC_EVAL_9, _TREC_EVAL_10), evaluate="trec_eval_version")
_TAU_A = Choice("a", N_("tau-a (no tie correction)"), r"\tau_a = \frac{C - D}{n(n-1)/2}",
                N_("Concordant minus discordant pairs over all pairs: below 1 for two equal rankings with ties."), "tau-a")
_TAU_B = Choice("b", N_("tau-b (ties corrected)"), r"\tau_b = \frac{C - D}{\sqrt{(C + D + T_1)(C + D + T_2)}}",
                N_("Kendall (1945), scipy's default: 1 for two equal rankings, ties or not."), "tau-b")
KENDALL_VARIANT = Param("variant", "b", N_("Which Kendall's tau: with or without the correction for ties."),
                        choices=(_TAU_A, _TAU_B))
GAUC_WEIGHT = Param("weights", "size", N_("Weight w_g of each group in the mean of the groups' AUCs."),
                     choices=(Choice("size", N_("groups weighted by their impressions"), r"w_g = |P_g| + |N_g|",
                                     N_("Zhou et al.'s GAUC: a group weighs as many impressions (rows) as it has."),
                                     N_("impressions"), aliases=("impressions",)),
                              Choice("positives", N_("groups weighted by their clicks"), r"w_g = |P_g|",
                                     N_("A group weighs as many positives (clicks) as it has."), N_("clicks")),
                              Choice("uniform", N_("every group weighted 1"), r"w_g = 1",
                                     N_("Every group weighs the same."), "1")))
RANKED_BINARY = (K, THRESHOLD)
RANKED_WITH_R = (K, N_RELEVANT, JUDGED, THRESHOLD)
GRADED = (K, GAIN, DISCOUNT, LOG_BASE)
# A rel= for measures whose per-query form has no threshold (GMAP's function aggregates APs).
REL_ONLY = Param("rel_threshold", 1, THRESHOLD.source_description, kind="float", measure_key="rel", measure_kind="grade",
                 per_query=False, evaluate="rel_threshold")
ITEMS = Param("items", None, N_("Names of the items, shown by the worked table (None: numbered)."), kind="labels")
# ir_measures' grade scale of the C/W/L measures (cwl_eval's gains in [0, 1]) and their goals.
MIN_REL = Param("min_rel", 0, N_("m, the bottom of the grade scale: grades are clipped to [m, M] and scaled to "
                "(grade - m) / (M - m)."), kind="float", measure_key="min_rel", measure_kind="grade")
MAX_REL = Param("max_rel", None, N_("M, the top of the grade scale (None: the largest judged grade, else the list's; "
                "ir_measures requires it)."), kind="float", measure_key="max_rel", measure_kind="grade",
                evaluate="qrels_max_grade")
CWL_JUDGED = Param("judged", None, N_("Grades of every judged document of the query: only the default max_rel."),
                   kind="grades", evaluate="judged")
T_GOAL = Param("T", 1.0, N_("T, the gain the user wants (in top-grade documents), > 0."), kind="float", measure_key="T")
P_NERR = Param("p", 0.9, N_("Persistence: the chance of reading on past a document without gain, in [0, 1]."),
               kind="float", measure_key="p")
CWL_EVAL = ("cwl_eval 1.0.12 (Azzopardi, Thomas & Moffat, SIGIR 2019; every list cut or padded to 1000 ranks), "
            "as ir_measures 0.4.3 runs it")
NERR_PAPER = ("Azzopardi, Mackenzie & Moffat, 'ERR is not C/W/L: exploring the relationship between expected "
              "reciprocal rank and other metrics', ICTIR (2021)")
# The diversity measures (subtopic qrels, ndeval's conventions).
ALPHA = Param("alpha", 0.5, N_("Redundancy intolerance α in [0, 1]: a subtopic seen n times before is worth (1 - α)^n "
              "(ndeval -alpha)."), kind="float", measure_key="alpha")
BETA_NRBP = Param("beta", 0.5, N_("Patience β in [0, 1]: the chance of reading on to the next rank (ndeval -beta)."),
                  kind="float", measure_key="beta")
SUBTOPIC_JUDGED = Param("judged", None, N_("Subtopics of every judged document of the topic ({docno: subtopics}, or a "
                        "list): S and the greedy ideal ranking (None: the ranking itself)."), kind="subtopics",
                        evaluate="judged_subtopics")
JUDGED_ONLY = Param("judged_only", False, N_("Drop the documents the subtopic qrels do not judge before ranking "
                    "(ir_measures' judged_only; evaluate's judged_only does it for every measure)."), kind="bool",
                    measure_key="judged_only", per_query=False)
NDEVAL = "ndeval 4.5, the TREC Web track's diversity evaluation (C. L. A. Clarke; also inside pyndeval 0.0.8)"
CLARKE_2008 = ("Clarke, Kolla, Cormack, Vechtomova, Ashkan, Büttcher & MacKinnon, 'Novelty and diversity in "
               "information retrieval evaluation', SIGIR (2008)")
CHAPELLE_2009 = "Chapelle, Metzler, Zhang & Grinspan, 'Expected reciprocal rank for graded relevance', CIKM (2009)"
CLARKE_2009 = ("Clarke, Kolla & Vechtomova, 'An effectiveness measure for ambiguous and underspecified queries', "
               "ICTIR (2009)")
AGRAWAL_2009 = "Agrawal, Gollapudi, Halverson & Ieong, 'Diversifying search results', WSDM (2009)"
ZHAI_2003 = ("Zhai, Cohen & Lafferty, 'Beyond independent relevance: methods and evaluation metrics for subtopic "
             "retrieval', SIGIR (2003)")
NOVELTY_GAIN = r"g(i) = \sum_s J(d_i, s)\,(1-\alpha)^{c_s(i)}"
ELEVEN_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

# Conventions a homework sheet picks that are not keywords of a per-query function (the functions take
# n_relevant; Spearman's function always takes Pearson's r of the average ranks): the homework checker
# (rankviz.teaching.homework) builds each exercise the way the sheet says and names the others when an
# answer follows them. per_query=False: evaluate and the pages never pass them to a function.
AP_DENOMINATOR = Param(
    "denominator", "R", N_("What the sum of P@i over the relevant ranks is divided by."),
    choices=(Choice("R", N_("AP over R, every relevant document of the query"), r"\frac{1}{R}",
                    N_("IIR §8.4 and trec_eval's map and map_cut: a relevant document never retrieved (or ranked below "
                    "k) adds a precision of 0."), "÷ R"),
             Choice("retrieved", N_("AP over the relevant documents retrieved"), r"\frac{1}{|\text{relevant retrieved}|}",
                    N_("The mean of P@i over the relevant documents the list holds (in the top k), as sheets write "
                    "'the average of the precision at each relevant document retrieved'."), N_("÷ relevant retrieved")),
             Choice("min_r_k", N_("AP@k over min(R, k)"), r"\frac{1}{\min(R, k)}",
                    N_("Kaggle's and ml_metrics' apk: R capped at k, so a top k that is all relevant scores 1."),
                    "÷ min(R, k)")),
    per_query=False)
SPEARMAN_TIES = Param(
    "ties", "pearson", N_("How Spearman's rho treats tied items (each gets the average of the ranks it shares)."),
    choices=(Choice("pearson", N_("Pearson's r of the average ranks"),
                    r"\rho = \frac{S_1 + S_2 - \sum d^2}{2\sqrt{S_1 S_2}}",
                    N_("Spearman's definition (scipy's spearmanr, R's cor): the Pearson correlation of the ranks, here "
                    "with S = (n³ − n)/12 − Σ(t³ − t)/12 over each ranking's tied groups; without ties it is "
                    "1 − 6Σd²/(n(n² − 1))."), N_("Pearson of ranks")),
             Choice("formula", N_("1 − 6Σd²/(n(n² − 1)) on average ranks"),
                    r"\rho = 1 - \frac{6 \sum d^2}{n(n^2 - 1)}",
                    N_("The shortcut formula applied to average ranks, as some sheets do: exact only without ties."),
                    "1 − 6Σd²/(n(n² − 1))")),
    per_query=False)
# name -> Param of every such convention (the homework checker's inputs take their words from here).
SHEET_CONVENTIONS = {p.name: p for p in (AP_DENOMINATOR, SPEARMAN_TIES)}
TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

MANNING = "Manning, Raghavan & Schütze, Introduction to Information Retrieval, ch. 8 (2008)"
TREC = "trec_eval 10.0, NIST (https://github.com/usnistgov/trec_eval)"
LECTURE = "Course lecture 'Evaluating IR Systems' (shared/course/002)"
OFFICIAL = ("official", "all_trec")
EVERY_SET = ("official", "all_trec", "set")  # the counts every named set starts with
ALL_TREC = ("all_trec",)
# trec_eval's sets for its other relevance formats: all_prefs and prefs (-R prefs, qrels_prefs),
# qrels_jg (-R qrels_jg); runid and num_q start each of them.
PREFS_ALL = ("all_prefs",)
PREFS_OFFICIAL = ("all_prefs", "prefs")
JUDGMENT_GROUPS = ("qrels_jg",)
SUMMARY_SETS = EVERY_SET + PREFS_OFFICIAL + JUDGMENT_GROUPS
PREFS_REFERENCE = (f"{TREC}, form_prefs_counts.c and m_prefs_*.c; preferences as in Carterette, Bennett, "
                   "Chickering & Dumais, 'Here or there: preference judgments for relevance', ECIR (2008)")

METRICS: tuple[MetricSpec, ...] = (
    # ---------------------------------------------------------------------------- binary
    MetricSpec(
        name="hit", source_pretty_name=N_("Hit@k (Accuracy@k)"), family="binary", module="binary",
        formula=r"\mathrm{Hit@}k = \mathbb{1}\left[\sum_{i=1}^{k} \mathrm{rel}(i) > 0\right]",
        source_description=N_("1 if any of the top k documents is relevant, else 0 (success@k)."),
        reference=f"{TREC}: success_k; course note 000 'Accuracy@K'",
        params=RANKED_BINARY, monotone=True,
        measure="Success", aliases=("success", "Hit", "hit", "hits"), trec="success", trec_cut="success",
        default_cutoffs=(1, 5, 10), cutoff="int", trec_sets=ALL_TREC, kernel_path="binary.success",
        sweep=True, from_clicks=True, tie_average_path="ties.expected_success",
    ),
    MetricSpec(
        name="precision", source_pretty_name="P@k", family="binary", module="binary",
        formula=r"P@k = \frac{1}{k} \sum_{i=1}^{k} \mathrm{rel}(i)",
        source_description=N_("Fraction of the top k that is relevant; missing ranks count as non-relevant."),
        reference=f"{MANNING}, 8.3; {TREC}: P_k",
        params=RANKED_BINARY, monotone=True,
        measure="P", aliases=("Precision", "precision"), trec="P", trec_cut="P", default_cutoffs=TREC_CUTOFFS,
        cutoff="int", trec_sets=OFFICIAL, kernel_path="binary.precision",
        sweep=True, from_clicks=True, chart="precision_at_rank", tie_average_path="ties.expected_precision",
    ),
    MetricSpec(
        name="recall", source_pretty_name="R@k", family="binary", module="binary",
        formula=r"R@k = \frac{1}{R} \sum_{i=1}^{k} \mathrm{rel}(i)",
        source_description=N_("Fraction of all R relevant documents found in the top k."),
        reference=f"{MANNING}, 8.3; {TREC}: recall_k",
        params=RANKED_WITH_R, monotone=True,
        measure="R", aliases=("Recall", "recall"), trec="recall", trec_cut="recall", default_cutoffs=TREC_CUTOFFS,
        cutoff="int", trec_sets=ALL_TREC, kernel_path="binary.recall",
        sweep=True, from_clicks=True, chart="precision_at_rank", tie_average_path="ties.expected_recall",
    ),
    MetricSpec(
        name="f_beta", source_pretty_name="F_β@k", family="binary", module="binary",
        formula=r"F_\beta = (1 + \beta^2) \frac{P \cdot R}{\beta^2 P + R}",
        source_description=N_("Weighted harmonic mean of P@k and R@k; β > 1 favours recall."),
        reference="van Rijsbergen, Information Retrieval, ch. 7 (1979); course lecture 'F-Measure'",
        params=(K, Param("beta", 1.0, N_("Weight of recall relative to precision (F1, F2, F0.5)."), kind="float"),
                N_RELEVANT, JUDGED, THRESHOLD),
        sweep=True, chart="precision_at_rank", kernel_path="binary.f_beta",
    ),
    MetricSpec(
        name="r_precision", source_pretty_name=N_("R-precision"), family="binary", module="binary",
        formula=r"\mathrm{R\text{-}Prec} = P@R = \frac{1}{R}\sum_{i=1}^{R} \mathrm{rel}(i)",
        source_description=N_("Precision at rank R, the number of relevant documents of the query."),
        reference=f"{MANNING}, 8.4; {TREC}: Rprec",
        params=(N_RELEVANT, JUDGED, THRESHOLD), monotone=True,
        measure="Rprec", aliases=("R-prec", "RPrec", "rprec"), trec="Rprec", trec_sets=OFFICIAL,
        kernel_path="binary.r_precision",
        sweep=True, chart="precision_at_rank", tie_average_path="ties.expected_r_precision",
    ),
    MetricSpec(
        name="average_precision", source_pretty_name="AP@k", family="binary", module="binary",
        formula=r"\mathrm{AP@}k = \frac{1}{R} \sum_{i=1}^{k} P@i \cdot \mathrm{rel}(i)",
        source_description=N_("Mean of the precisions at the ranks of the relevant documents; unretrieved ones add 0."),
        reference=f"{MANNING}, 8.4; {TREC}: map, map_cut_k",
        params=RANKED_WITH_R, monotone=True,
        measure="AP", aliases=("map", "MAP", "map_cut"), trec="map", trec_cut="map_cut",
        default_cutoffs=TREC_CUTOFFS, cutoff="optional_int", trec_sets=OFFICIAL,
        kernel_path="binary.average_precision",
        sweep=True, from_clicks=True, chart="ap_area", tie_average_path="ties.expected_average_precision",
    ),
    MetricSpec(
        name="interpolated_precision", source_pretty_name=N_("Interpolated precision at recall r"), family="binary",
        module="precision_recall", inputs="ranking_levels",
        formula=r"P_{\mathrm{interp}}(r) = \max_{i \,:\, R@i \ge r} P@i",
        source_description=N_("The best precision at any rank whose recall reaches r (0 when none does)."),
        reference=f"{MANNING}, 8.4; {TREC}: iprec_at_recall",
        params=(Param("recall_levels", None, N_("Recall levels in [0, 1] (None: the 11 levels 0.0, 0.1, ..., 1.0)."),
                      kind="levels", evaluate="cutoff"),
                N_RELEVANT, JUDGED, THRESHOLD, ROUNDING),
        measure="IPrec", aliases=("iprec", "iprec_at_recall"), trec="iprec_at_recall", trec_cut="iprec_at_recall",
        default_cutoffs=ELEVEN_LEVELS, cutoff="recall", trec_sets=OFFICIAL,
        kernel_path="interpolated.interpolated_precision",
        chart="eleven_point",
    ),
    MetricSpec(
        name="eleven_point_precision", source_pretty_name=N_("11-point interpolated precision"), family="binary",
        module="precision_recall",
        formula=r"\frac{1}{11} \sum_{r \in \{0, 0.1, \ldots, 1\}} \max_{r' \ge r} P(r')",
        source_description=N_("Mean interpolated precision at the 11 recall levels 0.0, 0.1, ..., 1.0."),
        reference=f"{MANNING}, 8.4; {TREC}: 11pt_avg",
        params=(N_RELEVANT, JUDGED, THRESHOLD, ROUNDING,
                Param("levels", ELEVEN_LEVELS, N_("The recall levels averaged over (trec_eval's 11pt_avg parameter)."),
                      kind="levels", measure_key="levels", per_query=False)),
        measure="11pt_avg", aliases=("11pt",), trec="11pt_avg", trec_sets=ALL_TREC, trec_param_syntax="values",
        kernel_path="interpolated.eleven_point_average",
        sweep=True, chart="eleven_point",
    ),
    MetricSpec(
        name="interpolated_average_precision", source_pretty_name=N_("Interpolated AP (lecture's MAP)"), family="binary",
        module="precision_recall",
        formula=r"\frac{1}{10} \sum_{r \in \{0.1, \ldots, 1\}} \max_{r' \ge r} P(r')",
        source_description=N_("The lecture's per-query 'MAP': mean interpolated precision at recall 0.1, ..., 1.0."),
        reference=f"{LECTURE}, slides 'MAP - An example'",
        params=(N_RELEVANT, JUDGED, THRESHOLD, ROUNDING,
                Param("levels", 10, N_("Number of equally spaced recall levels 1/levels, 2/levels, ..., 1."), kind="int")),
        sweep=True, chart="eleven_point",
    ),
    MetricSpec(
        name="reciprocal_rank", source_pretty_name="RR@S_h", family="binary", module="binary",
        formula=r"\mathrm{RR} = \begin{cases} 1 / S_{\mathrm{correct}} & S_{\mathrm{correct}} \le S_h \\ "
                r"0 & \text{otherwise} \end{cases}",
        source_description=N_("1 / rank of the first relevant document, 0 if it lies below the threshold S_h = k."),
        reference=f"Voorhees, TREC-8 QA track (1999); {LECTURE}, 'Mean Reciprocal Rank'; {TREC}: recip_rank",
        params=RANKED_BINARY, monotone=True,
        measure="RR", aliases=("recip_rank", "MRR", "RecipRank"), trec="recip_rank", cutoff="optional_int",
        trec_sets=OFFICIAL, kernel_path="binary.reciprocal_rank",
        sweep=True, from_clicks=True, tie_average_path="ties.expected_reciprocal_rank",
    ),
    MetricSpec(
        name="relative_precision", source_pretty_name=N_("Relative P@k"), family="binary", inputs="qrels_run",
        formula=r"\mathrm{relative\ P@}k = \frac{\sum_{i=1}^{k} \mathrm{rel}(i)}{\min(k, R)}",
        source_description=N_("P@k relative to the best possible: precision up to R, recall after."),
        reference=f"{TREC}: relative_P", params=(THRESHOLD,),
        measure="relative_P", trec="relative_P", trec_cut="relative_P", default_cutoffs=TREC_CUTOFFS,
        cutoff="int", trec_sets=ALL_TREC, kernel_path="binary.relative_precision",
    ),
    MetricSpec(
        name="r_precision_multiple", source_pretty_name=N_("Precision at x R"), family="binary", inputs="qrels_run",
        formula=r"P@c,\quad c = \lfloor x R + 0.9 \rfloor",
        source_description=N_("Precision at a multiple x of R (0 when c = 0); trec_eval 9's rounding in both versions."),
        reference=f"{TREC}: Rprec_mult", params=(THRESHOLD,),
        measure="Rprec_mult", trec="Rprec_mult", trec_cut="Rprec_mult",
        default_cutoffs=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0), cutoff="float", trec_sets=ALL_TREC,
        kernel_path="interpolated.r_precision_multiple",
    ),
    MetricSpec(
        name="binary_g", source_pretty_name="binG", family="binary", inputs="qrels_run",
        formula=r"\mathrm{binG} = \frac{1}{R} \sum_{d \in A \cap \mathrm{Rel}} \frac{1}{\log_2(2 + n_d)}",
        source_description=N_("Relevant documents retrieved, each discounted by the non-relevant ones n_d above it "
                    "(trec_eval experimental)."),
        reference=f"{TREC}: binG", params=(THRESHOLD,),
        measure="binG", trec="binG", trec_sets=ALL_TREC, kernel_path="binary.binary_g",
    ),
    MetricSpec(
        name="yaap", source_pretty_name="YAAP", family="binary", inputs="qrels_run",
        formula=r"\mathrm{YAAP} = \log \frac{1 + S}{1 + R - S},\quad S = \sum_{d \in A \cap \mathrm{Rel}} "
                r"P@\mathrm{rank}(d)",
        source_description=N_("Yet another AP: the log-odds of the AP numerator S against its complement R - S."),
        reference=f"Robertson, 'On smoothing average precision', ECIR (2012); {TREC}: yaap",
        params=(THRESHOLD,), value_range=(-math.inf, math.inf),
        measure="yaap", aliases=("YAAP",), trec="yaap", kernel_path="binary.yaap",
    ),
    # ---------------------------------------------------------------------------- graded
    MetricSpec(
        name="cumulative_gain", source_pretty_name="CG@k", family="graded", module="graded",
        formula=r"\mathrm{CG@}k = \sum_{i=1}^{k} \mathrm{rel}_i",
        source_description=N_("Sum of the grades in the top k; blind to their order."),
        reference="Järvelin & Kekäläinen, ACM TOIS 20(4) (2002)",
        params=(K,), value_range=(0.0, math.inf), binary=False,
    ),
    MetricSpec(
        name="dcg", source_pretty_name="DCG@k", family="graded", module="graded",
        formula=r"\mathrm{DCG@}k = \sum_{i=1}^{k} \frac{g(\mathrm{rel}_i)}{\log_2(i + 1)}",
        source_description=N_("Grades turned into gains and discounted by rank, summed over the top k."),
        reference=f"Järvelin & Kekäläinen (2002); Burges et al., ICML (2005); {TREC}: dcg",
        params=GRADED, value_range=(0.0, math.inf), binary=False, monotone=True,
        measure="DCG", aliases=("dcg",), trec="dcg", trec_param_syntax="gains", kernel_path="graded.dcg",
        chart="gain_contribution", tie_average_path="ties.expected_dcg",
    ),
    MetricSpec(
        name="ideal_dcg", source_pretty_name="IDCG@k", family="graded", module="graded",
        formula=r"\mathrm{IDCG@}k = \mathrm{DCG@}k \text{ of the judged grades sorted descending}",
        source_description=N_("DCG of the best possible ranking of the judged documents."),
        reference=f"Järvelin & Kekäläinen (2002); {TREC}: ideal_dcg",
        params=(K, JUDGED, GAIN, DISCOUNT, LOG_BASE), value_range=(0.0, math.inf), binary=False,
        measure="IdealDCG", aliases=("ideal_dcg", "IDCG"), trec="ideal_dcg", trec_param_syntax="gains",
        kernel_path="graded.ideal_dcg",
        order_free=True,
    ),
    MetricSpec(
        name="ndcg", source_pretty_name="nDCG@k", family="graded", module="graded",
        formula=r"\mathrm{nDCG@}k = \frac{\mathrm{DCG@}k}{\mathrm{IDCG@}k}",
        source_description=N_("DCG divided by the DCG of the ideal ranking: 1 means the best possible order."),
        reference=f"Järvelin & Kekäläinen (2002); {TREC}: ndcg, ndcg_cut_k",
        params=(K, JUDGED, GAIN, DISCOUNT, LOG_BASE), binary=False, monotone=True,
        measure="nDCG", aliases=("ndcg", "NDCG", "ndcg_cut"), trec="ndcg", trec_cut="ndcg_cut",
        default_cutoffs=TREC_CUTOFFS, cutoff="optional_int", trec_sets=ALL_TREC, trec_param_syntax="gains",
        kernel_path="graded.ndcg",
        sweep=True, from_clicks=True, chart="gain_contribution", tie_average_path="ties.expected_ndcg",
    ),
    MetricSpec(
        name="err", source_pretty_name="ERR@k", family="graded", module="graded",
        formula=r"\mathrm{ERR} = \sum_{r=1}^{k} \frac{1}{r} R_r \prod_{i=1}^{r-1} (1 - R_i),\quad "
                r"R_i = \frac{2^{g_i} - 1}{2^{g_{\max}}}",
        source_description=N_("Expected reciprocal rank at which a cascading user stops, satisfied."),
        reference="Chapelle, Metzler, Zhang & Grinspan, CIKM (2009)",
        params=(K, Param("max_grade", None, N_("g_max, the top of the grade scale (None: the largest judged grade, "
                         "else the list's maximum)."), kind="float", evaluate="qrels_max_grade"),
                Param("judged", None, N_("Grades of every judged document of the query: g_max is their maximum "
                      "when max_grade is None."), kind="grades", evaluate="judged")),
        binary=False, monotone=True,
        measure="ERR", cutoff="optional_int", kernel_path="graded.expected_reciprocal_rank",
        sweep=True, chart="err_cascade",
    ),
    # ---------------------------------------------------------------------------- user models (C/W/L), Compat
    MetricSpec(
        name="sdcg", source_pretty_name="SDCG@k", family="user_model", module="cwl",
        formula=r"\mathrm{SDCG@}k = \frac{\sum_{i=1}^{k} g_i / \log_2(i + 1)}{\sum_{i=1}^{k} 1 / \log_2(i + 1)},\quad "
                r"g_i = \frac{\mathrm{clip}(\mathrm{rel}_i, m, M) - m}{M - m}",
        source_description=N_("Scaled DCG: DCG@k of grades scaled to [0, 1] over the DCG of k top-grade documents, as if k "
                    "fully relevant documents existed (ir_measures' SDCG, cwl_eval's NDCG-k)."),
        reference=f"Järvelin & Kekäläinen (2002); {CWL_EVAL}; ir_measures: SDCG",
        params=(K, MIN_REL, MAX_REL, CWL_JUDGED), binary=False, monotone=True,
        measure="SDCG", cutoff="int", kernel_path="cwl.sdcg",
    ),
    *(
        MetricSpec(
            name=name.lower(), source_pretty_name=pretty, family="user_model", module="cwl",
            formula=formula, source_description=description,
            reference=f"{NERR_PAPER}, {equation}; {CWL_EVAL}; ir_measures: {name}",
            params=params, binary=False,
            measure=name, cutoff=cutoff, kernel_path=f"cwl.{name.lower()}",
        )
        for name, pretty, equation, params, cutoff, formula, description in (
            ("NERR8", "NERR8@k", "eq. 8", (K, MIN_REL, MAX_REL, CWL_JUDGED), "int",
             r"C_i = 1 - g_i\ (i < k),\ 0\ (i \ge k);\quad \sum_i W_i g_i,\ "
             r"W_i = \frac{\prod_{j<i} C_j}{\sum_m \prod_{j<m} C_j}",
             N_("Not (but nearly) ERR: a C/W/L user who stops at a document with the probability of its gain, "
             "and at rank k; expected gain per document read.")),
            ("NERR9", "NERR9@k", "eq. 9", (K, MIN_REL, MAX_REL, CWL_JUDGED), "int",
             r"C_i = \frac{i}{i + 1} (1 - g_i)\ (i < k),\ 0\ (i \ge k)",
             N_("NERR8 with ERR's reciprocal-rank discount folded into the continuation.")),
            ("NERR10", "NERR10(p)", "eq. 10", (P_NERR, MIN_REL, MAX_REL, CWL_JUDGED), "none",
             r"C_i = p\,(1 - g_i)",
             N_("Gain-based stopping with RBP's patience p, over 1000 ranks.")),
            ("NERR11", "NERR11(T)", "eq. 12 (cwl_eval's eq. 11)", (T_GOAL, MIN_REL, MAX_REL, CWL_JUDGED), "none",
             r"C_i = \left(\frac{i + 2T - 1}{i + 2T}\right)^2 (1 - g_i)",
             N_("Gain-based stopping with INSQ's goal T, over 1000 ranks.")),
        )
    ),
    MetricSpec(
        name="inst", source_pretty_name="INST(T)", family="user_model", module="cwl",
        formula=r"C_i = \left(\frac{i + T + T_i - 1}{i + T + T_i}\right)^2,\ T_i = T - \sum_{j \le i} g_j;\quad "
                r"\mathrm{INST} = \sum_i W_i g_i,\ W_i = \frac{\prod_{j<i} C_j}{\sum_m \prod_{j<m} C_j}",
        source_description=N_("Expected gain per document read by a user who wants gain T and reads on less the closer "
                    "the gain found comes to it (adaptive); over 1000 ranks as cwl_eval."),
        reference=f"Moffat, Bailey, Scholer & Thomas, ADCS (2015); {CWL_EVAL}; ir_measures: INST",
        params=(T_GOAL, MIN_REL, MAX_REL, CWL_JUDGED), binary=False,
        measure="INST", kernel_path="cwl.inst",
    ),
    MetricSpec(
        name="insq", source_pretty_name="INSQ(T)", family="user_model", module="cwl",
        formula=r"C_i = \left(\frac{i + 2T - 1}{i + 2T}\right)^2;\quad \mathrm{INSQ} = \sum_i W_i g_i",
        source_description=N_("INST's user with a goal T that does not adapt to the gain found; over 1000 ranks."),
        reference=f"Moffat, Scholer & Thomas, ADCS (2012); {CWL_EVAL}; ir_measures: INSQ",
        params=(T_GOAL, MIN_REL, MAX_REL, CWL_JUDGED), binary=False,
        measure="INSQ", kernel_path="cwl.insq",
    ),
    MetricSpec(
        name="compat", source_pretty_name="Compat", family="user_model", module="cwl",
        formula=r"\mathrm{Compat} = \frac{\mathrm{RBO}(\text{ranking}, \text{ideal})}{\mathrm{RBO}(\text{ideal}, "
                r"\text{ideal})},\quad \mathrm{RBO}(A, B) = \frac{\sum_{i=1}^{D} p^{i-1} |A_{1:i} \cap B_{1:i}| / i}"
                r"{\sum_{i=1}^{D} p^{i-1}}",
        source_description=N_("Rank-biased overlap of the ranking with the ideal ranking of the judged relevant documents "
                    "(grades descending, ties in the ranking's order), normalised so that the ideal scores 1."),
        reference="Clarke, Vtyurina & Smucker, 'Assessing top-k preferences', ACM TOIS 39(3) (2021); Webber, "
                  "Moffat & Zobel, ACM TOIS 28(4) (2010); ir_measures: Compat",
        params=(Param("judged", None, N_("Grades of every judged document of the query: the ideal ranking is their "
                      "positive grades (None: the list's own)."), kind="grades", evaluate="judged"),
                Param("p", 0.95, N_("Persistence of rank-biased overlap, in (0, 1]."), kind="float", measure_key="p"),
                Param("normalize", True, N_("Whether to divide by the ideal ranking's own RBO."),
                      choices=(Choice(True, N_("normalized"), r"\frac{\mathrm{RBO}(\text{ranking}, \text{ideal})}"
                                      r"{\mathrm{RBO}(\text{ideal}, \text{ideal})}",
                                      N_("Divided by the ideal ranking's own RBO, so that the ideal scores 1.")),
                               Choice(False, N_("raw RBO"), r"\mathrm{RBO}(\text{ranking}, \text{ideal})",
                                      N_("Rank-biased overlap with the ideal ranking, not normalised."))),
                      kind="bool", measure_key="normalize")),
        binary=False,
        measure="Compat", aliases=("compat",), kernel_path="compat.compat",
    ),
    MetricSpec(
        name="ndcg_rel", source_pretty_name=N_("nDCG over relevant documents"), family="graded", inputs="qrels_run",
        formula=r"\frac{1}{|\mathrm{Rel}^+|} \sum_{d \in \mathrm{Rel}^+} \mathrm{nDCG@}\mathrm{rank}(d)",
        source_description=N_("nDCG at the rank of each document with a positive gain, averaged; an unretrieved one "
                    "counts the final nDCG (trec_eval experimental)."),
        reference=f"{TREC}: ndcg_rel", params=(GAIN,), binary=False,
        measure="ndcg_rel", trec="ndcg_rel", trec_sets=ALL_TREC, trec_param_syntax="gains",
        kernel_path="graded.ndcg_rel",
    ),
    MetricSpec(
        name="r_ndcg", source_pretty_name="Rndcg", family="graded", inputs="qrels_run",
        formula=r"\text{mean of } \mathrm{nDCG@}i \text{ at the ranks } i \text{ where the ideal gain changes}",
        source_description=N_("nDCG averaged at the ranks where the ideal ranking's gain changes, 0 when R = 0 "
                    "(trec_eval experimental)."),
        reference=f"{TREC}: Rndcg", params=(THRESHOLD, GAIN), binary=False,
        measure="Rndcg", trec="Rndcg", trec_sets=ALL_TREC, trec_param_syntax="gains", kernel_path="graded.r_ndcg",
    ),
    MetricSpec(
        name="normalized_gain", source_pretty_name="G", family="graded", inputs="qrels_run",
        formula=r"G = \frac{1}{\sum_j g^*_j} \sum_{i} \frac{g_i}{\log_2(2 + c_i - \gamma_i)}",
        source_description=N_("Gain of each retrieved document discounted by the ideal cost c_i spent so far minus the "
                    "gain γ_i gained so far, over the total ideal gain (trec_eval experimental)."),
        reference=f"{TREC}: G", params=(GAIN,), binary=False,
        measure="G", trec="G", trec_sets=ALL_TREC, trec_param_syntax="gains", kernel_path="graded.normalized_gain",
    ),
    MetricSpec(
        name="rank_biased_precision", source_pretty_name="RBP", family="graded", inputs="qrels_run",
        formula=r"\mathrm{RBP} = (1 - p) \sum_{i} g_i\, p^{i - 1}",
        source_description=N_("A user reads on from rank i with probability p; gains are the grades scaled to [0, 1] "
                    "per query."),
        reference=f"Moffat & Zobel, ACM TOIS 27(1) (2008); {TREC}: rbp",
        params=(Param("p", 0.9, N_("Persistence: the probability of reading on to the next rank."), kind="float",
                      measure_key="p", per_query=False),),
        binary=False,
        measure="rbp", aliases=("RBP",), trec="rbp", trec_sets=ALL_TREC, new_in_trec_eval_10=True,
        trec_param_syntax="keywords", kernel_path="graded.rank_biased_precision",
    ),
    # ---------------------------------------------------------------------------- correlation
    MetricSpec(
        name="spearman_rho", source_pretty_name=N_("Spearman's ρ"), family="correlation", module="correlation",
        inputs="two_rankings",
        formula=r"\rho = 1 - \frac{6 \sum_j (s_{1,j} - s_{2,j})^2}{K (K^2 - 1)}",
        source_description=N_("Correlation of the ranks two rankings give the same documents (+1 same, -1 reversed)."),
        reference=f"Spearman, Am. J. Psychol. 15 (1904); {LECTURE}, 'SRCC'",
        params=(ITEMS,), value_range=(-1.0, 1.0), binary=False,
        chart="rank_scatter",
    ),
    MetricSpec(
        name="kendall_tau", source_pretty_name=N_("Kendall's τ"), family="correlation", module="correlation",
        inputs="two_rankings",
        formula=r"\tau_b = \frac{C - D}{\sqrt{(C + D + T_1)(C + D + T_2)}}",
        source_description=N_("Concordant minus discordant pairs, normalized (tau-b by default, tau-a available)."),
        reference="Kendall, Biometrika 30 (1938); Kendall, Biometrika 33 (1945) for tau-b",
        params=(KENDALL_VARIANT, ITEMS),
        value_range=(-1.0, 1.0), binary=False,
        chart="pair_matrix",
    ),
    MetricSpec(
        name="kendall_tau_distance", source_pretty_name=N_("Normalized Kendall τ distance@K"), family="correlation",
        module="correlation", inputs="two_rankings",
        formula=r"K_n@K(\tau_1, \tau_2) = \frac{2}{n(n-1)} \sum_{\{i,j\} \in \mathbb{K}} \bar K_{i,j}(\tau_1, \tau_2)",
        source_description=N_("Share of item pairs of the two top-K lists that the lists order differently (0 same)."),
        reference="Fagin, Kumar & Sivakumar, SODA (2003); course note 000",
        params=(K, Param("penalty", 0.5, N_("p: the cost of a pair whose two items appear in only one of the "
                         "top-K lists (Fagin et al.'s K^(p); 0.5 is their neutral choice)."), kind="float"),
                Param("normalized", True, N_("Whether to divide by the number of pairs."),
                      choices=(Choice(True, N_("normalized over the n(n−1)/2 pairs of the union"),
                                      r"\frac{2}{n(n-1)} \sum \bar K_{i,j}",
                                      N_("Fagin et al.'s normalized distance, in [0, 1].")),
                               Choice(False, N_("the raw sum of penalties"), r"\sum \bar K_{i,j}",
                                      N_("The number of discordant pairs, pairs missing from one list costing p."))),
                      kind="bool")),
        binary=False,
    ),
    # ---------------------------------------------------------------------------- classification
    MetricSpec(
        name="auc", source_pretty_name="AUC", family="classification", module="classification",
        inputs="labels_scores",
        formula=r"\mathrm{AUC} = \frac{1}{|P||N|} \sum_{p \in P} \sum_{n \in N} "
                r"\left(\mathbb{1}[s_p > s_n] + \tfrac{1}{2}\mathbb{1}[s_p = s_n]\right)",
        source_description=N_("Probability that a random positive is scored above a random negative."),
        reference="Hanley & McNeil, Radiology 143 (1982); course note 001", params=(ITEMS,),
        chart="roc",
    ),
    MetricSpec(
        name="gauc", source_pretty_name="GAUC", family="classification", module="classification",
        inputs="groups",
        formula=r"\mathrm{GAUC} = \frac{\sum_g w_g \, \mathrm{AUC}_g}{\sum_g w_g}",
        source_description=N_("AUC per group (user, session, query) averaged with weights; one-class groups left out."),
        reference="Zhou et al., Deep Interest Network, KDD (2018); course note 001",
        params=(GAUC_WEIGHT,),
    ),
    # ---------------------------------------------------------------------------- aggregate
    MetricSpec(
        name="mean_average_precision", source_pretty_name="MAP", family="aggregate", module="aggregate",
        inputs="per_query_values",
        formula=r"\mathrm{MAP} = \frac{1}{Q} \sum_{q=1}^{Q} \mathrm{AP}(q)",
        source_description=N_("Arithmetic mean of the per-query average precisions."),
        reference=f"{MANNING}, 8.4; {LECTURE}",
        chart="per_query",
    ),
    MetricSpec(
        name="geometric_mean_average_precision", source_pretty_name="GMAP", family="aggregate", module="aggregate",
        inputs="per_query_values",
        formula=r"\mathrm{GMAP} = \exp\left(\frac{1}{Q} \sum_{q=1}^{Q} \ln \max(\mathrm{AP}(q), \epsilon)\right)",
        source_description=N_("Geometric mean of per-query AP (floored at 1e-5): rewards lifting the worst queries."),
        reference=f"Robertson, CIKM (2006); TREC 2004 Robust track; {TREC}: gm_map",
        params=(Param("floor", 1e-5, N_("ε: APs below it count as ε (trec_eval uses 1e-5)."), kind="float"), REL_ONLY),
        measure="GMAP", aliases=("gm_map", "gm_ap"), trec="gm_map", aggregate="gmean", per_query_printed=False,
        trec_sets=OFFICIAL, kernel_path="binary.geometric_average_precision",
        chart="per_query", tie_average_path="ties.expected_average_precision",
    ),
    MetricSpec(
        name="harmonic_mean_average_precision", source_pretty_name="HMAP", family="aggregate", module="aggregate",
        inputs="per_query_values",
        formula=r"\mathrm{HMAP} = \frac{Q}{\sum_{q=1}^{Q} 1 / \max(\mathrm{AP}(q), \epsilon)}",
        source_description=N_("Harmonic mean of per-query AP: dominated by the worst queries."),
        reference=f"{LECTURE}, slide 'Mean based metrics' (HMAP listed among the popular metrics)",
        params=(Param("floor", 1e-5, N_("ε: APs below it count as ε."), kind="float"),),
        chart="per_query",
    ),
    MetricSpec(
        name="mean_reciprocal_rank", source_pretty_name="MRR", family="aggregate", module="aggregate",
        inputs="per_query_values",
        formula=r"\mathrm{MRR} = \frac{1}{Q} \sum_{q=1}^{Q} \mathrm{RR}(q)",
        source_description=N_("Arithmetic mean of the per-query reciprocal ranks."),
        reference=f"Voorhees (1999); {LECTURE}",
        chart="per_query",
    ),
    # ---------------------------------------------------------------------------- user
    MetricSpec(
        name="coverage", source_pretty_name=N_("Coverage"), family="user", module="user", inputs="sets",
        formula=r"\mathrm{coverage} = \frac{|K \cap R \cap A|}{|K \cap R|}",
        source_description=N_("Share of the relevant documents the user knew of that the system returned."),
        reference=f"Korfhage, Information Storage and Retrieval (1997); {LECTURE}",
    ),
    MetricSpec(
        name="novelty", source_pretty_name=N_("Novelty"), family="user", module="user", inputs="sets",
        formula=r"\mathrm{novelty} = \frac{|(R \cap A) - K|}{|R \cap A|}",
        source_description=N_("Share of the relevant documents returned that the user did not know of."),
        reference=f"Korfhage (1997); {LECTURE}",
    ),
    MetricSpec(
        name="relative_recall", source_pretty_name=N_("Relative recall"), family="user", module="user", inputs="counts",
        formula=r"\text{relative recall} = \frac{\#\text{found}}{\#\text{expected}}",
        source_description=N_("Relevant documents found over those the user expected to find."),
        reference=f"Korfhage (1997); {LECTURE}",
    ),
    MetricSpec(
        name="recall_effort", source_pretty_name=N_("Recall effort"), family="user", module="user", inputs="counts",
        formula=r"\text{recall effort} = \frac{\#\text{expected}}{\#\text{examined}}",
        source_description=N_("Relevant documents expected over documents examined until all were found."),
        reference=f"Korfhage (1997); {LECTURE}",
    ),
    MetricSpec(
        name="expected_search_length", source_pretty_name=N_("Expected search length"), family="user", module="user",
        formula=r"\mathrm{ESL} = j + \frac{i \cdot s}{r + 1}",
        source_description=N_("Expected non-relevant documents examined before finding the wanted relevant ones."),
        reference="Cooper, American Documentation 19(1) (1968)",
        params=(Param("wanted", 1, N_("How many relevant documents the user wants."), kind="int"),
                Param("levels", None, N_("Tie level of each rank for a weak ordering (None: a strict order)."),
                      kind="levels"),
                THRESHOLD),
        value_range=(0.0, math.inf), monotone=False,
    ),
    MetricSpec(
        name="satisfaction", source_pretty_name=N_("Satisfaction@k"), family="user", module="user",
        formula=r"\mathrm{satisfaction} = \frac{|\text{relevant returned}|}{|\text{returned}|}",
        source_description=N_("Share of the returned documents that are relevant."),
        reference=LECTURE, params=RANKED_BINARY,
        sweep=True,
    ),
    MetricSpec(
        name="frustration", source_pretty_name=N_("Frustration@k"), family="user", module="user",
        formula=r"\mathrm{frustration} = \frac{|\text{non-relevant returned}|}{|\text{returned}|}",
        source_description=N_("Share of the returned documents that are not relevant (1 - satisfaction)."),
        reference=LECTURE, params=RANKED_BINARY,
        sweep=True,
    ),
    # ---------------------------------------------------------------------------- set (the retrieved set A)
    MetricSpec(
        name="set_precision", source_pretty_name=N_("Set precision"), family="set", inputs="qrels_run",
        formula=r"\mathrm{set\ P} = \frac{|A \cap \mathrm{Rel}|}{|A|}",
        source_description=N_("Precision of the whole retrieved set A (rankviz.metrics.precision with k=None)."),
        reference=f"{TREC}: set_P", params=(THRESHOLD,),
        measure="SetP", aliases=("set_P",), trec="set_P", trec_sets=("all_trec", "set"),
        kernel_path="binary.set_precision",
        order_free=True,
    ),
    MetricSpec(
        name="set_relative_precision", source_pretty_name=N_("Set relative precision"), family="set", inputs="qrels_run",
        formula=r"\mathrm{set\ relative\ P} = \frac{|A \cap \mathrm{Rel}|}{\min(|A|, R)}",
        source_description=N_("Set precision relative to the best possible for a set of that size."),
        reference=f"{TREC}: set_relative_P", params=(THRESHOLD,),
        measure="SetRelP", aliases=("set_relative_P",), trec="set_relative_P", trec_sets=("all_trec", "set"),
        kernel_path="binary.set_relative_precision",
        order_free=True,
    ),
    MetricSpec(
        name="set_recall", source_pretty_name=N_("Set recall"), family="set", inputs="qrels_run",
        formula=r"\mathrm{set\ R} = \frac{|A \cap \mathrm{Rel}|}{R}",
        source_description=N_("Recall of the whole retrieved set (rankviz.metrics.recall with k=None)."),
        reference=f"{TREC}: set_recall", params=(THRESHOLD,),
        measure="SetR", aliases=("set_recall",), trec="set_recall", trec_sets=("all_trec", "set"),
        kernel_path="binary.set_recall",
        order_free=True,
    ),
    MetricSpec(
        name="set_average_precision", source_pretty_name="Set AP", family="set", inputs="qrels_run",
        formula=r"\mathrm{set\ map} = \frac{|A \cap \mathrm{Rel}|^2}{|A| \cdot R}",
        source_description=N_("Set precision times set recall."),
        reference=f"{TREC}: set_map", params=(THRESHOLD,),
        measure="SetAP", aliases=("set_map",), trec="set_map", trec_sets=("all_trec", "set"),
        kernel_path="binary.set_average_precision",
        order_free=True,
    ),
    MetricSpec(
        name="set_f", source_pretty_name="Set F", family="set", inputs="qrels_run",
        formula=r"\mathrm{set\ F} = \frac{(\beta + 1)\, P R}{\beta P + R}",
        source_description=N_("F-measure of set precision and set recall; trec_eval's β weighs like van Rijsbergen's β²."),
        reference=f"{TREC}: set_F",
        params=(THRESHOLD, Param("beta", 1.0, N_("Weight of recall relative to precision."), kind="float",
                                 measure_key="beta", per_query=False)),
        measure="SetF", aliases=("set_F",), trec="set_F", trec_sets=("all_trec", "set"), trec_param_syntax="values",
        kernel_path="binary.set_f",
        order_free=True,
    ),
    MetricSpec(
        name="utility", source_pretty_name=N_("Utility"), family="set", inputs="qrels_run",
        formula=r"a\,|A \cap \mathrm{Rel}| + b\,|A - \mathrm{Rel}| + c\,|\mathrm{Rel} - A| "
                r"+ d\,(N - |A \cup \mathrm{Rel}|)",
        source_description=N_("Linear utility of the retrieved set, N the collection size (evaluate's collection_size, "
                    "trec_eval -N)."),
        reference=f"TREC Filtering track; {TREC}: utility",
        params=(THRESHOLD,
                Param("a", 1.0, N_("Value of a relevant document retrieved."), kind="float", measure_key="a",
                      per_query=False),
                Param("b", -1.0, N_("Value of a non-relevant document retrieved."), kind="float", measure_key="b",
                      per_query=False),
                Param("c", 0.0, N_("Value of a relevant document not retrieved."), kind="float", measure_key="c",
                      per_query=False),
                Param("d", 0.0, N_("Value of a non-relevant document not retrieved."), kind="float", measure_key="d",
                      per_query=False)),
        value_range=(-math.inf, math.inf),
        measure="utility", trec="utility", trec_sets=("all_trec", "set"), trec_param_syntax="values",
        kernel_path="binary.utility",
        order_free=True,
    ),
    # ---------------------------------------------------------------------------- incomplete judgments
    MetricSpec(
        name="bpref", source_pretty_name="bpref", family="incomplete", inputs="qrels_run",
        formula=r"\mathrm{bpref} = \frac{1}{R} \sum_{r \in A \cap \mathrm{Rel}} "
                r"\left(1 - \frac{\min(n_r, R)}{\min(N, R)}\right)",
        source_description=N_("Counts judged non-relevant documents n_r above each relevant one, N of them in all; "
                    "unjudged documents are skipped."),
        reference=f"Buckley & Voorhees, SIGIR (2004); {TREC}: bpref", params=(THRESHOLD,),
        measure="Bpref", aliases=("bpref",), trec="bpref", trec_sets=OFFICIAL, kernel_path="incomplete.bpref",
    ),
    MetricSpec(
        name="geometric_bpref", source_pretty_name=N_("GM bpref"), family="incomplete", inputs="qrels_run",
        formula=r"\exp\left(\frac{1}{Q} \sum_{q=1}^{Q} \ln \max(\mathrm{bpref}(q), \epsilon)\right)",
        source_description=N_("bpref per query, geometric mean over queries (floored at 1e-5)."),
        reference=f"{TREC}: gm_bpref", params=(THRESHOLD,),
        measure="gm_bpref", trec="gm_bpref", aggregate="gmean", per_query_printed=False, trec_sets=ALL_TREC,
        kernel_path="incomplete.geometric_bpref",
    ),
    MetricSpec(
        name="inferred_ap", source_pretty_name="infAP", family="incomplete", inputs="qrels_run",
        formula=r"\mathrm{infAP} = \frac{1}{R} \sum_{r \in A \cap \mathrm{Rel}} \left(\frac{1}{j + 1} + "
                r"\frac{j}{j + 1} \cdot \frac{|d_{<r} \in \mathrm{pool}|}{j} \cdot "
                r"\frac{|\mathrm{Rel}_{<r}| + \epsilon}{|\mathrm{judged}_{<r}| + 2\epsilon}\right)",
        source_description=N_("AP estimated from a sample of judgments: j documents above r, pooled but unjudged ones "
                    "(negative grades) estimated."),
        reference=f"Yilmaz & Aslam, CIKM (2006); {TREC}: infAP", params=(THRESHOLD,),
        measure="infAP", aliases=("infap", "InfAP"), trec="infAP", trec_sets=ALL_TREC,
        kernel_path="incomplete.inferred_ap",
    ),
    MetricSpec(
        name="unjudged_at", source_pretty_name="unj@k", family="incomplete", inputs="qrels_run",
        formula=r"\mathrm{unj@}k = \frac{|\{i \le k : d_i \text{ has no judgment}\}|}{k}",
        source_description=N_("Fraction of the top k without a judgment (ranks past the end count as judged)."),
        reference=f"{TREC}: unj", binary=False,
        measure="unj", trec="unj", trec_cut="unj", default_cutoffs=(5, 10, 20), cutoff="int", trec_sets=ALL_TREC,
        new_in_trec_eval_10=True, kernel_path="incomplete.unjudged_at",
    ),
    MetricSpec(
        name="judged_at", source_pretty_name=N_("Judged@k"), family="incomplete", inputs="qrels_run",
        formula=r"\mathrm{Judged@}k = \frac{|\{i \le \min(k, n) : d_i \in \mathrm{qrels}\}|}{\min(k, n)}",
        source_description=N_("Fraction of the top k retrieved documents (of all n when fewer) that the qrels list, "
                    "whatever their grade; k = n without a cutoff."),
        reference="ir_measures: Judged (after OpenNIR's judged@k; MacAvaney et al.)", binary=False,
        measure="Judged", cutoff="optional_int", kernel_path="incomplete.judged_at",
    ),
    MetricSpec(
        name="rbp_residual", source_pretty_name=N_("RBP residual"), family="incomplete", inputs="qrels_run",
        formula=r"p^{n} + (1 - p) \sum_{i \text{ unjudged}} p^{i - 1},\quad p = 0.9",
        source_description=N_("How much RBP could still grow: the weight of the unjudged ranks and of the tail after "
                    "the n retrieved; 0 when every retrieved document is judged."),
        reference=f"Moffat & Zobel (2008); {TREC}: rbp_resid", binary=False,
        measure="rbp_resid", trec="rbp_resid", trec_sets=ALL_TREC, new_in_trec_eval_10=True,
        kernel_path="incomplete.rbp_residual",
    ),
    # ---------------------------------------------------------------------------- counts and summaries
    MetricSpec(
        name="run_id", source_pretty_name="Run id", family="summary", inputs="qrels_run",
        formula=r"\text{the run's tag}",
        source_description=N_("The run's name, the last column of the run file (evaluate's result.run_name)."),
        reference=f"{TREC}: runid", value_range=None, binary=False,
        measure="runid", trec="runid", aggregate="none", per_query_printed=False, trec_sets=SUMMARY_SETS,
        order_free=True,
    ),
    MetricSpec(
        name="num_q", source_pretty_name=N_("Queries"), family="summary", inputs="qrels_run",
        formula=r"\mathrm{num\_q} = |Q|",
        source_description=N_("Number of queries evaluated."),
        reference=f"{TREC}: num_q", value_range=(0.0, math.inf), binary=False,
        measure="NumQ", aliases=("num_q",), trec="num_q", aggregate="sum", integer=True, per_query_printed=False,
        trec_sets=SUMMARY_SETS, kernel_path="binary.num_q",
        order_free=True,
    ),
    MetricSpec(
        name="num_ret", source_pretty_name=N_("Retrieved"), family="summary", inputs="qrels_run",
        formula=r"\mathrm{num\_ret} = |A|",
        source_description=N_("Number of documents retrieved."),
        reference=f"{TREC}: num_ret", value_range=(0.0, math.inf), binary=False,
        measure="NumRet", aliases=("num_ret",), trec="num_ret", aggregate="sum", integer=True, trec_sets=EVERY_SET,
        kernel_path="binary.num_ret",
        order_free=True,
    ),
    MetricSpec(
        name="num_rel", source_pretty_name=N_("Relevant (R)"), family="summary", inputs="qrels_run",
        formula=r"R = |\mathrm{Rel}| = |\{d : g(d) \ge \ell\}|",
        source_description=N_("Number of relevant documents of the query in the qrels."),
        reference=f"{TREC}: num_rel", params=(THRESHOLD,), value_range=(0.0, math.inf),
        measure="NumRel", aliases=("num_rel",), trec="num_rel", aggregate="sum", integer=True, trec_sets=EVERY_SET,
        kernel_path="binary.num_rel",
        order_free=True,
    ),
    MetricSpec(
        name="num_rel_ret", source_pretty_name=N_("Relevant retrieved"), family="summary", inputs="qrels_run",
        formula=r"|A \cap \mathrm{Rel}|",
        source_description=N_("Number of relevant documents retrieved."),
        reference=f"{TREC}: num_rel_ret", params=(THRESHOLD,), value_range=(0.0, math.inf),
        measure="NumRelRet", aliases=("num_rel_ret",), trec="num_rel_ret", aggregate="sum", integer=True,
        trec_sets=EVERY_SET, kernel_path="binary.num_rel_ret",
        order_free=True,
    ),
    MetricSpec(
        name="num_nonrel_judged_ret", source_pretty_name=N_("Judged non-relevant retrieved"), family="summary",
        inputs="qrels_run",
        formula=r"|\{d \in A : 0 \le g(d) < \ell\}|",
        source_description=N_("Number of judged non-relevant documents retrieved."),
        reference=f"{TREC}: num_nonrel_judged_ret", params=(THRESHOLD,), value_range=(0.0, math.inf),
        measure="NumNonRelJudgedRet", aliases=("num_nonrel_judged_ret",), trec="num_nonrel_judged_ret",
        aggregate="sum", integer=True, trec_sets=ALL_TREC, kernel_path="binary.num_nonrel_judged_ret",
        order_free=True,
    ),
    MetricSpec(
        name="relevance_string", source_pretty_name="relstring", family="summary", inputs="qrels_run",
        formula=r"g(d_1)\, g(d_2) \cdots g(d_k)",
        source_description=N_("Grades of the top k documents (k = 10 by default) as a string: '-' not in the qrels, "
                    "'.' pooled but unjudged, '>' above 9."),
        reference=f"{TREC}: relstring", value_range=None, binary=False,
        measure="relstring", trec="relstring", trec_cut="relstring", cutoff="optional_int", aggregate="none",
        trec_sets=ALL_TREC, kernel_path="relstring.relevance_string",
    ),
    # ---------------------------------------------------------------------------- preferences (-R prefs)
    *(
        MetricSpec(
            name=name, source_pretty_name=pretty, family="preference", inputs="prefs_run",
            formula=formula, source_description=description, reference=f"{PREFS_REFERENCE}: {name}",
            value_range=(0.0, math.inf) if integer else (0.0, 1.0), binary=False,
            measure=name, trec=name, aggregate="sum" if integer else "mean", integer=integer,
            trec_sets=sets, kernel_path=f"preferences.{kernel}",
        )
        for name, pretty, kernel, integer, sets, formula, description in (
            ("prefs_num_prefs_poss", N_("Preferences possible"), "preferences_possible", True, PREFS_OFFICIAL,
             r"|\mathcal{P}| = \sum_{g} |\mathcal{P}_g|",
             N_("Number of preferences a > b stated by the judgment groups (each group counts its own), "
             "retrieved or not.")),
            ("prefs_num_prefs_ful", N_("Preferences fulfilled"), "preferences_fulfilled", True, PREFS_OFFICIAL,
             r"|\{a > b \in \mathcal{P} : a \text{ retrieved above } b \text{ or } b \text{ not retrieved}\}|",
             N_("Preferences fulfilled: a retrieved above b, or a retrieved and b not (implied).")),
            ("prefs_num_prefs_ful_ret", N_("Preferences fulfilled (retrieved)"), "preferences_fulfilled_retrieved", True,
             PREFS_OFFICIAL, r"|\{a > b \in \mathcal{P} : a, b \text{ retrieved}, a \text{ above } b\}|",
             N_("Preferences fulfilled between two retrieved documents.")),
            ("prefs_simp", N_("Preference ratio"), "preference_ratio", False, PREFS_OFFICIAL,
             r"\mathrm{prefs\_simp} = \frac{\text{fulfilled}}{|\mathcal{P}|}",
             N_("Fulfilled preferences over all preferences, every judgment group pooled; a preference "
             "whose documents were both missed counts as failed.")),
            ("prefs_pair", N_("Preference ratio per pair"), "pair_ratio", False, PREFS_OFFICIAL,
             r"\frac{1}{|D_2|} \sum_{\{a,b\} \in D_2} \frac{n_{a>b}}{n_{a>b} + n_{b>a}}",
             N_("Mean over judged document pairs of the share of the groups' preferences on the pair that the "
             "ranking fulfils (3 groups agree, 2 disagree: 3/5).")),
            ("prefs_avgjg", N_("Preference ratio per judgment group"), "group_ratio", False, PREFS_OFFICIAL,
             r"\frac{1}{|G|} \sum_{g \in G} \frac{\text{fulfilled}_g}{|\mathcal{P}_g|}",
             N_("Fulfilled over possible preferences within each judgment group (user), averaged over groups: "
             "every user counts the same.")),
            ("prefs_avgjg_Rnonrel", N_("Preference ratio per group, R non-relevant"), "group_ratio_r_nonrelevant",
             False, PREFS_ALL,
             r"\frac{1}{|G|} \sum_{g} \frac{\text{fulfilled}_g}{\text{possible}_g},\ N_g := R_g",
             N_("prefs_avgjg with each group's non-relevant documents (level 0) cut or padded to R, its number "
             "of relevant ones (akin to bpref); reproduces trec_eval's counting exactly.")),
            ("prefs_simp_ret", N_("Preference ratio (retrieved)"), "preference_ratio_retrieved", False, PREFS_ALL,
             r"\frac{\text{fulfilled}_{\mathrm{ret}}}{|\mathcal{P}_{\mathrm{ret}}|}",
             N_("prefs_simp over the preferences between two retrieved documents only.")),
            ("prefs_pair_ret", N_("Preference ratio per pair (retrieved)"), "pair_ratio_retrieved", False, PREFS_ALL,
             r"\frac{1}{|D_2^{\mathrm{ret}}|} \sum_{\{a,b\}} \frac{n_{a>b}}{n_{a>b} + n_{b>a}}",
             N_("prefs_pair over the pairs of two retrieved documents only.")),
            ("prefs_avgjg_ret", N_("Preference ratio per group (retrieved)"), "group_ratio_retrieved", False, PREFS_ALL,
             r"\frac{1}{|G|} \sum_{g} \frac{\text{fulfilled}_{g,\mathrm{ret}}}{|\mathcal{P}_{g,\mathrm{ret}}|}",
             N_("prefs_avgjg over the preferences between two retrieved documents only.")),
            ("prefs_avgjg_Rnonrel_ret", N_("Preference ratio per group, R non-relevant (retrieved)"),
             "group_ratio_r_nonrelevant_retrieved", False, PREFS_ALL,
             r"\frac{1}{|G|} \sum_{g} \frac{\text{fulfilled}_{g,\mathrm{ret}}}{\text{possible}_{g,\mathrm{ret}}},"
             r"\ N_g := R_g",
             N_("prefs_avgjg_Rnonrel over the retrieved documents only.")),
            ("prefs_simp_imp", N_("Preference ratio (implied)"), "preference_ratio_implied", False, PREFS_ALL,
             r"\frac{\text{fulfilled}}{|\mathcal{P}_{\mathrm{ret}}| + |\mathcal{P}_{\mathrm{imp}}|}",
             N_("prefs_simp over the preferences with at least one retrieved document.")),
            ("prefs_pair_imp", N_("Preference ratio per pair (implied)"), "pair_ratio_implied", False, PREFS_ALL,
             r"\frac{1}{|D_2^{\mathrm{imp}}|} \sum_{\{a,b\}} \frac{n_{a>b}}{n_{a>b} + n_{b>a}}",
             N_("prefs_pair over the pairs with at least one retrieved document.")),
            ("prefs_avgjg_imp", N_("Preference ratio per group (implied)"), "group_ratio_implied", False, PREFS_ALL,
             r"\frac{1}{|G|} \sum_{g} \frac{\text{fulfilled}_g}{|\mathcal{P}_{g,\mathrm{ret}}| + "
             r"|\mathcal{P}_{g,\mathrm{imp}}|}",
             N_("prefs_avgjg over the preferences with at least one retrieved document.")),
        )
    ),
    # ---------------------------------------------------------------------------- judgment groups (-R qrels_jg)
    MetricSpec(
        name="average_precision_over_groups", source_pretty_name=N_("AP averaged over judgment groups"), family="judgment_group",
        inputs="qrels_jg_run",
        formula=r"\mathrm{map\_avgjg} = \frac{1}{|G|} \sum_{g \in G} \mathrm{AP}_g",
        source_description=N_("AP computed with each judgment group's (user's) qrels and R, averaged over the groups "
                    "that judged the query."),
        reference=f"{TREC}: map_avgjg", params=(THRESHOLD,),
        measure="map_avgjg", trec="map_avgjg", trec_sets=JUDGMENT_GROUPS,
        kernel_path="judgment_groups.average_precision_over_groups",
    ),
    MetricSpec(
        name="precision_over_groups", source_pretty_name=N_("P@k averaged over judgment groups"), family="judgment_group",
        inputs="qrels_jg_run",
        formula=r"\mathrm{P\_avgjg}@k = \frac{1}{|G|} \sum_{g \in G} P_g@k",
        source_description=N_("P@k with each judgment group's qrels, averaged over the groups that judged the query."),
        reference=f"{TREC}: P_avgjg", params=(THRESHOLD,),
        measure="P_avgjg", trec="P_avgjg", trec_cut="P_avgjg", default_cutoffs=TREC_CUTOFFS, cutoff="int",
        trec_sets=JUDGMENT_GROUPS, kernel_path="judgment_groups.precision_over_groups",
    ),
    MetricSpec(
        name="r_precision_multiple_over_groups", source_pretty_name=N_("Precision at x R averaged over judgment groups"),
        family="judgment_group", inputs="qrels_jg_run",
        formula=r"\frac{1}{|G|} \sum_{g \in G} P_g@c_g,\quad c_g = \lfloor x R_g + 0.9 \rfloor",
        source_description=N_("Precision at a multiple x of each judgment group's R (its own relevant documents), "
                    "averaged over the groups that judged the query."),
        reference=f"{TREC}: Rprec_mult_avgjg", params=(THRESHOLD,),
        measure="Rprec_mult_avgjg", trec="Rprec_mult_avgjg", trec_cut="Rprec_mult_avgjg",
        default_cutoffs=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0), cutoff="float",
        trec_sets=JUDGMENT_GROUPS, kernel_path="judgment_groups.r_precision_multiple_over_groups",
    ),
    # ---------------------------------------------------------------------------- diversity (subtopic qrels)
    MetricSpec(
        name="alpha_ndcg", source_pretty_name="α-nDCG@k", family="diversity", module="diversity", inputs="subtopics",
        formula=NOVELTY_GAIN + r",\quad \alpha\text{-nDCG@}k = \frac{\sum_{i\le k} g(i)/\log_2(i+1)}"
                               r"{\sum_{i\le k} g^*(i)/\log_2(i+1)}",
        source_description=N_("nDCG whose gain rewards subtopics not yet covered: a subtopic seen n times before is worth "
                    "(1 - α)^n. The ideal ranking g* is ndeval's greedy one (equal gains: greatest docno first); it "
                    "is not always the best ranking, so a ranking can score above 1."),
        reference=f"{CLARKE_2008}; {NDEVAL}: alpha-nDCG@k", params=(K, ALPHA, SUBTOPIC_JUDGED, REL_ONLY, JUDGED_ONLY),
        value_range=(0.0, math.inf),
        measure="alpha_nDCG", aliases=("alpha-nDCG", "α_nDCG", "α-nDCG"), cutoff="int",
        kernel_path="diversity.alpha_ndcg",
    ),
    MetricSpec(
        name="alpha_dcg", source_pretty_name="α-DCG@k", family="diversity", module="diversity", inputs="subtopics",
        formula=NOVELTY_GAIN + r",\quad \alpha\text{-DCG@}k = \frac{\sum_{i\le k} g(i)/\log_2(i+1)}"
                               r"{S \sum_{i\le k} (1-\alpha)^{i-1}/\log_2(i+1)}",
        source_description=N_("α-DCG with ndeval's collection-independent normalisation: divided by the score of documents "
                    "relevant to all S subtopics (ndeval leaves rank 1 undivided; rankviz divides at every k)."),
        reference=f"{CLARKE_2008}; {NDEVAL}: alpha-DCG@k", params=(K, ALPHA, SUBTOPIC_JUDGED, REL_ONLY, JUDGED_ONLY),
        measure="alpha_DCG", aliases=("alpha-DCG", "α_DCG", "α-DCG"), cutoff="int", kernel_path="diversity.alpha_dcg",
    ),
    MetricSpec(
        name="err_ia", source_pretty_name="ERR-IA@k", family="diversity", module="diversity", inputs="subtopics",
        formula=NOVELTY_GAIN + r",\quad \mathrm{ERR\text{-}IA@}k = \frac{\sum_{i\le k} g(i)/i}"
                               r"{S \sum_{i\le k} (1-\alpha)^{i-1}/i}",
        source_description=N_("Intent-aware ERR with binary subtopic judgments (each relevant document satisfies an intent "
                    "with probability α, intents equally likely), normalised as ndeval does by documents relevant "
                    "to every subtopic (ndeval leaves rank 1 undivided; rankviz divides at every k)."),
        reference=f"{CHAPELLE_2009}; {NDEVAL}: ERR-IA@k", params=(K, ALPHA, SUBTOPIC_JUDGED, REL_ONLY, JUDGED_ONLY),
        measure="ERR_IA", aliases=("ERR-IA",), cutoff="int", kernel_path="diversity.err_ia",
    ),
    MetricSpec(
        name="nerr_ia", source_pretty_name="nERR-IA@k", family="diversity", module="diversity", inputs="subtopics",
        formula=r"\mathrm{nERR\text{-}IA@}k = \frac{\sum_{i\le k} g(i)/i}{\sum_{i\le k} g^*(i)/i}",
        source_description=N_("ERR-IA over ERR-IA of ndeval's greedy ideal ranking (can exceed 1 where greedy is not best)."),
        reference=f"{CHAPELLE_2009}; {NDEVAL}: nERR-IA@k", params=(K, ALPHA, SUBTOPIC_JUDGED, REL_ONLY, JUDGED_ONLY),
        value_range=(0.0, math.inf),
        measure="nERR_IA", aliases=("nERR-IA",), cutoff="int", kernel_path="diversity.nerr_ia",
    ),
    MetricSpec(
        name="nrbp", source_pretty_name="NRBP", family="diversity", module="diversity", inputs="subtopics",
        formula=r"\mathrm{NRBP} = \frac{1-(1-\alpha)\beta}{S} \sum_i \beta^{i-1} g(i)",
        source_description=N_("Novelty- and rank-biased precision: RBP with patience β over the novelty-biased gain, over "
                    "the whole list; 1 for an endless list of documents relevant to every subtopic."),
        reference=f"{CLARKE_2009}; {NDEVAL}: NRBP", params=(ALPHA, BETA_NRBP, SUBTOPIC_JUDGED, REL_ONLY, JUDGED_ONLY),
        measure="NRBP", kernel_path="diversity.nrbp",
    ),
    MetricSpec(
        name="nnrbp", source_pretty_name="nNRBP", family="diversity", module="diversity", inputs="subtopics",
        formula=r"\mathrm{nNRBP} = \frac{\sum_i \beta^{i-1} g(i)}{\sum_i \beta^{i-1} g^*(i)}",
        source_description=N_("NRBP over NRBP of ndeval's greedy ideal ranking; 0 for a topic without relevant documents "
                    "(ndeval prints nan there)."),
        reference=f"{CLARKE_2009}; {NDEVAL}: nNRBP", params=(ALPHA, BETA_NRBP, SUBTOPIC_JUDGED, REL_ONLY, JUDGED_ONLY),
        value_range=(0.0, math.inf),
        measure="nNRBP", kernel_path="diversity.nnrbp",
    ),
    MetricSpec(
        name="ap_ia", source_pretty_name="AP-IA", family="diversity", module="diversity", inputs="subtopics",
        formula=r"\mathrm{AP\text{-}IA} = \frac{1}{S} \sum_s \frac{1}{R_s} \sum_{i:\,J(d_i,s)=1} "
                r"\frac{c_s(i)+1}{i}",
        source_description=N_("Average precision per subtopic (R_s its judged relevant documents), averaged over the S "
                    "subtopics: ndeval's MAP-IA per topic."),
        reference=f"{AGRAWAL_2009}; {NDEVAL}: MAP-IA", params=(SUBTOPIC_JUDGED, REL_ONLY, JUDGED_ONLY),
        measure="AP_IA", aliases=("MAP_IA", "MAP-IA", "AP-IA"), kernel_path="diversity.ap_ia",
    ),
    MetricSpec(
        name="p_ia", source_pretty_name="P-IA@k", family="diversity", module="diversity", inputs="subtopics",
        formula=r"\mathrm{P\text{-}IA@}k = \frac{1}{S} \sum_s \frac{|\{i \le k : J(d_i, s) = 1\}|}{k}",
        source_description=N_("Intent-aware precision: P@k per subtopic, averaged over the S subtopics."),
        reference=f"{AGRAWAL_2009}; {NDEVAL}: P-IA@k", params=(K, SUBTOPIC_JUDGED, REL_ONLY, JUDGED_ONLY),
        measure="P_IA", aliases=("P-IA",), cutoff="int", kernel_path="diversity.p_ia",
    ),
    MetricSpec(
        name="subtopic_recall", source_pretty_name=N_("S-recall@k"), family="diversity", module="diversity", inputs="subtopics",
        formula=r"\mathrm{S\text{-}recall@}k = \frac{|\bigcup_{i \le k} \{s : J(d_i, s) = 1\}|}{S}",
        source_description=N_("Share of the S subtopics covered by the top k documents."),
        reference=f"{ZHAI_2003}; {NDEVAL}: strec@k", params=(K, SUBTOPIC_JUDGED, REL_ONLY, JUDGED_ONLY),
        measure="StRecall", aliases=("strec", "S-recall", "ST-recall"), cutoff="int",
        kernel_path="diversity.subtopic_recall",
    ),
)

#: trec_eval 10.0's printing order (te_trec_measures[] in measures.c), by trec_eval measure
#: name. map_cut and ndcg_cut are measures of their own there, printed far from map and ndcg;
#: this order matches every expected output in trec_eval's test data.
TREC_PRINT_ORDER = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg",
    "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success",
    "set_P", "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret",
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
    "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg", "P_avgjg",
    "Rprec_mult_avgjg", "yaap", "rbp", "rbp_resid", "unj",
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
    ValueError: Unknown metric 'ndgc'. Did you mean 'ndcg', 'r_ndcg'? Known metrics: hit, precision, ...
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


def named_sets() -> dict[str, tuple[str, ...]]:
    """trec_eval's named sets (v10.0) as trec_eval names, in its printing order.

    ``official`` and ``set`` hold their members' names without a cutoff; ``all_trec`` also the
    names with one (``map_cut``, ``ndcg_cut``), which trec_eval counts as measures of their own.

    >>> sets = named_sets()
    >>> " ".join(sets["official"])
    'runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall P'
    >>> "map_cut" in sets["all_trec"], "dcg" in sets["all_trec"]
    (True, False)
    """
    position = {name: i for i, name in enumerate(TREC_PRINT_ORDER)}
    members: dict[str, set] = {name: set() for name in ("official", "all_trec", "set", "all_prefs", "prefs", "qrels_jg")}
    for spec in METRICS:
        for set_name in spec.trec_sets:
            members[set_name].add(spec.trec)
            if set_name in ("all_trec", "qrels_jg") and spec.trec_cut:
                members[set_name].add(spec.trec_cut)
    return {name: tuple(sorted(names, key=position.__getitem__)) for name, names in members.items()}


def ranking_metric_table(rels, *, families: tuple[str, ...] | None = None, errors: str = "raise", **settings):
    """Every metric that takes one ranked list, computed on ``rels`` with shared settings.

    ``settings`` may hold any of ``k``, ``n_relevant``, ``judged``, ``rel_threshold``, ``gain``,
    ``discount``, ``log_base``, ``beta``, ``max_grade``, ``wanted``; each metric receives those it
    accepts. ``families`` keeps those families only (None: all). ``errors="raise"`` lets a
    metric's ValueError propagate; ``errors="collect"`` gives that metric NaN and its message in
    the ``error`` column, so that one setting a metric rejects never hides the others.

    Returns one row per metric with columns ``metric`` (name), ``name`` (pretty name),
    ``value``, ``family``, ``variant`` (the settings the value used), ``definition`` and
    ``error`` (None, or the message).

    >>> table = ranking_metric_table([3, 2, 3, 0, 1, 2], k=5, gain="exponential")
    >>> float(table.set_index("metric").loc["precision", "value"])  # 4 of the top 5 are relevant
    0.8
    >>> table = ranking_metric_table([1, 0], families=("binary",), errors="collect", k=0)
    >>> table["error"].iloc[0]
    "The 'k' parameter of hit must be an int in the range [1, inf) or None. Got 0 instead."
    """
    import pandas as pd

    if errors not in ("raise", "collect"):
        raise ValueError(f"The 'errors' parameter of ranking_metric_table must be 'raise' or 'collect'. "
                         f"Got {errors!r} instead.")
    rows = []
    for spec in specs_for(inputs="ranking", families=families):
        used = spec.applicable(settings)
        message = None
        try:
            value = float(spec.function(rels, **used))
        except ValueError as error:
            if errors == "raise":
                raise
            value, message = math.nan, str(error)
        variant = ", ".join(f"{k}={v}" for k, v in used.items() if k not in ("judged",))
        rows.append({"metric": spec.name, "name": spec.pretty_name, "value": value, "family": spec.family,
                     "variant": variant, "definition": spec.description, "error": message})
    return pd.DataFrame(rows)


# Section titles of the generated reference (sections come in the order families first appear).
_FAMILY_TITLES = {
    "binary": "Binary relevance", "graded": "Graded relevance", "correlation": "Correlation of rankings",
    "classification": "Classification", "aggregate": "Aggregates over queries", "user": "User-oriented",
    "set": "Measures of the retrieved set", "incomplete": "Incomplete judgments",
    "summary": "Counts and summaries of a run",
    "preference": "Preference judgments (trec_eval -R prefs, -R qrels_prefs)",
    "judgment_group": "Judgment groups (trec_eval -R qrels_jg)",
    "user_model": "User models (C/W/L) and compatibility",
    "diversity": "Diversity (subtopic qrels: evaluate(..., qrels_format=\"subtopics\"), ndeval's conventions)",
}
_AGGREGATE_WORDS = {"mean": "arithmetic mean", "gmean": "geometric mean (values floored at 1e-5)", "sum": "sum",
                    "none": "none (per query only)"}
_CUTOFF_WORDS = {"int": "a rank cutoff k (required)", "optional_int": "an optional rank cutoff k",
                 "float": "a multiple x of R (required)", "recall": "a recall level in [0, 1] (required)"}


def _measure_lines(spec: MetricSpec) -> list[str]:
    """The docs lines saying how to ask evaluate (and trec_eval) for this measure."""
    at = {"none": "", "int": "@k", "optional_int": "[@k]", "float": "@x", "recall": "@r"}[spec.cutoff]
    names = [f"`{spec.measure}{at}`"] + [f"`{a}`" for a in spec.aliases if a not in (spec.trec, spec.trec_cut)]
    lines = [f"- Measure: {', '.join(names)}"]
    if spec.trec:
        trec = f"`{spec.trec}`"
        if spec.trec_cut:
            suffix = "_x" if spec.cutoff in ("float", "recall") else "_k"
            trec = f"`{spec.trec_cut}{suffix}`" if spec.trec_cut == spec.trec else f"{trec}, `{spec.trec_cut}{suffix}`"
        if spec.default_cutoffs:
            trec += f" (`-m {spec.trec_cut}`: {', '.join(f'{c:g}' for c in spec.default_cutoffs)})"
        if spec.trec_sets:
            trec += f"; in {', '.join(spec.trec_sets)}"
        lines.append(f"- trec_eval: {trec}" + (" (new in 10.0)" if spec.new_in_trec_eval_10 else ""))
    else:
        lines.append("- trec_eval: none (a rankviz measure)")
    if spec.cutoff != "none":
        lines.append(f"- Cutoff: {_CUTOFF_WORDS[spec.cutoff]}")
    kind = "integer count" if spec.integer else "text" if spec.value_range is None else "number"
    lines.append(f"- Over queries: {_AGGREGATE_WORDS[spec.aggregate]}; per-query value: {kind}")
    if spec.kernel_path:
        lines.append(f"- Batch kernel: `rankviz.metrics.kernels.{spec.kernel_path}`")
    return lines


def _param_lines(spec: MetricSpec, p: Param) -> list[str]:
    """The docs lines of one parameter: its default and meaning, then one line per choice."""
    per_query = bool(spec.module) and p.per_query
    name = p.name if per_query else p.measure_key or p.name
    notes = []
    if p.measure_key is not None:
        notes.append(f"`{p.measure_key}=` in measure names" if p.measure_key != name else "settable in measure names")
    if spec.measure and per_query and p.evaluate:
        source = "[the measure's cutoff]" if p.kind == "levels" else EVALUATE_SOURCES[p.evaluate]
        notes.append(f"evaluate uses {source}")
    note = f" [{'; '.join(notes)}]" if notes else ""
    return [f"- `{name}` = `{p.default!r}`: {p.source_description}{note}",
            *(f"  - `{c.value!r}`: {c.source_label}, ${c.formula}$. {c.source_description}" for c in p.choices)]


def metrics_markdown() -> str:
    """The metric reference as Markdown, generated from the registry (``docs/metrics.md``).

    Regenerate with ``python -m rankviz.registry > docs/metrics.md``; a test fails when the file
    and the registry disagree, so the documentation cannot drift from the code.

    Examples
    --------
    One section per family, in order of first appearance, one entry per metric in registry
    order (Hit@k comes first), with its measure names and trec_eval's:

    >>> lines = metrics_markdown().splitlines()
    >>> lines[0], lines[4], lines[6]
    ('# rankviz metric reference', '## Binary relevance', '### Hit@k (Accuracy@k) — `rankviz.metrics.hit`')
    >>> [line for line in lines[7:30] if line.startswith(("- Measure", "- trec_eval"))]
    ['- Measure: `Success@k`, `Hit`, `hit`, `hits`', '- trec_eval: `success_k` (`-m success`: 1, 5, 10); in all_trec']
    """
    lines = [
        "# rankviz metric reference",
        "",
        "Generated from `rankviz/registry.py` by `python -m rankviz.registry > docs/metrics.md`; do not edit.",
        "",
    ]
    for family in dict.fromkeys(spec.family for spec in METRICS):
        lines += [f"## {_FAMILY_TITLES.get(family, family.capitalize())}", ""]
        for spec in (s for s in METRICS if s.family == family):
            where = f"`rankviz.metrics.{spec.name}`" if spec.module else f"`evaluate(..., \"{spec.measure}\")`"
            lines += [f"### {spec.source_pretty_name} — {where}", "", spec.source_description, "",
                      f"$$ {spec.formula} $$", ""]
            if spec.value_range is not None:
                low, high = spec.value_range
                lines.append(f"- Input: {spec.inputs.replace('_', ' ')}; range [{low:g}, {high:g}]"
                             + ("; binary relevance (grade >= rel_threshold)"
                                if spec.binary and spec.inputs == "ranking" else ""))
            else:
                lines.append(f"- Input: {spec.inputs.replace('_', ' ')}; a text value")
            if spec.module:
                lines.append(f"- Worked table: `rankviz.metrics.{spec.name}_breakdown`")
            if spec.measure:
                lines += _measure_lines(spec)
            lines.append(f"- Reference: {spec.reference}")
            lines += [line for p in spec.params for line in _param_lines(spec, p)]
            lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - exercised by tests/test_registry.py via the file
    print(metrics_markdown(), end="")
