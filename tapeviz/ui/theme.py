"""Colours and fonts that survive a projector and colour-blind viewers (Okabe–Ito palette)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QFont

# Okabe & Ito (2008): distinguishable with every common colour-vision deficiency.
ORANGE, SKY, GREEN, YELLOW = "#E69F00", "#56B4E9", "#009E73", "#F0E442"
BLUE, VERMILLION, PURPLE, GREY = "#0072B2", "#D55E00", "#CC79A7", "#8C8C8C"


@dataclass(frozen=True)
class Theme:
    """Every colour the views use; ``dark`` and ``light`` below."""

    name: str
    background: str
    text: str
    muted: str
    edge: str
    highlight: str
    gradient: str
    warning: str
    fills: dict[str, str]  # node kind -> fill
    borders: dict[str, str]  # node kind -> border

    def color(self, value: str, alpha: int = 255) -> QColor:
        """A QColor from a hex string."""
        c = QColor(value)
        c.setAlpha(alpha)
        return c


LIGHT = Theme(
    name="light",
    background="#FFFFFF",
    text="#111111",
    muted="#5A5A5A",
    edge="#4D4D4D",
    highlight=ORANGE,
    gradient="#8E3B73",  # a darker reddish purple: 7:1 contrast on white
    warning=VERMILLION,
    fills={"variable": "#D6EAF8", "watched": "#FDEBD0", "constant": "#EEEEEE", "op": "#D5F5E3",
           "target": "#FADBD8", "folded": "#F2F2F2", "layer": "#EBDEF0"},
    borders={"variable": BLUE, "watched": ORANGE, "constant": GREY, "op": GREEN,
             "target": VERMILLION, "folded": GREY, "layer": PURPLE},
)  # fmt: skip
DARK = Theme(
    name="dark",
    background="#1E1E1E",
    text="#F2F2F2",
    muted="#B0B0B0",
    edge="#C8C8C8",
    highlight=YELLOW,
    gradient="#F5A3D3",
    warning="#FF7A45",
    fills={"variable": "#123B57", "watched": "#5A3E05", "constant": "#3A3A3A", "op": "#0B4633",
           "target": "#5C2108", "folded": "#333333", "layer": "#3D2352"},
    borders={"variable": SKY, "watched": ORANGE, "constant": GREY, "op": "#3FD1A3",
             "target": "#FF8A50", "folded": GREY, "layer": PURPLE},
)  # fmt: skip
THEMES = {"light": LIGHT, "dark": DARK}


def font(point_size: float, bold: bool = False, mono: bool = False) -> QFont:
    """The UI font at ``point_size`` (DejaVu ships with the app's CI image)."""
    f = QFont("DejaVu Sans Mono" if mono else "DejaVu Sans")
    f.setPointSizeF(point_size)
    f.setBold(bold)
    return f
