"""TREC inputs: qrels and run files read into validated tables, as trec_eval reads them.

* :mod:`~rankviz.trec.readers`: :func:`read_qrels`, :func:`read_run` (path, ``.gz``, file object,
  text, CSV/TSV/Parquet, DataFrame, nested dict), and :func:`read_qrels_table`,
  :func:`read_run_table`, which return a :class:`TrecTable`: the same DataFrame with the keys of
  its ids that reading computed, for evaluate to reuse;
* :mod:`~rankviz.trec.formats`: what both kinds of file hold, the column names tables may use,
  and :class:`TrecFormatError`;
* :mod:`~rankviz.trec.tables`: the table formats (delimited, Parquet, DataFrame, dict);
* :mod:`~rankviz.trec.duplicates`: the duplicate (query, docno) check and the 64-bit pair keys
  that evaluation reuses to match run lines to judgments.

Nothing here imports :mod:`rankviz.evaluation`: reading needs no evaluation.
"""

from rankviz._lazy import lazy_names

__all__ = ["TrecFormatError", "TrecTable", "read_qrels", "read_qrels_table", "read_run", "read_run_table"]
__getattr__, __dir__ = lazy_names(__name__, dict.fromkeys(__all__, "rankviz.trec.readers"))
