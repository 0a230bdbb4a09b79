"""The Network view's documents: its state for a session file, its Keras and PyTorch scripts.

A mixin of :class:`~tapeviz.ui.network.panel.NetworkPanel` (it reads the panel's settings,
the network built and the frame shown, and sets a restored state through ``set_config``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication

from tapeviz.models.network.state import from_doc, same_weights, shown_state, to_doc
from tapeviz.ui.network import text

translate = QCoreApplication.translate  # lupdate reads translate("NetworkPanel", "…")
DEFAULT_EPOCHS = 100  # what an exported script trains for when the view has not trained yet


class PanelDocuments:
    """``export_scripts``, ``state``, ``session_state`` and ``restore`` of the Network panel."""

    config: Any
    built: Any
    frame: Any
    note: str
    top: Any
    _pending: Any
    _started: bool
    show_message: Callable[[str], None]  # the panel's
    set_config: Callable[..., None]

    def export_scripts(self) -> dict[str, tuple[str, str | None, str]]:
        """Keras and PyTorch scripts training this network from its first weights to this epoch.

        Before any training they train for ``DEFAULT_EPOCHS``. A weight edited by hand is not in
        them (they start from the first weights).
        """
        from tapeviz.models.network.export import keras_script, torch_script

        built, frame = self.built, self.frame
        if built is None:
            reason = translate("NetworkPanel", "Nothing to export yet: the network is being built.")
            return {"keras": ("Keras", None, reason), "pytorch": ("PyTorch", None, reason)}
        epoch = frame.runs[0].epoch if frame is not None and frame.runs else 0
        d = built.data
        args = (built.config, built.initial, d.train_x, d.train_y, d.test_x, d.test_y)
        epochs = epoch or DEFAULT_EPOCHS
        return {
            "keras": ("Keras", keras_script(*args, epochs), ""),
            "pytorch": ("PyTorch", torch_script(*args, epochs), ""),
        }

    def state(self) -> dict[str, Any]:
        """The network as JSON-safe data: settings, first and current weights, the epoch."""
        return to_doc(shown_state(self.config, self._pending, self.built, self.frame))

    def session_state(self, saved: dict[str, Any] | None) -> dict[str, Any] | None:
        """What a session keeps: this view's state once it was used, else what it had."""
        return self.state() if self._started else saved

    def restore(self, doc: Any) -> None:
        """Take a state from :meth:`state` (a session file): checked, then trained from.

        A document that does not check raises ValueError; its message is shown in the panel
        and the last good state stays.
        """
        try:
            state = from_doc(doc)
        except (ValueError, KeyError, TypeError) as exc:
            message = text.refused(str(exc))
            self.show_message("⚠ " + message)
            raise ValueError(message) from None
        self.note = ""
        self.top.demo.setCurrentIndex(0)
        trained = not same_weights(state.initial, state.weights)
        self.set_config(state.config, state.initial, state.weights if trained else None,
                        state.epoch)  # fmt: skip
        self.show_message("")

    def export(self, kind: str, path: Any = None, **options: Any) -> Any:
        """Export ``kind`` ("gif", "mp4", "png", "csv"; see :mod:`~tapeviz.ui.network.film`).

        Without ``path`` a file dialog asks. An animation returns its running exporter
        (``finished``/``failed``); the others the path written. A failure is said here.
        """
        from tapeviz.ui.network import film

        return film.export(self, kind, path, **options)
