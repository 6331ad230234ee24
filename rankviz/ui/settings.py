"""Metric settings shared by the ranking pages: k, R, judged-but-not-retrieved grades, gain and
discount. Every widget is mirrored in the URL (``rankviz.ui.state.sync_url``), so ``/?rels=3,2,3,0,1,2&k=5&gain=exponential``
opens exactly that state.

A bad value (``k = 0``, ``R = abc``) shows an error beside its field and the last valid value
stays in force, so the page below never breaks.
"""

from __future__ import annotations

import streamlit as st

from rankviz.teaching.parsing import MAX_RANKING_LENGTH, format_grades, parse_grades, parse_optional_int
from rankviz.ui.state import Ranking, kept_value, keys, persistent_widget, set_now, use_url_keys

__all__ = [
    "GAIN_OPTIONS",
    "DISCOUNT_OPTIONS",
    "GAIN_LABELS",
    "DISCOUNT_LABELS",
    "VARIANT_EXPLANATIONS",
    "other_option",
    "variant_label",
    "ranking_settings",
    "check_option",
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


def check_option(key: str, options, container=None, *, fallback=None) -> None:
    """Before drawing a choice widget: replace a value it cannot show (e.g. ``?gain=cubic`` in a
    link) by ``fallback`` (default: the first option), and say so."""
    value = kept_value(key)
    if value is not None and value not in options:
        replacement = fallback if fallback is not None else options[0]
        (container or st).error(f"{key} = {value!r} is not one of {', '.join(options)}; using {replacement}.")
        set_now(key, replacement)


def _remember(prefix: str, name: str, value):
    st.session_state[f"{prefix}_last_valid_{name}"] = value
    return value


def _last_valid(prefix: str, name: str, default=None):
    return st.session_state.get(f"{prefix}_last_valid_{name}", default)


def _int_field(container, prefix: str, name: str, label: str, help: str, *, minimum: int):
    key = keys(prefix).setting(name)
    text = persistent_widget(container.text_input, label, key=key, default="", help=help, placeholder="all")
    try:
        return _remember(prefix, name, parse_optional_int(text, name=name, minimum=minimum,
                                                          maximum=MAX_RANKING_LENGTH))
    except ValueError as error:
        container.error(f"{error} Still using {name} = {_last_valid(prefix, name) or 'blank'}.")
        return _last_valid(prefix, name)


def ranking_settings(ranking: Ranking, prefix: str = "", *, container=None, show_graded: bool = True) -> dict:
    """Draw the settings widgets and return the metric keywords they give.

    Returns a dict with ``k`` (int or None), ``n_relevant`` (int, only when R is set),
    ``judged`` (the ranking's grades plus the unretrieved ones, only when some are given),
    ``gain`` and ``discount``: pass it to ``MetricSpec.applicable`` or
    ``registry.ranking_metric_table``.
    """
    box = container if container is not None else st
    use_url_keys(prefix)
    k_keys = keys(prefix)
    settings: dict = {}

    col_k, col_r = box.columns(2)
    settings["k"] = _int_field(col_k, prefix, "k", "k (cut-off)",
                               "Only the top k ranks count. Blank: the whole list.", minimum=1)
    r_value = _int_field(col_r, prefix, "R", "R (relevant in the collection)",
                         "How many relevant documents (grade ≥ 1) the query has in the whole collection, "
                         "retrieved or not. Blank: counted from the ranking and the judged grades below.",
                         minimum=0)

    unretrieved_key = k_keys.setting("unretrieved")
    unretrieved_text = persistent_widget(
        box.text_input, "Judged but not retrieved (grades)", key=unretrieved_key, default="", placeholder="none",
        help="Grades of the judged documents the system did not return, e.g. 3,2,1: they raise the ideal "
             "DCG and R. Blank: only the ranked documents are judged.",
    )
    unretrieved: tuple = ()
    if unretrieved_text.strip():
        try:
            unretrieved = _remember(prefix, "unretrieved", parse_grades(unretrieved_text, position="position"))
        except ValueError as error:
            unretrieved = _last_valid(prefix, "unretrieved", ())
            box.error(f"Judged but not retrieved: {error} Still using "
                      f"{format_grades(unretrieved) or 'none'}.")
    else:
        _remember(prefix, "unretrieved", ())
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
        gain_key, discount_key = k_keys.setting("gain"), k_keys.setting("discount")
        check_option(gain_key, GAIN_OPTIONS, box)
        check_option(discount_key, DISCOUNT_OPTIONS, box)
        settings["gain"] = persistent_widget(col_gain.radio, "Gain", GAIN_OPTIONS, key=gain_key, default="linear",
                                             captions=[GAIN_LABELS[o] for o in GAIN_OPTIONS],
                                             help=VARIANT_EXPLANATIONS["gain"], horizontal=True)
        settings["discount"] = persistent_widget(col_discount.radio, "Discount", DISCOUNT_OPTIONS, key=discount_key,
                                                 default="log2",
                                                 captions=[DISCOUNT_LABELS[o] for o in DISCOUNT_OPTIONS],
                                                 help=VARIANT_EXPLANATIONS["discount"], horizontal=True)
    if settings["k"] is not None and settings["k"] > len(ranking):
        box.caption(f"k = {settings['k']} is beyond the {len(ranking)} ranked documents: the missing ranks "
                    f"count as non-relevant.")
    return settings
