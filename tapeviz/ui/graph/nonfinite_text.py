"""A nan or ±inf on a node in words, in the interface language (the tooltip, the status bar)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from tapeviz.models.graph.nodes import Node
from tapeviz.models.graph.nonfinite import NonFinite

translate = QCoreApplication.translate  # lupdate reads translate("NonFinite", "…")


def _reason(note: NonFinite) -> str:
    texts = {
        "log_negative": translate(
            "NonFinite", "the logarithm of a negative number (%3) is not a real number"
        ),
        "log_zero": translate("NonFinite", "the logarithm of 0 is −∞"),
        "sqrt_negative": translate(
            "NonFinite", "the square root of a negative number (%3) is not a real number"
        ),
        "divide_zero": translate("NonFinite", "a division by zero"),
        "zero_divide_zero": translate("NonFinite", "0 divided by 0 has no value"),
        "pow_negative_base": translate(
            "NonFinite", "a negative number (%3) to a fractional power is not a real number"
        ),
        "overflow": translate("NonFinite", "the result is larger than %4, the largest %5 number"),
        "undefined": translate("NonFinite", "%6 has no value for these inputs"),
        "propagated": translate("NonFinite", "its input %3 already is"),
        "input": translate("NonFinite", "it is so before the tape records anything"),
    }
    text = texts.get(note.code, texts["undefined"])
    for key, value in (("%3", note.operand), ("%4", note.limit), ("%5", note.dtype),
                       ("%6", note.op)):  # fmt: skip
        text = text.replace(key, value)
    return text


def describe(node: Node) -> str:
    """``big is inf: the result is larger than 3.403e+38, the largest float32 number``."""
    note = node.note
    if note is None:
        return ""
    head = translate("NonFinite", "%1 is %2").replace("%1", node.label).replace("%2", note.result)
    joiner = translate("NonFinite", "%1 because %2") if note.code in ("propagated", "input") else (
        translate("NonFinite", "%1: %2")
    )  # fmt: skip
    return joiner.replace("%1", head).replace("%2", _reason(note))


def first_origin(nodes: dict[str, Node], noted: list[str] | None = None) -> Node | None:
    """The first node (in recording order) that made a nan or ±inf, else one that holds one.

    ``noted`` lists the ids of the nodes with a note, in order (the model's), if known.
    """
    ids = list(nodes) if noted is None else noted
    held = [node for i in ids if (node := nodes.get(i)) is not None and node.note is not None]
    made = [n for n in held if n.note is not None and n.note.origin]
    return (made or held or [None])[0]
