"""What the Output pane is handed of a run's output: its last lines, each of a size to lay out."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate

LONG_LINE = 10_000  # characters of one printed line the Output pane shows (then how many more)


def last_lines(text: str, blocks: int) -> str:
    """The end of ``text`` a pane keeping its last ``blocks`` lines shows (0: all of it).

    Handing the pane only those lines is what it would keep anyway: a million characters of
    output otherwise took it 1.2 s on the UI thread to lay out and then drop. A line longer
    than :data:`LONG_LINE` shows its start and how much more it has (see :func:`clipped`).
    """
    if blocks > 0:
        text = text[tail_start(text, blocks) :]
    return clipped(text)


def tail_start(text: str, blocks: int) -> int:
    """Where the last ``blocks`` lines of ``text`` start (0: it has no more than that)."""
    start = len(text)
    for _ in range(blocks):
        start = text.rfind("\n", 0, start)
        if start < 0:
            return 0
    return start + 1


def clipped(text: str) -> str:
    """``text`` as the pane shows it: a line per newline, none over :data:`LONG_LINE` characters.

    Qt lays a long line out again on every change: a line of 900,000 characters without a
    space (``print("ab" * 450000)``) kept the window frozen for 40 s, twice; a longer one shows
    its start and how much more it has. A carriage return starts a new line for Qt, where a
    terminal goes back over the line (a progress bar's): the line shows what a
    terminal would, so the pane's lines stay the output's lines (and their steps).
    """
    odd = "\r" in text or "\u2029" in text
    if not odd and len(text) <= LONG_LINE:
        return text
    lines = text.split("\n")
    if odd:
        lines = [_as_terminal(line) for line in lines]
    if max(map(len, lines)) <= LONG_LINE:
        return "\n".join(lines) if odd else text
    more = translate("RunController", " … ({count} more characters on this line)")
    return "\n".join(
        line if len(line) <= LONG_LINE else line[:LONG_LINE] + more.format(
            count=f"{len(line) - LONG_LINE:,}")
        for line in lines
    )  # fmt: skip


def _as_terminal(line: str) -> str:
    """A line as a terminal leaves it: what follows its last carriage return (not a final one)."""
    if "\r" in line:
        line = line.rstrip("\r")  # ("\r\n": a Windows end of line)
        line = line[line.rfind("\r") + 1 :]
    return line.replace("\u2029", " ")  # (Qt's paragraph break: a new line too)
