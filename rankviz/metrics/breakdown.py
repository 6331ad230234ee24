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


@dataclass(frozen=True, eq=False)
class Breakdown:
    """A worked exercise: the table of steps, the value, the formula with the numbers, and details.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per step of the working (a rank, a query, a pair of items...), in the order a
        lecture works it.
    value : float
        The metric's value: what the metric's own function returns for the same input.
    latex : str
        The formula with the numbers substituted (KaTeX input), ending in the value.
    details : Mapping[str, Any]
        Named intermediate values a reader may want beside the table (R, DCG and IDCG, the
        floor of GMAP, the counts of concordant pairs...); read-only. Each breakdown's
        docstring lists its keys.

    Examples
    --------
    >>> import pandas as pd
    >>> worked = Breakdown(pd.DataFrame({"rank": [1, 2]}), 0.5, r"P@2 = \\frac{1}{2} = 0.500", {"n_relevant": 1})
    >>> worked.value, worked.details["n_relevant"]
    (0.5, 1)
    """

    table: Any
    value: float
    latex: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))
