"""Typed input of the "AUC, GAUC and user measures" page, validated into what the metrics take.

Pure functions (no Streamlit): a click log table (group, item, label, score) and sets of
document ids typed as text. Errors name the row or the field, so the page can show them beside
the input. Also the page's default examples, built from the course's query q1.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from rankviz.i18n import _

__all__ = [
    "ClickLog",
    "parse_click_log",
    "parse_id_set",
    "DEFAULT_CLICK_LOG",
    "DEFAULT_SETS",
    "MAX_CLICK_ROWS",
]

MAX_CLICK_ROWS = 2000
_SEPARATORS = re.compile(r"[,;\s]+")


@dataclass(frozen=True)
class ClickLog:
    """Validated click-log columns, one entry per shown item."""

    groups: tuple
    items: tuple
    labels: tuple
    scores: tuple

    def group(self, group) -> "ClickLog":
        """The rows of one group, in their order."""
        keep = [i for i, g in enumerate(self.groups) if g == group]
        return ClickLog(*(tuple(column[i] for i in keep) for column in (self.groups, self.items, self.labels,
                                                                          self.scores)))

    def group_ids(self) -> list:
        return list(dict.fromkeys(self.groups))

    @property
    def has_both_classes(self) -> bool:
        """True when the rows hold a positive and a negative: only then are AUC and a ROC curve
        defined (with one class there is no (positive, negative) pair to order).

        >>> log = parse_click_log([{"group": "u1", "item": "a", "label": 1, "score": 0.9},
        ...                        {"group": "u2", "item": "b", "label": 0, "score": 0.2}])
        >>> log.has_both_classes, log.group("u1").has_both_classes
        (True, False)
        """
        return 0 in self.labels and 1 in self.labels


def _blank(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or str(value).strip() == ""


def _label(value, where: str) -> int:
    text = str(value).strip().lower()
    if text in ("1", "1.0", "true", "yes", "click", "clicked"):
        return 1
    if text in ("0", "0.0", "false", "no"):
        return 0
    raise ValueError(_("{where}: label must be 1 (positive, e.g. clicked) or 0; got {value}.").format(
        where=where, value=repr(value)))


def _score(value, where: str) -> float:
    try:
        number = float(str(value).strip())
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise ValueError(_("{where}: score must be a finite number; got {value}.").format(where=where, value=repr(value)))
    return number


def parse_click_log(rows) -> ClickLog:
    """Validate a click log: rows with ``group``, ``item``, ``label`` (0/1) and ``score``.

    Fully blank rows (just added in the grid) are skipped; a blank item becomes ``i<row>``.

    >>> log = parse_click_log([{"group": "u1", "item": "a", "label": 1, "score": "0.9"},
    ...                        {"group": "u1", "item": "", "label": "0", "score": 0.2}])
    >>> log.items, log.labels, log.scores
    (('a', 'i2'), (1, 0), (0.9, 0.2))
    >>> parse_click_log([{"group": "u1", "item": "a", "label": 2, "score": 0.5}])
    Traceback (most recent call last):
    ...
    ValueError: Row 1 (a): label must be 1 (positive, e.g. clicked) or 0; got 2.
    """
    records = rows.to_dict("records") if hasattr(rows, "to_dict") else [dict(row) for row in rows]
    groups, items, labels, scores = [], [], [], []
    for number, row in enumerate(records, start=1):
        cells = [row.get(c) for c in ("group", "item", "label", "score")]
        if all(_blank(c) for c in cells):
            continue
        group, item, label, score = cells
        item = f"i{number}" if _blank(item) else str(item).strip()
        where = _("Row {number} ({item})").format(number=number, item=item)
        if _blank(group):
            raise ValueError(_("{where}: give the group (the user, session or query the item was shown in).").format(
                where=where))
        if _blank(label):
            raise ValueError(_("{where}: label must be 1 (positive, e.g. clicked) or 0; the cell is empty.").format(
                where=where))
        if _blank(score):
            raise ValueError(_("{where}: score must be a finite number; the cell is empty.").format(where=where))
        groups.append(str(group).strip())
        items.append(item)
        labels.append(_label(label, where))
        scores.append(_score(score, where))
    if not groups:
        raise ValueError(_("The click log is empty; add rows of group, item, label (1 or 0) and score."))
    if len(groups) > MAX_CLICK_ROWS:
        raise ValueError(_("{n} rows is more than this page shows ({most}).").format(n=len(groups), most=MAX_CLICK_ROWS))
    return ClickLog(tuple(groups), tuple(items), tuple(labels), tuple(scores))


def parse_id_set(text: str, *, name: str) -> list[str]:
    """Document ids typed as text ("d1, d3 d7"), in first-seen order, each once (a set).

    An empty text is the empty set.

    >>> parse_id_set("d3, d5 d3", name="R")
    ['d3', 'd5']
    """
    if text is None:
        return []
    if not isinstance(text, str):
        raise ValueError(_("{name} must be text such as 'd1, d3'; got {text}.").format(name=name, text=repr(text)))
    ids = [item for item in _SEPARATORS.split(text.strip()) if item]
    return list(dict.fromkeys(ids))


def _default_click_log():
    import pandas as pd

    # Three users' impressions: u1 and u2 hold clicks (label 1) and skips, u3 only skips, so GAUC
    # leaves u3 out; a model that ranks well within each user but not across them.
    rows = [("u1", "a", 1, 0.9), ("u1", "b", 0, 0.6), ("u1", "c", 1, 0.4), ("u1", "d", 0, 0.3),
            ("u2", "e", 1, 0.35), ("u2", "f", 0, 0.2), ("u2", "g", 0, 0.5),
            ("u3", "h", 0, 0.7), ("u3", "i", 0, 0.1)]
    return pd.DataFrame(rows, columns=["group", "item", "label", "score"])


DEFAULT_CLICK_LOG = _default_click_log()

# The course's query q1 (shared/course/002): its 10 relevant documents (R), the 15 it retrieved
# (A), and some relevant documents a user already knew (K).
DEFAULT_SETS = {
    "R": "d3 d5 d9 d25 d39 d44 d56 d71 d89 d123",
    "A": "d123 d84 d56 d6 d8 d9 d511 d129 d187 d25 d38 d48 d250 d113 d3",
    "K": "d3 d5 d56 d89",
}
