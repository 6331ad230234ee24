"""One ranked list as the app edits it, and what a course exercise says about it.

Pure Python (no Streamlit): the app's pages keep a :class:`Ranking` in session state and derive
their widgets from it; the metrics take its grades (``ranking.rels``).

>>> ranking = Ranking.from_grades([3, 0, 1])
>>> ranking.doc_ids, ranking.rels
(('d1', 'd2', 'd3'), [3, 0, 1])
>>> unretrieved_grades(judged=[3, 3, 2, 1, 0, 0], rels=[3, 0, 1])
(3, 2)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rankviz.teaching.parsing import check_ranking, default_doc_ids, format_grades

__all__ = ["Ranking", "DEFAULT_RANKING", "unretrieved_grades", "preset_settings"]


@dataclass(frozen=True)
class Ranking:
    """A ranked list: ``doc_ids[i]`` is at rank i + 1 with grade ``grades[i]``.

    Build it with :meth:`from_grades`, which validates (grades from 0 to ``MAX_GRADE``, unique
    ids, at most ``MAX_RANKING_LENGTH`` rows, see :mod:`rankviz.teaching.parsing`) and raises
    ``ValueError`` naming the rank or the id that is wrong. The constructor itself takes the
    tuples as given: callers that already validated them use it directly.

    >>> Ranking.from_grades([2, 1], ["a", "b"])
    Ranking(doc_ids=('a', 'b'), grades=(2, 1))
    >>> Ranking.from_grades([1, -1])
    Traceback (most recent call last):
    ...
    ValueError: Grade at rank 2 is -1: grades must be numbers from 0 to 100.
    """

    doc_ids: tuple[str, ...]
    grades: tuple

    @property
    def rels(self) -> list:
        """The grades as the metrics take them (``rels[0]`` is rank 1)."""
        return list(self.grades)

    def __len__(self) -> int:
        return len(self.grades)

    @classmethod
    def from_grades(cls, grades, doc_ids=None) -> Ranking:
        """A validated ranking of ``grades``; without ``doc_ids`` (None or empty) the ids are ``d1 ... dn``."""
        grades = tuple(grades)
        ids, checked = check_ranking(doc_ids if doc_ids else default_doc_ids(len(grades)), grades)
        return cls(ids, checked)

    def has_default_ids(self) -> bool:
        """True when the ids are ``d1 ... dn`` in rank order (the app then leaves them out of the link).

        >>> Ranking.from_grades([1, 0]).has_default_ids(), Ranking.from_grades([1, 0], ["d2", "d1"]).has_default_ids()
        (True, False)
        """
        return self.doc_ids == default_doc_ids(len(self.grades))

    def to_frame(self):
        """The grid's data: a DataFrame with columns ``rank`` (from 1), ``doc`` and ``grade``.

        >>> Ranking.from_grades([3, 0]).to_frame().to_dict("list")
        {'rank': [1, 2], 'doc': ['d1', 'd2'], 'grade': [3, 0]}
        """
        import pandas as pd

        return pd.DataFrame({"rank": range(1, len(self.grades) + 1), "doc": list(self.doc_ids),
                             "grade": list(self.grades)})


# The lecture's CG/DCG/NDCG class exercise (002, "Class Exercise - Compute DCG / IDCG / NDCG"):
# what a first visitor sees.
DEFAULT_RANKING = Ranking(("d1", "d2", "d3", "d4", "d5", "d6"), (3, 2, 3, 0, 1, 2))


def unretrieved_grades(judged, rels) -> tuple:
    """Grades in ``judged`` that the ranking did not retrieve: what the app calls "judged but not
    retrieved".

    The multiset difference ``judged - rels``, keeping the non-zero grades only (a judged
    non-relevant document left out changes no metric), highest first. A grade the ranking holds
    more often than ``judged`` does simply leaves nothing behind.

    Parameters
    ----------
    judged : iterable of numbers
        Grades of every judged document of the query, retrieved or not.
    rels : iterable of numbers
        Grades of the ranked documents.

    Returns
    -------
    tuple
        The grades of the judged documents missing from the ranking, non-zero, descending.

    Examples
    --------
    >>> unretrieved_grades([3, 3, 2, 1, 0, 0], [3, 0, 1])
    (3, 2)
    >>> unretrieved_grades([1], [1, 1, 2])
    ()
    """
    left = Counter(judged)
    left.subtract(Counter(rels))
    return tuple(sorted((g for g, n in left.items() if g > 0 for _ in range(max(n, 0))), reverse=True))


def preset_settings(preset) -> dict:
    """The settings a ranking exercise implies, as the app's setting fields show them (text).

    Keys ``k`` (always blank: an exercise is worked over its whole list), ``R`` (the exercise's
    number of relevant documents, blank when it has none), ``unretrieved`` (its judged grades
    the ranking missed, see :func:`unretrieved_grades`), ``gain`` and ``discount`` (the
    exercise's convention, else linear gain and the log2(i + 1) discount).

    Parameters
    ----------
    preset : rankviz.teaching.presets.Preset
        A preset of kind ``"ranking"``.

    Examples
    --------
    >>> from rankviz.teaching.presets import get_preset
    >>> preset_settings(get_preset("q1_graded"))["unretrieved"]
    '3,2,2,1,1'
    >>> preset_settings(get_preset("q1_binary"))["R"]
    '10'
    """
    if preset.kind != "ranking":
        raise ValueError(f"preset must hold one ranking; {preset.key!r} holds {preset.kind}.")
    settings = dict(preset.settings)
    unretrieved = unretrieved_grades(preset.judged, preset.rels) if preset.judged is not None else ()
    return {
        "k": "",
        "R": "" if preset.n_relevant is None else str(preset.n_relevant),
        "unretrieved": format_grades(unretrieved),
        "gain": settings.get("gain", "linear"),
        "discount": settings.get("discount", "log2"),
    }
