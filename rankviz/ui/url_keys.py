"""The table of every value the app keeps in its URL, and how a value is written there.

One row per URL parameter: its name in the link, the session-state key of the widget that
shows it, its type, the value left out of the link (what a fresh session shows) and the pages
that draw it. ``rankviz.ui.link`` reads and writes the URL from this table only, so a key
cannot be spelt two ways, two pages cannot use one name for different things, and a test can
check that each page draws exactly the keys listed for it. No Streamlit here.

Types: ``text`` (free text the page parses, e.g. grades), ``int`` (a whole number or blank,
typed as text), ``number`` (a number typed as text), ``choice`` (one of the widget's options),
``flag`` (on/off, ``true``/``false`` in the link) and ``table`` (a page's table as text, no
widget). A default of :data:`FROM_PAGE` means the page computes it from its data (the
correlation page's K is at most the number of documents, say) and passes it when drawing.

>>> url_key("b_rels").pages, url_key("beta").default, url_key("projector").kind
(('precision_recall',), '1', 'flag')
>>> url_text(True, False), url_text("linear", "linear"), url_flag("On")
('true', None, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from rankviz.registry import AP_DENOMINATOR, DISCOUNT, GAIN, ROUNDING, SPEARMAN_TIES

__all__ = ["UrlKey", "FROM_PAGE", "ALWAYS", "KINDS", "RANKING_PREFIXES", "RANKING_SETTINGS", "URL_KEYS", "url_key",
           "url_text", "url_flag", "from_url"]

KINDS = ("text", "int", "number", "choice", "flag", "table")


class _Marker:
    def __init__(self, text: str):
        self._text = text

    def __repr__(self) -> str:
        return self._text


# The page passes the default (it depends on the page's data).
FROM_PAGE = _Marker("FROM_PAGE")
# Never left out of the link (the ranking itself: a link without it would show another one).
ALWAYS = None


@dataclass(frozen=True)
class UrlKey:
    """One value kept in the URL.

    ``name`` is the URL parameter (``?name=...``), ``widget_key`` the session-state key of the
    widget showing it (today the same text for every key: links and tests use one spelling),
    ``kind`` one of :data:`KINDS`, ``default`` the value left out of the link (:data:`ALWAYS`:
    never left out; :data:`FROM_PAGE`: given by the page), ``pages`` the stems of the files in
    ``app_pages/`` that draw it (``"app"``: app.py, on every page).
    """

    name: str
    kind: str
    default: object
    pages: tuple[str, ...]
    widget_key: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind of URL key {self.name!r} must be one of {', '.join(KINDS)}; got {self.kind!r}.")
        if not self.widget_key:
            object.__setattr__(self, "widget_key", self.name)


# The shared ranking editor and its settings (rankviz.ui.editor, rankviz.ui.settings), once per
# ranking: "" is the app's ranking, "b_" the precision-recall page's second ranking B.
RANKING_PREFIXES = {"": ("one_ranking", "precision_recall", "graded"), "b_": ("precision_recall",)}
RANKING_SETTINGS = {"rels": ("text", ALWAYS), "docs": ("text", ""), "k": ("int", ""), "R": ("int", ""),
                    "unretrieved": ("text", ""), "gain": ("choice", GAIN.default),
                    "discount": ("choice", DISCOUNT.default)}
# Gain and discount only where graded metrics are shown (precision-recall draws binary ones only).
_GRADED_PAGES = ("one_ranking", "graded")


def _ranking_keys():
    for prefix, pages in RANKING_PREFIXES.items():
        for setting, (kind, default) in RANKING_SETTINGS.items():
            shown = tuple(p for p in pages if p in _GRADED_PAGES) if setting in ("gain", "discount") else pages
            if shown:
                yield UrlKey(prefix + setting, kind, default, shown)


_PAGE_KEYS = (
    UrlKey("projector", "flag", False, ("app",)),
    # the language (rankviz.ui.language): in the link once chosen (the link or the switch), else the browser's
    UrlKey("lang", "choice", FROM_PAGE, ("app",)),
    UrlKey("metric", "choice", "ndcg", ("one_ranking",)),
    UrlKey("step", "int", "0", ("graded", "precision_recall", "correlation")),
    # precision_recall
    UrlKey("beta", "number", "1", ("precision_recall",)),
    UrlKey("compare", "flag", False, ("precision_recall",)),
    UrlKey("rounding", "choice", ROUNDING.default, ("precision_recall",)),
    # correlation (items, r1, r2: the course's SRCC exercise, rankviz.ui.two_rankings; topk: min(5, documents))
    UrlKey("items", "text", FROM_PAGE, ("correlation",)),
    UrlKey("r1", "text", FROM_PAGE, ("correlation",)),
    UrlKey("r2", "text", FROM_PAGE, ("correlation",)),
    UrlKey("topk", "int", FROM_PAGE, ("correlation",)),
    UrlKey("p", "number", "0.5", ("correlation",)),
    # homework (hw_source: practice when the link holds only a seed; hw_preset: the first homework preset)
    UrlKey("hw_source", "choice", FROM_PAGE, ("homework",)),
    UrlKey("tol", "choice", "0.001", ("homework",)),
    UrlKey("hw_preset", "choice", FROM_PAGE, ("homework",)),
    UrlKey("hw_kind", "choice", "ndcg", ("homework",)),
    UrlKey("hw_gain", "choice", "exponential", ("homework",)),
    UrlKey("hw_discount", "choice", DISCOUNT.default, ("homework",)),
    UrlKey("hw_weights", "choice", "impressions", ("homework",)),
    UrlKey("hw_max_grade", "choice", "3", ("homework",)),
    UrlKey("hw_variant", "choice", "b", ("homework",)),
    UrlKey("seed", "int", "1234", ("homework",)),
    UrlKey("hw_r1", "text", "1,2,3,4,5", ("homework",)),
    UrlKey("hw_r2", "text", "2,1,4,3,5", ("homework",)),
    UrlKey("hw_rels", "text", "3,2,3,0,1,2", ("homework",)),
    UrlKey("hw_R", "int", "", ("homework",)),
    UrlKey("hw_unretrieved", "text", "", ("homework",)),
    UrlKey("hw_step", "int", "0", ("homework",)),
    # homework, the student's own exercise (rankviz.ui.own_homework): one field per input of a kind
    UrlKey("hw_k", "int", "", ("homework",)),
    UrlKey("hw_cutoffs", "text", "", ("homework",)),
    UrlKey("hw_betas", "text", "", ("homework",)),
    UrlKey("hw_denominator", "choice", AP_DENOMINATOR.default, ("homework",)),
    UrlKey("hw_rankings", "text", "R N R N N\nN N R N R", ("homework",)),
    UrlKey("hw_names", "text", "", ("homework",)),
    UrlKey("hw_Rs", "text", "", ("homework",)),
    UrlKey("hw_threshold", "int", "", ("homework",)),
    UrlKey("hw_runs", "text", "0.05 0.1 0.5 0.5 0.75\n0.1 0.3 0.45 0.45 0.6", ("homework",)),
    UrlKey("hw_levels", "text", "", ("homework",)),
    UrlKey("hw_rounding", "choice", ROUNDING.default, ("homework",)),
    UrlKey("hw_gmax", "int", "3", ("homework",)),
    UrlKey("hw_ties", "choice", SPEARMAN_TIES.default, ("homework",)),
    UrlKey("hw_items", "text", "", ("homework",)),
    UrlKey("hw_penalty", "text", "", ("homework",)),
    UrlKey("hw_labels", "text", "1 0 1 0 0", ("homework",)),
    UrlKey("hw_scores", "text", "0.9 0.6 0.6 0.2 0.5", ("homework",)),
    UrlKey("hw_groups", "text", "u1 u1 u1 u2 u2", ("homework",)),
    UrlKey("hw_answer", "text", "d1 d2 d3 d4 d5", ("homework",)),
    UrlKey("hw_tie_levels", "text", "", ("homework",)),
    UrlKey("hw_relevant", "text", "d2 d5 d9", ("homework",)),
    UrlKey("hw_known", "text", "d2 d9", ("homework",)),
    UrlKey("hw_expected", "int", "", ("homework",)),
    UrlKey("hw_wanted", "int", "", ("homework",)),
    # many_queries (mq_queries: the course example's table; mq_query: the first query)
    UrlKey("mq_mode", "choice", "rankings", ("many_queries",)),
    UrlKey("mq_queries", "table", FROM_PAGE, ("many_queries",)),
    UrlKey("mq_k", "int", "", ("many_queries",)),
    UrlKey("mq_sh", "int", "", ("many_queries",)),
    UrlKey("mq_gain", "choice", GAIN.default, ("many_queries",)),
    UrlKey("mq_query", "choice", FROM_PAGE, ("many_queries",)),
    UrlKey("mq_floor", "number", "1e-05", ("many_queries",)),
    # explorer
    UrlKey("ex_others", "text", "", ("explorer",)),
    UrlKey("ex_n", "int", "10", ("explorer",)),
    UrlKey("ex_r", "int", "", ("explorer",)),
    UrlKey("ex_k", "int", "", ("explorer",)),
    UrlKey("ex_scale", "choice", "0-1", ("explorer",)),
    UrlKey("ex_gain", "choice", GAIN.default, ("explorer",)),
    UrlKey("ex_change", "choice", "R", ("explorer",)),
    UrlKey("ex_other_value", "int", "3", ("explorer",)),
    UrlKey("ex_generator", "choice", "random", ("explorer",)),
    UrlKey("ex_m", "int", "200", ("explorer",)),
    UrlKey("ex_seed", "int", "42", ("explorer",)),
    UrlKey("ex_len", "int", "10", ("explorer",)),
    UrlKey("ex_base", "text", "3,2,3,0,1,2,0,0,1,0", ("explorer",)),
    UrlKey("ex_sim_r", "int", "", ("explorer",)),
    # user_measures (um_R, um_A, um_K: the course's query q1, rankviz.ui.user_inputs.DEFAULT_SETS;
    # um_rels: q1's ranking)
    UrlKey("um_weights", "choice", "size", ("user_measures",)),
    UrlKey("um_R", "text", FROM_PAGE, ("user_measures",)),
    UrlKey("um_A", "text", FROM_PAGE, ("user_measures",)),
    UrlKey("um_K", "text", FROM_PAGE, ("user_measures",)),
    UrlKey("um_expected", "int", "5", ("user_measures",)),
    UrlKey("um_found", "int", "4", ("user_measures",)),
    UrlKey("um_examined", "int", "10", ("user_measures",)),
    UrlKey("um_rels", "text", FROM_PAGE, ("user_measures",)),
    UrlKey("um_levels", "text", "", ("user_measures",)),
    UrlKey("um_wanted", "int", "2", ("user_measures",)),
    UrlKey("um_k", "int", "", ("user_measures",)),
)

URL_KEYS: dict[str, UrlKey] = {}
for _key in (*_ranking_keys(), *_PAGE_KEYS):
    if _key.widget_key in URL_KEYS or any(k.name == _key.name for k in URL_KEYS.values()):
        raise ValueError(f"URL key {_key.name!r} is listed twice.")
    URL_KEYS[_key.widget_key] = _key
del _key


def url_key(widget_key: str) -> UrlKey:
    """The row of the widget whose session-state key is ``widget_key``; raises ValueError when absent."""
    try:
        return URL_KEYS[widget_key]
    except KeyError:
        raise ValueError(f"widget_key {widget_key!r} is not in the table of URL keys (rankviz/ui/url_keys.py); "
                         f"add a row for it.") from None


def url_text(value, default) -> str | None:
    """The text of ``value`` in the URL, or None when it is left out (None or equal to ``default``,
    so a link holds only what differs from what a fresh session shows).

    Booleans are written ``true`` / ``false`` (read back by :func:`url_flag`), anything else with
    ``str``.

    >>> url_text(True, False), url_text(5, ""), url_text("linear", "linear"), url_text(None, "")
    ('true', '5', None, None)
    """
    if value is None or value == default:
        return None
    return str(value).lower() if isinstance(value, bool) else str(value)


def url_flag(text) -> bool:
    """A boolean URL parameter: ``1``, ``true``, ``yes`` or ``on`` (any case) is on, anything else off.

    >>> url_flag("true"), url_flag(" On "), url_flag("0"), url_flag("nope")
    (True, True, False, False)
    """
    return str(text).strip().lower() in ("1", "true", "yes", "on")


def from_url(key: UrlKey, text: str):
    """The value a widget of ``key`` shows for ``text`` from a link: a flag as a bool, anything else as text.

    >>> from_url(url_key("compare"), "true"), from_url(url_key("k"), "5")
    (True, '5')
    """
    return url_flag(text) if key.kind == "flag" else text
