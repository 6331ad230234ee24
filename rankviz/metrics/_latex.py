"""How breakdown tables write numbers into their LaTeX formulas, shared by every metric family."""

from __future__ import annotations

__all__ = ["number", "fraction"]


def number(x: float) -> str:
    """A number as a student writes it: 7, 1.5, 0.667 (three decimals, trailing zeros dropped)."""
    x = float(x)
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.3f}".rstrip("0").rstrip(".")


def fraction(numerator, denominator) -> str:
    r"""``\frac{numerator}{denominator}`` with both written by :func:`number`."""
    return rf"\frac{{{number(numerator)}}}{{{number(denominator)}}}"
