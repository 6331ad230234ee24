"""Qrels and run files from the sample collection or from uploads: size checks, hashing, cached parsing.

Pages call :func:`sample_file`, :func:`uploaded_file` and then :func:`read_qrels_file` /
:func:`read_run_file`; parsed tables are cached with ``st.cache_data`` keyed on the hash of the
file's bytes, so a rerun (any click) never parses a file twice. Errors keep the reader's message,
which names the file and the line (``run.txt line 17: expected ...``).
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field

import streamlit as st

from rankviz.data import SAMPLE_QRELS, SAMPLE_RUNS
from rankviz.i18n import _

__all__ = ["MAX_UPLOAD_MB", "InputFile", "sample_file", "uploaded_file", "size_problem", "read_qrels_file",
           "read_run_file", "read_qrels_file_as_table", "read_judgments_file", "read_run_file_as_table", "read_zscores_file",
           "FILE_TYPES", "APP_ADVICE", "remember_result", "last_result_for"]

# Must equal server.maxUploadSize in .streamlit/config.toml: the browser rejects larger files
# before they are sent, and uploaded_file checks again on the server (an API client or an
# older config could send more).
MAX_UPLOAD_MB = 200

# Offered in the file picker; the readers recognise the format by content and suffix.
FILE_TYPES = None  # any extension: TREC files are often called .run, .res, .qrels, .txt, .trec, ...


@dataclass(frozen=True)
class InputFile:
    """A file's name, its bytes and their hash (the cache key)."""

    name: str
    data: bytes = field(repr=False)
    digest: str

    @classmethod
    def from_bytes(cls, name: str, data: bytes) -> "InputFile":
        return cls(name, data, hashlib.blake2b(data, digest_size=16).hexdigest())


def size_problem(name: str, size: int, limit_mb: int | None = None) -> str | None:
    """A message when a file is larger than the upload limit, else None.

    >>> size_problem("big.run", 300 * 1024 * 1024)
    'big.run is 300 MB; the upload limit is 200 MB. Evaluate it with the command line instead: python -m rankviz eval QRELS RUN'
    >>> size_problem("small.run", 1024) is None
    True
    """
    limit_mb = MAX_UPLOAD_MB if limit_mb is None else limit_mb
    if size <= limit_mb * 1024 * 1024:
        return None
    return _("{name} is {size} MB; the upload limit is {limit} MB. Evaluate it with the command line instead: "
             "python -m rankviz eval QRELS RUN").format(name=name, size=f"{size / (1024 * 1024):.0f}", limit=limit_mb)


@st.cache_data(show_spinner=False, max_entries=16)
def _sample_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def sample_file(kind: str, name: str | None = None) -> InputFile:
    """The sample collection's qrels (``kind="qrels"``) or one of its runs (``kind="run"``, ``name``)."""
    path = SAMPLE_QRELS if kind == "qrels" else SAMPLE_RUNS[name]
    return InputFile.from_bytes(path.name, _sample_bytes(str(path)))


def uploaded_file(upload) -> InputFile:
    """An ``st.file_uploader`` file as an :class:`InputFile`; raises ValueError when it is too large."""
    size = getattr(upload, "size", None)
    problem = size_problem(upload.name, size if size is not None else 0)
    if problem:
        raise ValueError(problem)
    data = upload.getvalue()
    problem = size_problem(upload.name, len(data))
    if problem:
        raise ValueError(problem)
    return InputFile.from_bytes(upload.name, data)


def _identity(inputs) -> tuple:
    """What a result was computed from: each file's name and content hash, other inputs as they are."""
    return tuple((item.name, item.digest) if isinstance(item, InputFile) else item for item in inputs)


def remember_result(key: str, inputs, result) -> None:
    """Keep ``result`` in the session as the last one computed from ``inputs`` (the InputFiles read, and
    any setting that changes how they read, e.g. the judgments format). See :func:`last_result_for`."""
    st.session_state[key] = (_identity(inputs), result)


