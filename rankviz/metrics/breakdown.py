"""What every ``*_breakdown`` returns: a metric worked out like a lecture exercise.

A breakdown is built from the same kernel, and the same intermediate values, as the metric's
value, so its table and its value cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["Breakdown"]


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
    """

    table: Any
    value: float
    latex: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        if not isinstance(self.latex, str):
            raise TypeError(f"The 'latex' parameter of Breakdown must be a str. Got {type(self.latex).__name__} "
                             f"instead.")
        if not isinstance(self.details, Mapping):
            raise TypeError(f"The 'details' parameter of Breakdown must be a mapping of names to values. Got "
                             f"{type(self.details).__name__} instead.")
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def __reduce__(self):
        # A mappingproxy cannot be pickled; the constructor makes the plain dict read-only again.
        return type(self), (self.table, self.value, self.latex, dict(self.details))

    def __repr__(self) -> str:
        rows, columns = getattr(self.table, "shape", ("?", "?"))
        shape = f"{rows} row{'' if rows == 1 else 's'} x {columns} column{'' if columns == 1 else 's'}"
        keys = ", ".join(map(str, self.details)) or "none"
        return f"Breakdown(value={self.value!r}, table={shape}, details: {keys})"
