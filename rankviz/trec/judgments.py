"""Judgment files in every format :func:`rankviz.evaluate` reads: trec_eval's ``-R`` formats and
ndeval's subtopic qrels. One table says what each holds, how it is read and which measures it is
evaluated with when none are named; the command line and the app both read it.

>>> sorted(JUDGMENT_FORMATS)
['prefs', 'qrels', 'qrels_jg', 'qrels_prefs', 'subtopics']
>>> JUDGMENT_FORMATS["subtopics"].fields
'topic subtopic docno judgment'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["JUDGMENT_FORMATS", "JudgmentFormat", "read_judgments"]


@dataclass(frozen=True)
class JudgmentFormat:
    """One judgment format: its ``name`` (``evaluate(qrels_format=...)``, the CLI's ``-R``), the
    ``fields`` of a line, a one-line ``description`` and the ``default_measures`` it is evaluated
    with when none are named (trec_eval's default, "official", cannot be computed from
    preferences, judgment groups or subtopics)."""

    name: str
    fields: str
    description: str
    default_measures: tuple[str, ...]

    def read(self, source):
        """The judgments of ``source`` (path, file object or text): a :class:`~rankviz.trec.readers.TrecTable`
        for qrels (it lends evaluate the keys its reader computed), else a DataFrame. Raises
        :class:`~rankviz.trec.formats.TrecFormatError` naming the file, the line and what was expected."""
        from rankviz.trec.preferences import read_prefs
        from rankviz.trec.readers import read_qrels_table
        from rankviz.trec.subtopics import read_subtopic_qrels

        if self.name == "qrels":
            return read_qrels_table(source)
        if self.name in ("qrels_prefs", "qrels_jg"):
            return read_qrels_table(source, judgment_groups=True).frame
        return {"prefs": read_prefs, "subtopics": read_subtopic_qrels}[self.name](source)


# ndeval's measures, in the order it prints them.
_NDEVAL = tuple([f"{name}@{k}" for name in ("ERR_IA", "nERR_IA", "alpha_DCG", "alpha_nDCG") for k in (5, 10, 20)]
                + ["NRBP", "nNRBP", "AP_IA"] + [f"{name}@{k}" for name in ("P_IA", "StRecall") for k in (5, 10, 20)])

JUDGMENT_FORMATS: dict[str, JudgmentFormat] = {f.name: f for f in (
    JudgmentFormat("qrels", "qid iter docno rel", "a grade per judged document (trec_eval's default)",
                   ("official",)),
    JudgmentFormat("prefs", "qid jg jsg docno rel_level",
                   "preference judgments: within a judgment sub-group, a higher rel_level is preferred", ("prefs",)),
    JudgmentFormat("qrels_prefs", "qid jg docno rel", "a qrels read as preferences (iter = judgment group)",
                   ("prefs",)),
    JudgmentFormat("qrels_jg", "qid jg docno rel", "one qrels per judgment group (measures averaged over groups)",
                   ("qrels_jg",)),
    JudgmentFormat("subtopics", "topic subtopic docno judgment",
                   "ndeval's intent-aware qrels: a judgment per subtopic (the diversity measures)", _NDEVAL),
)}


def read_judgments(source, qrels_format: str = "qrels"):
    """Read judgments in ``qrels_format`` (a key of :data:`JUDGMENT_FORMATS`); see :meth:`JudgmentFormat.read`.

    >>> read_judgments("1 0 d1 2\\n1 0 d2 0\\n").frame.shape
    (2, 3)
    >>> read_judgments("1 1 d1 1\\n", "subtopics").columns.tolist()[:3]
    ['query_id', 'subtopic', 'doc_id']
    """
    if qrels_format not in JUDGMENT_FORMATS:
        raise ValueError(f"The judgment format must be one of {', '.join(JUDGMENT_FORMATS)}; got {qrels_format!r}.")
    return JUDGMENT_FORMATS[qrels_format].read(source)