def last_result_for(key: str, inputs):
    """The result kept under ``key`` when it was computed from exactly ``inputs`` (same file names and
    contents, same settings), else None.

    Why: after a bad input a page may keep showing the last numbers only while they are the numbers
    of the files on screen (a measure name mistyped). After a bad file, the last numbers came from
    other files (the sample collection, the previous upload): shown under the new files' names they
    would mislead, so the page shows the error alone.
    """
    kept = st.session_state.get(key)
    if kept is None or kept[0] != _identity(inputs):
        return None
    return kept[1]


# A run uploaded as the judgments, or the other way round, in the app's words (a Python caller reads
# "read it with read_run").
APP_ADVICE = {"run": "upload it with the run files", "qrels": "upload it as the judgments (qrels) file"}


class _NamedBytes(io.BytesIO):
    """Bytes with a file name, so the readers name the file in messages and see its suffix (.gz, .csv)."""

    def __init__(self, data: bytes, name: str):
        super().__init__(data)
        self.name = name


# Bounded across sessions: st.cache_data keeps each parsed table as a pickle, ~1.25x the file's text
# (a 57 MB, 1M-line run: 72 MB), so at most six (one analyst's qrels and five runs; <= ~1.5 GB at the
# 200 MB upload limit), each freed an hour after it was parsed. A session that leaves frees its
# uploaded bytes (Streamlit's upload manager) and holds no reference to these.
@st.cache_data(show_spinner=False, max_entries=6, ttl=3600)
def _read_cached(kind: str, digest: str, name: str, _data: bytes):
    # The bytes are not hashed by Streamlit (leading underscore): the digest is the key. The
    # TrecTable is cached whole: its keys spare evaluate hashing the ids on every evaluation.
    from rankviz.trec.formats import TrecFormatError
    from rankviz.trec.judgments import read_judgments
    from rankviz.trec.preferences import read_zscores
    from rankviz.trec.readers import read_run_table

    source = _NamedBytes(_data, name)
    try:
        if kind == "run":
            return read_run_table(source)
        return read_zscores(source) if kind == "zscores" else read_judgments(source, kind)
    except TrecFormatError as error:  # a run in the judgments box, or qrels among the runs: say where it goes
        raise ValueError(error.with_advice(APP_ADVICE)) from None


def read_qrels_file(file: InputFile):
    """The qrels DataFrame of a file (cached by content hash). Raises ValueError naming file and line."""
    return _read_cached("qrels", file.digest, file.name, file.data).frame


def read_run_file(file: InputFile):
    """The run DataFrame of a file (cached by content hash). Raises ValueError naming file and line."""
    return _read_cached("run", file.digest, file.name, file.data).frame


def read_qrels_file_as_table(file: InputFile):
    """The qrels of a file as a :class:`~rankviz.trec.readers.TrecTable` (cached by content hash),
    for :func:`rankviz.evaluate`: it reuses the keys reading computed. Errors as :func:`read_qrels_file`."""
    return _read_cached("qrels", file.digest, file.name, file.data)


def read_judgments_file(file: InputFile, qrels_format: str = "qrels"):
    """The judgments of a file in ``qrels_format`` (see :data:`rankviz.trec.judgments.JUDGMENT_FORMATS`),
    cached by content hash: a TrecTable for qrels, else a DataFrame. Errors name file and line."""
    return _read_cached(qrels_format, file.digest, file.name, file.data)


def read_zscores_file(file: InputFile):
    """A z-score file (trec_eval -Z: qid measure mean stddev) as a DataFrame, cached by content hash."""
    return _read_cached("zscores", file.digest, file.name, file.data)


def read_run_file_as_table(file: InputFile):
    """The run of a file as a :class:`~rankviz.trec.readers.TrecTable` (cached by content hash),
    for :func:`rankviz.evaluate`. Errors as :func:`read_run_file`."""
    return _read_cached("run", file.digest, file.name, file.data)
