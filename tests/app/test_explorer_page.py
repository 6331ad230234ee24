"""AppTest of the metric behaviour explorer: what it shows equals rankviz.teaching.explore on the same settings."""

import warnings

import pytest

from app_helpers import open_app
from rankviz.teaching.explore import (
    DEFAULT_SWEEP_METRICS,
    metric_agreement,
    perturbed_rankings,
    random_rankings,
    score_rankings,
)
from rankviz.formatting import format_number

PAGE = "app_pages/explorer.py"


def _frame(at, first_column):
    """The first shown table whose first column is ``first_column``."""
    for element in at.dataframe:
        table = element.value
        if len(table.columns) and table.columns[0] == first_column:
            return table
    raise AssertionError(f"no table starting with {first_column!r}")


def _at_rank_2(at) -> dict:
    return _frame(at, "metric").set_index("metric")["value"].to_dict()


def _tau(at) -> str:
    return next(m.value for m in at.metric if m.label.startswith("Kendall"))


def _expected_tau(rankings, x="AP@10", y="nDCG@10", **options) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        scores = score_rankings(rankings, DEFAULT_SWEEP_METRICS, n_relevant="most", **options)
        return format_number(metric_agreement(scores, [x, y]).loc[x, y], 3)


@pytest.fixture
def at():
    app = open_app(PAGE)
    assert not app.exception, app.exception
    return app


def test_the_sweep_at_rank_2_is_the_metrics_of_a_lone_relevant_document_there(at):
    shown = _at_rank_2(at)
    assert shown["AP@10"] == pytest.approx(1 / 2)  # (1/2) / R with R = 1
    assert shown["RR@10"] == pytest.approx(1 / 2)
    assert shown["nDCG@10"] == pytest.approx(1 / 1.584962500721156)  # 1 / log2(3)
    assert shown["P@10"] == pytest.approx(1 / 10)


def test_changing_r_changes_ap_and_not_rr(at):
    at.text_input(key="ex_r").input("4").run()
    assert not at.exception
    shown = _at_rank_2(at)
    assert shown["AP@10"] == pytest.approx((1 / 2) / 4)
    assert shown["RR@10"] == pytest.approx(1 / 2)


def test_which_metrics_move_when_r_goes_from_1_to_3(at):
    changes = next(e.value for e in at.dataframe if "moved" in e.value.columns).set_index("metric")
    assert changes["moved"].to_dict() == {"P@10": "no", "R@10": "yes", "AP@10": "yes", "RR@10": "no",
                                          "nDCG@10": "yes", "ERR@10": "no"}
    assert changes.loc["AP@10", "largest change"] == pytest.approx(1 / 3 - 1)  # rank 1: 1/1 -> (1/1) / 3


def test_switching_the_grade_scale_moves_err_only():
    at = open_app(PAGE, {"ex_change": "grade scale"})
    assert not at.exception
    changes = next(e.value for e in at.dataframe if "moved" in e.value.columns).set_index("metric")
    assert changes.loc["ERR@10", "moved"] == "yes"
    assert (changes.drop(index="ERR@10")["moved"] == "no").all()


def test_the_scatter_tau_is_metric_agreement_on_the_seeded_rankings(at):
    assert _tau(at) == _expected_tau(random_rankings(200, 10, seed=42, grades=(0, 1)))


def test_the_seed_in_the_link_reproduces_the_rankings():
    at = open_app(PAGE, {"ex_seed": "7", "ex_m": "50"})
    assert not at.exception
    assert _tau(at) == _expected_tau(random_rankings(50, 10, seed=7, grades=(0, 1)))
    scores = _frame(at, "ranking")
    assert len(scores) == 50


def test_perturbed_rankings_of_a_typed_ranking():
    at = open_app(PAGE, {"ex_generator": "perturbed", "ex_base": "2,1,0,0,1", "ex_m": "30", "ex_seed": "3"})
    assert not at.exception
    assert _tau(at) == _expected_tau(perturbed_rankings([2, 1, 0, 0, 1], 30, seed=3), x="AP@5", y="nDCG@5")


@pytest.mark.parametrize("key, text", [("ex_n", "abc"), ("ex_n", "0"), ("ex_k", "0"), ("ex_r", "-2"),
                                       ("ex_m", "1"), ("ex_seed", "x"), ("ex_other_value", "nope")])
def test_bad_numbers_show_a_message_and_keep_the_page(at, key, text):
    at.text_input(key=key).input(text).run()
    assert not at.exception
    assert at.error, f"no message for {key} = {text!r}"
    assert _at_rank_2(at)  # the sweep is still drawn


def test_a_bad_ranking_to_perturb_keeps_the_last_valid_one():
    at = open_app(PAGE, {"ex_generator": "perturbed"})
    at.text_input(key="ex_base").input("1,x,0").run()
    assert not at.exception
    assert any("'x'" in e.value and "Still using" in e.value for e in at.error)


