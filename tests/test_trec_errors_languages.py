"""Errors about bad input name the file, the line and what was expected in the language in force
(the app's); Python callers and the CLI, which never choose a language, read them in English."""

from __future__ import annotations

import pytest

from rankviz.i18n import speaking
from rankviz.trec import read_qrels, read_run
from rankviz.trec.formats import TrecFormatError


def test_a_malformed_qrels_line_in_chinese_names_the_line_and_the_fields():
    with speaking("zh"), pytest.raises(TrecFormatError) as error:
        read_qrels("1 0 d1 1\n1 0 d2\n")
    assert str(error.value) == "<text> 第 2 行：应为 4 个字段（qid iter docno rel），实际为 3: '1 0 d2'"
    assert error.value.line == 2


def test_a_bad_grade_and_a_repeated_document_in_chinese():
    with speaking("zh"):
        with pytest.raises(TrecFormatError, match="第 4 个字段（rel）中的整数相关度，实际为 'x'"):
            read_qrels("1 0 d1 x\n")
        with pytest.raises(TrecFormatError, match=r"查询 '1' 的文档 'd1' 再次出现（首次在第 1 行）"):
            read_qrels("1 0 d1 1\n1 0 d1 2\n")
        with pytest.raises(TrecFormatError, match="第 1 行：.*第 5 个字段（score）中的数值得分"):
            read_run("1 Q0 d1 1 high run\n")


def test_the_same_errors_stay_english_without_a_language():
    with pytest.raises(TrecFormatError, match=r"^<text> line 2: expected 4 fields \(qid iter docno rel\), got 3"):
        read_qrels("1 0 d1 1\n1 0 d2\n")
    with pytest.raises(TrecFormatError, match=r"expected an integer relevance grade in field 4 \(rel\), got 'x'"):
        read_qrels("1 0 d1 x\n")


def test_a_mistyped_measure_is_named_in_chinese_and_in_english_without_a_language():
    from rankviz.evaluation.measures import parse_measure

    with speaking("zh"), pytest.raises(ValueError, match="^未知指标 'nDGC@10'：没有叫 'nDGC' 的指标。相近的有：nDCG"):
        parse_measure("nDGC@10")
    with speaking("zh"), pytest.raises(ValueError, match="^指标 'P@0'：P 的截断必须是 >= 1 的整数；实际为 0。$"):
        parse_measure("P@0")
    with pytest.raises(ValueError, match=r"^Unknown measure 'nDGC@10': no measure is called 'nDGC'\. Close matches: nDCG"):
        parse_measure("nDGC@10")
