"""Readers of qrels and runs: every input kind, trec_eval's conventions, and one clear error per malformed input.

Expected frames are written by hand from the tiny inline files (ir_measures style); the
conformance files are checked against counts computed here with plain Python, independently of
the reader.
"""

from __future__ import annotations

import gzip
import io

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rankviz.trec import duplicates as trec_duplicates
from rankviz.trec import readers as trec
from rankviz.trec.formats import RUN_FORMAT
from rankviz.trec.readers import TrecFormatError, read_qrels, read_run

QRELS_TEXT = """\
001 0 d1 2
001 0 d2 0
002 0 d1 1
002 0 d3 -1
"""
QRELS_EXPECTED = pd.DataFrame(
    {"query_id": ["001", "001", "002", "002"], "doc_id": ["d1", "d2", "d1", "d3"], "relevance": [2, 0, 1, -1]}
)

RUN_TEXT = """\
001 Q0 d1 1 2.5 bm25
001 Q0 d2 2 1.5 bm25
002 Q0 d3 1 -0.25 bm25
002 Q0 d1 2 1e-3 final
"""
RUN_EXPECTED = pd.DataFrame(
    {"query_id": ["001", "001", "002", "002"], "doc_id": ["d1", "d2", "d3", "d1"], "score": [2.5, 1.5, -0.25, 0.001]}
)


def assert_frame(actual: pd.DataFrame, expected: pd.DataFrame) -> None:
    """Same values and the promised dtypes: pyarrow-backed strings for ids, int64/float64 values."""
    assert list(actual.columns) == list(expected.columns)
    for column in ("query_id", "doc_id", "group"):
        if column in actual:
            assert isinstance(actual[column].dtype, pd.StringDtype), (column, actual[column].dtype)
            assert actual[column].dtype.storage == "pyarrow"
            assert actual[column].tolist() == expected[column].tolist()
    if "relevance" in expected:
        assert actual["relevance"].dtype == np.int64
        assert actual["relevance"].tolist() == expected["relevance"].tolist()
    if "score" in expected:
        assert actual["score"].dtype == np.float64
        np.testing.assert_array_equal(actual["score"].to_numpy(), expected["score"].to_numpy(dtype=float))


# ------------------------------------------------------------------------------------------
# Every input kind gives the same frame


def test_qrels_from_text_keeps_string_ids_and_negative_grades():
    qrels = read_qrels(QRELS_TEXT)
    assert_frame(qrels, QRELS_EXPECTED)
    assert qrels.attrs["source"] == "<text>"


def test_run_from_text_takes_the_run_name_from_the_last_line():
    run = read_run(RUN_TEXT)
    assert_frame(run, RUN_EXPECTED)
    assert run.attrs["run_name"] == "final"  # trec_eval keeps the tag of the last line only


def _write_each_kind(tmp_path, text: str, stem: str):
    """(label, source) for every way to hand over the same TREC text."""
    data = text.encode()
    plain = tmp_path / f"{stem}.txt"
    plain.write_bytes(data)
    gz_by_name = tmp_path / f"{stem}.txt.gz"
    gz_by_name.write_bytes(gzip.compress(data))
    gz_by_magic = tmp_path / f"{stem}.bin"  # no .gz suffix: recognised by its magic bytes
    gz_by_magic.write_bytes(gzip.compress(data))
    return [
        ("str path", str(plain)),
        ("Path", plain),
        (".gz by name", gz_by_name),
        (".gz by magic bytes", gz_by_magic),
        ("text", text),
        ("bytes", data),
        ("text file object", io.StringIO(text)),
        ("binary file object", io.BytesIO(data)),
        ("gzip bytes", gzip.compress(data)),
    ]


def test_qrels_every_trec_source_kind(tmp_path):
    for label, source in _write_each_kind(tmp_path, QRELS_TEXT, "qrels"):
        qrels = read_qrels(source)
        assert_frame(qrels, QRELS_EXPECTED)


def test_run_every_trec_source_kind(tmp_path):
    for label, source in _write_each_kind(tmp_path, RUN_TEXT, "run"):
        run = read_run(source)
        assert_frame(run, RUN_EXPECTED)
        assert run.attrs["run_name"] == "final", label


def test_open_file_handle_is_named_in_errors(tmp_path):
    path = tmp_path / "broken.run"
    path.write_text("q1 Q0 d1 1 2.0\n")
    with open(path, "rb") as handle, pytest.raises(TrecFormatError, match=r"broken\.run line 1: expected 6 fields"):
        read_run(handle)


