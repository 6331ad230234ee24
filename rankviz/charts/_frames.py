"""Checking and reshaping the tables the chart builders receive.

Builders take the breakdowns of :mod:`rankviz.metrics` as they are (a
:class:`~rankviz.metrics.breakdown.Breakdown` or its ``table``), with the column names students
read ("P@i", "running DCG", ...), and let the caller rename any of them.
Inside a chart the columns get plain names ("precision", "running"), because Vega-Lite reads
dots and brackets in a field name as nested access; the readable name stays as the axis title
and tooltip title.
"""

from __future__ import annotations

import enum

import altair as alt
import pandas as pd

from rankviz.i18n import _


class _Column(enum.Enum):
    BY_ROLE = "the breakdown's column of this role"

    def __repr__(self) -> str:
        return "BY_ROLE"


#: A builder's column parameter left at this default takes the column that a
#: :class:`~rankviz.metrics.breakdown.Breakdown` names for the parameter's role (``roles``):
#: builders read a worked table by role, never by its display names.
BY_ROLE = _Column.BY_ROLE


def columns_by_role(data, columns: dict, *, func: str, required=()) -> dict:
    """The column each parameter names: ``columns`` maps a parameter to ``(role, given)``.

    ``given`` is a column name (kept), None (no such column) or :data:`BY_ROLE`: then the
    column the breakdown ``data`` names for ``role``, else None. A parameter of ``required``
    still None raises, saying how to name it.

    >>> import pandas as pd
    >>> from rankviz.metrics import err_breakdown
    >>> columns_by_role(err_breakdown([2, 0]), {"stop": ("stop_here", BY_ROLE), "reach": ("reach", None)}, func="f")
    {'stop': 'P(stop here)', 'reach': None}
    >>> columns_by_role(pd.DataFrame({"p": [0.5]}), {"stop": ("stop_here", BY_ROLE)}, func="f", required=("stop",))
    Traceback (most recent call last):
    ...
    ValueError: The 'stop' parameter of f must name a column of the table (a worked table of rankviz.metrics names it by its role, 'stop_here'). Got none.
    """
    roles = getattr(data, "roles", None) or {}
    out = {}
    for parameter, (role, given) in columns.items():
        out[parameter] = roles.get(role) if given is BY_ROLE else given
        if out[parameter] is None and parameter in required:
            raise ValueError(f"The '{parameter}' parameter of {func} must name a column of the table (a worked table "
                             f"of rankviz.metrics names it by its role, {role!r}). Got none.")
    return out


def role_or(data, role: str, given, default):
    """The column ``given`` names; for :data:`BY_ROLE`, the column the breakdown ``data`` names for
    ``role``, else ``default`` (the English header of a hand-made table, e.g. ``"P@i"``).

    A breakdown built in Chinese names its P@i column ``P@i`` and its rank column ``位置``: read by
    role, a builder finds both whatever the language.

    >>> import pandas as pd
    >>> role_or(pd.DataFrame({"P@i": [1.0]}), "precision", BY_ROLE, "P@i"), role_or(None, "rank", "i", "rank")
    ('P@i', 'i')
    """
    if given is not BY_ROLE:
        return given
    roles = getattr(data, "roles", None) or {}
    if role in roles:
        return roles[role]
    # A worked table handed over without its Breakdown: its header in the language in force.
    columns = getattr(frame_of(data), "columns", ())
    return default if default in columns or _(default) not in columns else _(default)


def frame_of(data):
    """The DataFrame a builder draws: ``data`` itself, or the ``table`` of a result that holds one
    (a :class:`~rankviz.metrics.breakdown.Breakdown`, a teaching result such as a position sweep).

    Anything else is returned as given, for :func:`require_columns` to refuse with its message.

    >>> from rankviz.metrics import Breakdown
    >>> frame_of(Breakdown(pd.DataFrame({"rank": [1]}), 1.0, "x")).columns.tolist()
    ['rank']
    """
    if isinstance(data, pd.DataFrame):
        return data
    table = getattr(data, "table", None)
    return table if isinstance(table, pd.DataFrame) else data


def require_columns(df, columns: dict, *, func: str, name: str = "df") -> None:
    """Raise a ValueError unless ``df`` is a DataFrame holding every column in ``columns``.

    ``columns`` maps the builder's parameter (e.g. ``"precision"``) to the column it names
    (e.g. ``"P@i"``); parameters set to None are optional and skipped.
    """
    if not isinstance(df, pd.DataFrame):
        raise ValueError(
            f"The '{name}' parameter of {func} must be a pandas DataFrame. Got {type(df).__name__} instead."
        )
    for parameter, column in columns.items():
        if column is not None and column not in df.columns:
            present = ", ".join(repr(str(c)) for c in df.columns) or "none"
            raise ValueError(
                f"The '{name}' parameter of {func} has no column {column!r} (named by its '{parameter}' "
                f"parameter); its columns are {present}. Pass {parameter}=<the column's name>."
            )


def pick(df: pd.DataFrame, columns: dict) -> pd.DataFrame:
    """A new DataFrame with the plain names of ``columns`` (plain name -> column of ``df``).

    Columns mapped to None are left out. The caller's DataFrame is never modified.
    """
    return pd.DataFrame({plain: df[column].to_numpy() for plain, column in columns.items() if column is not None})


def escape_field(name) -> str:
    """A column name as a Vega-Lite field: dots and brackets escaped so they are not nested access."""
    text = str(name)
    for special in ("\\", ".", "[", "]"):
        text = text.replace(special, "\\" + special)
    return text


def check_flag(value, *, func: str, name: str) -> bool:
    """A plain bool option."""
    if not isinstance(value, bool):
        raise ValueError(f"The '{name}' parameter of {func} must be True or False. Got {value!r} instead.")
    return value


def tooltip_kind(df: pd.DataFrame, column) -> str:
    """The Vega-Lite type a tooltip shows ``df[column]`` as: quantitative for numbers, else nominal."""
    return "quantitative" if pd.api.types.is_numeric_dtype(df[column]) and not pd.api.types.is_bool_dtype(df[column]) \
        else "nominal"


def tooltip_for(df: pd.DataFrame, column):
    """A tooltip entry for any column of ``df``, whatever characters its name holds."""
    return alt.Tooltip(field=escape_field(column), type=tooltip_kind(df, column), title=str(column))
