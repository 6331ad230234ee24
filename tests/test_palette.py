"""The charts' colours stay apart for colour-blind viewers, and every series has a second cue.

Each colour is passed through the full-severity colour-vision-deficiency simulations of Machado,
Oliveira and Fernandes (2009, "A physiologically-based model for simulation of color vision
deficiency", IEEE TVCG 15(6); their published 3x3 matrices on linear sRGB), then compared in CIELAB
(ΔE*76). Two colours drawn together must stay at least ΔE 15 apart (about five times a just
noticeable difference) under protanopia, deuteranopia and tritanopia as well as normal vision.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rankviz.charts._style import NEUTRAL_GREY, OKABE_ITO, SERIES_COLOURS, SERIES_DASHES, SERIES_SHAPES

MACHADO_2009 = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
    "normal vision": np.eye(3).tolist(),
}
MIN_DELTA_E = 15.0
# Colours the charts draw side by side: the series, the pair-matrix verdicts, the per-query outcomes.
GROUPS = {
    "series": SERIES_COLOURS,
    "pair verdict fills": [OKABE_ITO["sky blue"], OKABE_ITO["orange"], "#dddddd"],
    "per-query outcomes": [OKABE_ITO["blue"], NEUTRAL_GREY, OKABE_ITO["vermillion"]],
}


def _linear_rgb(hex_colour: str) -> np.ndarray:
    srgb = np.array([int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def _lab(linear_rgb: np.ndarray) -> np.ndarray:
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ np.clip(
        linear_rgb, 0, 1)
    t = xyz / np.array([0.95047, 1.0, 1.08883])  # D65 white
    f = np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _delta_e(a: str, b: str, vision: str) -> float:
    matrix = np.array(MACHADO_2009[vision])
    return float(np.linalg.norm(_lab(matrix @ _linear_rgb(a)) - _lab(matrix @ _linear_rgb(b))))


def test_the_simulation_keeps_white_and_tells_black_from_white():
    for vision in MACHADO_2009:
        assert _delta_e("#ffffff", "#ffffff", vision) == pytest.approx(0, abs=1e-9)
        assert _delta_e("#000000", "#ffffff", vision) > 95


@pytest.mark.parametrize("vision", list(MACHADO_2009))
@pytest.mark.parametrize("group", list(GROUPS))
def test_colours_drawn_together_stay_apart(group, vision):
    close = [(a, b, round(_delta_e(a, b, vision), 1)) for a, b in itertools.combinations(GROUPS[group], 2)
             if _delta_e(a, b, vision) < MIN_DELTA_E]
    assert not close, f"{group} under {vision}: {close}"


def test_every_series_has_a_second_cue_besides_colour():
    assert len(set(SERIES_SHAPES)) == len(SERIES_SHAPES) >= len(SERIES_COLOURS)
    assert len({tuple(dash) for dash in SERIES_DASHES}) == len(SERIES_DASHES)