def test_table_sources_csv_tsv_parquet_dataframe_table_dict(tmp_path):
    frame = pd.DataFrame({"qid": ["001", "001", "002", "002"], "docno": ["d1", "d2", "d1", "d3"],
                          "rel": [2, 0, 1, -1]})
    csv_path = tmp_path / "qrels.csv"
    frame.to_csv(csv_path, index=False)
    tsv_path = tmp_path / "qrels.tsv"
    frame.to_csv(tsv_path, index=False, sep="\t")
    parquet_path = tmp_path / "qrels.parquet"
    frame.to_parquet(parquet_path)
    parquet_no_suffix = tmp_path / "qrels.data"
    parquet_no_suffix.write_bytes(parquet_path.read_bytes())
    sources = {
        "csv": csv_path,
        "tsv": tsv_path,
        "csv.gz": _gz_copy(csv_path),
        "parquet": parquet_path,
        "parquet by magic": parquet_no_suffix,
        "csv text with header": csv_path.read_text(),
        "DataFrame": frame,
        "renamed DataFrame": frame.rename(columns={"qid": "query_id", "docno": "doc_id", "rel": "relevance"}),
        "pyarrow Table": pa.Table.from_pandas(frame),
        "dict": {"001": {"d1": 2, "d2": 0}, "002": {"d1": 1, "d3": -1}},
    }
    for label, source in sources.items():
        assert_frame(read_qrels(source), QRELS_EXPECTED)


def _gz_copy(path):
    target = path.with_name(path.name + ".gz")
    target.write_bytes(gzip.compress(path.read_bytes()))
    return target


def test_run_tables_and_dict():
    frame = pd.DataFrame({"query": ["001", "001", "002", "002"], "doc": ["d1", "d2", "d3", "d1"],
                          "sim": [2.5, 1.5, -0.25, 0.001], "rank": [1, 2, 1, 2], "run": ["a", "a", "a", "final"]})
    run = read_run(frame)
    assert_frame(run, RUN_EXPECTED)
    assert run.attrs["run_name"] == "final"
    as_dict = read_run({"001": {"d1": 2.5, "d2": 1.5}, "002": {"d3": -0.25, "d1": 0.001}})
    assert_frame(as_dict, RUN_EXPECTED)
    assert as_dict.attrs["run_name"] is None
    from_csv = read_run(frame.to_csv(index=False))
    assert_frame(from_csv, RUN_EXPECTED)


def test_integer_ids_in_tables_and_dicts_become_strings():
    qrels = read_qrels(pd.DataFrame({"query_id": [1, 2], "doc_id": [10, 20], "relevance": [1.0, 0.0]}))
    assert qrels["query_id"].tolist() == ["1", "2"] and qrels["doc_id"].tolist() == ["10", "20"]
    assert qrels["relevance"].tolist() == [1, 0]
    run = read_run({7: {3: 1}})
    assert run["query_id"].tolist() == ["7"] and run["doc_id"].tolist() == ["3"]


def test_csv_ids_with_leading_zeros_stay_strings(tmp_path):
    path = tmp_path / "run.csv"
    path.write_text("query_id,doc_id,score\n007,0042,1.5\n")
    run = read_run(path)
    assert run["query_id"].tolist() == ["007"] and run["doc_id"].tolist() == ["0042"]


def test_large_file_is_parsed_from_disk(tmp_path, monkeypatch):
    # > 1 MiB: pyarrow reads the file itself, after a chunked scan, and never the slow parser.
    lines = [f"q{q} Q0 doc{q}_{d} {d + 1} {100 - d / 7:.6f} big\n" for q in range(250) for d in range(150)]
    path = tmp_path / "big.run"
    path.write_text("".join(lines) + "\n\n")  # (a comment line would send it to the normalising path)
    assert path.stat().st_size > trec._LARGE_FILE
    monkeypatch.setattr(trec, "_parse_exact", None)  # calling it would fail
    monkeypatch.setattr(trec, "_read_bytes", None)
    run = read_run(path)
    assert len(run) == 250 * 150
    assert run["doc_id"].iloc[-1] == "doc249_149"
    assert run["score"].iloc[1] == pytest.approx(100 - 1 / 7, abs=1e-6)
    assert run.attrs["run_name"] == "big"


LARGE_PATH_CASES = {
    "regular": RUN_TEXT,
    "tabs": RUN_TEXT.replace(" ", "\t"),
    "tab in a space file": RUN_TEXT.replace("d2 2", "d2\t2"),
    "comments first": "# c\n# d\n" + RUN_TEXT,
    "comment line with six fields": "# a b c 1.0 d\n" + RUN_TEXT,
    "extra columns": RUN_TEXT.replace("bm25\n", "bm25 junk\n"),
    "duplicate": RUN_TEXT + "001 Q0 d1 9 0.1 x\n",
    "NUL": RUN_TEXT + "x\x00y\n",
    "short line": RUN_TEXT + "001 Q0 d9\n",
    "csv": "query_id,doc_id,score\n001,d1,2.5\n",
}


