"""Measure names: both families parse to the same hashable Measure, str() round-trips,
trec_eval's output names and parameter syntax, named sets, and clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankviz.evaluation.measures import (
    FAMILIES,
    NAMED_SETS,
    Measure,
    parse_measure,
    parse_measures,
    split_measure_text,
)
from rankviz.registry import METRICS

# (spelling, canonical str, trec_eval output name)
SPELLINGS = [
    ("P@10", "P@10", "P_10"),
    ("P_10", "P@10", "P_10"),
    ("R@100", "R@100", "recall_100"),
    ("recall_100", "R@100", "recall_100"),
    ("AP", "AP", "map"),
    ("map", "AP", "map"),
    ("MAP", "AP", "map"),
    ("AP@100", "AP@100", "map_cut_100"),
    ("map_cut_100", "AP@100", "map_cut_100"),
    ("RR", "RR", "recip_rank"),
    ("recip_rank", "RR", "recip_rank"),
    ("RR@10", "RR@10", "RR@10"),  # trec_eval has no cut-off reciprocal rank
    ("nDCG", "nDCG", "ndcg"),
    ("ndcg", "nDCG", "ndcg"),
    ("nDCG@10", "nDCG@10", "ndcg_cut_10"),
    ("ndcg_cut_10", "nDCG@10", "ndcg_cut_10"),
    ("nDCG(gain=exp)@10", "nDCG(gain=exponential)@10", "nDCG(gain=exponential)@10"),
    ("nDCG(gain=exponential)@10", "nDCG(gain=exponential)@10", "nDCG(gain=exponential)@10"),
    ("nDCG(gain=linear)@10", "nDCG@10", "ndcg_cut_10"),
    ("Success@5", "Success@5", "success_5"),
    ("success_5", "Success@5", "success_5"),
    ("hit@5", "Success@5", "success_5"),
    ("Rprec", "Rprec", "Rprec"),
    ("ERR@20", "ERR@20", "ERR@20"),
    ("iprec@0.5", "IPrec@0.5", "iprec_at_recall_0.50"),
    ("IPrec@0.5", "IPrec@0.5", "iprec_at_recall_0.50"),
    ("iprec_at_recall_0.50", "IPrec@0.5", "iprec_at_recall_0.50"),
    ("NumRet", "NumRet", "num_ret"),
    ("num_ret", "NumRet", "num_ret"),
    ("NumRel", "NumRel", "num_rel"),
    ("NumRelRet", "NumRelRet", "num_rel_ret"),
    ("num_rel_ret", "NumRelRet", "num_rel_ret"),
    ("Bpref", "Bpref", "bpref"),
    ("bpref", "Bpref", "bpref"),
    ("GMAP", "GMAP", "gm_map"),
    ("gm_map", "GMAP", "gm_map"),
    ("RR(rel=2)@5", "RR(rel=2)@5", "RR(rel=2)@5"),
    ("P(rel=2)@10", "P(rel=2)@10", "P(rel=2)@10"),
    ("11pt_avg", "11pt_avg", "11pt_avg"),
    ("11pt_avg_.25,.5,.75", "11pt_avg(levels=0.25;0.5;0.75)", "11pt_avg_.25,.5,.75"),
    ("ndcg_1=3,2=9,4=4.5", "nDCG(gain=1:3;2:9;4:4.5)", "ndcg_1=3,2=9,4=4.5"),
    ("utility_2,-1,0,0", "utility(a=2)", "utility_2,-1,0,0"),
    ("utility(a=2)", "utility(a=2)", "utility_2,-1,0,0"),
    ("Rprec_mult_0.20", "Rprec_mult@0.2", "Rprec_mult_0.20"),
    ("relative_P_5", "relative_P@5", "relative_P_5"),
    ("unj_5", "unj@5", "unj_5"),
    ("relstring", "relstring", "relstring"),
    ("relstring_10", "relstring@10", "relstring_10"),
    ("set_F", "SetF", "set_F"),
    ("num_nonrel_judged_ret", "NumNonRelJudgedRet", "num_nonrel_judged_ret"),
    ("ideal_dcg", "IdealDCG", "ideal_dcg"),
    ("gm_bpref", "gm_bpref", "gm_bpref"),
    ("rbp_resid", "rbp_resid", "rbp_resid"),
]


@pytest.mark.parametrize("spelling, canonical, trec_name", SPELLINGS)
def test_spellings(spelling, canonical, trec_name):
    m = parse_measure(spelling)
    assert str(m) == canonical
    assert m.trec_name == trec_name
    assert parse_measure(str(m)) == m
    assert parse_measure(m) is m


def test_spellings_of_one_measure_are_equal_and_hash_equal():
    same = {parse_measure(s) for s in ["P@10", "P_10", "P(rel=1)@10"][:2]} | set(parse_measures("P.10"))
    assert same == {Measure("P", 10)}
    assert parse_measure("ndcg_cut_10") == parse_measure("nDCG@10")
    assert {parse_measure("hit@3"): 1}[parse_measure("success_3")] == 1
    assert parse_measure("P(rel=1)@10") != parse_measure("P@10")  # rel=1 overrides evaluate()'s threshold


def test_aggregates_and_counts():
    assert parse_measure("num_ret").aggregate == "sum" and parse_measure("num_ret").is_count
    assert parse_measure("num_q").aggregate == "sum"
    assert parse_measure("gm_map").aggregate == "gmean"
    assert parse_measure("gm_bpref").aggregate == "gmean"
    assert parse_measure("relstring").aggregate == "none"
    assert parse_measure("map").aggregate == "mean" and not parse_measure("map").is_count


def test_trec_eval_parameter_syntax():
    # out.test.meas_params: cutoffs are sorted and de-duplicated, 23.4 is read as 23 (atol).
    assert [m.trec_name for m in parse_measures("P.5,7,3,5")] == ["P_3", "P_5", "P_7"]
    assert [m.trec_name for m in parse_measures("ndcg_cut.10,20,23.4")] == ["ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23"]
    assert [m.trec_name for m in parse_measures("Rprec_mult.5.0,0.2,0.35")] == [
        "Rprec_mult_0.20", "Rprec_mult_0.35", "Rprec_mult_5.00"]
    assert [m.trec_name for m in parse_measures("iprec_at_recall..10,.5")] == [
        "iprec_at_recall_0.10", "iprec_at_recall_0.50"]
    assert parse_measure("ndcg.1=3,2=9,4=4.5").param("gain") == ((1, 3.0), (2, 9.0), (4, 4.5))
    assert parse_measure("utility.2,-1,0,0").param("a") == 2.0
    assert parse_measure("11pt_avg..25,.5,.75").param("levels") == (0.25, 0.5, 0.75)
    assert parse_measure("relstring.20") == Measure("relstring", 20)


def test_bare_trec_families_expand_to_their_default_cutoffs():
    assert [m.trec_name for m in parse_measures("P")] == [
        "P_5", "P_10", "P_15", "P_20", "P_30", "P_100", "P_200", "P_500", "P_1000"]
    assert [m.trec_name for m in parse_measures("success")] == ["success_1", "success_5", "success_10"]
    assert [m.trec_name for m in parse_measures("unj")] == ["unj_5", "unj_10", "unj_20"]
    assert len(parse_measures("iprec_at_recall")) == 11
    assert len(parse_measures("Rprec_mult")) == 10
    assert parse_measures("ndcg") == (Measure("nDCG"),)  # ndcg itself has no cutoff


def test_named_sets():
    official = [m.trec_name for m in parse_measures("official")]
    assert official[:10] == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
                             "bpref", "recip_rank"]
    assert len(official) == 10 + 11 + 9
    all_trec = parse_measures("all_trec")
    assert set(parse_measures("official")) < set(all_trec)
    assert len(all_trec) == len(set(all_trec))
    # trec_eval 10.0's nicknames (measures.c): the three of -R qrels, and those of -R prefs /
    # qrels_prefs (all_prefs, prefs) and -R qrels_jg.
    assert set(NAMED_SETS) == {"official", "all_trec", "set", "all_prefs", "prefs", "qrels_jg"}
    assert [m.trec_name for m in parse_measures("prefs")] == [
        "runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
        "prefs_pair", "prefs_avgjg"]
    assert len(parse_measures("all_prefs")) == 2 + 14
    assert [m.trec_name for m in parse_measures("qrels_jg")][:4] == ["runid", "num_q", "map_avgjg", "P_avgjg_5"]
    assert len(parse_measures("qrels_jg")) == 2 + 1 + 9 + 10


def test_parse_measures_keeps_order_and_drops_duplicates():
    assert [str(m) for m in parse_measures(["map", "P@10", "AP", "P_10", "P@5"])] == ["AP", "P@10", "P@5"]


def test_trec_order_sorts_like_trec_eval_prints():
    names = ["ndcg_cut_10", "P_10", "map", "P_5", "num_ret", "recall_5"]
    ordered = sorted((parse_measure(n) for n in names), key=lambda m: m.trec_order)
    assert [m.trec_name for m in ordered] == ["num_ret", "map", "P_5", "P_10", "recall_5", "ndcg_cut_10"]


@pytest.mark.parametrize(
    "name, message",
    [
        ("nDGC@10", r"Unknown measure 'nDGC@10': no measure is called 'nDGC'. Close matches: nDCG"),
        ("preciison@5", r"Unknown measure 'preciison@5'.*Close matches: precision"),
        ("P", r"Measure 'P' stands for 9 measures \(P@5, P@10, P@15, P@20, ...\); use parse_measures"),
        ("official", r"stands for 30 measures"),
        ("R", r"R needs a cutoff, e.g. R@10"),
        ("P@0", r"the cutoff of P must be an int >= 1; got 0"),
        ("P@2.5", r"the cutoff of P must be an int >= 1; got 2.5"),
        ("AP@x", r"the cutoff must be a number; got 'x'"),
        ("IPrec@1.5", r"the recall level of IPrec must be in \[0, 1\]; got 1.5"),
        ("iprec_at_recall_2", r"the recall level of IPrec must be in \[0, 1\]; got 2"),
        ("Rprec@5", r"Rprec takes no cutoff; got @5"),
        ("P(gain=exp)@10", r"P has no parameter 'gain' \(parameters: rel\)"),
        ("nDCG(gain=cubic)", r"gain must be 'linear', 'exponential' \(or 'exp', 'exp2'\) or a map"),
        ("P(rel=1.5)@3", r"rel must be an integer grade >= 0; got '1.5'"),
        ("P(rel=-1)@3", r"rel must be an integer grade >= 0; got '-1'"),
        ("utility.1,2", r"utility takes 4 parameters \(a, b, c, d\); got 2"),
        ("set_F.1,2", r"set_F takes 1 parameter \(beta\); got 2"),
        ("11pt_avg.", r"11pt_avg needs at least one value of levels"),
        ("rbp(p=x)", r"p must be a number; got 'x'"),
        ("P@@3", r"expected Name, Name@cutoff or Name\(param=value\)@cutoff"),
        ("", r"must not be empty"),
    ],
)
def test_errors(name, message):
    with pytest.raises(ValueError, match=message):
        parse_measure(name)


def test_non_string_is_an_error():
    with pytest.raises(ValueError, match=r"A measure must be a str or a Measure; got int 10"):
        parse_measures([10])


def _measures():
    def for_family(fam):
        if fam.cutoff == "int":
            cutoff = st.integers(1, 5000)
        elif fam.cutoff == "optional_int":
            cutoff = st.none() | st.integers(1, 5000)
        elif fam.cutoff in ("float", "recall"):  # a recall level in [0, 1]; Rprec_mult's multiple of R
            top = 1 if fam.cutoff == "recall" else 3
            cutoff = st.floats(0, top, allow_nan=False).map(lambda x: round(x, 3))
        else:
            cutoff = st.none()
        takes_rel = any(p.measure_key == "rel" for p in fam.measure_params)
        rel = st.just(()) | (st.integers(0, 4).map(lambda r: (("rel", r),)) if takes_rel else st.just(()))
        return st.builds(lambda c, p: Measure(fam.measure, c, p), cutoff, rel)

    return st.sampled_from(FAMILIES).flatmap(for_family)


@given(_measures())
def test_str_round_trips(measure):
    assert parse_measure(str(measure)) == measure
    assert hash(parse_measure(str(measure))) == hash(measure)


def test_families_are_the_registrys_measures_in_trec_eval_printing_order():
    assert set(FAMILIES) == {spec for spec in METRICS if spec.measure}
    assert [f.measure for f in FAMILIES[:12]] == ["runid", "NumQ", "NumRet", "NumRel", "NumRelRet", "AP", "GMAP",
                                                 "Rprec", "Bpref", "RR", "IPrec", "P"]
    # Measures trec_eval lacks (ERR, ir_measures' SDCG, INST, Compat, Judged, the diversity
    # measures of subtopic qrels...) come after trec_eval's, in registry order.
    rankviz_only = [f.measure for f in FAMILIES if not f.trec]
    assert [f.measure for f in FAMILIES[-len(rankviz_only):]] == rankviz_only
    assert rankviz_only[:2] == ["ERR", "SDCG"] and rankviz_only[-10:] == [
        "Judged", "alpha_nDCG", "alpha_DCG", "ERR_IA", "nERR_IA", "NRBP", "nNRBP", "AP_IA", "P_IA", "StRecall"]
    assert parse_measure("P@10").family is parse_measure("P@10").spec


@pytest.mark.parametrize(
    "text, names",
    [
        ("ERR@20, ndcg_cut_20;P.5,10  nDCG(gain=exp,rel=2)@5 utility_2,-1,0,0",
         ["ERR@20", "ndcg_cut_20", "P.5,10", "nDCG(gain=exp,rel=2)@5", "utility_2,-1,0,0"]),
        ("a, b;c  d", ["a", "b", "c", "d"]),
        ("P.5,10,20, map", ["P.5,10,20", "map"]),  # a comma before a digit continues the name
        ("iprec_at_recall..25,.5 11pt_avg..25", ["iprec_at_recall..25,.5", "11pt_avg..25"]),
        ("  ", []),
    ],
)
def test_split_measure_text(text, names):
    assert split_measure_text(text) == names
