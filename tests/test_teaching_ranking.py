"""rankviz.teaching.ranking: the ranked list the app edits, and the settings a course exercise implies."""

import pytest

from rankviz.teaching.parsing import MAX_RANKING_LENGTH
from rankviz.teaching.presets import PRESETS
from rankviz.teaching.ranking import DEFAULT_RANKING, Ranking, preset_settings, unretrieved_grades


def test_ranking_frame_and_default_ids():
    ranking = Ranking.from_grades([3, 0, 1])
    assert ranking.doc_ids == ("d1", "d2", "d3") and ranking.has_default_ids()
    frame = ranking.to_frame()
    assert list(frame.columns) == ["rank", "doc", "grade"] and list(frame["rank"]) == [1, 2, 3]
    assert len(ranking) == 3 and ranking.rels == [3, 0, 1]


def test_ranking_keeps_given_ids_and_refuses_bad_rows():
    assert not Ranking.from_grades([1, 2], ["b", "a"]).has_default_ids()
    with pytest.raises(ValueError, match="'a' appears twice"):
        Ranking.from_grades([1, 2], ["a", "a"])
    with pytest.raises(ValueError, match=f"at most {MAX_RANKING_LENGTH}"):
        Ranking.from_grades([1] * (MAX_RANKING_LENGTH + 1))


def test_the_default_ranking_is_the_lectures_dcg_exercise():
    # 002 lecture, "Class Exercise - Compute DCG / IDCG / NDCG": grades 3,2,3,0,1,2.
    assert DEFAULT_RANKING.grades == (3, 2, 3, 0, 1, 2) and DEFAULT_RANKING.has_default_ids()
    assert DEFAULT_RANKING.grades == tuple(PRESETS["ndcg_exercise"].rels)


def test_unretrieved_grades_of_the_graded_q1_exercise():
    preset = PRESETS["q1_graded"]
    # Lecture slide 'Revised Reference Collections': d5 = 3, d39 = d44 = 2, d71 = d89 = 1 never retrieved.
    assert unretrieved_grades(preset.judged, preset.rels) == (3, 2, 2, 1, 1)


@pytest.mark.parametrize("judged, rels, left", [
    ([2, 1, 0], [2, 1, 0], ()),          # everything retrieved
    ([0, 0, 0], [], ()),                 # judged non-relevant documents change nothing
    ([1], [1, 1, 2], ()),                # a ranking holding more than the judgements leaves nothing
    ([1, 3, 2, 3], [], (3, 3, 2, 1)),    # highest first
])
def test_unretrieved_grades_is_a_multiset_difference(judged, rels, left):
    assert unretrieved_grades(judged, rels) == left


def test_preset_settings_of_course_exercises():
    graded = preset_settings(PRESETS["q1_graded"])
    assert graded["unretrieved"] == "3,2,2,1,1" and graded["gain"] == "exponential" and graded["k"] == ""
    binary = preset_settings(PRESETS["q1_binary"])
    assert binary["R"] == "10" and binary["gain"] == "linear" and binary["discount"] == "log2"


def test_preset_settings_refuses_other_kinds():
    with pytest.raises(ValueError, match="must hold one ranking"):
        preset_settings(PRESETS["srcc_exercise"])