@pytest.mark.parametrize("case", list(LARGE_PATH_CASES))
def test_large_file_path_agrees_with_reading_whole_files(tmp_path, monkeypatch, case):
    path = tmp_path / "run.txt"
    path.write_bytes(LARGE_PATH_CASES[case].encode())

    def outcome():
        try:
            run = read_run(path)
        except TrecFormatError as exc:
            return str(exc)
        return run.to_dict("list"), run.attrs

    whole = outcome()  # a small file: read whole
    monkeypatch.setattr(trec, "_LARGE_FILE", 0)  # now every file takes the large-file path...
    monkeypatch.setattr(trec, "_SCAN_CHUNK", 7)  # ...scanned 7 bytes at a time
    assert outcome() == whole


# ------------------------------------------------------------------------------------------
# trec_eval's text conventions: whitespace, comments, extra columns


@pytest.mark.parametrize(
    "text",
    [
        "001\tQ0\td1\t1\t2.5\tbm25\n002\tQ0\td3\t1\t-0.25\tbm25\n",  # tabs
        "001  Q0 d1 1   2.5 bm25\n002 Q0\t d3 1 -0.25\tbm25\n",  # repeated and mixed blanks
        "001 Q0 d1 1 2.5 bm25\r\n002 Q0 d3 1 -0.25 bm25\r\n",  # Windows line ends
        "\n  001 Q0 d1 1 2.5 bm25   \n\n\t002 Q0 d3 1 -0.25 bm25\n\n",  # blank lines, indentation
        "# a comment\n001 Q0 d1 1 2.5 bm25\n   # an indented comment\n002 Q0 d3 1 -0.25 bm25",  # comments, no final newline
        "001 Q0 d1 1 2.5 bm25 extra junk\n002 Q0 d3 1 -0.25 bm25 more\tjunk here\n",  # fields after the tag
        "001\tQ0\td1\t1\t  2.5\tbm25\n002\tQ0\td3\t1\t -0.25\tbm25\n",  # results.test's padded scores
    ],
    ids=["tabs", "mixed", "crlf", "blank-lines", "comments", "extra-columns", "padded"],
)
def test_run_whitespace_comments_and_extra_columns(text):
    run = read_run(text)
    expected = pd.DataFrame({"query_id": ["001", "002"], "doc_id": ["d1", "d3"], "score": [2.5, -0.25]})
    assert_frame(run, expected)
    assert run.attrs["run_name"] == "bm25"


def test_hash_inside_a_docno_is_not_a_comment():
    # MS MARCO v2.1 segment ids (trec_eval's qrels.comment.test): only a leading '#' starts a comment.
    qrels = read_qrels("# header comment\nq1 0 msmarco_v2.1_doc_00_880019750#4_1633802806 1\nq1 0 a#b 0\n")
    assert qrels["doc_id"].tolist() == ["msmarco_v2.1_doc_00_880019750#4_1633802806", "a#b"]
    run = read_run("q1 Q0 doc#1 1 1.0 r#1\n#q1 Q0 doc#2 2 0.5 r\n")
    assert run["doc_id"].tolist() == ["doc#1"]  # the second line is a comment: its first character is '#'
    assert run.attrs["run_name"] == "r#1"


def test_comment_line_with_the_right_number_of_fields_is_still_a_comment():
    run = read_run("# a b c 1.0 d\nq1 Q0 d1 1 1.0 r\n")  # 6 fields, the second one numeric
    assert run["query_id"].tolist() == ["q1"]
    qrels = read_qrels("# a b 3\nq1 0 d1 1\n")
    assert qrels["query_id"].tolist() == ["q1"]


def test_rank_column_is_ignored_and_file_order_kept():
    run = read_run("q1 Q0 a 9 1.0 r\nq1 Q0 b 1 3.0 r\nq1 Q0 c 5 2.0 r\n")
    assert run["doc_id"].tolist() == ["a", "b", "c"]  # no sorting here: evaluate sorts by score, then docno desc


def test_unicode_docnos():
    run = read_run("q1 Q0 café 1 1.0 r\nq1 Q0 naïve\u00a0x 2 0.5 r\n")  # U+00A0 is not a separator for trec_eval
    assert run["doc_id"].tolist() == ["café", "naïve\u00a0x"]


def test_judgment_groups_keep_the_group_and_allow_one_docno_per_group():
    text = "301 0 d1 1\n301 1 d1 0\n301 2 d1 -1\n302 0 d1 2\n"
    qrels = read_qrels(text, judgment_groups=True)
    assert list(qrels.columns) == ["query_id", "group", "doc_id", "relevance"]
    assert qrels["group"].tolist() == ["0", "1", "2", "0"]
    with pytest.raises(TrecFormatError, match=r"<text> line 2: .*doc 'd1' of query '301' again \(first on line 1\)"):
        read_qrels(text)
    with pytest.raises(TrecFormatError, match=r"line 2: expected each docno at most once per query in judgment group"):
        read_qrels("301 0 d1 1\n301 0 d1 0\n", judgment_groups=True)


