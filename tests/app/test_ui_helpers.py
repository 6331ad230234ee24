"""Pure helpers of the Streamlit layer: labels, variants, the page list, preset settings keyed by widget.
(The Ranking itself and unretrieved_grades are tested in tests/test_teaching_ranking.py.)"""

from rankviz.teaching.presets import PRESETS
from rankviz.registry import get_spec
from rankviz.ui.pages import PAGES, available_pages, page_for
from rankviz.ui.settings import switch_help, variant_label
from rankviz.ui.state import preset_widget_values
from rankviz.ui.tables import at_k_label, variant_text


def test_at_k_label_fills_in_k_or_the_list_length():
    assert at_k_label(get_spec("ndcg"), {"k": 5}, 6) == "nDCG@5"
    assert at_k_label(get_spec("ndcg"), {"k": None}, 6) == "nDCG@6"
    assert at_k_label(get_spec("r_precision"), {"k": 3}, 6) == "R-precision"


def test_variant_text_names_every_convention():
    # The gain and discount in the registry's words (GAIN.label, DISCOUNT.label), with the base used.
    assert variant_text({"k": 5, "gain": "exponential", "discount": "log2", "log_base": 2}) == \
        "exponential gain 2^g − 1, log2(i + 1) discount"
    assert variant_text({"discount": "jarvelin", "log_base": 2}) == "Järvelin-Kekäläinen discount max(1, log2 i)"
    assert variant_text({"discount": "jarvelin", "log_base": 10}) == "Järvelin-Kekäläinen discount max(1, log10 i)"
    assert variant_text({"rel_threshold": 1, "n_relevant": 10}) == "relevant: grade ≥ 1, R = 10"
    assert variant_text({"judged": (3, 2, 1)}) == "judged: 3 documents"
    assert variant_text({}, get_spec("err")) == "g_max = highest grade in the list"
    assert variant_text({}, get_spec("cumulative_gain")) == "grades as given"
    assert variant_text({"rel_threshold": 1}, get_spec("average_precision")) == \
        "relevant: grade ≥ 1, R from the list"


def test_the_switches_speak_the_registrys_words():
    gain = get_spec("ndcg").param("gain")
    assert variant_label({"gain": "linear", "discount": "jarvelin"}) == \
        f"{gain.label('linear')}, {get_spec('ndcg').param('discount').label('jarvelin')}"
    assert switch_help(gain).startswith("linear gain g: The grade itself")
    assert "exponential gain 2^g − 1: Burges" in switch_help(gain)


def test_preset_widget_values_key_the_exercise_settings_by_widget():
    # Lecture slide 'Revised Reference Collections': d5 = 3, d39 = d44 = 2, d71 = d89 = 1 never retrieved.
    values = preset_widget_values(PRESETS["q1_graded"])
    assert values["unretrieved"] == "3,2,2,1,1" and values["gain"] == "exponential"
    assert preset_widget_values(PRESETS["q1_binary"], "b_")["b_R"] == "10"


def test_page_list():
    assert PAGES[0].default and sum(page.default for page in PAGES) == 1
    assert {p.path for p in available_pages()} >= {"app_pages/home.py", "app_pages/one_ranking.py"}
    assert page_for("app_pages/one_ranking.py").title == "One ranking, every metric"
