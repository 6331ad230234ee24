"""Metric settings shared by the ranking pages: k, R, judged-but-not-retrieved grades, gain and
discount. Every widget is kept in the link (``rankviz.ui.link``), so ``/?rels=3,2,3,0,1,2&k=5&gain=exponential``
opens exactly that state.

A bad value (``k = 0``, ``R = abc``) shows an error beside its field and the last valid value
stays in force, so the page below never breaks.
"""

from __future__ import annotations

import streamlit as st

from rankviz.i18n import _
from rankviz.metrics import count_relevant
from rankviz.registry import DISCOUNT, GAIN
from rankviz.teaching.parsing import MAX_RANKING_LENGTH, format_grades, parse_grades
from rankviz.teaching.ranking import Ranking
from rankviz.ui.fields import int_field
from rankviz.ui.last_valid import parse_or_last_valid
from rankviz.ui.link import keep_last_valid_in_link, link_widget
from rankviz.ui.state import keys

__all__ = [
    "choice_radio",
    "switch_help",
    "variant_label",
    "ranking_settings",
]


def switch_help(param) -> str:
    """A switch's help text: each choice's label and description (the registry's words).

    >>> switch_help(DISCOUNT).startswith("log2(i + 1) discount: Divide the gain at rank i by log2(i + 1)")
    True
    """
    return " ".join(f"{c.label}: {c.description}" for c in param.choices)


def choice_radio(param, label: str, *, key: str, container=None, options=None, **kwargs):
    """A radio over a registry parameter's choices, kept in the link, each captioned with its formula.

    The link holds the plain values (``?gain=exponential``); each option shows the registry's label
    (in the session's language) and its formula as a caption; ``options`` reorders or narrows them.
    """
    values = tuple(param.values if options is None else options)
    box = container if container is not None else st
    kwargs.setdefault("format_func", lambda value: param.choice(value).label)
    return link_widget(box.radio, label, values, key=key, captions=[param.choice(v).text for v in values],
                       help=kwargs.pop("help", switch_help(param)), horizontal=True, **kwargs)


def variant_label(settings: dict) -> str:
    """The gain and discount a graded value used, in the registry's words.

    >>> variant_label({"gain": "exponential"})
    'exponential gain 2^g − 1, log2(i + 1) discount'
    """
    return _("{gain}, {discount}").format(gain=GAIN.label(settings.get("gain", GAIN.default)),
                                          discount=DISCOUNT.label(settings.get("discount", DISCOUNT.default)))


def ranking_settings(ranking: Ranking, prefix: str = "", *, container=None, show_graded: bool = True) -> dict:
    """Draw the settings widgets and return the metric keywords they give.

    Returns a dict with ``k`` (int or None), ``n_relevant`` (int, only when R is set),
    ``judged`` (the ranking's grades plus the unretrieved ones, only when some are given),
    ``gain`` and ``discount``: pass it to ``MetricSpec.applicable`` or
    ``registry.ranking_metric_table``.
    """
    box = container if container is not None else st
    k_keys = keys(prefix)
    settings: dict = {}

    col_k, col_r = box.columns(2)
    settings["k"] = int_field(_("k (cut-off)"), key=k_keys.setting("k"), minimum=1, maximum=MAX_RANKING_LENGTH,
                              help=_("Only the top k ranks count. Blank: the whole list."), container=col_k)
    r_value = int_field(_("R (relevant in the collection)"), key=k_keys.setting("R"), minimum=0,
                        maximum=MAX_RANKING_LENGTH, container=col_r,
                        help=_("How many relevant documents (grade ≥ 1) the query has in the whole collection, "
                               "retrieved or not. Blank: counted from the ranking and the judged grades below."))

    unretrieved_key = k_keys.setting("unretrieved")
    unretrieved_text = link_widget(
        box.text_input, _("Judged but not retrieved (grades)"), key=unretrieved_key, placeholder=_("none"),
        help=_("Grades of the judged documents the system did not return, e.g. 3,2,1: they raise the ideal "
               "DCG and R. Blank: only the ranked documents are judged."),
    )
    unretrieved = parse_or_last_valid(
        unretrieved_key,
        lambda: parse_grades(unretrieved_text, position="position") if unretrieved_text.strip() else (),
        default=(), where=box,
        message=lambda error, kept: _("Judged but not retrieved: {error} Still using {kept}.").format(
            error=error, kept=format_grades(kept) or _("none")))
    if unretrieved:
        settings["judged"] = tuple(ranking.grades) + tuple(unretrieved)

    if r_value is not None:
        in_ranking = count_relevant(ranking.grades)
        judged_relevant = count_relevant(settings.get("judged", ()))
        if r_value < in_ranking or ("judged" in settings and r_value != judged_relevant):
            keep_last_valid_in_link(k_keys.setting("R"))  # the page overrides it: not what a link should hold
        if r_value < in_ranking:
            box.error(_("R = {r} is smaller than the {in_ranking} relevant documents already in the "
                        "ranking; using R = {used} instead.").format(
                r=r_value, in_ranking=in_ranking, used=in_ranking + count_relevant(unretrieved)))
        elif "judged" in settings and r_value != judged_relevant:
            box.error(_("R = {r} disagrees with the judged grades ({judged} relevant in the "
                        "ranking and not retrieved); using the judged grades. Clear one of the two fields.").format(
                r=r_value, judged=judged_relevant))
        else:
            settings["n_relevant"] = r_value

    if show_graded:
        col_gain, col_discount = box.columns(2)
        settings["gain"] = choice_radio(GAIN, _("Gain"), key=k_keys.setting("gain"), container=col_gain)
        settings["discount"] = choice_radio(DISCOUNT, _("Discount"), key=k_keys.setting("discount"),
                                            container=col_discount)
    if settings["k"] is not None and settings["k"] > len(ranking):
        box.caption(_("k = {k} is beyond the {n} ranked documents: the missing ranks "
                      "count as non-relevant.").format(k=settings["k"], n=len(ranking)))
    return settings