def test_no_metric_chosen_falls_back_to_the_defaults(at):
    at.multiselect(key="ex_metrics").set_value([]).run()
    assert not at.exception
    assert any("at least one metric" in e.value for e in at.error)
    assert set(_at_rank_2(at)) == {"P@10", "R@10", "AP@10", "RR@10", "nDCG@10", "ERR@10"}


def test_the_moving_document_passes_the_other_documents():
    # Others 1,0: at rank 2 the moving document follows a relevant one; R = 2 counted from the ranking.
    at = open_app(PAGE, {"ex_others": "1,0"})
    assert not at.exception
    shown = _at_rank_2(at)
    assert shown["AP@3"] == pytest.approx((1 / 1 + 2 / 2) / 2)
    assert shown["RR@3"] == 1.0
    assert shown["P@3"] == pytest.approx(2 / 3)


def test_bad_other_documents_fall_back_to_non_relevant_ones():
    at = open_app(PAGE, {"ex_others": "1,zz"})
    assert not at.exception
    assert any("other documents" in e.value and "'zz'" in e.value for e in at.error)
    assert _at_rank_2(at)["AP@10"] == pytest.approx(1 / 2)


def test_r_below_the_ranked_relevant_documents_is_explained():
    at = open_app(PAGE, {"ex_others": "1,1,0"})
    at.text_input(key="ex_r").input("2").run()
    assert not at.exception
    assert any("is 2, smaller than the 3 relevant documents" in e.value for e in at.error)


def test_the_charts_name_their_settings_and_tau(at):
    import json

    titles = [json.loads(chart.proto.spec)["title"] for chart in at.get("vega_lite_chart")]
    assert titles[0] == "A document of grade 1 moving down 10 ranks (R = 1)"
    assert titles[1]["subtitle"] == f"Kendall's τ_b between the orderings = {_tau(at)}"
    at.text_input(key="ex_r").input("3").run()
    assert json.loads(at.get("vega_lite_chart")[0].proto.spec)["title"].endswith("(R = 3)")


def test_too_many_other_documents_are_refused_with_the_limit():
    at = open_app(PAGE, {"ex_others": ",".join(["0"] * 200)})  # 200 others + the moving one > 200 ranks
    assert not at.exception
    assert any("at most 199 other documents" in e.value for e in at.error)
    assert _at_rank_2(at)["AP@10"] == pytest.approx(1 / 2)  # back to N = 10 non-relevant others


def test_one_grade_is_not_a_ranking_to_perturb():
    at = open_app(PAGE, {"ex_generator": "perturbed"})
    at.text_input(key="ex_base").input("3").run()
    assert not at.exception
    assert any("Give 2 to 200 grades to perturb" in e.value and "Still using" in e.value for e in at.error)


def test_at_rank_2_is_rank_1_when_the_ranking_has_one_document():
    at = open_app(PAGE, {"ex_n": "1"})
    assert not at.exception
    assert any("**At rank 1**" in m.value for m in at.markdown)
    assert _at_rank_2(at)["RR@1"] == 1.0


def test_which_metrics_move_caption_counts_what_sweep_changes_says():
    from rankviz.teaching.explore import position_sweep, sweep_changes

    at = open_app(PAGE)  # default: R counted (1) -> 3, every default metric, N = 10
    assert not at.exception
    changes = sweep_changes(position_sweep(10), position_sweep(10, n_relevant=3))
    still = int((~changes["moved"]).sum())
    caption = next(c.value for c in at.caption if c.value.startswith("R = 1 → 3"))
    assert caption.endswith(f"{still} of {len(changes)} metrics did not.")
    assert 0 < still < len(changes)  # R moves the recall-oriented metrics only


def test_end_labels_are_a_text_line_apart_in_projector_mode():
    from teaching_helpers import chart_frames

    # Default sweep: P@10 = AP = RR = 1/10 share a label, ERR@10 = 1/2 * 1/10 = 0.05 ends 0.05 below it:
    # 0.05 of the 167 px y axis Chromium drew at 22 px type (of the 420 px chart) is 8 px, less than a
    # line of 22 px labels (0.9 * 22 * 1.2 = 23.8 px).
    at = open_app(PAGE, {"projector": "true"})
    assert not at.exception
    ends = next(frame for frame in chart_frames(at, 0) if "label_value" in frame.columns)
    assert ends.set_index("metric")["value"].to_dict()["ERR@10"] == pytest.approx(0.05)
    labels = sorted(ends["label_value"])
    assert min(b - a for a, b in zip(labels, labels[1:])) * 167 >= 0.9 * 22 * 1.2 - 1e-6
