"""``keras.callbacks``: History, the progress logger, EarlyStopping, schedulers, lambdas."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.tf.keras_src.progbar import Progbar, print_line
from tapeviz.tf.unavailable import unavailable

__all__ = [
    "Callback",
    "CallbackList",
    "EarlyStopping",
    "History",
    "LambdaCallback",
    "LearningRateScheduler",
    "ProgbarLogger",
    "ReduceLROnPlateau",
    "TerminateOnNaN",
]


class Callback:
    """Base class of the hooks ``fit``, ``evaluate`` and ``predict`` call."""

    def __init__(self) -> None:
        self.model: Any = None
        self.params: dict[str, Any] = {}

    def set_model(self, model: Any) -> None:
        """The model being trained."""
        self.model = model

    def set_params(self, params: dict[str, Any]) -> None:
        """``verbose``, ``epochs`` and ``steps`` of the run."""
        self.params = params

    def on_train_begin(self, logs: Any = None) -> None:
        """Training starts."""

    def on_train_end(self, logs: Any = None) -> None:
        """Training ended."""

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        """An epoch starts."""

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        """An epoch ended; ``logs`` holds its metrics."""

    def on_train_batch_begin(self, batch: int, logs: Any = None) -> None:
        """A training batch starts."""

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        """A training batch ended."""

    def on_test_begin(self, logs: Any = None) -> None:
        """Evaluation starts."""

    def on_test_end(self, logs: Any = None) -> None:
        """Evaluation ended."""

    def on_test_batch_begin(self, batch: int, logs: Any = None) -> None:
        """An evaluation batch starts."""

    def on_test_batch_end(self, batch: int, logs: Any = None) -> None:
        """An evaluation batch ended."""

    def on_predict_begin(self, logs: Any = None) -> None:
        """Prediction starts."""

    def on_predict_end(self, logs: Any = None) -> None:
        """Prediction ended."""

    def on_predict_batch_begin(self, batch: int, logs: Any = None) -> None:
        """A prediction batch starts."""

    def on_predict_batch_end(self, batch: int, logs: Any = None) -> None:
        """A prediction batch ended."""


class CallbackList(Callback):
    """Several callbacks called in order."""

    def __init__(self, callbacks: list[Callback], model: Any, params: dict[str, Any]) -> None:
        super().__init__()
        self.callbacks = list(callbacks)
        for cb in self.callbacks:
            cb.set_model(model)
            cb.set_params(params)

    def __getattribute__(self, name: str) -> Any:
        if name.startswith("on_"):
            callbacks = object.__getattribute__(self, "callbacks")

            def dispatch(*args: Any, **kwargs: Any) -> None:
                for cb in callbacks:
                    getattr(cb, name)(*args, **kwargs)

            return dispatch
        return object.__getattribute__(self, name)


class History(Callback):
    """Keeps every epoch's logs: ``history.history["loss"]`` is the loss per epoch."""

    def __init__(self) -> None:
        super().__init__()
        self.history: dict[str, list[float]] = {}
        self.epoch: list[int] = []

    def on_train_begin(self, logs: Any = None) -> None:
        """Start a new record."""
        self.epoch = []

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        """Append the epoch's values."""
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)
        if self.model is not None:
            self.model.history = self


