"""How the app labels a value: the metric's name with k filled in, and the conventions it used in words.

Shared by the app's pages (through :mod:`rankviz.ui.tables`) and by :func:`rankviz.explain`, so a
number reads the same in the app and in a notebook.

>>> from rankviz.registry import get_spec
>>> spec = get_spec("ndcg")
>>> at_k_label(spec, {"k": None}, 6), variant_text(spec.applicable({"gain": "exponential"}), spec)
('nDCG@6', 'exponential gain 2^g − 1, log2(i + 1) discount')
"""

from __future__ import annotations

from rankviz.formatting import format_number
from rankviz.i18n import _
from rankviz.registry import DISCOUNT, GAIN

__all__ = ["variant_text", "at_k_label"]


def variant_text(used: dict, spec=None) -> str:
    """The conventions a value used, in words (the registry's labels for the gain and discount), in
    the language in force.

    >>> variant_text({"gain": "linear", "discount": "jarvelin", "log_base": 3})
    'linear gain g, Järvelin-Kekäläinen discount max(1, log3 i)'
    >>> variant_text({"rel_threshold": 1, "n_relevant": 10})
    'relevant: grade ≥ 1, R = 10'
    """
    parts = []
    if "gain" in used:
        parts.append(_(GAIN.label(used["gain"])))
    if "discount" in used:
        label = _(DISCOUNT.label(used["discount"]))
        if used["discount"] == "jarvelin":  # the label's formula with the base actually used (2 by default)
            label = label.replace("log2", f"log{format_number(used.get('log_base', 2))}")
        parts.append(label)
    if "rel_threshold" in used:
        parts.append(_("relevant: grade ≥ {threshold}").format(threshold=format_number(used["rel_threshold"])))
    if "n_relevant" in used:
        parts.append(f"R = {used['n_relevant']}")
    elif "judged" in used:
        parts.append(_("judged: {n} documents").format(n=len(used["judged"])))
    elif spec is not None and "n_relevant" in spec.param_names:
        parts.append(_("R from the list"))
    if "beta" in used:
        parts.append(f"β = {format_number(used['beta'])}")
    if spec is not None and "max_grade" in spec.param_names:
        parts.append(f"g_max = {format_number(used['max_grade'])}" if "max_grade" in used
                     else _("g_max = highest grade in the list"))
    if spec is not None and spec.family == "graded" and not parts:
        parts.append(_("grades as given"))
    return _(", ").join(parts)


def at_k_label(spec, settings: dict, n_ranked: int) -> str:
    """The metric's pretty name with k filled in: ``nDCG@k`` -> ``nDCG@5`` (``@6`` for the whole list of 6)."""
    k = settings.get("k")
    shown = k if k is not None else n_ranked
    return spec.pretty_name.replace("@k", f"@{shown}")
