"""The session's language: the link's ``?lang=``, else the switch's, else the browser's, else English.

``start_language()`` runs at the top of every script run in app.py (after the link is read,
before any page draws), so every ``rankviz.i18n._`` of the run speaks the session's language;
``language_switch()`` draws the switch (English / 简体中文) beside the projector switch, and
``html_lang()`` gives the script that sets the page's ``<html lang>`` so screen readers speak the right language.

A chosen language is kept in every link the app writes (``?lang=zh``, ``?lang=en``): chosen in
the link the session opened or with the switch. A language only guessed from the browser
(``st.context.locale``) is left out of the link, so a shared link opens in the language of
each student's browser unless the teacher chose one.
"""

from __future__ import annotations

import json

import streamlit as st

from rankviz.i18n import LANGUAGES, _, choose_language, use
from rankviz.ui.link import current_value, link_value, link_widget

__all__ = ["start_language", "language_switch", "html_lang", "with_language"]

_CHOSEN = "_lang_chosen"  # the session chose a language with the switch


def _explicit() -> bool:
    return bool(st.session_state.get(_CHOSEN)) or link_value("lang") in LANGUAGES


def _browser_locale() -> str | None:
    try:
        return st.context.locale
    except Exception:  # noqa: BLE001 -- no browser (AppTest, bare mode): English
        return None


def start_language() -> str:
    """Choose and :func:`rankviz.i18n.use` the language of this run; returns it (``"en"``/``"zh"``)."""
    asked = current_value("lang", None)
    chosen = choose_language(asked if asked in LANGUAGES else None, _browser_locale())
    return use(chosen)


def _chosen() -> None:
    st.session_state[_CHOSEN] = True


def language_switch(lang: str) -> None:
    """The switch English / 简体中文 (key and URL parameter ``lang``)."""
    st.session_state["lang"] = lang  # a link's ?lang=xx (no such language) is not an error: the browser's then
    default = None if _explicit() else lang  # chosen: always in the link; guessed: left out
    link_widget(st.segmented_control, _("Language"), list(LANGUAGES), key="lang", default=default,
                format_func=LANGUAGES.get, required=True, on_change=_chosen, label_visibility="collapsed")


def html_lang(lang: str) -> str:
    """The script that sets the page's ``<html lang>``: what screen readers speak (Streamlit's page
    says ``en``). Returned, not drawn, so the page sends it in its one script element."""
    return f"<script>document.documentElement.lang = {json.dumps(lang)};</script>"


def with_language(address: str) -> str:
    """``address`` with ``?lang=`` (or ``&lang=``) of this session added when it is chosen or not
    English: a link the app prints (a worksheet's) opens in the language it was made in.

    An empty address (unknown, e.g. in AppTest) stays empty: the links are then queries alone,
    which a worksheet completes with its own parameters.
    """
    from rankviz.i18n import language

    lang = language()
    if not address or (not _explicit() and lang == "en"):
        return address
    return address + ("&" if "?" in address else "?") + f"lang={lang}"
