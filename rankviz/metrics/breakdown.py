"""What every ``*_breakdown`` returns: a metric worked out like a lecture exercise.

A breakdown is built from the same kernel, and the same intermediate values, as the metric's
value, so its table and its value cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from rankviz.i18n import DEFAULT_LANGUAGE, N_, _, language

__all__ = ["Breakdown", "ROLES", "TABLE_WORDS", "by_role"]

#: What a worked table's column may stand for, and so what a chart, an exercise or a page reads by
#: role rather than by position or display name (the discount column is named after the discount,
#: ``log2(1+i)`` or ``max(1, log2(i))``; its role is always ``"discount"``). ``ideal_*``: the same
#: quantity for the ideal ranking.
ROLES = {
    "rank": "the 1-based rank i",
    "grade": "the relevance grade at rank i",
    "gain": "the gain of that grade",
    "discount": "the discount's denominator at rank i (the gain is divided by it)",
    "weight": "the factor the gain at rank i is multiplied by (a discount D(i), a patience β^(i-1))",
    "contribution": "what rank i adds to the metric's sum",
    "running": "the metric's running sum down to rank i",
    "ideal_grade": "the grade at rank i of the ideal ranking",
    "ideal_gain": "its gain",
    "ideal_discount": "its discount's denominator",
    "ideal_contribution": "what rank i of the ideal ranking adds",
    "ideal_running": "the ideal ranking's running sum",
    "stop": "the probability that the document at rank i satisfies the user (ERR's R_i)",
    "reach": "the probability that the user reaches rank i",
    "stop_here": "the probability that the user stops at rank i",
    "subtopics": "the subtopics the document at rank i is relevant to",
    "query": "the query (topic) of a per-query value",
    "value": "the per-query value an aggregate combines",
    "relevant": "whether the document at rank i is relevant (grade >= rel_threshold)",
    "relevant_so_far": "the number of relevant documents in ranks 1..i",
    "precision": "P@i, the precision of the top i",
    "recall": "R@i, the recall of the top i",
    "f": "F_β@i, the F-measure of the top i",
    "reciprocal": "1/i, the reciprocal of rank i",
    "level": "a recall level r",
    "needed": "the relevant documents a recall level needs",
    "first_reaching": "the first rank whose recall reaches the level",
    "best_rank": "the rank whose precision is the interpolated precision",
    "interpolated": "the interpolated precision at the level",
}


#: Headers of the worked tables that name no role other code reads by (C/W/L, the user-oriented
#: measures, diversity, the per-query aggregates): a :class:`Breakdown` shows them in the language in
#: force. Headers other packages still read by name (GAUC's ``group``, ``weight``, ``credit``;
#: Spearman's ``doc``) are not listed: they stay as they are until those readers use roles.
TABLE_WORDS = (
    N_("depth"), N_("ideal grade"), N_("overlap"), N_("term"), N_("ideal term"), N_("running value"),
    N_("level"), N_("examined"), N_("expected non-relevant seen"), N_("non-relevant"),
    N_("running relevant share"), N_("running non-relevant share"), N_("found"), N_("expected"),
    N_("counted = min(found, expected)"), N_("subtopic"), N_("ranks"), N_("precisions"),
    N_("relevant subtopics"), N_("running count"), N_("new subtopics"), N_("query"),
)
_SHOWN_IN_ANY_LANGUAGE = frozenset(TABLE_WORDS) | {"rank", "rel", "grade", "gain", "contribution", "P(reach rank)", "relevant"}


@dataclass(frozen=True, eq=False, repr=False)
class Breakdown:
    r"""A worked exercise: the table of steps, the value, the formula with the numbers, and details.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per step of the working (a rank, a query, a pair of items...), in the order a
        lecture works it. It carries no ``DataFrame.attrs``: everything else is a field here.
    value : float
        The metric's value: what the metric's own function returns for the same input.
    latex : str
        The formula with the numbers substituted (KaTeX input), ending in the value.
    details : Mapping[str, Any]
        Named intermediate values a reader may want beside the table (R, DCG and IDCG, the
        floor of GMAP, the counts of concordant pairs...); read-only, empty for most metrics.
        Each breakdown's docstring lists its keys.
    roles : Mapping[str, str]
        Role (one of :data:`ROLES`) -> the column of ``table`` that plays it, for the tables other
        code reads (graded, ERR, diversity, aggregates); read-only, empty for the others.
        :meth:`column` reads a column by its role.

    Notes
    -----
    A ``Breakdown`` pickles (``details`` travels as a plain dict), so ``st.cache_data`` and
    ``copy.deepcopy`` hand back an equal one. Two breakdowns are never ``==`` unless they are
    the same object: comparing tables is the caller's choice (``table.equals``, a tolerance...).

    Examples
    --------
    >>> import pandas as pd
    >>> worked = Breakdown(pd.DataFrame({"rank": [1, 2]}), 0.5, r"P@2 = \frac{1}{2} = 0.500", {"n_relevant": 1})
    >>> worked.value, worked.details["n_relevant"]
    (0.5, 1)
    >>> worked
    Breakdown(value=0.5, table=2 rows x 1 column, details: n_relevant)

    A worked DCG names its discount column after the discount; its role does not change:

    >>> from rankviz.metrics import dcg_breakdown
    >>> worked = dcg_breakdown([3, 0, 2], discount="jarvelin")
    >>> worked.roles["discount"], worked.column("discount").tolist()
    ('max(1, log2(i))', [1.0, 1.0, 1.5849625007211563])
    """

    table: Any
    value: float
    latex: str
    details: Mapping[str, Any] = field(default_factory=dict)
    roles: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        if not isinstance(self.latex, str):
            raise TypeError(f"The 'latex' parameter of Breakdown must be a str. Got {type(self.latex).__name__} "
                             f"instead.")
        if not isinstance(self.details, Mapping):
            raise TypeError(f"The 'details' parameter of Breakdown must be a mapping of names to values. Got "
                             f"{type(self.details).__name__} instead.")
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))
        unknown = sorted(set(self.roles) - set(ROLES))
        if unknown:
            raise ValueError(f"The 'roles' parameter of Breakdown must map roles among {', '.join(ROLES)} to "
                             f"columns. Got {', '.join(map(repr, unknown))}.")
        missing = [column for column in self.roles.values() if column not in getattr(self.table, "columns", ())]
        if missing:
            raise ValueError(f"The 'roles' parameter of Breakdown names columns the table does not have: "
                             f"{', '.join(map(repr, missing))}.")
        roles = dict(self.roles)
        if language() != DEFAULT_LANGUAGE and hasattr(self.table, "rename"):
            # Headers built in English by a table without its own words: shown in the language in
            # force, the roles following them (tables built by by_role are already translated).
            shown = {c: _(c) for c in self.table.columns if c in _SHOWN_IN_ANY_LANGUAGE and _(c) != c}
            if shown:
                object.__setattr__(self, "table", self.table.rename(columns=shown))
                roles = {role: shown.get(column, column) for role, column in roles.items()}
        object.__setattr__(self, "roles", MappingProxyType(roles))

    def __reduce__(self):
        # A mappingproxy cannot be pickled; the constructor makes the plain dicts read-only again.
        return type(self), (self.table, self.value, self.latex, dict(self.details), dict(self.roles))

    def column(self, role: str):
        """The column of ``table`` that plays ``role`` (a KeyError lists the roles this table has)."""
        if role not in self.roles:
            raise KeyError(f"This worked table has no column of role {role!r}; its roles are "
                           f"{', '.join(self.roles) or 'none'}.")
        return self.table[self.roles[role]]

    def by_roles(self):
        """``table`` with its columns named by role (headers without a role kept): code reads it the
        same way whatever the language it was built in."""
        return self.table.rename(columns={header: role for role, header in self.roles.items()})

    def __repr__(self) -> str:
        rows, columns = getattr(self.table, "shape", ("?", "?"))
        shape = f"{rows} row{'' if rows == 1 else 's'} x {columns} column{'' if columns == 1 else 's'}"
        keys = ", ".join(map(str, self.details)) or "none"
        return f"Breakdown(value={self.value!r}, table={shape}, details: {keys})"


def by_role(table, headers: Mapping[str, str]):
    """``table`` (columns named by role) with the headers a person reads, and its roles.

    ``headers`` maps a role to its header in English (the source, marked for the catalogue by
    the caller); each column named by a role of ``headers`` is renamed to that header in the
    language in force (:func:`rankviz.i18n._`), and the returned roles map the role to it, so
    code reading the table by role never depends on the language. Other columns keep their names.

    >>> import pandas as pd
    >>> table, roles = by_role(pd.DataFrame({"rank": [1], "precision": [1.0]}), {"rank": "rank", "precision": "P@i"})
    >>> list(table.columns), roles
    (['rank', 'P@i'], {'rank': 'rank', 'precision': 'P@i'})
    """
    roles = {role: _(headers[role]) for role in table.columns if role in headers}
    return table.rename(columns=roles), roles
