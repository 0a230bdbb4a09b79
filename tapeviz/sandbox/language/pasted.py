"""Code as people paste it: an interactive session's prompts, and characters that only look right.

Two kinds of pasted text fail to parse for reasons the user cannot see:

- a session copied from the API docs or a console, ``>>> x = ...`` / ``...   y = ...`` with the
  printed output between: the prompts are removed and the output lines blanked;
- characters that look like Python's but are not: full-width punctuation typed with a Chinese
  input method (``（``, ``）``, ``：``, ``，``), curly quotes from a blog or a word processor
  (``“hello”``), non-breaking and other wide spaces. Only those Python's tokenizer rejects are
  replaced (it names each one's place), so the same characters inside strings and comments
  stay as they are; each becomes one ASCII character, so every column is kept.

Nothing changes when the text parses as it is. Line numbers never change; a prompt's removal
moves its line's columns, and :func:`readable` says by how much, so errors point at the text
the user sees.
"""

from __future__ import annotations

import re
import warnings

from tapeviz.sandbox.language.parsing import parse_text

MAX_FIXES = 200  # characters replaced at most (each costs a parse)
_PROMPT = re.compile(r"^(>>>|\.\.\.)( |$)")
_INVALID = re.compile(r"invalid (?:non-printable )?character (?:'.' )?\(?U\+([0-9A-F]{4,6})\)?")
_QUOTES = {"\u201c": ('"', "\u201d"), "\u201d": ('"', "\u201d"),
           "\u2018": ("'", "\u2019"), "\u2019": ("'", "\u2019")}  # fmt: skip
_SPACES = "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
_SPACES += "\u202f\u205f\u3000"  # non-breaking, typographic and ideographic spaces
_OTHER = {"\u3001": ",", "\u3002": ".", "\u2013": "-", "\u2014": "-", "\u2212": "-"}


def ascii_for(char: str) -> str | None:
    """The ASCII character a look-alike stands for (None: not one tapeviz replaces)."""
    code = ord(char)
    if 0xFF01 <= code <= 0xFF5E:  # full-width forms of ! … ~
        return chr(code - 0xFEE0)
    if char in _SPACES:
        return " "
    if char in _QUOTES:
        return _QUOTES[char][0]
    return _OTHER.get(char)


def _parses(source: str) -> SyntaxError | None:
    try:
        with warnings.catch_warnings():  # the run's own parse says them once
            warnings.simplefilter("ignore", SyntaxWarning)
            parse_text(source)
    except SyntaxError as exc:
        return exc
    except (ValueError, RecursionError, MemoryError):
        return None
    return None


def without_prompts(source: str) -> tuple[str, dict[int, int], tuple[str, ...]]:
    """An interactive session's code without its prompts; its output lines blanked.

    Only when the first line of code starts with ``>>>``. Returns the text, how many columns
    each changed line (1-based) moved left, and a note.
    """
    lines = source.split("\n")
    first = next((s for s in lines if s.strip()), "")
    if not first.startswith(">>>"):
        return source, {}, ()
    shifts: dict[int, int] = {}
    output = 0
    for i, line in enumerate(lines):
        m = _PROMPT.match(line)
        if m:
            lines[i] = line[m.end() :]
            shifts[i + 1] = m.end()
        elif line.strip():
            lines[i] = ""  # what the session printed
            output += 1
    note = "an interactive session (>>> and ...): tapeviz ran its code"
    if output:
        note += f" and skipped {output} line{'s' * (output != 1)} of printed output"
    return "\n".join(lines), shifts, (note,)


def without_look_alikes(source: str) -> tuple[str, tuple[str, ...]]:
    """``source`` with the look-alike characters Python rejects made ASCII; a note per line."""
    fixed: dict[int, list[str]] = {}
    lines = source.split("\n")
    for _ in range(MAX_FIXES):
        exc = _parses("\n".join(lines))
        m = _INVALID.search(exc.msg) if exc is not None and exc.msg else None
        if m is None or not exc or not exc.lineno or not exc.offset:
            break
        row, col = exc.lineno - 1, exc.offset - 1
        if not 0 <= row < len(lines) or not 0 <= col < len(lines[row]):
            break
        line = lines[row]
        char = line[col]
        if ord(char) != int(m.group(1), 16) or (ascii_ := ascii_for(char)) is None:
            break
        line = line[:col] + ascii_ + line[col + 1 :]
        if char in _QUOTES:  # its closing quote, which the tokenizer would read as text
            close = _closing(line, col, _QUOTES[char][1])
            if close > col:
                line = line[:close] + ascii_ + line[close + 1 :]
        lines[row] = line
        seen = fixed.setdefault(row + 1, [])
        shown = f"'{char}' as '{ascii_}'"
        if char in _SPACES:
            shown = f"a wide space (U+{ord(char):04X}) as a space"
        if shown not in seen:
            seen.append(shown)
    notes = tuple(
        f"line {n}: pasted look-alike characters read as Python's: {', '.join(chars)}"
        for n, chars in fixed.items()
    )
    return "\n".join(lines), notes


def _closing(line: str, start: int, quote: str) -> int:
    """Where the curly quote opened at ``start`` closes (-1: nowhere on the line).

    The next ``quote`` not followed by a letter: ``‘it’s’`` closes at its last mark.
    """
    at = line.find(quote, start + 1)
    while at > start:
        after = line[at + 1 : at + 2]
        if not after.isalnum():
            return at
        at = line.find(quote, at + 1)
    return -1


def readable(source: str) -> tuple[str, dict[int, int], tuple[str, ...]]:
    """``source`` as Python can read it, if pasting is all that is wrong with it.

    Returns the text, the column shift per line (see :func:`without_prompts`) and notes.
    """
    if _parses(source) is None:
        return source, {}, ()
    source, shifts, notes = without_prompts(source)
    source, fixed = without_look_alikes(source)
    return source, shifts, notes + fixed
