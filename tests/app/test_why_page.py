"""AppTest of the "Why tools disagree" page, and of the tools side by side on One ranking and Ties:
what is shown equals what rankviz.disagreement / tools_table compute; uploads, a bad measure, a bad file."""

from __future__ import annotations

import pandas as pd
import pytest

from app_helpers import open_app
from rankviz.conventions import CONVENTIONS
from rankviz.data import SAMPLE_QRELS, SAMPLE_RUNS
from rankviz.evaluation.tools import disagreement, disagreement_summary, tools_table

PAGE = "app_pages/why.py"
QRELS = b"q1 0 a 1\nq1 0 b 0\nq1 0 c 1\nq2 0 x 1\nq2 0 y 2\n"
RUN = b"q1 Q0 a 1 2.0 T\nq1 Q0 b 2 2.0 T\nq2 Q0 w 1 5.0 T\nq2 Q0 x 2 5.0 T\nq2 Q0 y 3 1.0 T\n"


def _differ_table(at):
    tables = [df.value for df in at.dataframe if "why" in df.value.columns]
    assert len(tables) == 1, [list(df.value.columns) for df in at.dataframe]
    return tables[0]


def test_the_sample_run_shows_what_disagreement_computes():
    at = open_app(PAGE)
    assert not at.exception and not at.error
    expected = disagreement(SAMPLE_QRELS, SAMPLE_RUNS["bm25_rounded"], "nDCG@10", a="trec_eval", b="sklearn")
    differ = expected[expected["conventions"].map(len) > 0]
    shown = _differ_table(at)
    assert shown["query"].tolist() == differ["query"].tolist()
    assert shown["trec_eval"].tolist() == pytest.approx(differ["a"].tolist(), nan_ok=True)
    assert shown["scikit-learn"].tolist() == pytest.approx(differ["b"].tolist(), nan_ok=True)
    assert shown["difference"].tolist() == pytest.approx((differ["b"] - differ["a"]).tolist(), nan_ok=True)
    assert (shown["difference"].abs() > 0).all()  # listed queries do differ, if only past the fourth decimal
    assert shown["why"].tolist() == [" + ".join(CONVENTIONS[c].title for c in named) for named in differ["conventions"]]
    assert any(disagreement_summary(expected) in m.value for m in at.markdown)
    # each named convention has its box, with a link to its worked example
    named = {c for n in differ["conventions"] for c in n}
    assert named
    links = [link.proto.page for link in at.get("page_link")]  # the linked page's url path
    assert sorted(set(links)) == sorted({CONVENTIONS[c].example for c in named})


def test_other_tools_and_measure():
    at = open_app(PAGE)
    at.selectbox(key="why_b").set_value("recbole")
    at.text_input(key="why_measure").set_value("AP@10")
    at.run()
    assert not at.exception and not at.error
    expected = disagreement(SAMPLE_QRELS, SAMPLE_RUNS["bm25_rounded"], "AP@10", a="trec_eval", b="recbole")
    differ = expected[expected["conventions"].map(len) > 0]
    shown = _differ_table(at)
    assert shown["RecBole"].tolist() == pytest.approx(differ["b"].tolist(), nan_ok=True)


def test_an_uploaded_run_and_a_bad_measure_keep_the_last_table():
    at = open_app(PAGE)
    at.radio(key="why_source").set_value("upload").run()
    at.get("file_uploader")[0].upload("qrels.txt", QRELS)
    at.get("file_uploader")[1].upload("run.txt", RUN)
    at.run()
    assert not at.exception and not at.error
    qrels = pd.DataFrame([ln.split() for ln in QRELS.decode().splitlines()], columns=["query_id", "it", "doc_id", "relevance"])
    qrels["relevance"] = qrels["relevance"].astype(int)
    run = pd.DataFrame([ln.split() for ln in RUN.decode().splitlines()],
                       columns=["query_id", "q0", "doc_id", "rank", "score", "tag"]).astype({"score": float})
    expected = disagreement(qrels[["query_id", "doc_id", "relevance"]], run[["query_id", "doc_id", "score"]],
                            "nDCG@10", a="trec_eval", b="sklearn")
    shown = _differ_table(at)
    assert shown["query"].tolist() == expected[expected["conventions"].map(len) > 0]["query"].tolist()
    at.text_input(key="why_measure").set_value("nDCG@x").run()
    assert not at.exception
    assert at.error and "nDCG@x" in at.error[0].value
    assert at.warning and "nDCG@10" in at.warning[0].value
    assert _differ_table(at)["query"].tolist() == shown["query"].tolist()


def test_a_tool_without_the_measure_is_an_error_not_a_traceback():
    at = open_app(PAGE)
    at.text_input(key="why_measure").set_value("P@5").run()
    assert not at.exception
    assert at.error and "scikit-learn has no P@5" in at.error[0].value


def test_a_malformed_upload_shows_its_error_alone():
    at = open_app(PAGE)
    at.radio(key="why_source").set_value("upload").run()
    at.get("file_uploader")[0].upload("qrels.txt", QRELS)
    at.get("file_uploader")[1].upload("run.txt", b"q1 Q0 a\n")
    at.run()
    assert not at.exception
    assert at.error and "run.txt" in at.error[0].value
    assert not [df for df in at.dataframe if "why" in df.value.columns]


def test_one_ranking_and_ties_show_each_tool_side_by_side():
    at = open_app("app_pages/one_ranking.py", query_params={"rels": "3,2,3,0,1,2", "k": "4"})
    assert not at.exception
    tables = [df.value for df in at.dataframe if "tool" in df.value.columns]
    assert len(tables) == 1
    shown = tables[0].set_index("tool")
    expected = tools_table([f"d{i}" for i in range(1, 7)], [6, 5, 4, 3, 2, 1], [3, 2, 3, 0, 1, 2],
                           ["nDCG@4", "AP@4", "P@4", "R@4", "RR@4"])
    # The list judges itself: gains and MAP@k's denominator are what tell the tools apart here.
    assert shown.loc["trec_eval", "nDCG@4"] == pytest.approx(expected.loc["trec_eval", "nDCG@4"])
    assert shown.loc["RecBole", "nDCG@4"] == pytest.approx(expected.loc["recbole", "nDCG@4"])
    assert shown.loc["RecBole", "AP@4"] == pytest.approx((1 + 1 + 1) / 4)  # min(R = 5, 4)
    assert shown.loc["trec_eval", "AP@4"] == pytest.approx((1 + 1 + 1) / 5)  # over R = 5
    at = open_app("app_pages/ties.py")
    assert not at.exception
    tables = [df.value for df in at.dataframe if "tool" in df.value.columns]
    assert len(tables) == 1
    from rankviz.ui.ties_view import DEFAULT_EXAMPLE, example_lists

    docs, scores, grades = example_lists(DEFAULT_EXAMPLE)
    expected = tools_table(docs, scores, grades, ["P@2", "AP", "RR", "nDCG"]).dropna(how="all")
    shown = tables[0].set_index("tool")
    assert shown.loc["trec_eval", "RR"] == pytest.approx(expected.loc["trec_eval", "RR"])  # 1/4: d2 behind d4, d3
    assert shown.loc["ranx", "RR"] == pytest.approx(expected.loc["ranx", "RR"])  # 1/2: input order
    assert shown.loc["scikit-learn", "AP"] == pytest.approx(expected.loc["sklearn", "AP"])