# ------------------------------------------------------------------------------------------
# Malformed input: one clear error naming the file, the line and what was expected


def _write(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return path


def test_wrong_field_count_names_file_line_and_fields(tmp_path):
    good = "".join(f"q1 Q0 d{i} {i} {1 / i:.3f} tag\n" for i in range(1, 17))
    path = _write(tmp_path, "run.txt", good + "q1 Q0 d17 17\n" + good.replace("q1", "q2"))
    with pytest.raises(TrecFormatError) as info:
        read_run(path)
    assert str(info.value).startswith(f"{path} line 17: expected 6 fields (qid Q0 docno rank score tag), got 4")
    assert (info.value.path, info.value.line) == (str(path), 17)
    assert info.value.expected == "6 fields (qid Q0 docno rank score tag)"


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("q1 0 d1 1\nq1 0 d2\n", 2, r"expected 4 fields \(qid iter docno rel\), got 3"),
        ("q1 0 d1 1\n\n# c\nq1 0 d2 1 extra\n", 4, r"expected 4 fields \(qid iter docno rel\), got 5"),
        ("q1 0 d1 1\nq1 0 d2 relevant\n", 2, r"expected an integer relevance grade in field 4 \(rel\), got 'relevant'"),
        ("q1 0 d1 1.5\n", 1, r"expected an integer relevance grade in field 4 \(rel\), got '1.5'"),
        ("q1 0 d1 1\nq1 0 d1 0\n", 2, r"expected each docno at most once per query, got doc 'd1' of query 'q1' again \(first on line 1\)"),
    ],
)
def test_malformed_qrels(tmp_path, text, line, message):
    path = _write(tmp_path, "my.qrels", text)
    with pytest.raises(TrecFormatError, match=rf"my\.qrels line {line}: {message}") as info:
        read_qrels(path)
    assert info.value.line == line


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("q1 Q0 d1 1 1.0 r\nq1 Q0 d2 2 high r\n", 2, r"expected a numeric score in field 5 \(score\), got 'high'"),
        ("q1 Q0 d1 1 nan r\n", 1, r"expected a numeric score in field 5 \(score\), got 'nan'"),
        ("q1 Q0 d1 1 1.0 r\nq1 Q0 d2 2 0.5\n", 2, r"expected 6 fields \(qid Q0 docno rank score tag\), got 5"),
        ("q1\tQ0\td1\t1\t1.0\tr\nq1\tQ0\t\td2\t2\t0.5\n", 2, r"expected 6 fields .*, got 5"),  # doubled tab: still 5 fields
        ("q1 Q0 d1 1 1.0 r\nq2 Q0 d1 1 1.0 r\nq1 Q0 d1 3 0.2 r\n", 3,
         r"expected each docno at most once per query, got doc 'd1' of query 'q1' again \(first on line 1\)"),
    ],
)
def test_malformed_run(tmp_path, text, line, message):
    path = _write(tmp_path, "my.run", text)
    with pytest.raises(TrecFormatError, match=rf"my\.run line {line}: {message}"):
        read_run(path)


def test_duplicate_found_in_a_large_regular_file_names_both_lines(tmp_path):
    # Large and regular: the fast path reads it, the fingerprint check finds the duplicate,
    # and the exact parser names both lines.
    lines = [f"q{q} Q0 d{d} {d} {1000 - d} r\n" for q in range(50) for d in range(200)]
    lines.append("q7 Q0 d123 999 -1 r\n")
    path = _write(tmp_path, "dup.run", "".join(lines))
    with pytest.raises(TrecFormatError, match=rf"dup\.run line {len(lines)}: .*doc 'd123' of query 'q7' again "
                                              rf"\(first on line {7 * 200 + 123 + 1}\)"):
        read_run(path)


@pytest.mark.parametrize("content", ["", "\n\n  \n", "# only\n# comments\n"])
def test_empty_files(tmp_path, content):
    path = _write(tmp_path, "empty.run", content)
    with pytest.raises(TrecFormatError, match=r"empty\.run: expected run lines .*got no run lines"):
        read_run(path)
    path = _write(tmp_path, "empty.qrels", content)
    with pytest.raises(TrecFormatError, match=r"empty\.qrels: expected qrels lines .*got no judgments"):
        read_qrels(path)


