"""The code editor: Pygments highlighting, line numbers, and the error line marked in place."""

from __future__ import annotations

import builtins
import keyword
import re

from pygments.lexers import PythonLexer
from pygments.token import Token, _TokenType
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget

from tapeviz.ui.theme import LIGHT, Theme, font

LONG_LINE = 300  # characters: a longer line is highlighted by a regex instead of Pygments
_WORD = r"(?<![\w.])(?:{})(?!\w)"
_LONG_TOKENS = re.compile(
    "|".join(
        (
            r"(?P<comment>#.*)",
            r"(?P<string>'[^'\\\n]*(?:\\.[^'\\\n]*)*'|\"[^\"\\\n]*(?:\\.[^\"\\\n]*)*\")",
            r"(?P<number>(?<![\w.])(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[jJ]?)",
            "(?P<kw>" + _WORD.format("|".join(keyword.kwlist)) + ")",
            "(?P<builtin>"
            + _WORD.format("|".join(n for n in dir(builtins) if n.islower() and n[0] != "_"))
            + ")",
            r"(?P<name>\w+)",
        )
    )
)
STYLES: tuple[tuple[_TokenType, str, bool], ...] = (  # token, colour role, bold
    (Token.Keyword, "keyword", True),
    (Token.Name.Builtin, "builtin", False),
    (Token.Name.Function, "function", True),
    (Token.Name.Class, "function", True),
    (Token.Literal.String, "string", False),
    (Token.Literal.Number, "number", False),
    (Token.Comment, "comment", False),
)
SYNTAX = {  # contrast >= 4.5:1 on the editor background of each theme
    "light": {"keyword": "#0B5394", "builtin": "#006B4F", "function": "#0B5394",
              "string": "#9A4A00", "number": "#8E3B73", "comment": "#646464", "gutter": "#F0F0F0"},
    "dark": {"keyword": "#7CC4FA", "builtin": "#3FD1A3", "function": "#7CC4FA",
             "string": "#F0B060", "number": "#F5A3D3", "comment": "#A0A0A0", "gutter": "#2A2A2A"},
}  # fmt: skip


class PythonHighlighter(QSyntaxHighlighter):
    """Colours Python/TensorFlow code with Pygments' lexer, one block (line) at a time."""

    def __init__(self, document: QTextDocument, theme: Theme = LIGHT) -> None:
        super().__init__(document)
        self._lexer: PythonLexer | None = None  # compiling its rules takes ~0.1 s: when used
        self.formats: list[tuple[_TokenType, QTextCharFormat]] = []
        self.set_theme(theme)

    @property
    def lexer(self) -> PythonLexer:
        """Pygments' Python lexer, made the first time a line is highlighted."""
        if self._lexer is None:
            self._lexer = PythonLexer(stripnl=False, ensurenl=False)
        return self._lexer

    def set_theme(self, theme: Theme) -> None:
        """Recolour for a theme."""
        self.formats = []
        for token, role, bold in STYLES:
            fmt = QTextCharFormat()
            fmt.setForeground(theme.color(SYNTAX.get(theme.name, SYNTAX["light"])[role]))
            if bold:
                fmt.setFontWeight(QFont.Weight.Bold)
            self.formats.append((token, fmt))
        self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        if len(text) > LONG_LINE:  # Pygments takes ~0.1 s per key on a 1,000-op expression
            self._highlight_long(text)
            return
        pos = 0
        for token, value in self.lexer.get_tokens(text):
            for kind, fmt in self.formats:
                if token in kind:
                    self.setFormat(pos, len(value), fmt)
                    break
            pos += len(value)

    def _highlight_long(self, text: str) -> None:
        """Keywords, builtins, numbers, strings and comments of a long line, by one regex."""
        formats = dict(self.formats)
        roles = {"kw": Token.Keyword, "builtin": Token.Name.Builtin,
                 "string": Token.Literal.String, "number": Token.Literal.Number,
                 "comment": Token.Comment}  # fmt: skip
        for m in _LONG_TOKENS.finditer(text):
            kind = m.lastgroup
            if kind in roles:
                self.setFormat(m.start(), m.end() - m.start(), formats[roles[kind]])