class ProgbarLogger(Callback):
    """Prints ``Epoch i/n`` and the progress line of each epoch (what ``verbose`` controls)."""

    def __init__(self) -> None:
        super().__init__()
        self.progbar: Progbar | None = None
        self.verbose, self.epochs, self.target = 1, 1, None
        self._in_fit = False

    def set_params(self, params: dict[str, Any]) -> None:
        """Take verbose, epochs and steps from the run."""
        v = params.get("verbose", 1)
        self.verbose = 1 if v == "auto" else int(v)
        self.epochs = params.get("epochs", 1)
        self.target = params.get("steps")

    def on_train_begin(self, logs: Any = None) -> None:
        """In fit, evaluation of the validation data is silent."""
        self._in_fit = True

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        """Print the epoch header (for more than one epoch)."""
        self.progbar = Progbar(self.target, verbose=self.verbose)
        if self.verbose and self.epochs > 1:
            print_line(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        """Advance the bar."""
        if self.progbar is not None:
            self.progbar.update(batch + 1, list((logs or {}).items()), finalize=False)

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        """Print the epoch's line."""
        self._finish(logs)

    def on_test_begin(self, logs: Any = None) -> None:
        """A bar for evaluate()."""
        if not self._in_fit:
            self.progbar = Progbar(self.target, verbose=self.verbose)

    def on_test_batch_end(self, batch: int, logs: Any = None) -> None:
        """Advance evaluate()'s bar."""
        if not self._in_fit and self.progbar is not None:
            self.progbar.update(batch + 1, list((logs or {}).items()), finalize=False)

    def on_test_end(self, logs: Any = None) -> None:
        """Print evaluate()'s line."""
        if not self._in_fit:
            self._finish(logs)

    def on_predict_begin(self, logs: Any = None) -> None:
        """A bar for predict()."""
        self.progbar = Progbar(self.target, verbose=self.verbose)

    def on_predict_batch_end(self, batch: int, logs: Any = None) -> None:
        """Advance predict()'s bar."""
        if self.progbar is not None:
            self.progbar.update(batch + 1, finalize=False)

    def on_predict_end(self, logs: Any = None) -> None:
        """Print predict()'s line."""
        self._finish(logs)

    def _finish(self, logs: Any) -> None:
        bar = self.progbar
        if bar is None:
            return
        if bar.target is None:
            bar.target = bar._seen
        bar.update(bar.target, list((logs or {}).items()), finalize=True)


class LambdaCallback(Callback):
    """A callback made of functions: ``LambdaCallback(on_epoch_end=lambda epoch, logs: ...)``."""

    def __init__(self, **hooks: Callable[..., Any]) -> None:
        super().__init__()
        for name, fn in hooks.items():
            if not name.startswith("on_"):
                raise ValueError(f"Unrecognized callback hook: {name}")
            setattr(self, name, fn)


class EarlyStopping(Callback):
    """Stop training when ``monitor`` has stopped improving for ``patience`` epochs."""

    def __init__(
        self,
        monitor: str = "val_loss",
        min_delta: float = 0.0,
        patience: int = 0,
        verbose: int = 0,
        mode: str = "auto",
        baseline: float | None = None,
        restore_best_weights: bool = False,
        start_from_epoch: int = 0,
    ) -> None:
        super().__init__()
        self.monitor, self.patience, self.verbose = monitor, int(patience), verbose
        self.baseline, self.restore_best_weights = baseline, restore_best_weights
        self.start_from_epoch = start_from_epoch
        if mode == "auto":
            mode = "max" if "acc" in monitor or monitor.endswith("auc") else "min"
        self.mode = mode
        self.min_delta = abs(min_delta) if mode == "max" else -abs(min_delta)
        self.wait, self.stopped_epoch, self.best_epoch = 0, 0, 0
        self.best: float = -np.inf if mode == "max" else np.inf
        self.best_weights: Any = None

    def _better(self, value: float, ref: float) -> bool:
        if self.mode == "max":
            return value - self.min_delta > ref
        return value - self.min_delta < ref

    def on_train_begin(self, logs: Any = None) -> None:
        """Reset the wait."""
        self.wait, self.stopped_epoch, self.best_epoch = 0, 0, 0
        self.best = -np.inf if self.mode == "max" else np.inf
        self.best_weights = None

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        """Stop the model once the monitored value has not improved for ``patience`` epochs."""
        value = (logs or {}).get(self.monitor)
        if value is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if self._better(value, self.best):
            self.best, self.best_epoch = value, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._better(value, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs: Any = None) -> None:
        """Report the stop and restore the best weights if asked."""
        if self.stopped_epoch > 0 and self.verbose > 0:
            print_line(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print_line(
                    "Restoring model weights from the end of the best epoch: "
                    f"{self.best_epoch + 1}."
                )
            self.model.set_weights(self.best_weights)


def _log_rate(model: Any, logs: Any) -> None:
    """Put the optimizer's learning rate in an epoch's logs (``history["learning_rate"]``)."""
    if logs is not None:
        logs["learning_rate"] = float(model.optimizer.learning_rate.numpy())


class LearningRateScheduler(Callback):
    """Set the learning rate at each epoch start: ``schedule(epoch, lr) -> new lr``."""

    def __init__(self, schedule: Callable[..., float], verbose: int = 0) -> None:
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        """Apply the schedule."""
        opt = self.model.optimizer
        lr = float(opt.learning_rate.numpy())
        new = float(self.schedule(epoch, lr))
        opt.learning_rate = new
        if self.verbose > 0:
            print_line(
                f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {new}."
            )

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        """Log the epoch's learning rate (``history["learning_rate"]``, as Keras 3)."""
        _log_rate(self.model, logs)


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by ``factor`` when ``monitor`` stops improving."""

    def __init__(
        self,
        monitor: str = "val_loss",
        factor: float = 0.1,
        patience: int = 10,
        verbose: int = 0,
        mode: str = "auto",
        min_delta: float = 1e-4,
        cooldown: int = 0,
        min_lr: float = 0.0,
        **kwargs: Any,
    ) -> None:
        super().__init__()
        self.monitor, self.factor, self.patience, self.verbose = monitor, factor, patience, verbose
        self.mode = ("max" if "acc" in monitor else "min") if mode == "auto" else mode
        self.min_delta, self.cooldown, self.min_lr = min_delta, cooldown, min_lr
        self.wait, self.cooldown_counter = 0, 0
        self.best = -np.inf if self.mode == "max" else np.inf

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        """Count epochs without improvement; reduce the rate after ``patience`` of them."""
        _log_rate(self.model, logs)  # the rate this epoch ran at, before any reduction
        value = (logs or {}).get(self.monitor)
        if value is None:
            return
        better = (
            value > self.best + self.min_delta
            if self.mode == "max"
            else (value < self.best - self.min_delta)
        )
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if better:
            self.best, self.wait = value, 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                opt = self.model.optimizer
                old = float(opt.learning_rate.numpy())
                if old > self.min_lr:
                    new = max(old * self.factor, self.min_lr)
                    opt.learning_rate = new
                    if self.verbose > 0:
                        print_line(
                            f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning "
                            f"rate to {new}."
                        )
                    self.cooldown_counter, self.wait = self.cooldown, 0


class TerminateOnNaN(Callback):
    """Stop training as soon as the loss is nan or inf."""

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        """Check the batch's loss."""
        loss = (logs or {}).get("loss")
        if loss is not None and not np.isfinite(loss):
            print_line(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


FILE_CALLBACKS = {
    n: unavailable(f"tf.keras.callbacks.{n}", "file")
    for n in ("TensorBoard", "CSVLogger", "BackupAndRestore")
}
