"""Preference files, judgment groups and z-scores: readers' errors, hand-computed values, policies.

Values are computed by hand from trec_eval 10.0's definitions (form_prefs_counts.c, m_prefs_*.c,
m_*_avgjg.c, convert_zscores.c); the comment above each gives the ranking and the arithmetic.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from rankviz.cli import main
from rankviz.evaluation.evaluator import evaluate
from rankviz.trec.formats import TrecFormatError
from rankviz.trec.preferences import read_prefs, read_zscores

PREFS_MEASURES = "all_prefs"


def _values(prefs: str, run: str, **options) -> dict:
    result = evaluate(prefs, run, PREFS_MEASURES, qrels_format="prefs", **options)
    return result.per_query.iloc[0].to_dict()


# --------------------------------------------------------------------------------------------
# Readers: the message names the file, the line and what was expected


def test_malformed_prefs_line_names_file_line_and_fields(tmp_path):
    path = tmp_path / "prefs.txt"
    path.write_text("q1 u1 s1 d1 2\n# comment\nq1 u1 d2 1\n")
    with pytest.raises(TrecFormatError, match=r"prefs\.txt line 3: expected 5 fields \(qid jg jsg docno rel_level\), "
                                              r"got 4: 'q1 u1 d2 1'") as info:
        read_prefs(path)
    assert info.value.line == 3 and info.value.path == str(path)


def test_prefs_level_must_be_a_number(tmp_path):
    path = tmp_path / "prefs.txt"
    path.write_text("q1 u1 s1 d1 2\nq1 u1 s1 d2 high\n")
    with pytest.raises(TrecFormatError, match=r"prefs\.txt line 2: expected a finite number in field 5 \(rel_level\), "
                                              r"got 'high'"):
        read_prefs(path)


def test_prefs_docno_twice_in_one_subgroup_names_both_lines():
    with pytest.raises(TrecFormatError, match=r"<text> line 3: expected each docno at most once per sub-group "
                                              r"\(qid jg jsg\), got doc 'd1' of query 'q1', group 'u1', sub-group 's1' "
                                              r"again \(first on line 1\)"):
        read_prefs("q1 u1 s1 d1 2\nq1 u1 s1 d2 1\nq1 u1 s1 d1 0\n")
    # once per sub-group: the same docno in another sub-group or group is fine
    assert len(read_prefs("q1 u1 s1 d1 2\nq1 u1 s2 d1 1\nq1 u2 s1 d1 0\n")) == 3


def test_empty_prefs_file():
    with pytest.raises(TrecFormatError, match=r"<text>: expected prefs lines \(qid jg jsg docno rel_level\), "
                                              r"got no preference judgments"):
        read_prefs("# only a comment\n\n")


def test_prefs_keep_a_hash_inside_a_docno():
    assert read_prefs("q1 u1 s1 d#1 2\n  # comment\nq1 u1 s1 d2 0\n")["doc_id"].tolist() == ["d#1", "d2"]


def test_zscores_errors(tmp_path):
    path = tmp_path / "z.txt"
    path.write_text("301 map 0.1 0.2\n301 P_10 0.5\n")
    with pytest.raises(TrecFormatError, match=r"z\.txt line 2: expected 4 fields \(qid measure mean stddev\), got 3"):
        read_zscores(path)
    path.write_text("301 map 0.1 0.2\n\n301 map 0.3 0.2\n")
    with pytest.raises(TrecFormatError, match=r"z\.txt line 3: expected one mean per query and measure, "
                                              r"got measure 'map' of query '301' again"):
        read_zscores(path)


def test_cli_reports_a_malformed_prefs_file(tmp_path, capsys):
    prefs = tmp_path / "prefs.txt"
    prefs.write_text("q1 u1 s1 d1 2\nq1 u1 s1 d2\n")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2.0 r\n")
    assert main(["eval", "-R", "prefs", str(prefs), str(run)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"rankviz: error: {prefs}:2: expected 5 fields (qid jg jsg docno rel_level), "
                            f"got 4: 'q1 u1 s1 d2'\n")


# --------------------------------------------------------------------------------------------
# Preference measures by hand


def test_one_judgment_group_by_hand():
    # d1 > d2 > d3 (levels 2, 1, 0). The run ranks d2 then d1, and misses d3.
    # d1 > d2: both retrieved, d2 above: not fulfilled. d1 > d3, d2 > d3: d3 missed, fulfilled (implied).
    v = _values("q1 u1 s1 d1 2\nq1 u1 s1 d2 1\nq1 u1 s1 d3 0\n", "q1 Q0 d2 1 9 r\nq1 Q0 d1 2 8 r\n")
    assert (v["prefs_num_prefs_poss"], v["prefs_num_prefs_ful"], v["prefs_num_prefs_ful_ret"]) == (3, 2, 0)
    assert v["prefs_simp"] == pytest.approx(2 / 3)  # fulfilled / possible
    assert v["prefs_simp_ret"] == 0.0  # 0 of the 1 preference between retrieved documents
    assert v["prefs_simp_imp"] == pytest.approx(2 / 3)  # no preference with both documents missed
    assert v["prefs_pair"] == pytest.approx(2 / 3) == v["prefs_avgjg"]  # one group: pairs are preferences


def test_two_disagreeing_groups_by_hand():
    # Group u1 as above; group u2 prefers d2 > d1, which the ranking d2, d1 fulfils.
    prefs = "q1 u1 s1 d1 2\nq1 u1 s1 d2 1\nq1 u1 s1 d3 0\nq1 u2 s1 d2 1\nq1 u2 s1 d1 0\n"
    v = _values(prefs, "q1 Q0 d2 1 9 r\nq1 Q0 d1 2 8 r\n")
    assert v["prefs_simp"] == pytest.approx(3 / 4)  # (2 + 1) / (3 + 1)
    # pairs {d1, d2}: 1 of its 2 preferences fulfilled; {d1, d3}, {d2, d3}: 1 of 1
    assert v["prefs_pair"] == pytest.approx((1 / 2 + 1 + 1) / 3)
    assert v["prefs_avgjg"] == pytest.approx((2 / 3 + 1 / 1) / 2)  # each group counts the same
    assert v["prefs_pair_ret"] == pytest.approx(1 / 2)  # only {d1, d2} has both retrieved


def test_subgroups_are_closed_transitively():
    # s1: d1 > d2; s2: d2 > d3. The group also prefers d1 > d3: 3 preferences, not 2.
    v = _values("q1 u1 s1 d1 2\nq1 u1 s1 d2 1\nq1 u1 s2 d2 2\nq1 u1 s2 d3 1\n",
                "q1 Q0 d3 1 9 r\nq1 Q0 d2 2 8 r\nq1 Q0 d1 3 7 r\n")
    assert v["prefs_num_prefs_poss"] == 3
    assert v["prefs_num_prefs_ful"] == 0  # the ranking is exactly reversed


def test_contradicting_subgroups_of_one_group_are_an_error():
    with pytest.raises(ValueError, match=r"query 'q1', judgment group 0: .* each preferred to the other"):
        evaluate("q1 u1 s1 d1 2\nq1 u1 s1 d2 1\nq1 u1 s2 d2 2\nq1 u1 s2 d1 1\n", "q1 Q0 d1 1 1 r\n",
                 "prefs_simp", qrels_format="prefs")


def test_ties_are_broken_by_docno_ascending_as_form_prefs_counts_does():
    # d1 and d2 have the same score: trec_eval's preference code ranks d1 first (strcmp
    # ascending), the opposite of its other measures; d1 > d2 is then fulfilled.
    v = _values("q1 u1 s1 d1 1\nq1 u1 s1 d2 0\n", "q1 Q0 d2 1 5 r\nq1 Q0 d1 2 5 r\n")
    assert v["prefs_simp"] == 1.0


def test_depth_cuts_the_run_before_numbering():
    # With -M 1 only d2 is retrieved: d1 > d2 becomes "d1 missed, d2 retrieved": not fulfilled.
    prefs, run = "q1 u1 s1 d1 1\nq1 u1 s1 d2 0\n", "q1 Q0 d2 1 9 r\nq1 Q0 d1 2 8 r\nq1 Q0 d9 3 7 r\n"
    assert _values(prefs, run)["prefs_simp_ret"] == 0.0
    assert _values(prefs, run, depth=1)["prefs_simp_ret"] == 0.0  # no preference between retrieved docs left
    assert _values(prefs, run, depth=1)["prefs_simp_imp"] == 0.0


def test_r_nonrelevant_pads_with_fulfilled_preferences():
    # One relevant document (R = 1), retrieved, no non-relevant one (N = 0): R (R - N) = 1
    # fulfilled preference is added (trec_eval topic 7.EC.no): 1 / 1.
    v = _values("q1 u1 s1 d1 1\n", "q1 Q0 d1 1 9 r\n")
    assert v["prefs_avgjg_Rnonrel"] == 1.0 and v["prefs_simp"] == 0.0


def test_qrels_read_as_preferences():
    # iter column = judgment group. Relevant d1 above non-relevant d2 and d3 (missed): 2 of 2.
    result = evaluate("q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 0\n", "q1 Q0 d1 1 9 r\nq1 Q0 d2 2 8 r\n", "prefs_simp",
                      qrels_format="qrels_prefs")
    assert result.per_query["prefs_simp"].tolist() == [1.0]


# --------------------------------------------------------------------------------------------
# Judgment groups by hand


def test_judgment_groups_average_over_the_groups_of_each_query():
    # Group g1 judges d1 relevant, group g2 judges d2 relevant; the run ranks d1, d2.
    # AP: g1 1/1, g2 (1/2)/1 -> map_avgjg (1 + 0.5) / 2. P@1: g1 1, g2 0 -> 0.5.
    # q2 has one group: its values are that group's.
    qrels = "q1 g1 d1 1\nq1 g1 d2 0\nq1 g2 d2 1\nq2 g1 d1 1\n"
    run = "q1 Q0 d1 1 9 r\nq1 Q0 d2 2 8 r\nq2 Q0 d3 1 9 r\nq2 Q0 d1 2 8 r\n"
    result = evaluate(qrels, run, ["map_avgjg", "P_avgjg_1", "Rprec_mult_avgjg_1.00"], qrels_format="qrels_jg")
    assert result.per_query.loc["q1"].tolist() == [0.75, 0.5, 0.5]
    assert result.per_query.loc["q2"].tolist() == [0.5, 0.0, 0.0]  # AP 1/2; P@1 0; P@R = P@1 0


def test_judgment_groups_from_a_dataframe_need_a_group_column():
    qrels = pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "relevance": [1]})
    with pytest.raises(ValueError, match=r"qrels_format='qrels_jg' needs .* a 'group' column"):
        evaluate(qrels, "q1 Q0 d1 1 1 r\n", "map_avgjg", qrels_format="qrels_jg")
    value = evaluate(qrels.assign(group="a"), "q1 Q0 d1 1 1 r\n", "map_avgjg", qrels_format="qrels_jg")
    assert value.mean["map_avgjg"] == 1.0


# --------------------------------------------------------------------------------------------
# Formats and measures must agree, as in trec_eval


def test_a_measure_of_another_format_is_an_error():
    with pytest.raises(ValueError, match=r"measure 'map' is computed from qrels_format 'qrels' \(trec_eval -R\), "
                                         r"not 'prefs' \(the measures of 'prefs' are the set 'all_prefs'\)"):
        evaluate("q1 u1 s1 d1 1\n", "q1 Q0 d1 1 1 r\n", "map", qrels_format="prefs")
    with pytest.raises(ValueError, match=r"measure 'prefs_simp' is computed from qrels_format 'prefs' or "
                                         r"'qrels_prefs' \(trec_eval -R\), not 'qrels'"):
        evaluate("q1 0 d1 1\n", "q1 Q0 d1 1 1 r\n", "prefs_simp")
    with pytest.raises(ValueError, match=r"The 'qrels_format' parameter of evaluate must be one of 'qrels', 'prefs', "
                                         r"'qrels_prefs', 'qrels_jg', 'subtopics'. Got 'pref' instead."):
        evaluate("q1 0 d1 1\n", "q1 Q0 d1 1 1 r\n", "map", qrels_format="pref")


# --------------------------------------------------------------------------------------------
# Z-scores


def test_zscores_by_hand_and_trec_eval_s_missing_value():
    qrels = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\n"
    run = "q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d2 1 1.0 r\n"
    zscores = "q1 map 0.5 0.25\nq2 map 0.5 0.5\nq1 P_1 1.0 0\nq2 P_1 1.0 0\nq1 gm_map 0 1\n"
    result = evaluate(qrels, run, ["map", "P_1", "gm_map", "num_q"], zscores=zscores)
    # AP: q1 1.0, q2 0.0 -> (1 - 0.5) / 0.25 = 2, (0 - 0.5) / 0.5 = -1
    assert result.per_query["AP"].tolist() == [2.0, -1.0]
    # sd 0: 0 where the value equals the mean (q1: P@1 = 1), else -1000000 (q2: P@1 = 0)
    assert result.per_query["P@1"].tolist() == [0.0, -1000000.0]
    assert result.mean["AP"] == 0.5 and result.mean["P@1"] == -500000.0
    # gm_map standardises log(max(AP, 1e-5)) (trec_eval's per-topic value); q2 has no mean
    assert result.per_query["GMAP"].tolist() == [0.0, -1000000.0]
    assert result.mean["GMAP"] == math.exp(-500000.0)
    assert result.mean["NumQ"] == 2  # the number of topics, not a z-score


def test_cli_prints_z_scores_as_trec_eval(tmp_path, capsys):
    (tmp_path / "z").write_text("q1 map 0.5 0.25\n")
    (tmp_path / "qrels").write_text("q1 0 d1 1\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 2.0 r\n")
    assert main(["eval", "-m", "num_q", "-m", "map", "-m", "num_ret", "-Z", str(tmp_path / "z"),
                 str(tmp_path / "qrels"), str(tmp_path / "run")]) == 0
    assert capsys.readouterr().out == ("Znum_q                 \tall\t1.0000\n"
                                       "Znum_ret               \tall\t-1000000.0000\n"
                                       "Zmap                   \tall\t2.0000\n")


def test_cli_z_scores_of_counts_stay_fractional_in_csv(tmp_path, capsys):
    (tmp_path / "z").write_text("q1 num_ret 2 4\n")
    (tmp_path / "qrels").write_text("q1 0 d1 1\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 2.0 r\n")
    assert main(["eval", "-m", "num_ret", "-Z", str(tmp_path / "z"), "--format", "csv",
                 str(tmp_path / "qrels"), str(tmp_path / "run")]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "r,all,num_ret,-0.25"  # (1 - 2) / 4
