"""The selected node's value, and a summarised one's full value fetched from the worker.

A value above the wall's size reached the window as a summary (shape, dtype, min, max, mean, a
thumbnail; see :mod:`tapeviz.sandbox.process.summaries`). This tab shows it with *Show full
value*, which fetches the value in the thread pool (the UI thread never waits for the worker):
"Fetching…" meanwhile, the whole value once it arrived, the summary kept if it cannot come.
*Fetch this tape's values* does so for every summarised value of the shown tape, and rebuilds
the graph: its gradients and the stepper then compute with the real numbers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tapeviz.models.graph.model import GraphModel
from tapeviz.models.values import full, summarised, summary_text
from tapeviz.sandbox.process.summaries import SNAPSHOT, Summarised, ValueGone
from tapeviz.sandbox.process.summarised_table import fetch
from tapeviz.ui import workers
from tapeviz.ui.theme import font

SHOWN_ITEMS = 2000  # elements printed of a whole value (numpy summarises a longer one)
THUMB_PX = 128  # the thumbnail's largest side on screen


def _fetch(values: list[Summarised]) -> Exception | None:
    """In the thread pool: fetch each value (None when all came; else why one did not)."""
    try:
        for s in values:
            fetch(s)
    except ValueGone as exc:
        return exc
    except Exception as exc:  # a malformed answer, a worker failure: said, not raised
        return exc
    return None


def thumbnail(s: Summarised) -> QPixmap | None:
    """The summary's thumbnail in grey levels (min black, max white), or None if flat."""
    t = np.asarray(s.thumb, np.float64)
    finite = t[np.isfinite(t)]
    if t.ndim != 2 or not finite.size or t.size < 2:
        return None
    lo, hi = float(finite.min()), float(finite.max())
    grey = np.zeros(t.shape) if hi <= lo else (np.nan_to_num(t, nan=lo) - lo) / (hi - lo)
    pixels = np.ascontiguousarray(np.clip(grey * 255, 0, 255).astype(np.uint8))
    if pixels.shape[0] == 1:  # a vector: a strip
        pixels = np.ascontiguousarray(np.repeat(pixels, 8, axis=0))
    h, w = pixels.shape
    image = QImage(pixels.tobytes(), w, h, w, QImage.Format.Format_Grayscale8).copy()
    return QPixmap.fromImage(image).scaled(
        THUMB_PX, THUMB_PX, Qt.AspectRatioMode.KeepAspectRatio,
        Qt.TransformationMode.FastTransformation,
    )  # fmt: skip


