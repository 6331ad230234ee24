"""The words many metric docstrings share, written once (placed by :mod:`rankviz._docstrings`).

A docstring line ``{rels}`` becomes the entry below, so every metric that takes a ranking
describes it alike. Each metrics module ends with ``fill_metric_docstrings(globals())``, adding
its own words if it has some.
"""

from __future__ import annotations

import textwrap

from rankviz._docstrings import fill_docstrings

__all__ = ["WORDS", "fill_metric_docstrings"]

WORDS = {
    "rels": """
        rels : sequence of float
            Relevance grades in ranked order (``rels[0]`` is rank 1), non-negative.
        """,
    "rel_threshold": """
        rel_threshold : float, default 1
            A document is relevant when its grade is at least this.
        """,
    "R": """
        n_relevant, judged : optional
            R, as in :func:`~rankviz.metrics.binary.recall`; by default the relevant documents in ``rels``.
        """,
    "items": """
        items : sequence or None, default None
            Names of the documents (items). They do not change the value and are not read here:
            the parameter is accepted so that one set of keywords calls both this function and
            its ``*_breakdown`` twin, which labels its rows with them (and checks them).
        """,
    "k": """
        k : int or None, default None
            Cut-off; ``None`` uses the whole list.
        """,
}
# The three a binary measure dividing by R takes, in the order of their signatures.
WORDS["rels, R, rel_threshold"] = "\n".join(textwrap.dedent(WORDS[key]).strip() for key in ("rels", "R", "rel_threshold"))


def fill_metric_docstrings(namespace: dict, words: dict | None = None) -> None:
    """:func:`~rankviz._docstrings.fill_docstrings` of a metrics module with :data:`WORDS` and
    the module's own ``words``."""
    fill_docstrings(namespace, {**WORDS, **(words or {})})
