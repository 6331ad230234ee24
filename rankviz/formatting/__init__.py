"""How the package writes numbers and text for people: the one place for each rule.

* :mod:`~rankviz.formatting.numbers`: :func:`format_number` (a value as a student writes it)
  and :func:`fraction_columns` (which float columns of a table show decimals);
* :mod:`~rankviz.formatting.latex`: :func:`latex_escape` (text as LaTeX: the one escaping table)
  and :func:`latex_math` (a KaTeX formula for pdflatex's math mode);
* :mod:`~rankviz.formatting.markdown`: :func:`latex_text` and :func:`markdown_html` (the app's
  Markdown as LaTeX and as HTML);
* :mod:`~rankviz.formatting.formula_text`: :func:`formula_text` (a KaTeX formula as plain text).

Strings and tables in, strings out. Nothing here imports another rankviz package, so every layer
may use it: the worked tables' exports (``teaching.export``), the worksheets, the comparison's
LaTeX table (``evaluation.comparison``), ``rankviz.display`` and the app (``rankviz.ui``).
"""

from rankviz._lazy import lazy_names

__all__ = ["format_number", "fraction_columns", "latex_escape", "latex_math", "latex_text", "markdown_html",
           "formula_text"]
__getattr__, __dir__ = lazy_names(__name__, {
    "format_number": "rankviz.formatting.numbers", "fraction_columns": "rankviz.formatting.numbers",
    "latex_escape": "rankviz.formatting.latex", "latex_math": "rankviz.formatting.latex",
    "latex_text": "rankviz.formatting.markdown", "markdown_html": "rankviz.formatting.markdown",
    "formula_text": "rankviz.formatting.formula_text"})
