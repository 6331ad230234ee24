"""TREC inputs: qrels and run files read into validated tables, as trec_eval reads them.

* :mod:`~rankviz.trec.readers`: :func:`read_qrels`, :func:`read_run` (path, ``.gz``, file object,
  text, CSV/TSV/Parquet, DataFrame, nested dict), and :func:`read_qrels_table`,
  :func:`read_run_table`, which return a :class:`TrecTable`: the same DataFrame with the keys of
  its ids that reading computed, for evaluate to reuse; ``open_run_stream``: a big run file in
  blocks of whole queries (evaluate's bounded-memory path);
* :mod:`~rankviz.trec.preferences`: trec_eval's preference files (:func:`read_prefs`), qrels read as
  preferences, and z-score files (:func:`read_zscores`); :mod:`~rankviz.trec.subtopics`: ndeval's
  subtopic qrels (:func:`read_subtopic_qrels`); :mod:`~rankviz.trec.fields` reads such
  whitespace-separated files;
* :mod:`~rankviz.trec.formats`: what both kinds of file hold, the column names tables may use,
  and :class:`TrecFormatError`;
* :mod:`~rankviz.trec.tables`: the table formats (delimited, Parquet, DataFrame, dict);
* :mod:`~rankviz.trec.duplicates`: the duplicate (query, docno) check and the 64-bit pair keys
  that evaluation reuses to match run lines to judgments.

Nothing here imports :mod:`rankviz.evaluation`: reading needs no evaluation.
"""

from rankviz._lazy import lazy_names

_READERS = ["TrecFormatError", "TrecTable", "read_qrels", "read_qrels_table", "read_run", "read_run_table"]
# trec_eval's -R prefs/qrels_prefs and -Z inputs, and ndeval's subtopic qrels (evaluate's qrels_format="subtopics").
_OTHER_INPUTS = ["read_prefs", "read_qrels_prefs", "read_zscores", "read_subtopic_qrels"]
__all__ = _READERS + _OTHER_INPUTS
__getattr__, __dir__ = lazy_names(__name__, {**dict.fromkeys(_READERS, "rankviz.trec.readers"),
                                             **dict.fromkeys(_OTHER_INPUTS[:3], "rankviz.trec.preferences"),
                                             "read_subtopic_qrels": "rankviz.trec.subtopics"})
