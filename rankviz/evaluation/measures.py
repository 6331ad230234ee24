"""Measure names, parsed once into hashable ``Measure`` values.

Users know two naming families and both are accepted:

* **ir_measures style**: ``Name(param=value,...)@cutoff``, e.g. ``P@10``, ``R@100``, ``AP``,
  ``AP@100``, ``RR@10``, ``nDCG@10``, ``nDCG(gain=exp)@10``, ``Success@5``, ``ERR@20``,
  ``IPrec@0.5``, ``P(rel=2)@10``, ``NumRet``, ``GMAP``.
* **trec_eval style**: the names trec_eval prints (``P_10``, ``recall_100``, ``map``,
  ``map_cut_100``, ``recip_rank``, ``ndcg_cut_10``, ``iprec_at_recall_0.50``, ``gm_map``,
  ``ndcg_1=3,2=9``, ``utility_2,-1,0,0``) and its command-line parameter syntax
  (``P.5,10``, ``ndcg_cut.10,20``, ``ndcg.1=3,2=9``, ``11pt_avg..25,.5,.75``). A bare trec_eval
  family with default cutoffs (``P``, ``recall``, ``iprec_at_recall``, ``ndcg_cut``...) names
  all its default cutoffs, as ``trec_eval -m P`` does, so it goes through :func:`parse_measures`.

``str(measure)`` is the canonical ir_measures-style spelling and round-trips:
``parse_measure(str(m)) == m``. ``measure.trec_name`` is what trec_eval prints for it (the
canonical spelling when trec_eval has no such measure, e.g. ``ERR@20``).

>>> m = parse_measure("ndcg_cut_10")
>>> str(m), m.trec_name
('nDCG@10', 'ndcg_cut_10')
>>> parse_measure("nDCG@10") == m
True
>>> [str(x) for x in parse_measures(["P.5,10", "map"])]
['P@5', 'P@10', 'AP']
>>> parse_measure("nDGC@10")
Traceback (most recent call last):
...
ValueError: Unknown measure 'nDGC@10': no measure is called 'nDGC'. Close matches: nDCG.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field

__all__ = [
    "Measure",
    "MeasureFamily",
    "FAMILIES",
    "NAMED_SETS",
    "parse_measure",
    "parse_measures",
]

# --------------------------------------------------------------------------------------------
# Families: one entry per measure kind, in trec_eval's printing order (te_trec_measures[]).
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MeasureFamily:
    """What rankviz knows about one kind of measure.

    ``cutoff`` is ``"none"``, ``"int"`` (a rank cutoff k), ``"float"`` (a recall level or a
    multiple of R), or ``"optional_int"`` (the whole list without a cutoff).
    ``trec`` / ``trec_cut`` are trec_eval's family names without / with a cutoff (``None``
    when trec_eval has no such measure). ``default_cutoffs`` are trec_eval's defaults, used
    when the bare trec family name is given. ``params`` maps each keyword parameter to its
    default. ``aggregate`` is how ``all`` is formed from per-query values: ``"mean"``,
    ``"gmean"`` (geometric mean with trec_eval's floor 1e-5), ``"sum"`` (counts) or ``"none"``
    (per-query only, e.g. ``relstring``).
    """

    name: str
    trec: str | None
    description: str
    cutoff: str = "none"
    trec_cut: str | None = None
    default_cutoffs: tuple = ()
    params: tuple[tuple[str, object], ...] = ()
    aggregate: str = "mean"
    integer: bool = False
    per_query_printed: bool = True
    aliases: tuple[str, ...] = ()
    binary: bool = True  # uses grade >= rel_threshold (accepts the ``rel`` parameter)

    def default(self, key: str):
        return dict(self.params)[key]


def _F(*args, **kwargs) -> MeasureFamily:
    return MeasureFamily(*args, **kwargs)


_NDCG_GAIN = (("gain", "linear"),)

FAMILIES: tuple[MeasureFamily, ...] = (
    _F("runid", "runid", "Run name (last run_id column of the run file).", aggregate="none",
       per_query_printed=False, binary=False),
    _F("NumQ", "num_q", "Number of queries evaluated.", aggregate="sum", integer=True,
       per_query_printed=False, binary=False, aliases=("num_q",)),
    _F("NumRet", "num_ret", "Number of documents retrieved.", aggregate="sum", integer=True,
       binary=False, aliases=("num_ret",)),
    _F("NumRel", "num_rel", "Number of relevant documents (R).", aggregate="sum", integer=True,
       aliases=("num_rel",)),
    _F("NumRelRet", "num_rel_ret", "Number of relevant documents retrieved.", aggregate="sum",
       integer=True, aliases=("num_rel_ret",)),
    _F("AP", "map", "Average precision (AP@k: precision summed over relevant docs in the top k, / R).",
       cutoff="optional_int", trec_cut="map_cut", default_cutoffs=(5, 10, 15, 20, 30, 100, 200, 500, 1000),
       aliases=("map", "MAP", "map_cut")),
    _F("GMAP", "gm_map", "AP per query, geometric mean over queries (AP floored at 1e-5).",
       aggregate="gmean", per_query_printed=False, aliases=("gm_map", "gm_ap")),
    _F("Rprec", "Rprec", "Precision after R documents.", aliases=("R-prec", "RPrec", "rprec")),
    _F("Bpref", "bpref", "Binary preference (Buckley & Voorhees 2004).", aliases=("bpref",)),
    _F("RR", "recip_rank", "Reciprocal rank of the first relevant document.", cutoff="optional_int",
       aliases=("recip_rank", "MRR", "RecipRank")),
    _F("IPrec", "iprec_at_recall", "Interpolated precision at a recall level.", cutoff="float",
       trec_cut="iprec_at_recall", default_cutoffs=(0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
       aliases=("iprec", "iprec_at_recall")),
    _F("P", "P", "Precision at rank k.", cutoff="int", trec_cut="P",
       default_cutoffs=(5, 10, 15, 20, 30, 100, 200, 500, 1000), aliases=("Precision", "precision")),
    _F("relstring", "relstring", "Grades of the top k documents as a string ('-' not judged, "
       "'.' pooled but unjudged).", cutoff="optional_int", trec_cut="relstring", aggregate="none",
       binary=False),
    _F("R", "recall", "Recall at rank k.", cutoff="int", trec_cut="recall",
       default_cutoffs=(5, 10, 15, 20, 30, 100, 200, 500, 1000), aliases=("Recall", "recall")),
    _F("unj", "unj", "Fraction of the top k documents without a judgment.", cutoff="int", trec_cut="unj",
       default_cutoffs=(5, 10, 20), binary=False),
    _F("rbp", "rbp", "Rank-biased precision (Moffat & Zobel 2008), gains scaled to [0, 1] per query.",
       params=(("p", 0.9),), binary=False),
    _F("rbp_resid", "rbp_resid", "RBP residual: the weight of unjudged ranks plus the tail.", binary=False),
    _F("infAP", "infAP", "Inferred AP (Yilmaz & Aslam 2006).", aliases=("infap", "InfAP")),
    _F("gm_bpref", "gm_bpref", "bpref per query, geometric mean over queries.", aggregate="gmean",
       per_query_printed=False),
    _F("Rprec_mult", "Rprec_mult", "Precision at rank ceil-ish(x * R).", cutoff="float",
       trec_cut="Rprec_mult", default_cutoffs=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    _F("utility", "utility", "Set utility a*relret + b*nonrelret + c*relnotret + d*nonrelnotret.",
       params=(("a", 1.0), ("b", -1.0), ("c", 0.0), ("d", 0.0))),
    _F("11pt_avg", "11pt_avg", "Interpolated precision averaged over recall levels.",
       params=(("levels", (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)),), aliases=("11pt",)),
    _F("binG", "binG", "Binary G (trec_eval experimental)."),
    _F("G", "G", "Normalized gain G (trec_eval experimental).", params=_NDCG_GAIN, binary=False),
    _F("DCG", "dcg", "Discounted cumulative gain (whole list).", params=_NDCG_GAIN, binary=False,
       aliases=("dcg",)),
    _F("IdealDCG", "ideal_dcg", "DCG of the ideal ranking of the judged documents.", params=_NDCG_GAIN,
       binary=False, aliases=("ideal_dcg", "IDCG")),
    _F("nDCG", "ndcg", "Normalized DCG, gain = grade, discount log2(rank+1).", cutoff="optional_int",
       trec_cut="ndcg_cut", default_cutoffs=(5, 10, 15, 20, 30, 100, 200, 500, 1000), params=_NDCG_GAIN,
       binary=False, aliases=("ndcg", "NDCG", "ndcg_cut")),
    _F("ndcg_rel", "ndcg_rel", "nDCG averaged over relevant documents (trec_eval experimental).",
       params=_NDCG_GAIN, binary=False),
    _F("Rndcg", "Rndcg", "nDCG averaged at the R levels (trec_eval experimental).", params=_NDCG_GAIN),
    _F("relative_P", "relative_P", "Precision at k relative to the best possible, k / min(k, R).",
       cutoff="int", trec_cut="relative_P", default_cutoffs=(5, 10, 15, 20, 30, 100, 200, 500, 1000)),
    _F("Success", "success", "1 if a relevant document is in the top k, else 0.", cutoff="int",
       trec_cut="success", default_cutoffs=(1, 5, 10), aliases=("success", "Hit", "hit", "hits")),
    _F("SetP", "set_P", "Precision of the whole retrieved set.", aliases=("set_P",)),
    _F("SetRelP", "set_relative_P", "Set precision relative to the best possible.",
       aliases=("set_relative_P",)),
    _F("SetR", "set_recall", "Recall of the whole retrieved set.", aliases=("set_recall",)),
    _F("SetAP", "set_map", "Set map: relret^2 / (ret * R).", aliases=("set_map",)),
    _F("SetF", "set_F", "Set F-measure, (beta+1) P R / (beta P + R).", params=(("beta", 1.0),),
       aliases=("set_F",)),
    _F("NumNonRelJudgedRet", "num_nonrel_judged_ret", "Judged non-relevant documents retrieved.",
       aggregate="sum", integer=True, aliases=("num_nonrel_judged_ret",)),
    _F("yaap", "yaap", "Yet another AP (Robertson 2012): log((1+S)/(1+R-S)).", aliases=("YAAP",)),
    _F("ERR", None, "Expected reciprocal rank (Chapelle et al. 2009), grades scaled by the "
       "collection's maximum grade.", cutoff="optional_int", binary=False),
)

_BY_NAME: dict[str, MeasureFamily] = {f.name: f for f in FAMILIES}
_FAMILY_ORDER: dict[str, int] = {f.name: i for i, f in enumerate(FAMILIES)}

# Every spelling of a family name (without cutoff) -> family.
_ALIASES: dict[str, MeasureFamily] = {}
for _fam in FAMILIES:
    for _alias in (_fam.name, _fam.trec, _fam.trec_cut, *_fam.aliases):
        if _alias:
            _ALIASES.setdefault(_alias, _fam)
_ALIASES_LOWER: dict[str, list[MeasureFamily]] = {}
for _alias, _fam in _ALIASES.items():
    bucket = _ALIASES_LOWER.setdefault(_alias.lower(), [])
    if _fam not in bucket:
        bucket.append(_fam)

# trec_eval families whose output names carry a cutoff (``P_10``) or a raw parameter string
# (``ndcg_1=3,2=9``), longest first so that ``map_cut_5`` is not read as ``map`` + ``cut_5``.
_TREC_CUTOFF_FAMILIES = sorted(
    {f.trec_cut: f for f in FAMILIES if f.trec_cut}.items(), key=lambda kv: -len(kv[0])
)
_TREC_CUTOFF_NAMES = frozenset(name for name, _ in _TREC_CUTOFF_FAMILIES)
_TREC_PARAM_FAMILIES = {
    "ndcg": "nDCG", "dcg": "DCG", "ideal_dcg": "IdealDCG", "ndcg_rel": "ndcg_rel", "Rndcg": "Rndcg",
    "G": "G", "utility": "utility", "11pt_avg": "11pt_avg", "set_F": "SetF", "rbp": "rbp",
}

# --------------------------------------------------------------------------------------------
# Named sets (trec_eval's nicknames, v10.0)
# --------------------------------------------------------------------------------------------

NAMED_SETS: dict[str, tuple[str, ...]] = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", "P"),
    "all_trec": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp", "rbp_resid",
                 "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success",
                 "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall",
                 "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
            "set_relative_P", "set_map", "set_F"),
}


# --------------------------------------------------------------------------------------------
# Measure
# --------------------------------------------------------------------------------------------


def _format_number(value) -> str:
    """Shortest text that reads back as the same number: 10, 0.5, 4.5, -1."""
    if isinstance(value, int):
        return str(value)
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _format_param(value) -> str:
    if isinstance(value, tuple):
        if value and isinstance(value[0], tuple):  # gain map ((level, gain), ...)
            return ";".join(f"{level}:{_format_number(gain)}" for level, gain in value)
        return ";".join(_format_number(v) for v in value)
    if isinstance(value, str):
        return value
    return _format_number(value)


@dataclass(frozen=True)
class Measure:
    """One measure: a family name, an optional cutoff and keyword parameters.

    Build them with :func:`parse_measure`. Equal measures hash equal whatever spelling they
    were parsed from (``"P_10"``, ``"P@10"``, ``"P.10"``). ``label`` keeps trec_eval's raw
    parameter string as typed (e.g. ``".25,.5,.75"``) so that :attr:`trec_name` prints
    exactly what trec_eval prints; it takes no part in equality.
    """

    name: str
    cutoff: int | float | None = None
    params: tuple[tuple[str, object], ...] = ()
    label: str | None = field(default=None, compare=False, repr=False)

    # -- identity ------------------------------------------------------------------------
    def __str__(self) -> str:
        text = self.name
        if self.params:
            text += "(" + ",".join(f"{k}={_format_param(v)}" for k, v in self.params) + ")"
        if self.cutoff is not None:
            text += "@" + _format_number(self.cutoff)
        return text

    @property
    def family(self) -> MeasureFamily:
        return _BY_NAME[self.name]

    def param(self, key: str, default=None):
        """The value of parameter ``key`` (the family default when not given)."""
        for k, v in self.params:
            if k == key:
                return v
        if key in dict(self.family.params):
            return self.family.default(key)
        return default

    # -- what the CLI and evaluate need ----------------------------------------------------
    @property
    def trec_name(self) -> str:
        """The name trec_eval prints for this measure (``str(self)`` when it has none)."""
        fam = self.family
        keys = {k for k, _ in self.params}
        if fam.trec is None or "rel" in keys or self.param("gain") == "exponential":
            return str(self)
        if self.cutoff is not None:
            if fam.trec_cut is None or self.params:
                return str(self)
            if fam.cutoff == "float":
                return f"{fam.trec_cut}_{self.cutoff:3.2f}"
            return f"{fam.trec_cut}_{self.cutoff}"
        if self.label is not None:
            return f"{fam.trec}_{self.label}"
        if not self.params:
            return fam.trec
        # trec_eval prints the raw parameter string; rebuild it from the values.
        if fam.name == "utility":
            text = ",".join(_format_number(self.param(k)) for k in "abcd")
        elif fam.name == "11pt_avg":
            text = ",".join(_format_number(v) for v in self.param("levels"))
        elif fam.name == "SetF":
            text = _format_number(self.param("beta"))
        elif fam.name == "rbp":
            text = "p=" + _format_number(self.param("p"))
        else:  # a gain map
            text = ",".join(f"{lvl}={_format_number(g)}" for lvl, g in self.param("gain"))
        return f"{fam.trec}_{text}"

    @property
    def aggregate(self) -> str:
        """``"mean"``, ``"gmean"``, ``"sum"`` or ``"none"``: how the ``all`` value is formed."""
        return self.family.aggregate

    @property
    def is_count(self) -> bool:
        """True for integer counts (num_ret, num_rel...), printed without decimals."""
        return self.family.integer

    @property
    def trec_order(self) -> tuple:
        """Sort key giving trec_eval's printing order (te_trec_measures[], then cutoff)."""
        return (_FAMILY_ORDER[self.name], self.cutoff if self.cutoff is not None else -1, str(self))


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------

_IR_STYLE = re.compile(r"^(?P<name>[A-Za-z0-9_\-]+?)(?:\((?P<params>[^()]*)\))?(?:@(?P<cutoff>[^@()]+))?$")


def _unknown(text: str, name: str) -> ValueError:
    candidates = sorted(set(_ALIASES) | set(NAMED_SETS))
    close = difflib.get_close_matches(name, candidates, n=5, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(name.lower(), [c.lower() for c in candidates], n=5, cutoff=0.6)
        close = [c for c in candidates if c.lower() in close][:5]
    hint = f" Close matches: {', '.join(close)}." if close else " See rankviz.evaluation.measures.FAMILIES for the list."
    return ValueError(f"Unknown measure {text!r}: no measure is called {name!r}.{hint}")


def _lookup(name: str, text: str) -> MeasureFamily:
    fam = _ALIASES.get(name)
    if fam is not None:
        return fam
    matches = _ALIASES_LOWER.get(name.lower(), [])
    if len(matches) == 1:
        return matches[0]
    raise _unknown(text, name)


def _parse_number(value: str, text: str, what: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"Measure {text!r}: {what} must be a number; got {value!r}.") from None
    if not math.isfinite(number):
        raise ValueError(f"Measure {text!r}: {what} must be a finite number; got {value!r}.")
    return number


def _check_cutoff(fam: MeasureFamily, raw, text: str):
    if raw is None:
        if fam.cutoff in ("int", "float"):
            example = "0.5" if fam.cutoff == "float" else "10"
            raise ValueError(
                f"Measure {text!r}: {fam.name} needs a cutoff, e.g. {fam.name}@{example}"
                + (f" (or the trec_eval family {fam.trec_cut!r} with parse_measures for its defaults)."
                   if fam.default_cutoffs else ".")
            )
        return None
    if fam.cutoff == "none":
        raise ValueError(f"Measure {text!r}: {fam.name} takes no cutoff; got @{raw}.")
    number = _parse_number(str(raw), text, "the cutoff")
    if fam.cutoff == "float":
        if number < 0:
            raise ValueError(f"Measure {text!r}: the cutoff of {fam.name} must be >= 0; got {raw}.")
        if fam.name == "IPrec" and number > 1:  # a recall level; Rprec_mult's multiplier may exceed 1
            raise ValueError(f"Measure {text!r}: the recall level of {fam.name} must be in [0, 1]; got {raw}.")
        return float(number)
    if not number.is_integer() or number < 1:
        raise ValueError(f"Measure {text!r}: the cutoff of {fam.name} must be an int >= 1; got {raw}.")
    return int(number)


def _parse_gain(value: str, text: str):
    # One spelling inside rankviz, the per-query functions' own: "exponential" (2^g - 1).
    if value in ("linear", "exponential"):
        return value
    if value in ("exp", "exp2"):
        return "exponential"
    pairs = []
    for item in value.replace(",", ";").split(";"):
        if not item:
            continue
        level, sep, gain = item.replace("=", ":").partition(":")
        if not sep or not re.fullmatch(r"[+-]?\d+", level.strip()):
            raise ValueError(
                f"Measure {text!r}: gain must be 'linear', 'exponential' (or 'exp') or a map 'level:gain;...' "
                f"(e.g. gain=1:1;2:3;3:7); got {value!r}."
            )
        pairs.append((int(level), float(_parse_number(gain, text, "a gain"))))
    return tuple(sorted(dict(pairs).items()))


def _normalise_params(fam: MeasureFamily, raw: dict[str, str], text: str) -> tuple[tuple[str, object], ...]:
    allowed = dict(fam.params)
    if fam.binary:
        allowed.setdefault("rel", 1)
    out = {}
    for key, value in raw.items():
        if key not in allowed:
            names = ", ".join(sorted(allowed)) or "none"
            raise ValueError(f"Measure {text!r}: {fam.name} has no parameter {key!r} (parameters: {names}).")
        if key == "rel":
            number = _parse_number(value, text, "rel")
            if not number.is_integer() or number < 0:
                raise ValueError(f"Measure {text!r}: rel must be an integer grade >= 0; got {value!r}.")
            out[key] = int(number)
        elif key == "gain":
            out[key] = _parse_gain(value, text)
        elif key == "levels":
            levels = tuple(float(_parse_number(v, text, "a recall level")) for v in value.split(";") if v)
            if not levels:
                raise ValueError(f"Measure {text!r}: levels needs at least one recall level.")
            out[key] = levels
        else:
            out[key] = float(_parse_number(value, text, key))
    # Defaults are dropped so that "nDCG(gain=linear)" == "nDCG".
    # 'rel' has no family default: it overrides evaluate()'s rel_threshold, so it is kept.
    kept = {k: v for k, v in out.items() if k == "rel" or v != dict(fam.params).get(k)}
    return tuple(sorted(kept.items()))


def _split_params(body: str, text: str) -> dict[str, str]:
    raw = {}
    for item in body.split(","):
        item = item.strip()
        if not item:
            continue
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"Measure {text!r}: parameters are written key=value; got {item!r}.")
        raw[key.strip()] = value.strip()
    return raw


def _parse_ir_style(text: str) -> Measure:
    match = _IR_STYLE.match(text)
    if not match:
        raise ValueError(
            f"Unknown measure {text!r}: expected Name, Name@cutoff or Name(param=value)@cutoff "
            f"(e.g. nDCG@10, P(rel=2)@10) or a trec_eval name (e.g. P_10, ndcg_cut_10)."
        )
    fam = _lookup(match["name"], text)
    params = _normalise_params(fam, _split_params(match["params"] or "", text), text)
    cutoff = _check_cutoff(fam, match["cutoff"], text)
    return Measure(fam.name, cutoff, params)


def _trec_params(fam_trec: str, body: str, text: str) -> list[Measure]:
    """trec_eval's ``-m family.params`` syntax (and ``family_params`` output names)."""
    if fam_trec in _TREC_PARAM_FAMILIES:
        fam = _BY_NAME[_TREC_PARAM_FAMILIES[fam_trec]]
        if fam.name in ("nDCG", "DCG", "IdealDCG", "ndcg_rel", "Rndcg", "G"):
            gains = _parse_gain(body, text) if body else "linear"
            params = () if gains == "linear" else (("gain", gains),)
            return [Measure(fam.name, None, params, label=body or None)]
        if fam.name == "rbp":
            params = _normalise_params(fam, _split_params(body, text), text)
            return [Measure(fam.name, None, params, label=body or None)]
        values = [_parse_number(v, text, "a parameter") for v in body.split(",") if v != ""]
        if fam.name == "utility":
            if len(values) != 4:
                raise ValueError(f"Measure {text!r}: utility takes 4 coefficients a,b,c,d; got {len(values)}.")
            raw = dict(zip("abcd", values))
        elif fam.name == "11pt_avg":
            if not values:
                raise ValueError(f"Measure {text!r}: 11pt_avg needs at least one recall level.")
            raw = {"levels": tuple(values)}
        else:  # set_F
            if len(values) != 1:
                raise ValueError(f"Measure {text!r}: set_F takes one parameter (beta); got {len(values)}.")
            raw = {"beta": values[0]}
        defaults = dict(fam.params)
        params = tuple(sorted((k, v) for k, v in raw.items() if v != defaults.get(k)))
        return [Measure(fam.name, None, params, label=body or None)]
    fam = _ALIASES[fam_trec]
    if fam.cutoff == "none":
        raise ValueError(f"Measure {text!r}: {fam_trec} takes no parameters.")
    cutoffs = []
    for item in body.split(","):
        if item == "":
            continue
        number = _parse_number(item, text, "a cutoff")
        if fam.cutoff == "float":
            cutoffs.append(number)
        else:
            # trec_eval reads integer cutoffs with atol: "23.4" is 23.
            cutoffs.append(int(number))
    if not cutoffs:
        raise ValueError(f"Measure {text!r}: no cutoff given after '{fam_trec}.'.")
    # trec_eval sorts the cutoffs and prints them in increasing order.
    return [Measure(fam.name, _check_cutoff(fam, c, text)) for c in sorted(set(cutoffs))]


def _expand(text: str) -> list[Measure]:
    """Every measure one name stands for (a named set or a bare trec family: several)."""
    if not isinstance(text, str):
        raise ValueError(f"A measure must be a str or a Measure; got {type(text).__name__} {text!r}.")
    text = text.strip()
    if not text:
        raise ValueError("A measure name must not be empty.")
    if text in NAMED_SETS:
        return [m for name in NAMED_SETS[text] for m in _expand(name)]
    if "@" in text or "(" in text:
        return [_parse_ir_style(text)]
    # trec_eval command-line syntax: family.params
    family_part, dot, body = text.partition(".")
    if dot and (family_part in _TREC_PARAM_FAMILIES or family_part in _TREC_CUTOFF_NAMES):
        return _trec_params(family_part, body, text)
    # trec_eval output names: family_cutoff or family_paramstring
    if text not in _ALIASES:
        for trec_cut, fam in _TREC_CUTOFF_FAMILIES:
            prefix = trec_cut + "_"
            if text.startswith(prefix) and re.fullmatch(r"\d+(\.\d*)?|\.\d+", text[len(prefix):]):
                return [Measure(fam.name, _check_cutoff(fam, text[len(prefix):], text))]
        for trec in sorted(_TREC_PARAM_FAMILIES, key=len, reverse=True):
            if text.startswith(trec + "_") and len(text) > len(trec) + 1:
                return _trec_params(trec, text[len(trec) + 1:], text)
    fam = _lookup(text, text)
    if fam.cutoff in ("int", "float") or (text == fam.trec_cut and fam.trec_cut != fam.trec):
        if text in (fam.trec, fam.trec_cut) and fam.default_cutoffs:
            return [Measure(fam.name, _check_cutoff(fam, c, text)) for c in fam.default_cutoffs]
        _check_cutoff(fam, None, text)
    return [Measure(fam.name)]


def parse_measure(measure) -> Measure:
    """Parse one measure name into a :class:`Measure` (a ``Measure`` is returned as is).

    Parameters
    ----------
    measure : str or Measure
        ``"P@10"``, ``"P_10"``, ``"nDCG(gain=exp)@10"``, ``"ndcg_cut_10"``, ``"P(rel=2)@10"``...

    Returns
    -------
    Measure

    Raises
    ------
    ValueError
        Unknown name (with close matches), bad cutoff or parameter, or a name that stands for
        several measures (a named set such as ``official``, or ``P`` = trec_eval's default
        cutoffs): use :func:`parse_measures` for those.

    Examples
    --------
    >>> parse_measure("P_10") == parse_measure("P@10")
    True
    >>> str(parse_measure("iprec_at_recall_0.50")), parse_measure("IPrec@0.5").trec_name
    ('IPrec@0.5', 'iprec_at_recall_0.50')
    """
    if isinstance(measure, Measure):
        return measure
    found = _expand(measure)
    if len(found) != 1:
        raise ValueError(
            f"Measure {measure!r} stands for {len(found)} measures "
            f"({', '.join(str(m) for m in found[:4])}{', ...' if len(found) > 4 else ''}); "
            f"use parse_measures for several."
        )
    return found[0]


def parse_measures(measures) -> tuple[Measure, ...]:
    """Parse a name, a named set or a list of them into distinct measures, in order given.

    ``"official"`` is trec_eval's default set (runid, num_q, num_ret, num_rel, num_rel_ret,
    map, gm_map, Rprec, bpref, recip_rank, iprec_at_recall_0.00..1.00, P_5..P_1000) and
    ``"all_trec"`` is ``trec_eval -m all_trec`` (v10.0). Duplicates are dropped, whatever
    their spelling: names that parse to equal measures (``P@10``, ``P_10``, ``P.10``) are one
    measure, kept where it first appears. A parameter given at its default is the default
    (``nDCG(gain=linear)@10`` is ``nDCG@10``), except ``rel``, which overrides evaluate's
    ``rel_threshold`` and so stays distinct (``P(rel=1)@10`` is not ``P@10``).

    >>> [str(m) for m in parse_measures("P.10,5")]
    ['P@5', 'P@10']
    >>> [str(m) for m in parse_measures(["P@10", "AP", "P_10", "map", "P(rel=1)@10"])]
    ['P@10', 'AP', 'P(rel=1)@10']
    >>> len(parse_measures("official"))
    30
    """
    if isinstance(measures, (str, Measure)):
        measures = [measures]
    out: dict[Measure, None] = {}
    for item in measures:
        for m in ([item] if isinstance(item, Measure) else _expand(item)):
            out.setdefault(m, None)
    if not out:
        raise ValueError("parse_measures: no measure given.")
    return tuple(out)