def test_binary_files(tmp_path):
    path = _write(tmp_path, "image.png", b"q1 Q0 d1 1 1.0 r\n\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")  # NUL on line 4
    with pytest.raises(TrecFormatError, match=r"image\.png line 4: expected a text run file, got a binary file"):
        read_run(path)
    path = _write(tmp_path, "latin1.qrels", "q1 0 d1 1\nq1 0 caf\xe9 1\n".encode("latin-1"))
    with pytest.raises(TrecFormatError, match=r"latin1\.qrels line 2: expected UTF-8 text"):
        read_qrels(path)
    with pytest.raises(TrecFormatError, match=r"broken\.gz: expected a readable gzip file"):
        read_run(_write(tmp_path, "broken.gz", gzip.compress(b"q1 Q0 d1 1 1.0 r\n")[:15]))


def test_missing_file_names_the_path(tmp_path):
    missing = tmp_path / "nope.run"
    with pytest.raises(FileNotFoundError, match=r"read_run: no such file: .*nope\.run"):
        read_run(missing)
    with pytest.raises(FileNotFoundError, match=r"read_qrels: no such file: 'qrels\.txt'"):
        read_qrels("qrels.txt")  # a str without a newline is a path


def test_qrels_and_run_swapped_get_a_hint():
    with pytest.raises(TrecFormatError, match=r"got 4: 'q1 0 d1 1' \(this looks like a qrels line: read it with read_qrels\)"):
        read_run("q1 0 d1 1\n")
    with pytest.raises(TrecFormatError, match=r"got 6: .* \(this looks like a run line: read it with read_run\)"):
        read_qrels("q1 Q0 d1 1 2.5 bm25\n")


def test_dataframe_with_mixed_column_types():
    frame = pd.DataFrame({"query_id": ["a", 1.5], "doc_id": ["x", "y"], "score": [1.0, 2.0]}, dtype=object)
    with pytest.raises(TrecFormatError, match=r"<DataFrame>: expected columns of one type each"):
        read_run(frame)


def test_text_errors_are_reported_against_text():
    with pytest.raises(TrecFormatError, match=r"^<text> line 2: expected 6 fields"):
        read_run("q1 Q0 d1 1 1.0 r\nq1 Q0 d2\n")
    with pytest.raises(TrecFormatError, match=r"^<bytes> line 1: expected 4 fields"):
        read_qrels(b"q1 d1 1\n")


def test_table_errors_name_columns_and_rows(tmp_path):
    path = _write(tmp_path, "qrels.csv", "topic,document,grade\n1,a,1\n")  # topic/document/grade are known names
    assert read_qrels(path)["doc_id"].tolist() == ["a"]
    path = _write(tmp_path, "bad.csv", "q,d,r\n1,a,1\n")
    with pytest.raises(TrecFormatError, match=r"bad\.csv: expected a query column .*got columns 'q', 'd', 'r'"):
        read_qrels(path)
    path = _write(tmp_path, "scores.csv", "query_id,doc_id,score\n1,a,1.0\n1,b,oops\n")
    with pytest.raises(TrecFormatError, match=r"scores\.csv line 3: expected a numeric score in column 'score', got 'oops'"):
        read_run(path)
    path = _write(tmp_path, "dups.tsv", "query_id\tdoc_id\trelevance\n1\ta\t1\n1\tb\t0\n1\ta\t2\n")
    with pytest.raises(TrecFormatError, match=r"dups\.tsv line 4: .*doc 'a' of query '1' again \(first on line 2\)"):
        read_qrels(path)
    with pytest.raises(TrecFormatError, match=r"<DataFrame> row 1: expected an integer relevance grade .*got 0.5"):
        read_qrels(pd.DataFrame({"qid": ["a", "a"], "docno": ["x", "y"], "rel": [1, 0.5]}))
    with pytest.raises(TrecFormatError, match=r"<DataFrame> row 0: expected an id in column 'doc_id', got an empty value"):
        read_run(pd.DataFrame({"query_id": ["a"], "doc_id": [None], "score": [1.0]}))
    with pytest.raises(TrecFormatError, match=r"<DataFrame>: expected run rows, got no run lines \(0 rows\)"):
        read_run(pd.DataFrame({"query_id": [], "doc_id": [], "score": []}))
    with pytest.raises(TrecFormatError, match=r"<dict>: expected a numeric score for every document, got 'x'"):
        read_run({"q": {"d": "x"}})
    with pytest.raises(TrecFormatError, match=r"<dict>: expected an integer relevance grade .*got 1.5"):
        read_qrels({"q": {"d": 1.5}})
    with pytest.raises(TrecFormatError, match=r"<dict>: expected qrels entries, got no judgments"):
        read_qrels({})


def test_trec_format_error_is_a_value_error_and_bad_arguments():
    assert issubclass(TrecFormatError, ValueError)
    with pytest.raises(ValueError, match=r"'format' parameter of read_run must be one of .*Got 'xml'"):
        read_run(RUN_TEXT, format="xml")
    with pytest.raises(TypeError, match=r"read_qrels reads a path, .*got int"):
        read_qrels(42)


