"""The colours of a long line (a 1,000-op expression), rescanned only around an edit.

The editor colours a line longer than ``LONG_LINE`` characters by one regex instead of
Pygments; a keystroke changes a few characters, so :class:`LongLineTokens` keeps the previous
line's matches before and after the edit and runs the regex only between them. The matches are
the whole scan's, whatever the edit: the head kept is the matches that ended ``REACH``
characters before the first changed one (no attempt there looked at the edit), the scan starts
where the full scan would, and it stops where it resumes at the same place as the previous
scan did, in the unchanged tail. A line with a quote scans in full (a string attempt looks to
the end of the line).
"""

from __future__ import annotations

import builtins
import keyword
import re
from bisect import bisect_left

KEYWORDS = tuple(keyword.kwlist)
BUILTINS = tuple(n for n in dir(builtins) if n.islower() and n[0] != "_")
_WORD = r"(?<![\w.])(?:{})(?!\w)"
TOKENS = re.compile(
    "|".join(
        (
            r"(?P<comment>#.*)",
            r"(?P<string>'[^'\\\n]*(?:\\.[^'\\\n]*)*'|\"[^\"\\\n]*(?:\\.[^\"\\\n]*)*\")",
            r"(?P<number>(?<![\w.])(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[jJ]?)",
            "(?P<kw>" + _WORD.format("|".join(KEYWORDS)) + ")",
            "(?P<builtin>" + _WORD.format("|".join(BUILTINS)) + ")",
        )  # (whole words only, by the look-arounds: no need to match every other name)
    )
)
# How far past its start an attempt that fails may look (the longest word and its look-ahead,
# a number's exponent), quotes excepted; generous.
REACH = max(map(len, KEYWORDS + BUILTINS)) + 8

Match = tuple[int, int, str]  # start, end, group


def scan(text: str, pos: int = 0) -> list[Match]:
    """Every match of :data:`TOKENS` in ``text`` from ``pos`` (the whole scan)."""
    return [(m.start(), m.end(), m.lastgroup or "") for m in TOKENS.finditer(text, pos)]


class LongLineTokens:
    """The last line scanned and its matches; :meth:`tokens` rescans only what an edit touched."""

    def __init__(self) -> None:
        self.text = ""
        self.matches: list[Match] = []
        self.scanned = 0  # characters the last call ran the regex over (for the tests)

    def tokens(self, text: str) -> list[Match]:
        """The matches of ``text``, the same as :func:`scan` gives."""
        old, matches = self.text, self.matches
        if not old or "'" in text or '"' in text or "'" in old or '"' in old:
            out = scan(text)
            self.scanned = len(text)
        else:
            out = self._rescan(old, matches, text)
        self.text, self.matches = text, out
        return out

    def _rescan(self, old: str, matches: list[Match], text: str) -> list[Match]:
        p = common_prefix(old, text)
        s = common_suffix(old, text, min(len(old), len(text)) - p)
        delta, boundary = len(text) - len(old), len(text) - s  # the tail: text[boundary:]
        ends = [end for _, end, _ in matches]
        head = matches[: bisect_left(ends, p - REACH)]  # ended REACH before the edit
        pos = head[-1][1] if head else 0
        out = list(head)
        for m in TOKENS.finditer(text, pos):
            start, end = m.start(), m.end()
            out.append((start, end, m.lastgroup or ""))
            if end > boundary:  # resumes in the tail: where the old scan did too?
                i = bisect_left(ends, end - delta)
                if i < len(ends) and ends[i] == end - delta:
                    self.scanned = end - pos
                    out.extend((a + delta, b + delta, g) for a, b, g in matches[i + 1 :])
                    return out
        self.scanned = len(text) - pos
        return out


def common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix of ``a`` and ``b``."""
    n = min(len(a), len(b))
    lo, hi = 0, n  # by halving: string comparisons run in C
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def common_suffix(a: str, b: str, most: int) -> int:
    """The length of the longest common suffix of ``a`` and ``b``, at most ``most``."""
    lo, hi = 0, max(0, most)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return lo