class ValueView(QWidget):
    """The value of the node selected on the graph; a summarised one fetched on request."""

    def __init__(self, model: GraphModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("valueView")
        self.model = model
        self.nid = ""
        self.fetching: list[Summarised] = []  # what the running job fetches
        self.title = QLabel(self)
        self.title.setObjectName("valueTitle")
        self.title.setWordWrap(True)
        self.show_button = QPushButton(self.tr("Show full value"), self)
        self.show_button.setObjectName("showFullValueButton")
        self.tape_button = QPushButton(self.tr("Fetch this tape's values"), self)
        self.tape_button.setObjectName("fetchTapeValuesButton")
        self.tape_button.setToolTip(
            self.tr("Fetch every summarised value of the tape: gradients and stepping need them")
        )
        self.status = QLabel(self)
        self.status.setObjectName("valueStatus")
        self.status.setWordWrap(True)
        self.picture = QLabel(self)
        self.picture.setObjectName("valueThumbnail")
        self.text = QPlainTextEdit(self)
        self.text.setObjectName("valueText")
        self.text.setReadOnly(True)
        self.text.setFont(font(11, mono=True))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.show_button)
        top.addWidget(self.tape_button)
        row = QHBoxLayout()
        row.addWidget(self.picture, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.text, 1)
        box = QVBoxLayout(self)
        box.addLayout(top)
        box.addWidget(self.status)
        box.addLayout(row, 1)
        self.show_button.clicked.connect(self.show_full_value)
        self.tape_button.clicked.connect(self.fetch_tape_values)
        self.model.changed.connect(self._on_model_changed)
        self.show_node("")

    # -- what is shown ---------------------------------------------------------------------
    def value(self) -> Any:
        """The selected node's value (None: no node)."""
        node = self.model.nodes.get(self.nid)
        return None if node is None else node.value

    def tape_summaries(self) -> list[Summarised]:
        """The shown tape's values that are summaries not fetched yet (each once)."""
        entry = self.model.entry
        if entry is None or self.model.too_large:
            return []
        if not getattr(getattr(entry.tape, "table", None), "summaries", None):
            return []  # (the common case, at once: no value of the run was summarised)
        found: dict[int, Summarised] = {}
        for rec in entry.tape.records:
            for t in (*rec.inputs, *rec.outputs):
                s = summarised(t)
                if s is not None and s.fetchable:
                    found[id(s)] = s
        return list(found.values())

    def show_node(self, nid: str) -> None:
        """Show node ``nid``'s value ("": none selected)."""
        self.nid = nid
        node = self.model.nodes.get(nid)
        busy = bool(self.fetching)
        self.tape_button.setVisible(bool(self.tape_summaries()))
        self.tape_button.setEnabled(not busy)
        if node is None:
            self.title.setText(self.tr("Select a node on the graph to see its value."))
            self.show_button.hide()
            self.picture.clear()
            self.text.setPlainText("")
            self.status.setText("")
            return
        s = summarised(node.value)
        self.title.setText(f"{node.label}  ·  {node.dtype}  ·  {tuple(node.shape)}")
        self.show_button.setVisible(s is not None)
        if s is None:
            self.show_button.setEnabled(False)
            self.picture.clear()
            self.text.setPlainText(full(node.value, SHOWN_ITEMS))
            if not busy:
                self.status.setText("")
            return
        self.show_button.setEnabled(s.fetchable and not busy)
        picture = thumbnail(s)
        if picture is None:
            self.picture.clear()
        else:
            self.picture.setPixmap(picture)
        first = ", ".join(full(x) for x in s.head.reshape(-1).tolist())
        self.text.setPlainText(
            self.tr("Summarised: {summary}").format(summary=summary_text(s))
            + "\n"
            + self.tr("First elements: {values}, …").format(values=first)
        )
        if any(x is s for x in self.fetching):  # (identity: == would need the numbers)
            self.status.setText(self.tr("Fetching…"))
        elif s.vid == SNAPSHOT:
            self.status.setText(self.tr("The full value can be fetched once the run has ended."))
        elif not s.fetchable:
            self.status.setText(self.tr("This value was not kept: run again to see it."))

    def _on_model_changed(self) -> None:
        self.show_node(self.nid if self.nid in self.model.nodes else "")

    # -- fetching --------------------------------------------------------------------------
    def show_full_value(self) -> None:
        """Fetch the selected node's full value in the thread pool, then show it."""
        s = summarised(self.value())
        if s is not None and s.fetchable and not self.fetching:
            self._start([s], rebuild=False)

    def fetch_tape_values(self) -> None:
        """Fetch every summarised value of the shown tape, then rebuild its graph."""
        todo = self.tape_summaries()
        if todo and not self.fetching:
            self._start(todo, rebuild=True)

    def _start(self, values: list[Summarised], rebuild: bool) -> None:
        self.fetching = values
        self.show_node(self.nid)
        self.status.setText(self.tr("Fetching…"))
        workers.submit(
            _fetch, values,
            on_done=lambda why: self._on_fetched(why, rebuild),
            on_error=lambda text: self._on_fetched(RuntimeError(text.strip().splitlines()[-1]),
                                                   rebuild),
        )  # fmt: skip

    def _on_fetched(self, why: Exception | None, rebuild: bool) -> None:
        self.fetching = []
        if why is None and rebuild and self.model.entry is not None:
            self.model.select(self.model.current)  # gradients and steppers: the real numbers
        self.show_node(self.nid)
        if why is None:
            self.status.setText(self.tr("Full value."))
        elif isinstance(why, ValueGone):
            self.status.setText(self.tr("The full value is no longer available: run again."))
        else:
            self.status.setText(
                self.tr("Could not fetch the full value: {error}").format(error=str(why)[:300])
            )
