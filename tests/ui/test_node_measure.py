"""A node's box is measured from its text; each text's width is kept, and a number's is added up.

A 20,000-op graph's 40,000 node texts are mostly different numbers and ``v12 = ×`` titles:
their widths are their characters' advances added, with the font's kerning of each pair,
which must be exactly the width Qt shapes for the whole text.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from pytestqt.qtbot import QtBot

import tapeviz as tv
from tapeviz.models.graph.model import GraphModel
from tapeviz.models.minus import minus_signs
from tapeviz.models.values import short
from tapeviz.ui.graph import item_styles, items


def nodes(x: float) -> dict:
    v = tv.Variable(x, name="x")
    with tv.GradientTape() as tape:
        y = v * v + 1.0
    tape.gradient(y, v)
    return GraphModel([tape]).nodes


def test_a_box_follows_its_text_and_its_widths_are_kept(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(item_styles, "WIDTH_CACHE", 4)
    short_value, long_value = nodes(2.0), nodes(2.123456)
    for nid, node in short_value.items():
        size = items.measure(node)
        assert items.measure(node) == size == items._box_of(*box_args(node))
        assert items.measure(dataclasses.replace(node), 1.0) == size  # a re-run's equal node
        longer = items.measure(long_value[nid])
        assert longer[0] >= size[0]  # "= 4.508" needs at least the room of "= 4"
    assert len(item_styles.FONTS.widths) <= 5  # (emptied when full)
    first = next(iter(short_value.values()))
    assert items.measure(first, 2.0)[0] > items.measure(first, 1.0)[0]  # kept per scale too


def box_args(node: object) -> tuple:
    lines = items.node_lines(node)
    if items.can_have_gradient(node):
        lines.append((items.RESERVED_GRADIENT, "gradient"))
    return lines, 1.0, node.kind == "variable"


def texts() -> list[str]:
    rng = random.Random(7)
    numbers = [minus_signs(short(rng.uniform(-1e4, 1e4) * 10 ** rng.randint(-12, 12)))
               for _ in range(400)]  # fmt: skip
    out = [f"= {n}" for n in numbers] + [f"∂ = {n}" for n in numbers[:100]]
    out += [f"v{k} = {s}" for k, s in zip(range(300), "×+÷−" * 75, strict=True)]
    out += ["".join(rng.choice(item_styles.ADDITIVE) for _ in range(rng.randint(1, 12)))
            for _ in range(600)]  # fmt: skip
    return [*out, "v.v,v-", "-v.", "vv", "..", "−−−", "x = ×", "loss = +", "ffi"]


@pytest.mark.parametrize("role", ["title", "value"])
@pytest.mark.parametrize("scale", [1.0, 1.5, 2.25])
def test_a_width_added_up_is_the_width_shaped(qtbot: QtBot, role: str, scale: float) -> None:
    fonts = item_styles.Fonts()
    metrics = fonts.get(role, scale)[1]
    for text in texts():
        assert fonts.width(role, scale, text) == pytest.approx(
            metrics.horizontalAdvance(text), abs=1e-9
        ), text


def test_kerned_pairs_are_counted_each_time(qtbot: QtBot) -> None:
    fonts = item_styles.Fonts()
    for role in ("title", "value"):
        adv, kerns = item_styles._advances(fonts.get(role, 1.0)[1])
        for pair, kern in kerns:
            assert kern != 0 and len(pair) == 2 and pair[0] in adv and pair[1] in adv
    assert item_styles._pairs("v.v.v.", "v.") == 3 and item_styles._pairs("---", "--") == 2
    assert item_styles._pairs("1.5", "v.") == 0


class Shaping:
    """Metrics of a font that joins three hyphens into one glyph (shaping beyond pairs)."""

    def horizontalAdvance(self, text: str) -> float:  # (Qt's name)
        return 7.0 * len(text) - 9.0 * text.count("---")


def test_a_font_that_shapes_beyond_pairs_is_measured_whole() -> None:
    adv, kerns = item_styles._advances(Shaping())  # type: ignore[arg-type]
    assert adv == {} and kerns == []  # (every text then shaped by Qt, whole)
    plain = type("Plain", (), {"horizontalAdvance": lambda self, t: 7.0 * len(t)})()
    adv, kerns = item_styles._advances(plain)  # type: ignore[arg-type]
    assert len(adv) == len(item_styles.ADDITIVE) and kerns == []
