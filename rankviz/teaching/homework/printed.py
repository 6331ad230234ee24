"""What the course notes print for a step of a course exercise, where it is not the exact value, and why.

A student who copies a slide's number, or works the way the slide does (cutting each term to 3
decimals before adding), types the notes' value. The checker recognises it in its row and says
why it differs ("the course notes print this; they cut each term to 3 decimals before adding
(exact 13.848)") instead of a bare "0.002 away". :func:`printed_values` gives, for a homework
preset, the step labels the notes print a value for; the numbers come from the presets'
``printed`` values (:mod:`rankviz.teaching.presets`), so a slide's number is written down once.

A :class:`Printed` value is ``rounded`` when the notes only rounded or cut (the step counts as
right, "as the notes print it"); otherwise the notes slip or print another quantity, and the
step is marked wrong with the reason.

>>> printed = printed_values("ndcg_exercise")
>>> printed["DCG"].value, printed["IDCG term at rank 4 (grade 2)"].rounded
(13.846, False)
>>> printed["DCG"].message(13.848264)
'The course notes print this; they cut each term to 3 decimals before adding (exact 13.848).'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rankviz.i18n import N_, _
from rankviz.teaching.homework.core import tex_number

__all__ = ["Printed", "printed_values"]


@dataclass(frozen=True)
class Printed:
    """A value the course notes print for a step, and why it is not the exact one.

    ``rounded``: the notes rounded or cut (right as the notes print it); False: a slip or
    another quantity (wrong, with ``why`` saying what the notes did). ``why`` is English marked
    with ``N_``, its placeholders filled from ``words`` when the message is made (translated then).
    """

    value: float
    why: str
    rounded: bool = True
    words: Mapping = field(default_factory=dict, hash=False)

    def message(self, exact: float) -> str:
        """What the student reads in the row of a step whose answer is this printed value.

        >>> Printed(1.286, "it is a slip: 3/2.322 = 1.292", rounded=False).message(1.29203)
        'The course notes print this, but it is a slip: 3/2.322 = 1.292 (exact 1.292).'
        """
        why = _(self.why).format(**self.words) if self.words else _(self.why)
        template = (N_("The course notes print this; {why} (exact {exact}).") if self.rounded
                    else N_("The course notes print this, but {why} (exact {exact})."))
        return _(template).format(why=why, exact=tex_number(exact))


def _preset(key: str):
    from rankviz.teaching.presets import get_preset  # a leaf import: presets is data the kinds import lazily too

    return get_preset(key)


_CUT_TERM = N_("they cut each term to 3 decimals")
_TWO_DECIMALS = N_("the slides write precision and recall to 2 decimals, cut")


def _ndcg_exercise() -> dict[str, Printed]:
    preset = _preset("ndcg_exercise")
    printed = dict(preset.printed)
    found: dict[str, Printed] = {}
    ideal = sorted(preset.rels, reverse=True)
    for what, grades in (("DCG", preset.rels), ("IDCG", ideal)):
        for rank, (grade, value) in enumerate(zip(grades, printed[f"{what.lower()}_terms"]), 1):
            found[f"{what} term at rank {rank} (grade {grade})"] = Printed(value, _CUT_TERM)
    # 002's IDCG table: 3 / 2.322 printed 1.286 (a slip: it is 1.292); its IDCG adds that slip.
    found["IDCG term at rank 4 (grade 2)"] = Printed(1.286, N_("it is a slip on the slide: 3/2.322 = 1.292"),
                                                     rounded=False)
    found["DCG"] = Printed(printed["dcg"], N_("they cut each term to 3 decimals before adding"))
    found["IDCG"] = Printed(printed["idcg"], N_("they cut each term to 3 decimals and print 1.286 for 3/2.322 = "
                                                "1.292 at rank 4"), rounded=False)
    return found


def _precisions(query: str) -> dict[int, float]:
    """Rank -> the precision the lecture prints at each relevant document of ``query`` (q1 or q2)."""
    preset = _preset(f"fmeasure_{query}")
    return dict(zip(preset.settings["cutoffs"], preset.printed["P"]))


def _recalls(query: str) -> dict[int, float]:
    preset = _preset(f"fmeasure_{query}")
    return dict(zip(preset.settings["cutoffs"], preset.printed["R"]))


def _slide_map(query: str) -> Printed:
    """The slide's 'MAP' of one query: mean interpolated precision at recall 0.1, ..., 1.0 from its
    2-decimal precisions (q1: equal to AP, 0.289 cut; q2: 0.255 with 1/3 as 0.33, while AP is 0.261)."""
    value = _preset(f"{query}_binary").printed["map_slide"]
    if query == "q1":
        return Printed(value, N_("its 'MAP' of q1 adds the 2-decimal precisions, (1 + 0.66 + 0.5 + 0.4 + 0.33) / "
                                 "10 = 0.289, and cuts that to 0.28"))
    return Printed(value, N_("its 'MAP' of q2 is the mean interpolated precision at recall 0.1, ..., 1.0 with 1/3 "
                             "taken as 0.33 (0.255 exactly), not AP"), rounded=False)


def _ap(query: str):
    def found() -> dict[str, Printed]:
        rels = _preset(f"{query}_binary").rels
        values = {f"P@{rank} (relevant)": Printed(p, _TWO_DECIMALS) for rank, p in _precisions(query).items()
                  if rels[rank - 1]}
        return {**values, "AP": _slide_map(query)}
    return found


def _map_q1_q2() -> dict[str, Printed]:
    found: dict[str, Printed] = {}
    for query in ("q1", "q2"):
        found.update({f"{query}: P@{rank}": Printed(p, _TWO_DECIMALS) for rank, p in _precisions(query).items()})
        found[f"AP of {query}"] = _slide_map(query)
    found["MAP"] = Printed(_preset("map_q1_q2").printed["map_slide"],
                           N_("the slide averages its interpolated values, (0.28 + 0.254) / 2, not AP"), rounded=False)
    return found


def _interpolated(query: str, *, with_mean: bool):
    def found() -> dict[str, Printed]:
        levels = _preset(f"{query}_binary").printed["interpolated"]
        values = {f"P_interp({level / 10:.1f})": Printed(p, _TWO_DECIMALS) for level, p in enumerate(levels, 1)}
        if with_mean:
            slide = _slide_map(query)
            # The slide's 10-level mean is this step itself: only its 2-decimal precisions differ.
            values["interpolated MAP (mean of the 10 levels)"] = Printed(
                slide.value, N_("it adds the slide's 2-decimal precisions, and cuts 0.289 to 0.28") if query == "q1"
                else N_("it adds the slide's 2-decimal precisions, 1/3 taken as 0.33"))
        return values
    return found


def _fmeasure(query: str):
    def found() -> dict[str, Printed]:
        values = {f"P@{rank}": Printed(p, _TWO_DECIMALS) for rank, p in _precisions(query).items()}
        values.update({f"R@{rank}": Printed(r, _TWO_DECIMALS) for rank, r in _recalls(query).items()})
        return values
    return found


def _srcc() -> dict[str, Printed]:
    return {"ρ (Spearman)": Printed(_preset("srcc_exercise").printed["srcc"], N_("they cut 0.8545 to 3 decimals"))}


def _gmap() -> dict[str, Printed]:
    printed = _preset("gmap_runs").printed
    return {f"Run {run}: GMAP": Printed(printed[f"gmap_run{run}"], N_("they print GMAP to 2 decimals")) for run in (1, 2)}


def _mrr() -> dict[str, Printed]:
    printed = _preset("mrr_threshold").printed
    return {"RR(q2)": Printed(printed["rr_q2"], N_("they round 1/3 to 2 decimals")),
            "MRR": Printed(printed["mrr"], N_("they round it to 2 decimals"))}


# Homework preset -> the values its course note prints, by step label.
_PRINTED = {
    "ndcg_exercise": _ndcg_exercise,
    "ap_positions_1_3_6": dict,  # 0.722 is the exact value, rounded as asked
    "q1_binary": _ap("q1"),
    "q2_binary": _ap("q2"),
    "map_q1_q2": _map_q1_q2,
    "interpolated_map_q1": _interpolated("q1", with_mean=True),
    "interpolated_map_q2": _interpolated("q2", with_mean=True),
    "eleven_point_q1": _interpolated("q1", with_mean=False),  # the notes print these levels, not the 11-point mean
    "eleven_point_q2": _interpolated("q2", with_mean=False),
    "fmeasure_q1": _fmeasure("q1"),
    "fmeasure_q2": _fmeasure("q2"),
    "srcc_exercise": _srcc,
    "gmap_runs": _gmap,
    "mrr_threshold": _mrr,
}


def printed_values(preset_key: str) -> dict[str, Printed]:
    """Step label -> what the course notes print for it, for homework preset ``preset_key`` (empty
    when the notes print nothing that differs from the exact values, or nothing at all).

    >>> printed_values("q1_binary")["AP"].value, printed_values("rprec_q1")
    (0.28, {})
    """
    return _PRINTED.get(preset_key, dict)()
