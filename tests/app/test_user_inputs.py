"""Tests of the click-log and id-set parsing behind the AUC/GAUC and user-measures page."""

import math

import pytest

from rankviz.metrics import gauc
from rankviz.ui.user_inputs import DEFAULT_CLICK_LOG, DEFAULT_SETS, parse_click_log, parse_id_set


def test_blank_rows_are_skipped_and_labels_read_in_words():
    log = parse_click_log([{"group": "u1", "item": "a", "label": "true", "score": 1},
                           {"group": None, "item": None, "label": None, "score": None},
                           {"group": "u2", "item": "b", "label": "no", "score": "-0.5"}])
    assert log.groups == ("u1", "u2") and log.labels == (1, 0) and log.scores == (1.0, -0.5)


def test_one_group_keeps_its_rows_in_order():
    log = parse_click_log(DEFAULT_CLICK_LOG)
    u2 = log.group("u2")
    assert u2.items == ("e", "f", "g") and u2.labels == (1, 0, 0)
    assert log.group_ids() == ["u1", "u2", "u3"]


def test_the_default_log_has_a_one_class_group_for_gauc_to_skip():
    log = parse_click_log(DEFAULT_CLICK_LOG)
    result = gauc(log.labels, log.scores, log.groups)
    assert result.skipped_groups == ("u3",)
    # u1: 3 of 4 pairs (0.9 > 0.6, 0.3; 0.4 > 0.3), u2: 1 of 2; weighted by size (4 * 0.75 + 3 * 0.5) / 7.
    assert float(result) == pytest.approx((4 * 0.75 + 3 * 0.5) / 7)


@pytest.mark.parametrize("row, match", [
    ({"group": "", "item": "a", "label": 1, "score": 0.5}, r"Row 1 \(a\): give the group"),
    ({"group": "u", "item": "a", "label": None, "score": 0.5}, r"label must be 1.*empty"),
    ({"group": "u", "item": "a", "label": 1, "score": math.nan}, r"score must be a finite number"),
    ({"group": "u", "item": "a", "label": 1, "score": "inf"}, r"score must be a finite number; got 'inf'"),
    ({"group": "u", "item": "a", "label": 0.5, "score": 1}, r"label must be 1"),
])
def test_bad_rows_are_named(row, match):
    with pytest.raises(ValueError, match=match):
        parse_click_log([row])


def test_an_empty_log_is_refused():
    with pytest.raises(ValueError, match="click log is empty"):
        parse_click_log([])


def test_id_sets_split_on_commas_and_spaces_each_id_once():
    assert parse_id_set("d1, d2 d1;d3", name="K") == ["d1", "d2", "d3"]
    assert parse_id_set("  ", name="K") == [] and parse_id_set(None, name="K") == []
    with pytest.raises(ValueError, match="K must be text"):
        parse_id_set(["d1"], name="K")
    assert len(parse_id_set(DEFAULT_SETS["R"], name="R")) == 10  # q1's reference collection


def test_both_classes_agree_with_the_groups_gauc_keeps():
    log = parse_click_log(DEFAULT_CLICK_LOG)
    assert log.has_both_classes  # 0 and 1 labels over all items
    kept = [group for group in log.group_ids() if log.group(group).has_both_classes]
    # GAUC leaves out exactly the groups without a (positive, negative) pair
    assert tuple(g for g in log.group_ids() if g not in kept) == gauc(log.labels, log.scores, log.groups).skipped_groups
    only_positives = parse_click_log([{"group": "u", "item": "a", "label": 1, "score": 0.5},
                                      {"group": "u", "item": "b", "label": 1, "score": 0.1}])
    assert not only_positives.has_both_classes
