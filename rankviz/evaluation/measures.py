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

Every name, cutoff kind, parameter and default comes from the registry
(:mod:`rankviz.registry`): a measure family is its ``MetricSpec``, and ``measure.spec`` reaches
the per-query function and the batch kernel. This module only reads names; adding a measure
is a registry entry, not an edit here.

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
ValueError: Unknown measure 'nDGC@10': no measure is called 'nDGC'. Close matches: nDCG, α_nDCG, α-nDCG.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field

from rankviz.i18n import _
from rankviz.registry import GAIN, METRICS, TREC_PRINT_ORDER, MetricSpec, named_sets

__all__ = [
    "Measure",
    "MeasureFamily",
    "FAMILIES",
    "NAMED_SETS",
    "parse_measure",
    "parse_measures",
    "split_measure_text",
]

# --------------------------------------------------------------------------------------------
# Families: the registry's measures (rankviz.registry), nothing else
# --------------------------------------------------------------------------------------------

#: A measure family is its registry entry: names, cutoff kind, parameters, aggregate, kernel.
MeasureFamily = MetricSpec

_TREC_POSITION: dict[str, int] = {name: i for i, name in enumerate(TREC_PRINT_ORDER)}
_REGISTRY_POSITION: dict[str, int] = {spec.name: i for i, spec in enumerate(METRICS)}


def _print_position(spec: MetricSpec, trec_name: str | None) -> int:
    """Where trec_eval prints ``trec_name``; measures trec_eval lacks come after, in registry order."""
    if trec_name in _TREC_POSITION:
        return _TREC_POSITION[trec_name]
    return len(TREC_PRINT_ORDER) + _REGISTRY_POSITION[spec.name]


#: Every measure evaluate computes, as registry entries, in trec_eval's printing order.
FAMILIES: tuple[MetricSpec, ...] = tuple(
    sorted((spec for spec in METRICS if spec.measure), key=lambda spec: _print_position(spec, spec.trec))
)

_BY_NAME: dict[str, MetricSpec] = {f.measure: f for f in FAMILIES}

# Every spelling of a family name (without cutoff) -> family.
_ALIASES: dict[str, MetricSpec] = {}
for _fam in FAMILIES:
    for _alias in (_fam.measure, _fam.trec, _fam.trec_cut, *_fam.aliases):
        if _alias:
            _ALIASES.setdefault(_alias, _fam)
_ALIASES_LOWER: dict[str, list[MetricSpec]] = {}
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
_TREC_PARAM_FAMILIES: dict[str, MetricSpec] = {f.trec: f for f in FAMILIES if f.trec_param_syntax}
_FLOAT_CUTOFFS = ("float", "recall")  # a multiple of R, a recall level: printed with 2 decimals

#: trec_eval's named sets (v10.0) as trec_eval names: ``official``, ``all_trec``, ``set``.
NAMED_SETS: dict[str, tuple[str, ...]] = named_sets()


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
    if isinstance(value, bool):  # Compat(normalize=false): ir_measures' spelling reads back
        return "true" if value else "false"
    return _format_number(value)