class _Gutter(QWidget):
    def __init__(self, editor: CodeEditor) -> None:
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self.editor.paint_gutter(event)


class CodeEditor(QPlainTextEdit):
    """Plain-text editor for expressions and scripts (objectName ``functionEditor``)."""

    def __init__(self, parent: QWidget | None = None, theme: Theme = LIGHT) -> None:
        super().__init__(parent)
        self.setObjectName("functionEditor")
        self.theme = theme
        self.error_line: int | None = None
        self.setFont(font(13, mono=True))
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabChangesFocus(False)
        self.highlighter = PythonHighlighter(self.document(), theme)
        self.gutter = _Gutter(self)
        self.blockCountChanged.connect(lambda _: self._update_margins())
        self.updateRequest.connect(self._on_update_request)
        self._update_margins()

    # -- line numbers ----------------------------------------------------------------------
    def gutter_width(self) -> int:
        """Pixels for the line numbers."""
        digits = len(str(max(1, self.blockCount())))
        return 12 + self.fontMetrics().horizontalAdvance("9") * max(2, digits)

    def _update_margins(self) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _on_update_request(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        r = self.contentsRect()
        self.gutter.setGeometry(QRect(r.left(), r.top(), self.gutter_width(), r.height()))

    def paint_gutter(self, event: QPaintEvent) -> None:
        """Draw the visible line numbers; the error line's number in the warning colour."""
        t = self.theme
        painter = QPainter(self.gutter)
        painter.fillRect(event.rect(), t.color(SYNTAX.get(t.name, SYNTAX["light"])["gutter"]))
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        height = self.fontMetrics().height()
        while block.isValid() and top <= event.rect().bottom():
            line = block.blockNumber() + 1
            if block.isVisible():
                bad = line == self.error_line
                painter.setPen(t.color(t.warning if bad else t.muted))
                label = ("▶" if bad else "") + str(line)
                right = Qt.AlignmentFlag.AlignRight
                painter.drawText(0, top, self.gutter.width() - 6, height, right, label)
            top += round(self.blockBoundingRect(block).height())
            block = block.next()
        painter.end()

    # -- errors ----------------------------------------------------------------------------
    def mark_error(self, line: int | None, col: int | None, message: str) -> None:
        """Underline the error's line (and put the cursor at it); the text is never changed."""
        self.error_line = line
        selections = []
        if line is not None and 1 <= line <= self.blockCount():
            block = self.document().findBlockByNumber(line - 1)
            whole = QTextEdit.ExtraSelection()
            whole.format.setBackground(QColor(self.theme.warning).lighter(185))
            whole.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            whole.cursor = QTextCursor(block)
            selections.append(whole)
            cursor = QTextCursor(block)
            if col:
                cursor.movePosition(
                    QTextCursor.MoveOperation.Right,
                    n=min(max(col - 1, 0), max(block.length() - 1, 0)),
                )
            self.setTextCursor(cursor)
            self.ensureCursorVisible()
        self.setExtraSelections(selections)
        self.setToolTip(message)
        self.gutter.update()

    def clear_error(self) -> None:
        """Remove the error mark."""
        self.error_line = None
        self.setExtraSelections([])
        self.setToolTip("")
        self.gutter.update()

    def refresh_metrics(self) -> None:
        """Re-measure the gutter after the font changed (presenter scaling)."""
        self._update_margins()
        r = self.contentsRect()
        self.gutter.setGeometry(QRect(r.left(), r.top(), self.gutter_width(), r.height()))
        self.gutter.update()

    def set_theme(self, theme: Theme) -> None:
        """Recolour the highlighting and the gutter."""
        self.theme = theme
        self.highlighter.set_theme(theme)
        self.gutter.update()
