"""Text fields in the link that hold a number: what k, R, a seed or β is typed into.

Both are a ``st.text_input`` drawn by :func:`rankviz.ui.link.link_widget` (so ``?k=5`` fills
the field and an edit updates the link), then parsed. A bad text shows an error beside the
field and the last valid value stays in force, so the page below never breaks (the link keeps the
last valid text too: a copied link never opens the error); Back/Forward
forgets that last value with the text, so a bad value in a restored link falls back to the
default exactly as in a freshly opened one.
"""

from __future__ import annotations

import math
import re

import streamlit as st

from rankviz.formatting import format_number
from rankviz.i18n import _
from rankviz.teaching.parsing import parse_optional_int
from rankviz.ui.last_valid import parse_or_last_valid
from rankviz.ui.link import link_widget
from rankviz.ui.url_keys import FROM_PAGE, url_key

__all__ = ["number_field", "int_field"]


def _shown(number: float) -> str:
    """A bound or value as the messages print it (1e-05 stays readable, 1000000000 stays whole)."""
    return format_number(number) if number == 0 or abs(number) >= 1e-4 else f"{number:g}"


def _text_default(key: str, default) -> str:
    """The field's default text: the table's, or the page's number where the table leaves it to the page."""
    table_default = url_key(key).default
    if (table_default is FROM_PAGE) != (default is not None):
        raise ValueError(f"default= is for the URL keys whose default the page gives; {key!r} has "
                         f"{table_default!r} in rankviz/ui/url_keys.py, got default={default!r}.")
    return _shown(default) if table_default is FROM_PAGE else table_default


def number_field(label: str, *, key: str, minimum: float, maximum: float, help: str, whole: bool = False,
                 default: float | None = None, container=None) -> float:
    """A number from ``minimum`` to ``maximum`` typed as text (``1.5``, ``1,5``), kept in the link.

    ``whole`` asks for a whole number (returned as an int). ``default`` only for a key whose
    table row leaves the default to the page (the correlation page's K). Returns the number in
    force: the text's, or after a bad text the last valid one (at first the default).
    """
    box = container if container is not None else st
    text_default = _text_default(key, default)
    from_page = {"default": text_default} if default is not None else {}
    text = link_widget(box.text_input, label, key=key, help=help, **from_page)

    def parse():
        value = float(str(text).strip().replace(",", "."))
        if not math.isfinite(value) or not minimum <= value <= maximum or (whole and not value.is_integer()):
            raise ValueError
        return int(value) if whole else value

    return parse_or_last_valid(
        key, parse, default=lambda: int(float(text_default)) if whole else float(text_default), where=box,
        message=lambda error, value: (
            _("{field} must be a whole number from {low} to {high}; got {text}. Still using {value}.") if whole else
            _("{field} must be a number from {low} to {high}; got {text}. Still using {value}.")).format(
            field=label, low=_shown(minimum), high=_shown(maximum), text=repr(str(text).strip()), value=_shown(value)))


def int_field(label: str, *, key: str, minimum: int, maximum: int, help: str, placeholder: str | None = None,
              container=None) -> int | None:
    """A whole number from ``minimum`` to ``maximum``, or blank (None), typed as text and kept in the link.

    The field's name in messages is the label before any bracket (``"k (cut-off)"`` -> ``k``).
    Returns the number in force: the text's, or after a bad text the last valid one (at first
    the default's).
    """
    box = container if container is not None else st
    name = re.split(r" \(|（", label)[0]
    placeholder = placeholder if placeholder is not None else _("all")
    text = link_widget(box.text_input, label, key=key, help=help, placeholder=placeholder)
    return parse_or_last_valid(
        key, lambda: parse_optional_int(text, name=name, minimum=minimum, maximum=maximum),
        default=lambda: parse_optional_int(_text_default(key, None), name=name, minimum=minimum, maximum=maximum),
        where=box, message=lambda error, value: _("{error} Still using {name} = {value}.").format(
            error=error, name=name, value=_("blank") if value is None else value))