@dataclass(frozen=True)
class Measure:
    """One measure: a family name, an optional cutoff and keyword parameters.

    Build them with :func:`parse_measure`. Equal measures hash equal whatever spelling they
    were parsed from (``"P_10"``, ``"P@10"``, ``"P.10"``). ``label`` keeps trec_eval's raw
    parameter string as typed (e.g. ``".25,.5,.75"``) so that :attr:`trec_name` prints
    exactly what trec_eval prints; it takes no part in equality. :attr:`spec` is the measure's
    registry entry, which also holds the per-query function:

    >>> import rankviz.metrics
    >>> parse_measure("AP").spec.function is rankviz.metrics.average_precision
    True
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
    def spec(self) -> MetricSpec:
        """The registry entry of this measure (:class:`rankviz.registry.MetricSpec`)."""
        return _BY_NAME[self.name]

    @property
    def family(self) -> MetricSpec:
        """The registry entry of this measure; the same object as :attr:`spec`."""
        return _BY_NAME[self.name]

    def param(self, key: str, default=None):
        """The value of parameter ``key``: as given, else the family default (None for ``rel``:
        evaluate's ``rel_threshold`` applies), else ``default`` for a key the family lacks."""
        for k, v in self.params:
            if k == key:
                return v
        if any(p.measure_key == key for p in self.spec.measure_params):
            return self.spec.measure_default(key)
        return default

    # -- what the CLI and evaluate need ----------------------------------------------------
    @property
    def trec_name(self) -> str:
        """The name trec_eval prints for this measure (``str(self)`` when it has none)."""
        fam = self.spec
        overriding = {p.measure_key for p in fam.measure_params if p.evaluate}  # rel: trec_eval only has -l
        if fam.trec is None or overriding & {k for k, _ in self.params} or self.param("gain") == "exponential":
            return str(self)
        if self.cutoff is not None:
            if fam.trec_cut is None or self.params:
                return str(self)
            if fam.cutoff in _FLOAT_CUTOFFS:
                return f"{fam.trec_cut}_{self.cutoff:3.2f}"
            return f"{fam.trec_cut}_{self.cutoff}"
        if self.label is not None:
            return f"{fam.trec}_{self.label}"
        if not self.params:
            return fam.trec
        # trec_eval prints the raw parameter string; rebuild it from the values.
        if fam.trec_param_syntax == "gains":
            text = ",".join(f"{lvl}={_format_number(g)}" for lvl, g in self.param("gain"))
        elif fam.trec_param_syntax == "keywords":
            text = ",".join(f"{k}={_format_param(v)}" for k, v in self.params)
        elif fam.trec_param_syntax == "values":
            values = []
            for p in _positional_params(fam):
                value = self.param(p.measure_key)
                values.extend(value if isinstance(value, tuple) else (value,))
            text = ",".join(_format_number(v) for v in values)
        else:
            return str(self)
        return f"{fam.trec}_{text}"

    @property
    def aggregate(self) -> str:
        """``"mean"``, ``"gmean"``, ``"sum"`` or ``"none"``: how the ``all`` value is formed."""
        return self.spec.aggregate

    @property
    def is_count(self) -> bool:
        """True for integer counts (num_ret, num_rel...), printed without decimals."""
        return self.spec.integer

    @property
    def trec_order(self) -> tuple:
        """Sort key giving trec_eval's printing order (``TREC_PRINT_ORDER`` of the registry,
        then cutoff); measures trec_eval lacks come last, in registry order."""
        fam = self.spec
        base = fam.trec_cut if self.cutoff is not None and fam.trec_cut else fam.trec
        return (_print_position(fam, base), self.cutoff if self.cutoff is not None else -1, str(self))


def _positional_params(fam: MetricSpec) -> list:
    """The parameters trec_eval's ``name.v1,v2,...`` syntax sets, in order (utility's a, b, c, d)."""
    return [p for p in fam.measure_params if not p.evaluate]


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------

_IR_STYLE = re.compile(r"^(?P<name>[A-Za-z0-9_\-\u03b1]+?)(?:\((?P<params>[^()]*)\))?(?:@(?P<cutoff>[^@()]+))?$")


def _unknown(text: str, name: str) -> ValueError:
    candidates = sorted(set(_ALIASES) | set(NAMED_SETS))
    close = difflib.get_close_matches(name, candidates, n=5, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(name.lower(), [c.lower() for c in candidates], n=5, cutoff=0.6)
        close = [c for c in candidates if c.lower() in close][:5]
    # In the language in force (the app's); the CLI and Python callers read English.
    hint = (_(" Close matches: {names}.").format(names=", ".join(close)) if close
            else _(" `python -m rankviz eval --list-measures` lists every measure."))
    return ValueError(_("Unknown measure {text}: no measure is called {name}.").format(text=repr(text), name=repr(name))
                      + hint)


def _lookup(name: str, text: str) -> MetricSpec:
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
        raise ValueError(_("Measure {text}: {what} must be a number; got {value}.").format(
            text=repr(text), what=what, value=repr(value))) from None
    if not math.isfinite(number):
        raise ValueError(_("Measure {text}: {what} must be a finite number; got {value}.").format(
            text=repr(text), what=what, value=repr(value)))
    return number


def _check_cutoff(fam: MetricSpec, raw, text: str):
    if raw is None:
        if fam.cutoff in ("int", *_FLOAT_CUTOFFS):
            example = "0.5" if fam.cutoff in _FLOAT_CUTOFFS else "10"
            raise ValueError(
                _("Measure {text}: {measure} needs a cutoff, e.g. {example}").format(
                    text=repr(text), measure=fam.measure, example=f"{fam.measure}@{example}")
                + (_(" (or the trec_eval family {family} with parse_measures for its defaults).").format(
                    family=repr(fam.trec_cut)) if fam.default_cutoffs else ".")
            )
        return None
    if fam.cutoff == "none":
        raise ValueError(_("Measure {text}: {measure} takes no cutoff; got {cutoff}.").format(
            text=repr(text), measure=fam.measure, cutoff=f"@{raw}"))
    number = _parse_number(str(raw), text, _("the cutoff"))
    if fam.cutoff in _FLOAT_CUTOFFS:
        if number < 0:
            raise ValueError(_("Measure {text}: the cutoff of {measure} must be >= 0; got {cutoff}.").format(
                text=repr(text), measure=fam.measure, cutoff=raw))
        if fam.cutoff == "recall" and number > 1:  # Rprec_mult's multiple of R may exceed 1
            raise ValueError(_("Measure {text}: the recall level of {measure} must be in [0, 1]; got {cutoff}.").format(
                text=repr(text), measure=fam.measure, cutoff=raw))
        return float(number)
    if not number.is_integer() or number < 1:
        raise ValueError(_("Measure {text}: the cutoff of {measure} must be an int >= 1; got {cutoff}.").format(
            text=repr(text), measure=fam.measure, cutoff=raw))
    return int(number)


def _parse_gain(value: str, text: str):
    # One spelling inside rankviz, the registry's (the per-query functions' own): "exponential" (2^g - 1);
    # its aliases ("exp") are accepted in measure names.
    if GAIN.canonical(value) is not None:
        return GAIN.canonical(value)
    pairs = []
    for item in value.replace(",", ";").split(";"):
        if not item:
            continue
        level, sep, gain = item.replace("=", ":").partition(":")
        if not sep or not re.fullmatch(r"[+-]?\d+", level.strip()):
            raise ValueError(
                f"Measure {text!r}: gain must be {', '.join(map(repr, GAIN.values))} (or "
                f"{', '.join(map(repr, GAIN.accepted[len(GAIN.values):]))}) or a map 'level:gain;...' "
                f"(e.g. gain=1:1;2:3;3:7); got {value!r}."
            )
        pairs.append((int(level), float(_parse_number(gain, text, "a gain"))))
    return tuple(sorted(dict(pairs).items()))


# How a bool parameter may be written (ir_measures writes Compat(normalize=False)).
_BOOLS = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}


def _parse_value(param, value: str, text: str):
    """One measure parameter's value, read as its registry entry says (``Param.measure_kind``)."""
    key = param.measure_key
    kind = param.measure_kind or param.kind
    if kind == "grade":
        number = _parse_number(value, text, key)
        if not number.is_integer() or number < 0:
            raise ValueError(f"Measure {text!r}: {key} must be an integer grade >= 0; got {value!r}.")
        return int(number)
    if kind == "gain":
        return _parse_gain(value, text)
    if kind == "bool":
        word = value.strip().lower()
        if word not in _BOOLS:
            raise ValueError(f"Measure {text!r}: {key} must be true or false; got {value!r}.")
        return _BOOLS[word]
    if kind == "levels":
        levels = tuple(float(_parse_number(v, text, "a recall level")) for v in value.split(";") if v)
        if not levels:
            raise ValueError(f"Measure {text!r}: {key} needs at least one recall level.")
        return levels
    return float(_parse_number(value, text, key))


def _without_defaults(fam: MetricSpec, values: dict) -> tuple[tuple[str, object], ...]:
    """Sorted (key, value) pairs, defaults dropped so that "nDCG(gain=linear)" == "nDCG".

    A parameter evaluate also supplies (``rel``, its ``rel_threshold``) has no default here: it
    overrides evaluate's value, so it is kept."""
    params = {p.measure_key: p for p in fam.measure_params}
    return tuple(sorted((k, v) for k, v in values.items() if params[k].evaluate or v != params[k].default))


def _normalise_params(fam: MetricSpec, raw: dict[str, str], text: str) -> tuple[tuple[str, object], ...]:
    allowed = {p.measure_key: p for p in fam.measure_params}
    out = {}
    for key, value in raw.items():
        if key not in allowed:
            names = ", ".join(sorted(allowed)) or "none"
            raise ValueError(f"Measure {text!r}: {fam.measure} has no parameter {key!r} (parameters: {names}).")
        out[key] = _parse_value(allowed[key], value, text)
    return _without_defaults(fam, out)


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
    return Measure(fam.measure, cutoff, params)


def _trec_params(fam_trec: str, body: str, text: str) -> list[Measure]:
    """trec_eval's ``-m family.params`` syntax (and ``family_params`` output names)."""
    if fam_trec in _TREC_PARAM_FAMILIES:
        fam = _TREC_PARAM_FAMILIES[fam_trec]
        if fam.trec_param_syntax == "gains":  # ndcg.1=3,2=9: a gain per grade
            gains = _parse_gain(body, text) if body else "linear"
            params = () if gains == "linear" else (("gain", gains),)
        elif fam.trec_param_syntax == "keywords":  # rbp.p=0.8
            params = _normalise_params(fam, _split_params(body, text), text)
        else:  # values in order: utility.1,-1,0,0, 11pt_avg..25,.5,.75, set_F.0.5
            values = [_parse_number(v, text, "a parameter") for v in body.split(",") if v != ""]
            targets = _positional_params(fam)
            keys = [p.measure_key for p in targets]
            if len(targets) == 1 and targets[0].kind == "levels":
                if not values:
                    raise ValueError(f"Measure {text!r}: {fam_trec} needs at least one value of {keys[0]}.")
                raw = {keys[0]: tuple(values)}
            elif len(values) != len(targets):
                raise ValueError(f"Measure {text!r}: {fam_trec} takes {len(targets)} parameter"
                                 f"{'s' if len(targets) > 1 else ''} ({', '.join(keys)}); got {len(values)}.")
            else:
                raw = dict(zip(keys, values))
            params = _without_defaults(fam, raw)
        return [Measure(fam.measure, None, params, label=body or None)]
    fam = _ALIASES[fam_trec]
    if fam.cutoff == "none":
        raise ValueError(f"Measure {text!r}: {fam_trec} takes no parameters.")
    cutoffs = []
    for item in body.split(","):
        if item == "":
            continue
        number = _parse_number(item, text, "a cutoff")
        if fam.cutoff in _FLOAT_CUTOFFS:
            cutoffs.append(number)
        else:
            # trec_eval reads integer cutoffs with atol: "23.4" is 23.
            cutoffs.append(int(number))
    if not cutoffs:
        raise ValueError(f"Measure {text!r}: no cutoff given after '{fam_trec}.'.")
    # trec_eval sorts the cutoffs and prints them in increasing order.
    return [Measure(fam.measure, _check_cutoff(fam, c, text)) for c in sorted(set(cutoffs))]


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
                return [Measure(fam.measure, _check_cutoff(fam, text[len(prefix):], text))]
        for trec in sorted(_TREC_PARAM_FAMILIES, key=len, reverse=True):
            if text.startswith(trec + "_") and len(text) > len(trec) + 1:
                return _trec_params(trec, text[len(trec) + 1:], text)
    fam = _lookup(text, text)
    if fam.cutoff in ("int", *_FLOAT_CUTOFFS) or (text == fam.trec_cut and fam.trec_cut != fam.trec):
        if text in (fam.trec, fam.trec_cut) and fam.default_cutoffs:
            return [Measure(fam.measure, _check_cutoff(fam, c, text)) for c in fam.default_cutoffs]
        _check_cutoff(fam, None, text)
    return [Measure(fam.measure)]


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


def split_measure_text(text: str) -> list[str]:
    """Split typed measure names at commas, semicolons and blanks, keeping trec_eval's
    ``P.5,10`` and parameters in parentheses whole (a comma followed by a digit or a minus sign
    continues the name).

    >>> split_measure_text("ERR@20, ndcg_cut_20;P.5,10  nDCG(gain=exp,rel=2)@5 utility_2,-1,0,0")
    ['ERR@20', 'ndcg_cut_20', 'P.5,10', 'nDCG(gain=exp,rel=2)@5', 'utility_2,-1,0,0']
    """
    names, current, depth = [], "", 0
    for position, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        following = text[position + 1:].lstrip()
        splits = char in " \t\n;" or (char == "," and not re.match(r"[0-9.\-+]", following))
        if depth == 0 and splits:
            if current:
                names.append(current)
            current = ""
        else:
            current += char
    if current:
        names.append(current)
    return names
