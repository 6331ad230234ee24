"""Numbers as the app writes them: one value as a student writes it, and which columns of a
table show decimals. Pure functions; no rankviz import.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["format_number", "fraction_columns"]


def format_number(value, digits: int | None = 4) -> str:
    """A number as a student writes it: whole numbers without decimals, others to ``digits``
    decimals with trailing zeros dropped (``None``: every digit of the float, as ``repr``);
    NaN as ``"NaN"``, infinities as ``"inf"`` / ``"-inf"``; anything else as ``str``.

    >>> format_number(7.0), format_number(1 / 3), format_number(0.5), format_number(float("nan"))
    ('7', '0.3333', '0.5', 'NaN')
    >>> format_number(1 / 3, None)
    '0.3333333333333333'
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return str(value)
    number = float(value)
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "inf" if number > 0 else "-inf"
    if number.is_integer():
        return str(int(number))
    if digits is None:
        return repr(number)
    text = f"{number:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text  # a small negative number rounds to 0, not "-0"


def fraction_columns(table) -> list:
    """The float columns of a table that hold a value that is not a whole number.

    The app's tables (``rankviz.ui.render.number_columns``) and their notebook and terminal
    twins (:func:`rankviz.display.format_cells`) show these columns with a fixed number of
    decimals, every value alike, and the other float columns (grades, counts, gains of whole
    grades) without decimals. Missing values are ignored; an infinity is not a whole number.

    Parameters
    ----------
    table : pandas.DataFrame

    Returns
    -------
    list
        The column labels, in the table's order.

    Examples
    --------
    >>> import pandas as pd
    >>> fraction_columns(pd.DataFrame({"rank": [1, 2], "rel": [3.0, float("nan")], "P@i": [1.0, 0.5]}))
    ['P@i']
    """
    fractional = []
    for column in table.columns:
        series = table[column]
        if series.dtype.kind != "f":
            continue
        values = series.to_numpy(dtype=np.float64, na_value=np.nan)
        values = values[~np.isnan(values)]
        # float.is_integer, vectorised (a per-value map costs milliseconds on every rerun).
        if not (np.isfinite(values).all() and (values == np.floor(values)).all()):
            fractional.append(column)
    return fractional
