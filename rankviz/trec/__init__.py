"""TREC inputs: qrels and run files read into validated tables, as trec_eval reads them.

* :mod:`~rankviz.trec.readers`: :func:`read_qrels`, :func:`read_run` (path, ``.gz``, file object,
  text, CSV/TSV/Parquet, DataFrame, nested dict) and :class:`TrecFormatError`;
* :mod:`~rankviz.trec.tables`: the table formats (delimited, Parquet, DataFrame, dict);
* :mod:`~rankviz.trec.duplicates`: the duplicate (query, docno) check and the 64-bit pair keys
  that evaluation reuses to match run lines to judgments.
"""

from rankviz._lazy import lazy_names

__all__ = ["TrecFormatError", "read_qrels", "read_run"]
__getattr__, __dir__ = lazy_names(__name__, dict.fromkeys(__all__, "rankviz.trec.readers"))
