"""How breakdown tables write numbers and sums into their LaTeX formulas, shared by every metric family."""

from __future__ import annotations

__all__ = ["LATEX_TERMS", "number", "fraction", "sum_latex", "text"]

#: Beyond this many terms a breakdown's LaTeX sum shows the first and last ones around an
#: ellipsis: a formula with hundreds of terms teaches nothing and is slow to render.
LATEX_TERMS = 10


def number(x: float) -> str:
    """A number as a student writes it: 7, 1.5, 0.667 (three decimals, trailing zeros dropped)."""
    x = float(x)
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.3f}".rstrip("0").rstrip(".")


def fraction(numerator, denominator) -> str:
    r"""``\frac{numerator}{denominator}`` with both written by :func:`number`."""
    return rf"\frac{{{number(numerator)}}}{{{number(denominator)}}}"


def sum_latex(terms: list[str]) -> str:
    r"""Terms joined by ``+`` for a breakdown's formula; "0" for none.

    Past :data:`LATEX_TERMS` terms: the first ones, ``\cdots`` and the last two, so the sum
    still shows where it starts and how it ends (the last terms of a long ranking, or the
    last queries of a run) in :data:`LATEX_TERMS` terms.

    >>> sum_latex(["1", "2"]), sum_latex([])
    ('1 + 2', '0')
    >>> sum_latex([str(i) for i in range(1, 21)])
    '1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + \\cdots + 19 + 20'
    """
    if not terms:
        return "0"
    if len(terms) > LATEX_TERMS:
        terms = list(terms[: LATEX_TERMS - 2]) + [r"\cdots"] + list(terms[-2:])
    return " + ".join(terms)


def text(words: str, **values) -> str:
    r"""Words inside a formula: ``\text{...}`` of ``words`` (already in the language in force, from
    :func:`rankviz.i18n._`) with its named placeholders filled; KaTeX's special characters escaped.

    >>> text("first relevant document at rank {rank}", rank=3)
    '\\text{first relevant document at rank 3}'
    >>> text("no relevant documents: ") + "R = 0"
    '\\text{no relevant documents: }R = 0'
    """
    filled = words.format(**values) if values else words
    for special, escaped in (("\\", r"\textbackslash{}"), ("{", r"\{"), ("}", r"\}"), ("_", r"\_"),
                             ("%", r"\%"), ("&", r"\&"), ("#", r"\#"), ("$", r"\$")):
        filled = filled.replace(special, escaped)
    return rf"\text{{{filled}}}"
