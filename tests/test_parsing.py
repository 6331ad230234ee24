"""What the app accepts from a user's keyboard, and the message it gives for everything else."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankviz.teaching.parsing import (
    MAX_GRADE,
    MAX_RANKING_LENGTH,
    check_ranking,
    default_doc_ids,
    format_doc_ids,
    format_grades,
    parse_doc_ids,
    parse_grades,
    parse_optional_int,
)


@pytest.mark.parametrize("text", ["3,2,3,0,1,2", "3 2 3 0 1 2", " 3, 2, 3, 0, 1, 2 ", "3;2;3;0;1;2", "3\t2\n3 0,1 2"])
def test_grades_separated_by_commas_spaces_or_semicolons(text):
    assert parse_grades(text) == (3, 2, 3, 0, 1, 2)  # the lecture's NDCG exercise


def test_whole_numbers_become_ints_and_fractions_stay():
    grades = parse_grades("1.0, 0.5, 2")
    assert grades == (1, 0.5, 2)
    assert [type(g) for g in grades] == [int, float, int]


@pytest.mark.parametrize(("text", "message"), [
    ("abc", r"Grade at rank 1 is 'abc': grades must be numbers from 0 to 100\."),
    ("3, x, 1", r"Grade at rank 2 is 'x'"),
    ("3 2 -1", r"Grade at rank 3 is -1"),
    ("nan", r"Grade at rank 1 is missing \(NaN\)"),
    ("1 inf", r"Grade at rank 2 is inf"),
    ("1e9", r"Grade at rank 1 is 1e9"),
    ("101", r"Grade at rank 1 is 101"),
    ("1_0", r"Grade at rank 1 is '1_0'"),  # Python's float() reads it as 10
    ("", r"The ranking is empty"),
    ("  , ; ", r"The ranking is empty"),
])
def test_bad_grades_name_the_rank_and_the_value(text, message):
    with pytest.raises(ValueError, match=message):
        parse_grades(text)


def test_the_largest_grade_is_allowed_and_one_more_is_not():
    assert parse_grades(str(MAX_GRADE)) == (MAX_GRADE,)
    with pytest.raises(ValueError):
        parse_grades(str(MAX_GRADE + 0.5))


def test_too_many_grades():
    assert len(parse_grades(",".join(["1"] * MAX_RANKING_LENGTH))) == MAX_RANKING_LENGTH
    with pytest.raises(ValueError, match=f"{MAX_RANKING_LENGTH + 1} grades; at most {MAX_RANKING_LENGTH}"):
        parse_grades(",".join(["1"] * (MAX_RANKING_LENGTH + 1)))


def test_position_word_for_lists_that_are_not_rankings():
    with pytest.raises(ValueError, match="Grade at position 2 is 'q'"):
        parse_grades("1 q", position="position")


def test_doc_ids():
    assert parse_doc_ids("d123, d84 d56") == ("d123", "d84", "d56")
    assert parse_doc_ids("   ") == ()
    with pytest.raises(ValueError, match=r"'d1' appears twice, at ranks 1 and 3"):
        parse_doc_ids("d1 d2 d1")


@pytest.mark.parametrize(("text", "expected"), [("", None), ("  ", None), ("5", 5), (" 12 ", 12), ("3.0", 3)])
def test_optional_int(text, expected):
    assert parse_optional_int(text, name="k") == expected


@pytest.mark.parametrize("text", ["0", "-2", "2.5", "abc", "nan", "inf"])
def test_optional_int_rejects(text):
    with pytest.raises(ValueError, match=rf"k must be a whole number of at least 1 \(or blank\); got '{text}'"):
        parse_optional_int(text, name="k")


def test_optional_int_bounds():
    assert parse_optional_int("0", name="R", minimum=0) == 0
    with pytest.raises(ValueError, match="R must be a whole number from 0 to 10"):
        parse_optional_int("11", name="R", minimum=0, maximum=10)


def test_default_doc_ids_skip_taken_ones():
    assert default_doc_ids(3) == ("d1", "d2", "d3")
    assert default_doc_ids(2, taken=("d2", "x")) == ("d1", "d3")
    assert default_doc_ids(0) == ()


def test_check_ranking_fills_blank_ids_and_checks_grades():
    assert check_ranking(["a", None, "", float("nan")], [1, 0.0, "2", 3]) == (("a", "d1", "d2", "d3"), (1, 0, 2, 3))
    with pytest.raises(ValueError, match="Grade at rank 2 is -3"):
        check_ranking(["a", "b"], [1, -3])
    with pytest.raises(ValueError, match="Grade at rank 1 is missing"):
        check_ranking(["a"], [None])
    with pytest.raises(ValueError, match="'a' appears twice"):
        check_ranking(["a", "a"], [1, 1])
    with pytest.raises(ValueError, match="2 grades but 1 ids"):
        check_ranking(["a"], [1, 1])
    with pytest.raises(ValueError, match="empty"):
        check_ranking([], [])


def test_format_round_trips():
    grades = (3, 2, 3, 0, 1, 2)
    assert format_grades(grades) == "3,2,3,0,1,2"
    assert parse_grades(format_grades((0.5, 2.0, 1 / 3))) == (0.5, 2, pytest.approx(1 / 3, rel=1e-5))
    assert parse_doc_ids(format_doc_ids(("d1", "x"))) == ("d1", "x")
    assert not math.isnan(parse_grades(format_grades([0]))[0])


@given(st.lists(st.lists(st.one_of(st.integers(0, 3), st.floats(0, 2e6, allow_nan=False), st.just(1e6)),
                         min_size=3, max_size=3), min_size=1, max_size=5))
def test_format_grade_rows_writes_each_row_as_format_grades_does(rows):
    """The vectorized texts (whole numbers below a million as integers) equal the row-by-row ones."""
    from rankviz.teaching.parsing import format_grade_rows, format_grades

    assert format_grade_rows(rows) == [format_grades(row) for row in rows]
