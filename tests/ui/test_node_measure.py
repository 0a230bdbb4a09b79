"""A node's box is measured from its text; re-runs while typing find most boxes kept."""

from __future__ import annotations

import dataclasses

import pytest
from pytestqt.qtbot import QtBot

import tapeviz as tv
from tapeviz.models.graph.model import GraphModel
from tapeviz.ui.graph import items


def nodes(x: float) -> dict:
    v = tv.Variable(x, name="x")
    with tv.GradientTape() as tape:
        y = v * v + 1.0
    tape.gradient(y, v)
    return GraphModel([tape]).nodes


def test_a_box_follows_its_text_and_is_kept_by_it(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(items, "SIZES_KEPT", 4)
    items._SIZES.clear()
    short_value, long_value = nodes(2.0), nodes(2.123456)
    for nid, node in short_value.items():
        size = items.measure(node)
        assert items.measure(node) == size == items._box_of(*box_args(node))
        assert items.measure(dataclasses.replace(node), 1.0) == size  # a re-run's equal node
        longer = items.measure(long_value[nid])
        assert longer[0] >= size[0]  # "= 4.508" needs at least the room of "= 4"
    assert len(items._SIZES) <= 4  # (emptied when full)
    first = next(iter(short_value.values()))
    assert items.measure(first, 2.0)[0] > items.measure(first, 1.0)[0]  # kept per scale too


def box_args(node: object) -> tuple:
    lines = items.node_lines(node)
    if items.can_have_gradient(node):
        lines.append((items.RESERVED_GRADIENT, "gradient"))
    return lines, 1.0, node.kind == "variable"