def test_inputs_are_not_mutated():
    frame = pd.DataFrame({"qid": [1, 1], "docno": ["a", "b"], "sim": [1, 2]})
    before = frame.copy()
    read_run(frame)
    pd.testing.assert_frame_equal(frame, before)


# ------------------------------------------------------------------------------------------
# The fast paths agree with the exact line-by-line parser


@pytest.mark.parametrize("text", [
    RUN_TEXT,  # one space
    RUN_TEXT.replace(" ", "\t"),  # one tab
    "# comment\n" + RUN_TEXT.replace(" ", "  "),  # normalised, then parsed by pyarrow
])
def test_regular_files_never_reach_the_slow_parser(monkeypatch, text):
    def refuse(*args, **kwargs):
        raise AssertionError("the line-by-line parser ran")

    monkeypatch.setattr(trec, "_parse_exact", refuse)
    assert_frame(read_run(text), RUN_EXPECTED)


blank = st.sampled_from([" ", "\t", "  ", " \t", "\t\t"])
token = st.text(alphabet="abcXYZ019_-.#", min_size=1, max_size=12).filter(lambda t: not t.startswith("#"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.lists(st.tuples(st.sampled_from(["q1", "q2", "003"]), token,
                            st.floats(-1e6, 1e6, allow_nan=False), st.sampled_from(["r", "run.2"])),
                  min_size=1, max_size=30, unique_by=lambda r: (r[0], r[1])),
    separators=st.lists(blank, min_size=5, max_size=5),
    uniform=st.booleans(),
)
def test_fast_and_exact_paths_agree(rows, separators, uniform):
    sep = [" "] * 5 if uniform else separators
    text = "".join(f"{q}{sep[0]}Q0{sep[1]}{d}{sep[2]}{i}{sep[3]}{s!r}{sep[4]}{tag}\n" for i, (q, d, s, tag) in enumerate(rows))
    run = read_run(text)
    exact = trec._parse_exact(text.encode(), RUN_FORMAT, "<text>", False)
    assert run["query_id"].tolist() == exact["query_id"].to_pylist() == [r[0] for r in rows]
    assert run["doc_id"].tolist() == exact["doc_id"].to_pylist() == [r[1] for r in rows]
    assert run["score"].tolist() == exact["score"].to_pylist() == [r[2] for r in rows]
    assert run.attrs["run_name"] == rows[-1][3]


ids = st.text(alphabet="ab\u00e9#0", min_size=1, max_size=20)


@settings(max_examples=150, deadline=None)
@given(pairs=st.lists(st.tuples(st.sampled_from(["q", "qq", "q1"]), ids), min_size=1, max_size=40),
       split=st.integers(0, 40), offset=st.integers(0, 3))
def test_duplicate_detection_matches_pandas(pairs, split, offset):
    # Ids of every length around the 8-byte windows, sharing prefixes and suffixes, stored as
    # several chunks with non-zero offsets: the hashes must never miss a duplicate.
    padding = [("pad", f"pad{i}") for i in range(offset)]
    everything = padding + pairs
    queries = pa.array([q for q, _ in everything], pa.string())[offset:]
    docs = pa.array([d for _, d in everything], pa.string())[offset:]
    cut = min(split, len(pairs))
    table = pa.table({"query_id": pa.chunked_array([queries[:cut], queries[cut:]]),
                      "doc_id": pa.chunked_array([docs[:cut], docs[cut:]])})
    expected = pd.DataFrame(pairs).duplicated().any()
    assert trec_duplicates.has_duplicate_pairs(table, judgment_groups=False) == expected


def test_content_hashes_of_short_and_long_strings_differ_as_strings_do():
    # Strings around the 8-byte words, differing in one byte anywhere (ClueWeb docnos differ in
    # the middle), in chunks of one width and of mixed widths: the hash of a string is the
    # same whichever chunk holds it, and equals the fixed-width hash of its bytes.
    values = ["", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "xbcdefgh", "abcdefgx", "abcdefgha", "abcXdefgh",
              "clueweb09-en0042-17-03125", "clueweb09-en0043-17-03125"]
    hashes = trec_duplicates.content_hashes(pa.chunked_array([pa.array(values)]))
    assert len(set(hashes.tolist())) == len(values)
    one_width = pa.chunked_array([pa.array(values[-2:], pa.large_string())])
    np.testing.assert_array_equal(trec_duplicates.content_hashes(one_width), hashes[-2:])
    for value, expected in zip(values[1:], hashes[1:]):
        characters = np.frombuffer(value.encode(), dtype=np.uint8).reshape(1, -1)
        assert trec_duplicates.hash_fixed_width(characters)[0] == expected


# ------------------------------------------------------------------------------------------
# What reading learned, handed over as a value: TrecTable


@pytest.mark.parametrize("kind", ["qrels", "run"])
def test_table_readers_return_the_readers_frame_and_the_keys_of_its_ids(kind):
    text = QRELS_TEXT if kind == "qrels" else RUN_TEXT
    read, read_table = (read_qrels, trec.read_qrels_table) if kind == "qrels" else (read_run, trec.read_run_table)
    table = read_table(text)
    pd.testing.assert_frame_equal(table.frame, read(text))
    assert table.frame.attrs == read(text).attrs
    # The keys are those of the duplicate check: row_keys of the ids read.
    expected = trec_duplicates.row_keys(pa.table({"query_id": pa.array(table.frame["query_id"].tolist()),
                                                  "doc_id": pa.array(table.frame["doc_id"].tolist())}))
    assert table.keys.query_labels == expected.query_labels == ["001", "002"]
    np.testing.assert_array_equal(table.keys.query_codes, [0, 0, 1, 1])
    np.testing.assert_array_equal(table.keys.pair_keys, expected.pair_keys)
    assert not table.keys.query_codes.flags.writeable  # evaluate may use it as its row -> query map
    # Tables and dicts are read without computing keys: evaluate computes its own.
    assert read_table(read(text)).keys is None
    assert read_table(read(text)).current_keys() is None


def test_a_pickled_table_keeps_keys_that_describe_its_own_frame():
    """st.cache_data pickles what it caches: the copy's keys still serve evaluate, bound to the
    copy's own id columns (not to the original's), and stay read-only."""
    import pickle

    table = trec.read_run_table(RUN_TEXT)
    copy = pickle.loads(pickle.dumps(table))
    pd.testing.assert_frame_equal(copy.frame, table.frame)
    assert copy.current_keys() is copy.keys
    np.testing.assert_array_equal(copy.keys.pair_keys, table.keys.pair_keys)
    assert not copy.keys.query_codes.flags.writeable
    copy.frame.loc[0, "doc_id"] = "d9"
    assert copy.current_keys() is None and table.current_keys() is table.keys
    # A table whose ids changed before pickling loses its keys in the copy.
    assert pickle.loads(pickle.dumps(copy)).keys is None


def test_trec_table_checks_what_it_is_given():
    with pytest.raises(TypeError, match="The 'frame' of a TrecTable must be a pandas DataFrame. Got dict"):
        trec.TrecTable({"query_id": ["q1"]})
    with pytest.raises(TypeError, match="The 'keys' of a TrecTable must be RowKeys or None. Got tuple"):
        trec.TrecTable(read_run(RUN_TEXT), keys=(1, 2))
    frame = read_run(RUN_TEXT)
    frame["doc_id"] = frame["doc_id"].astype(object)  # not Arrow-backed: the keys cannot be checked
    assert trec.TrecTable(frame, trec.read_run_table(RUN_TEXT).keys).current_keys() is None


def test_format_error_is_the_readers_error():
    from rankviz.trec import formats

    assert trec.TrecFormatError is formats.TrecFormatError
    assert RUN_FORMAT.value_column_names == formats.SCORE_COLUMN_NAMES


# ------------------------------------------------------------------------------------------
# Every trec_eval conformance file


def _count_data_lines(path) -> int:
    """Lines that are neither blank nor comments (first non-blank character '#'), by plain Python."""
    count = 0
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                count += 1
    return count


def _last_tag(path) -> str:
    lines = [line.split() for line in open(path, encoding="utf-8")]
    return [parts for parts in lines if parts and not parts[0].startswith("#")][-1][5]


@pytest.mark.conformance
def test_reads_every_conformance_qrels_file(conformance_dir):
    paths = sorted(conformance_dir.glob("qrels*")) + [conformance_dir / "generated" / "edge.qrels"]
    assert len(paths) >= 8
    for path in paths:
        groups = path.name.endswith(".123")  # qrels_jg files: a docno once per judgment group
        qrels = read_qrels(path, judgment_groups=groups)
        assert len(qrels) == _count_data_lines(path), path.name
        assert qrels["relevance"].dtype == np.int64


@pytest.mark.conformance
def test_conformance_qrels_values(conformance_dir):
    # Counts from the conformance README: qrels.test has 561 relevant and 3,120 non-relevant judgments;
    # qrels.rel_level has grades -1 (304), 0 (2,818), 1 (462), 2 (14), 3 (77), 4 (6).
    assert read_qrels(conformance_dir / "qrels.test")["relevance"].value_counts().to_dict() == {0: 3120, 1: 561}
    grades = read_qrels(conformance_dir / "qrels.rel_level")["relevance"].value_counts().to_dict()
    assert grades == {-1: 304, 0: 2818, 1: 462, 2: 14, 3: 77, 4: 6}
    # The commented copy differs from qrels.test only by its comment lines and one docno that
    # gained a '#' (CR93E-1860 -> CR#93E-1860, a "comment in docno" test): the '#' is kept.
    with_comments = read_qrels(conformance_dir / "qrels.test.with-comments")
    plain = read_qrels(conformance_dir / "qrels.test")
    assert with_comments["doc_id"].tolist() == [d.replace("CR93E-1860", "CR#93E-1860") for d in plain["doc_id"]]
    assert with_comments["relevance"].tolist() == plain["relevance"].tolist()
    segments = read_qrels(conformance_dir / "qrels.comment.test")
    assert segments["query_id"].nunique() == 31
    assert segments["doc_id"].str.contains("#").all()
    with pytest.raises(TrecFormatError, match=r"qrels\.123 line 3682: .*again \(first on line 1\)"):
        read_qrels(conformance_dir / "qrels.123")  # judgment groups read as plain qrels


@pytest.mark.conformance
def test_reads_every_conformance_run_file(conformance_dir):
    paths = sorted(conformance_dir.glob("results*")) + [conformance_dir / "prefs.results.test",
                                                       conformance_dir / "generated" / "edge.run"]
    assert len(paths) >= 5
    for path in paths:
        run = read_run(path)
        assert len(run) == _count_data_lines(path), path.name
        assert run.attrs["run_name"] == _last_tag(path), path.name
        assert run["score"].dtype == np.float64
    comment_run = read_run(conformance_dir / "results.comment.test")
    assert comment_run["query_id"].nunique() == 301  # README: 301 topics x 100 docs
    assert (comment_run.groupby("query_id").size() == 100).all()
    trunc = read_run(conformance_dir / "results.trunc")  # junk after the run_id column
    assert set(trunc["query_id"]) == {"301", "303"}


@pytest.mark.conformance
def test_conformance_scores_match_the_file_text(conformance_dir):
    path = conformance_dir / "results.test"
    rows = [line.split() for line in open(path, encoding="utf-8") if line.strip()]
    run = read_run(path)
    assert run["doc_id"].tolist() == [r[2] for r in rows]
    assert run["score"].tolist() == [float(r[4]) for r in rows]


@pytest.mark.conformance
def test_same_judgments_and_scores_as_pytrec_eval_parsers(conformance_dir, pytrec_eval):
    for name in ("qrels.test", "qrels.rel_level", "qrels.comment.test"):
        with open(conformance_dir / name) as handle:
            expected = pytrec_eval.parse_qrel(handle)
        qrels = read_qrels(conformance_dir / name)
        ours: dict = {}
        for query, doc, grade in zip(qrels["query_id"], qrels["doc_id"], qrels["relevance"]):
            ours.setdefault(query, {})[doc] = int(grade)
        assert ours == expected, name
    for name in ("results.test", "results.comment.test"):
        with open(conformance_dir / name) as handle:
            expected = pytrec_eval.parse_run(handle)
        run = read_run(conformance_dir / name)
        ours = {}
        for query, doc, score in zip(run["query_id"], run["doc_id"], run["score"]):
            ours.setdefault(query, {})[doc] = float(score)
        assert ours == expected, name


def test_explicit_format_overrides_detection(tmp_path):
    path = tmp_path / "qrels.csv"  # a TREC file with a misleading suffix
    path.write_text(QRELS_TEXT)
    assert_frame(read_qrels(path, format="trec"), QRELS_EXPECTED)
    with pytest.raises(TrecFormatError, match=r"qrels\.csv: expected a query column"):
        read_qrels(path)  # by its suffix it is a CSV, whose header names no known column
    tsv = "qid\tdocno\trel\n001\td1\t2\n001\td2\t0\n002\td1\t1\n002\td3\t-1\n"
    assert_frame(read_qrels(tsv, format="tsv"), QRELS_EXPECTED)
    assert_frame(read_qrels(tsv), QRELS_EXPECTED)  # detected by its header


@pytest.mark.parametrize("score", ["inf", "-inf", "nan", "1e400"])
def test_a_score_that_is_not_finite_names_its_line(score):
    # trec_eval sorts by score: an infinite or NaN score has no place in that order.
    text = f"q1 Q0 d1 1 1.0 A\nq1 Q0 d2 2 {score} A\n"
    with pytest.raises(TrecFormatError, match=rf"<text> line 2: expected a numeric score in field 5 \(score\).*, got '{score}'"):
        read_run(text)


def test_a_grade_beyond_int64_names_its_line():
    with pytest.raises(TrecFormatError, match=r"<text> line 2: .*between -2\^63 and 2\^63 - 1, got '99999999999999999999'"):
        read_qrels("q1 0 d1 1\nq1 0 d2 99999999999999999999\n")


@pytest.mark.parametrize("reader", [read_qrels, read_run])
def test_an_empty_string_is_empty_input_not_the_current_directory(reader):
    with pytest.raises(TrecFormatError, match=r"<text>: .*\(empty input\)"):
        reader("")
