"""Metric settings shared by the ranking pages: k, R, judged-but-not-retrieved grades, gain and
discount. Every widget is kept in the link (``rankviz.ui.link``), so ``/?rels=3,2,3,0,1,2&k=5&gain=exponential``
opens exactly that state.

A bad value (``k = 0``, ``R = abc``) shows an error beside its field and the last valid value
stays in force, so the page below never breaks.
"""

from __future__ import annotations

import streamlit as st

from rankviz.teaching.parsing import MAX_RANKING_LENGTH, format_grades, parse_grades
from rankviz.teaching.ranking import Ranking
from rankviz.ui.fields import int_field
from rankviz.ui.link import last_valid_key, link_widget
from rankviz.ui.state import keys

__all__ = [
    "GAIN_OPTIONS",
    "DISCOUNT_OPTIONS",
    "GAIN_LABELS",
    "DISCOUNT_LABELS",
    "VARIANT_EXPLANATIONS",
    "other_option",
    "variant_label",
    "ranking_settings",
]

GAIN_OPTIONS = ("linear", "exponential")
DISCOUNT_OPTIONS = ("log2", "jarvelin")
# Shown as captions under the options: a bound radio writes its option label to the URL, so the
# options themselves stay the plain values (?gain=exponential).
GAIN_LABELS = {"linear": "g", "exponential": "2^g − 1"}
DISCOUNT_LABELS = {"log2": "1 / log2(i + 1)", "jarvelin": "1 / max(1, log2 i)"}

# One sentence per switch: what changes when the other convention is used.
VARIANT_EXPLANATIONS = {
    "gain": (
        "Exponential gain 2^g − 1 (Burges; the lecture's final formula) makes a grade-3 document worth 7 "
        "instead of 3, so the order of the best documents weighs more than with linear gain g (trec_eval, "
        "scikit-learn)."
    ),
    "discount": (
        "Järvelin and Kekäläinen's original discount max(1, log2 i) leaves ranks 1 and 2 undiscounted and "
        "discounts later ranks less than log2(i + 1) does."
    ),
}


def other_option(name: str, value: str) -> str:
    """The other convention of a two-way switch (``"gain"`` or ``"discount"``)."""
    options = GAIN_OPTIONS if name == "gain" else DISCOUNT_OPTIONS
    return options[1] if value == options[0] else options[0]


def variant_label(settings: dict) -> str:
    """A short label of the gain/discount a graded value used, e.g. ``"exponential gain, log2 discount"``."""
    return f"{settings.get('gain', 'linear')} gain, {settings.get('discount', 'log2')} discount"


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
    settings["k"] = int_field("k (cut-off)", key=k_keys.setting("k"), minimum=1, maximum=MAX_RANKING_LENGTH,
                              help="Only the top k ranks count. Blank: the whole list.", container=col_k)
    r_value = int_field("R (relevant in the collection)", key=k_keys.setting("R"), minimum=0,
                        maximum=MAX_RANKING_LENGTH, container=col_r,
                        help="How many relevant documents (grade ≥ 1) the query has in the whole collection, "
                             "retrieved or not. Blank: counted from the ranking and the judged grades below.")

    unretrieved_key = k_keys.setting("unretrieved")
    unretrieved_text = link_widget(
        box.text_input, "Judged but not retrieved (grades)", key=unretrieved_key, placeholder="none",
        help="Grades of the judged documents the system did not return, e.g. 3,2,1: they raise the ideal "
             "DCG and R. Blank: only the ranked documents are judged.",
    )
    unretrieved: tuple = ()
    last = last_valid_key(unretrieved_key)
    if unretrieved_text.strip():
        try:
            unretrieved = parse_grades(unretrieved_text, position="position")
        except ValueError as error:
            unretrieved = st.session_state.get(last, ())
            box.error(f"Judged but not retrieved: {error} Still using "
                      f"{format_grades(unretrieved) or 'none'}.")
    st.session_state[last] = unretrieved
    if unretrieved:
        settings["judged"] = tuple(ranking.grades) + tuple(unretrieved)

    if r_value is not None:
        in_ranking = sum(1 for g in ranking.grades if g >= 1)
        judged_relevant = sum(1 for g in settings.get("judged", ()) if g >= 1)
        if r_value < in_ranking:
            box.error(f"R = {r_value} is smaller than the {in_ranking} relevant documents already in the "
                      f"ranking; using R = {in_ranking + sum(1 for g in unretrieved if g >= 1)} instead.")
        elif "judged" in settings and r_value != judged_relevant:
            box.error(f"R = {r_value} disagrees with the judged grades ({judged_relevant} relevant in the "
                      f"ranking and not retrieved); using the judged grades. Clear one of the two fields.")
        else:
            settings["n_relevant"] = r_value

    if show_graded:
        col_gain, col_discount = box.columns(2)
        settings["gain"] = link_widget(col_gain.radio, "Gain", GAIN_OPTIONS, key=k_keys.setting("gain"),
                                       captions=[GAIN_LABELS[o] for o in GAIN_OPTIONS],
                                       help=VARIANT_EXPLANATIONS["gain"], horizontal=True)
        settings["discount"] = link_widget(col_discount.radio, "Discount", DISCOUNT_OPTIONS,
                                           key=k_keys.setting("discount"),
                                           captions=[DISCOUNT_LABELS[o] for o in DISCOUNT_OPTIONS],
                                           help=VARIANT_EXPLANATIONS["discount"], horizontal=True)
    if settings["k"] is not None and settings["k"] > len(ranking):
        box.caption(f"k = {settings['k']} is beyond the {len(ranking)} ranked documents: the missing ranks "
                    f"count as non-relevant.")
    return settings
