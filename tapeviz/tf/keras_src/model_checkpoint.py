"""``keras.callbacks.ModelCheckpoint``: save the model (or its weights) while it trains.

Keras 3's callback: the path must end in ``.weights.h5`` with ``save_weights_only=True``, else
in ``.keras`` or ``.h5``; it may hold ``{epoch:02d}`` and the logs' values
(``{val_loss:.2f}``); ``save_best_only`` saves only when ``monitor`` improved (``mode`` "auto"
decides from the name: a loss or an error goes down, an accuracy up); ``save_freq`` is
``"epoch"`` or a number of batches. The files go to the run's own folder.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import diagnostics
from tapeviz.tf import run_files
from tapeviz.tf.keras_src.callbacks import Callback
from tapeviz.tf.keras_src.progbar import print_line

__all__ = ["ModelCheckpoint"]

_UP = ("acc", "auc", "precision", "recall", "f1", "iou")
_DOWN = ("loss", "error", "mse", "mae", "mape", "msle", "crossentropy", "hinge", "divergence")


class ModelCheckpoint(Callback):
    """Save the model or its weights after each epoch (or every ``save_freq`` batches)."""

    def __init__(
        self,
        filepath: Any,
        monitor: str = "val_loss",
        verbose: int = 0,
        save_best_only: bool = False,
        save_weights_only: bool = False,
        mode: str = "auto",
        save_freq: Any = "epoch",
        initial_value_threshold: float | None = None,
    ) -> None:
        super().__init__()
        if mode not in ("auto", "min", "max"):
            diagnostics.warn(f"ModelCheckpoint mode '{mode}' is unknown, fallback to auto mode.")
            mode = "auto"
        self.monitor, self.mode, self.verbose = monitor, mode, verbose
        self.best: float | None = initial_value_threshold
        self.filepath = run_files.fspath(filepath)
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        self.save_freq = save_freq
        self._direction: str | None = None
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = 0
        self._current_epoch = 0
        if save_freq != "epoch" and (not isinstance(save_freq, int) or isinstance(save_freq, bool)):
            raise ValueError(
                f"Unrecognized save_freq: {save_freq}. Expected save_freq are 'epoch' or "
                "integer values"
            )
        if save_weights_only and not self.filepath.endswith(".weights.h5"):
            raise ValueError(
                "When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided "
                "must end in `.weights.h5` (Keras weights format). Received: "
                f"filepath={self.filepath}"
            )
        if not save_weights_only and not self.filepath.endswith((".keras", ".h5")):
            raise ValueError(
                "The filepath provided must end in `.keras` (Keras model format). Received: "
                f"filepath={self.filepath}"
            )

    def _set_direction(self) -> None:
        if self.mode != "auto":
            self._direction = self.mode
        else:
            name = self.monitor.removeprefix("val_").lower()
            if any(k in name for k in _DOWN):
                self._direction = "min"
            elif any(k in name for k in _UP):
                self._direction = "max"
            else:
                raise ValueError(
                    f"ModelCheckpoint callback received monitor={self.monitor}, but Keras isn't "
                    "able to automatically determine whether that metric should be maximized "
                    "or minimized. Pass `mode='max'` in order to monitor based on the highest "
                    "metric value, or pass `mode='min'` in order to use the lowest value."
                )
        if self.best is None:
            self.best = np.inf if self._direction == "min" else -np.inf

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        """Remember the epoch (a path may name it)."""
        self._current_epoch = epoch

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        """Save every ``save_freq`` batches, when it is a number."""
        if self.save_freq == "epoch":
            return
        if batch <= self._last_batch_seen:  # a new epoch
            self._batches_seen_since_last_saving += batch + 1
        else:
            self._batches_seen_since_last_saving += batch - self._last_batch_seen
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            self._save(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        """Save after the epoch (``save_freq="epoch"``)."""
        if self._direction is None and self.save_best_only:
            self._set_direction()
        if self.save_freq == "epoch":
            self._save(epoch, None, logs)

    def _path(self, epoch: int, batch: int | None, logs: dict[str, Any]) -> str:
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(
                f'Failed to format this callback filepath: "{self.filepath}". Reason: {e}'
            ) from None

    def _should_save(self, epoch: int, logs: dict[str, Any], path: str) -> bool:
        if not self.save_best_only:
            if self.verbose > 0:
                print_line(f"\nEpoch {epoch + 1}: saving model to {path}")
            return True
        current = logs.get(self.monitor)
        if current is None:
            diagnostics.warn(f"Can save best model only with {self.monitor} available.")
            return True
        if self._direction is None:
            self._set_direction()
        best = self.best
        better = best is None or (current < best if self._direction == "min" else current > best)
        shown = "None" if best is None else f"{best:.5f}"
        if better:
            if self.verbose > 0:
                print_line(
                    f"\nEpoch {epoch + 1}: {self.monitor} improved from {shown} to "
                    f"{current:.5f}, saving model to {path}"
                )
            self.best = current
            return True
        if self.verbose > 0:
            print_line(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {shown}")
        return False

    def _save(self, epoch: int, batch: int | None, logs: Any) -> None:
        logs = dict(logs or {})
        path = self._path(epoch, batch, logs)
        if run_files.isdir(path):
            raise OSError(
                "Please specify a non-directory filepath for ModelCheckpoint. Filepath used is "
                f"an existing directory: {path}"
            )
        if not self._should_save(epoch, logs, path):
            return
        if self.save_weights_only:
            self.model.save_weights(path, overwrite=True)
        else:
            self.model.save(path, overwrite=True)
        if self.verbose > 0:
            print_line(f"\nEpoch {epoch + 1}: finished saving model to {path}")
