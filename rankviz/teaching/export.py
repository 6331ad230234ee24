"""Worked tables as downloadable files: CSV for spreadsheets, LaTeX for homework write-ups.

Pure builders (pandas only), so the bytes the app offers are unit-tested; the app's download
buttons just hand them over.

>>> import pandas as pd
>>> df = pd.DataFrame({"rank": [1, 2], "gain": [7.0, 3.0]})
>>> to_csv_bytes(df).decode().splitlines()
['rank,gain', '1,7', '2,3']
>>> print(to_latex_table(df))
\\begin{tabular}{rr}
\\toprule
rank & gain \\\\
\\midrule
1 & 7 \\\\
2 & 3 \\\\
\\bottomrule
\\end{tabular}
"""

from __future__ import annotations

from rankviz.formatting import format_number, latex_escape

__all__ = ["to_csv_bytes", "to_latex_table"]


def to_csv_bytes(df) -> bytes:
    """The table as UTF-8 CSV, without the pandas index, numbers at full precision.

    Whole floats are written without a trailing ``.0`` (a grade 3, a gain 7) so the CSV reads like
    the slide; other floats at full precision (``repr``), NaN as an empty cell.

    Examples
    --------
    A gain of 7.0 is written 7, log2(3) keeps all its digits, a missing gain is an empty cell:

    >>> import pandas as pd
    >>> df = pd.DataFrame({"rank": [1, 2, 3], "gain": [7.0, 3.0, float("nan")],
    ...                    "log2(1+i)": [1.0, 1.584962500721156, 2.0]})
    >>> print(to_csv_bytes(df).decode(), end="")
    rank,gain,log2(1+i)
    1,7,1
    2,3,1.584962500721156
    3,,2
    """
    out = df.copy()
    for column in out.columns:
        if out[column].dtype.kind == "f":
            out[column] = ["" if v != v else format_number(v, None) for v in out[column]]
    return out.to_csv(index=False, lineterminator="\n").encode("utf-8")


def to_latex_table(df, *, caption: str | None = None, digits: int = 4) -> str:
    r"""The table as a booktabs ``tabular`` (wrapped in a ``table`` when ``caption`` is given).

    Numbers are right-aligned and rounded to ``digits`` decimals
    (:func:`~rankviz.formatting.numbers.format_number`); text is left-aligned and escaped
    (:func:`~rankviz.formatting.latex.latex_escape`), so ``log2(1+i)`` or ``P@k`` compile as
    written. Needs ``\usepackage{booktabs}``.

    Examples
    --------
    2/3 is rounded to ``digits`` = 3 decimals, 1.0 written 1; the text column is left-aligned
    and its underscores escaped, as are the caption's:

    >>> import pandas as pd
    >>> df = pd.DataFrame({"doc": ["d_1", "d_2"], "P@i": [1.0, 2 / 3]})
    >>> print(to_latex_table(df, caption="P@i of q_1", digits=3))
    \begin{table}[ht]
    \centering
    \begin{tabular}{lr}
    \toprule
    doc & P@i \\
    \midrule
    d\_1 & 1 \\
    d\_2 & 0.667 \\
    \bottomrule
    \end{tabular}
    \caption{P@i of q\_1}
    \end{table}
    """
    columns = list(df.columns)
    numeric = [df[c].dtype.kind in "biuf" for c in columns]
    align = "".join("r" if is_number else "l" for is_number in numeric)
    lines = [rf"\begin{{tabular}}{{{align}}}", r"\toprule",
             " & ".join(latex_escape(str(c)) for c in columns) + r" \\", r"\midrule"]
    for row in df.itertuples(index=False):
        cells = [format_number(v, digits) if is_number else latex_escape(str(v)) for v, is_number in zip(row, numeric)]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    if caption is not None:
        lines = [r"\begin{table}[ht]", r"\centering", *lines, rf"\caption{{{latex_escape(caption)}}}", r"\end{table}"]
    return "\n".join(lines)
