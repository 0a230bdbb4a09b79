"""``Model.compile``, ``fit``, ``evaluate`` and ``predict`` (Keras 3's training loop, eagerly).

Each step is a plain GradientTape step (``train_step``, overridable as in Keras), so every
batch of ``fit`` is recorded and differentiable like hand-written code. Logs follow Keras 3:
metric values are Python floats, keys sorted (``accuracy`` before ``loss``), validation ones
prefixed ``val_``; ``fit`` returns a ``History``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import diagnostics, nest
from tapeviz.engine import optimizers as opt_mod
from tapeviz.engine.tape import GradientTape
from tapeviz.engine.tensor import Tensor, constant
from tapeviz.tf import random_ops
from tapeviz.tf.dataset import Dataset
from tapeviz.tf.keras_src import callbacks as cbs
from tapeviz.tf.keras_src import compile_outputs as outputs
from tapeviz.tf.keras_src import losses as loss_mod
from tapeviz.tf.keras_src import metrics as metric_mod
from tapeviz.tf.keras_src.data_adapter import (
    Batches,
    as_numpy,
    length,
    pythonify,
    take,
    to_tensors,
    unpack,
)
from tapeviz.tf.keras_src.fit_marks import FitTagger
from tapeviz.tf.keras_src.fit_net import describe as describe_fit

__all__ = ["CompileMetrics", "Trainer"]


def _as_array(value: Any) -> Any:
    """A tensor a custom ``train_step`` returned, as numpy (Keras' ``np.array`` of it)."""
    return np.asarray(value._value) if hasattr(value, "_value") else value


class CompileMetrics(metric_mod.Metric):
    """The metrics given to ``compile``, updated together (``model.metrics`` shows this one)."""

    default_name = "compile_metrics"

    def __init__(self, identifiers: list[Any], loss_name: str) -> None:
        super().__init__("compile_metrics")
        self._ids, self._loss_name = list(identifiers), loss_name
        self.metrics: list[metric_mod.Metric] = []

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Update every compiled metric (made on the first batch, from its data)."""
        if not self.metrics and self._ids:
            self.metrics = [metric_mod.for_compile(i, self._loss_name, y_true, y_pred)
                            for i in self._ids]  # fmt: skip
        for m in self.metrics:
            m.update_state(y_true, y_pred, sample_weight)

    def result(self) -> dict[str, Any]:  # type: ignore[override]
        """Each metric's value by name."""
        return {m.name: m.result() for m in self.metrics}

    def reset_state(self) -> None:
        """Reset every compiled metric."""
        for m in self.metrics:
            m.reset_state()


def _one_batch(x: Any, y: Any, sample_weight: Any) -> tuple[Any, Any, Any]:
    """``train_on_batch``'s data: Keras 3's TensorFlow trainer gives ``(x, y, sample_weight)``.

    Always three items (``None`` where not given), unlike ``fit``'s batches: an overridden
    ``train_step`` that writes ``x, y = data`` fails in ``train_on_batch`` as in Keras 3.
    """
    sw = None if sample_weight is None else constant(np.asarray(as_numpy(sample_weight)))
    return to_tensors(as_numpy(x)), to_tensors(None if y is None else as_numpy(y)), sw


class Trainer:
    """compile / fit / evaluate / predict for ``keras.Model``."""

    def _init_trainer(self) -> None:
        self.optimizer: Any = None
        self.loss: Any = None
        self.compiled = False
        self.stop_training = False
        self.history: Any = None
        self._compile_loss: Any = None
        self._compile_metrics: CompileMetrics | None = None
        self._loss_tracker: metric_mod.Mean | None = None

    def compile(
        self,
        optimizer: Any = "rmsprop",
        loss: Any = None,
        loss_weights: Any = None,
        metrics: Any = None,
        weighted_metrics: Any = None,
        run_eagerly: bool = False,
        steps_per_execution: int = 1,
        jit_compile: Any = "auto",
        auto_scale_loss: bool = True,
    ) -> None:
        """Choose the optimizer, the loss and the metrics ``fit`` reports."""
        self.optimizer = opt_mod.get(optimizer)
        # Keras 3 replaces the loss and the metrics only when given: compile(optimizer=...)
        # after compile(loss="mse", metrics=[...]) keeps the old loss and metrics.
        names = outputs.output_names(self)
        if loss is not None:
            if outputs.is_per_output(self, loss, metrics):  # a loss per output
                self._compile_loss = outputs.OutputLosses(loss, loss_weights, names)
            else:
                self._compile_loss = loss_mod.as_loss_object(loss)
            self.loss = loss
        if metrics is not None or weighted_metrics is not None:
            if isinstance(self._compile_loss, outputs.OutputLosses) and (
                len(names) > 1 or isinstance(metrics, dict)
            ):
                self._compile_metrics = outputs.OutputMetrics(  # type: ignore[assignment]
                    metrics, names, self._compile_loss
                )
            else:
                if isinstance(metrics, dict):
                    raise ValueError(
                        "Argument `metrics` can only be provided as a dict when the model "
                        f"also returns a dict of outputs. Received metrics={metrics}"
                    )
                name = getattr(self._compile_loss, "name",
                               getattr(self.loss, "__name__", str(self.loss)))  # fmt: skip
                ids = list(metrics or []) + list(weighted_metrics or [])
                self._compile_metrics = CompileMetrics(ids, str(name)) if ids else None
        self._loss_tracker = metric_mod.Mean(name="loss")
        self.__dict__["_warned_untrainable"] = False
        self.compiled = True

    def _assert_compiled(self, what: str) -> None:
        if not self.compiled:
            raise ValueError(f"You must call `compile()` before calling `{what}()`.")

    @property
    def metrics(self) -> list[Any]:
        """The loss tracker, the compiled metrics and any metric attribute of the model."""
        out: list[Any] = []
        if self.compiled:
            out.append(self._loss_tracker)
            if self._compile_metrics is not None:
                out.append(self._compile_metrics)
            out += getattr(self._compile_loss, "trackers", [])  # each output's own loss
        out += [m for m in self.__dict__.get("_metrics", []) if not any(m is o for o in out)]
        return out

    @property
    def metrics_names(self) -> list[str]:
        """The names of ``metrics``."""
        return [m.name for m in self.metrics]

    def reset_metrics(self) -> None:
        """Reset every metric's state."""
        for m in self.metrics:
            m.reset_state()

    # -- one step ------------------------------------------------------------------------------
    def compute_loss(
        self,
        x: Any = None,
        y: Any = None,
        y_pred: Any = None,
        sample_weight: Any = None,
        training: bool = True,
    ) -> Tensor:
        """The compiled loss plus the layers' added losses (regularization)."""
        total: Any = None
        if self._compile_loss is not None:
            total = self._compile_loss(y, y_pred, sample_weight)
        for extra in self.losses:
            total = extra if total is None else total + extra
        if total is None:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        return total

    def compute_metrics(self, x: Any, y: Any, y_pred: Any, sample_weight: Any = None) -> dict:
        """Update the compiled metrics; return every metric's value."""
        if self._compile_metrics is not None and y is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self) -> dict[str, Any]:
        """Every metric's current value (floats, sorted)."""
        out: dict[str, Any] = {}
        for m in self.metrics:
            r = m.result()
            if isinstance(r, dict):
                out.update(r)
            else:
                out[m.name] = r
        return pythonify(out)

    def train_step(self, data: Any) -> dict[str, Any]:
        """One optimizer step on a batch: forward on a tape, loss, gradients, update."""
        x, y, sw = unpack(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sw, training=True)
        self._loss_tracker.update_state(loss, sample_weight=length(x))
        variables = self.trainable_variables
        if variables:
            grads = tape.gradient(loss, variables)
            self.optimizer.apply_gradients(zip(grads, variables, strict=True))
        elif not self.__dict__.get("_warned_untrainable"):  # (Keras: once, as it traces)
            self.__dict__["_warned_untrainable"] = True
            diagnostics.warn("The model does not have any trainable weights.")
        return self.compute_metrics(x, y, y_pred, sw)

    def test_step(self, data: Any) -> dict[str, Any]:
        """Loss and metrics on a batch, without training."""
        x, y, sw = unpack(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sw, training=False)
        self._loss_tracker.update_state(loss, sample_weight=length(x))
        return self.compute_metrics(x, y, y_pred, sw)

    def predict_step(self, data: Any) -> Any:
        """The model's output for a batch."""
        x, _, _ = unpack(data)
        return self(x, training=False)

    # -- loops -------------------------------------------------------------------------------
    def fit(
        self,
        x: Any = None,
        y: Any = None,
        batch_size: int | None = None,
        epochs: int = 1,
        verbose: Any = "auto",
        callbacks: Any = None,
        validation_split: float = 0.0,
        validation_data: Any = None,
        shuffle: bool = True,
        class_weight: Any = None,
        sample_weight: Any = None,
        initial_epoch: int = 0,
        steps_per_epoch: Any = None,
        validation_steps: Any = None,
        validation_batch_size: Any = None,
        validation_freq: int = 1,
    ) -> cbs.History:
        """Train for ``epochs`` passes over the data; returns the History of every epoch."""
        self._assert_compiled("fit")
        if validation_split and validation_data is None:
            if isinstance(x, Dataset):
                raise ValueError(
                    "`validation_split` is only supported for Tensors or NumPy arrays."
                )
            xs, ys = as_numpy(x), None if y is None else as_numpy(y)
            ws = None if sample_weight is None else as_numpy(sample_weight)
            n = length(xs)
            cut = int(n * (1.0 - validation_split))
            head, tail = np.arange(cut), np.arange(cut, n)
            validation_data = (take(xs, tail), take(ys, tail), take(ws, tail))  # as Keras 3
            x, y, sample_weight = take(xs, head), take(ys, head), take(ws, head)
        rng = random_ops.philox(random_ops.keras_seed(), 0) if shuffle else None
        batches = Batches(x, y, sample_weight, batch_size, shuffle, rng)
        history = cbs.History()
        logger = cbs.ProgbarLogger()
        params = {"verbose": verbose, "epochs": epochs, "steps": batches.steps}
        listeners = list(callbacks or [])
        # Keras 3's order: the script's callbacks, then History (it sees what they logged,
        # history["learning_rate"]), then the progress bar
        hooks = cbs.CallbackList([*listeners, history, logger] if verbose else
                                 [*listeners, history], self, params)  # fmt: skip
        self.stop_training = False
        # marks the tapes of each step (the timeline's epochs, history; the Network view's net)
        tagger = FitTagger(lambda: describe_fit(self, x, y, validation_data, batch_size))
        hooks.on_train_begin()
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            hooks.on_epoch_begin(epoch)
            logs: dict[str, Any] = {}
            for step, data in enumerate(batches):
                hooks.on_train_batch_begin(step)
                logs = tagger.step(epoch, step, lambda data=data: self.train_step(data))
                hooks.on_train_batch_end(step, pythonify(logs or {}))  # nested dicts flat
                if self.stop_training:
                    break
            epoch_logs = dict(pythonify(logs) if logs else self.get_metrics_result())
            if validation_data is not None and (epoch + 1) % validation_freq == 0:
                vx, vy, vsw = unpack(validation_data)
                val = self.evaluate(vx, vy, batch_size=validation_batch_size or batch_size,
                                    sample_weight=vsw, verbose=0, return_dict=True)  # fmt: skip
                epoch_logs.update({f"val_{k}": v for k, v in val.items()})
            tagger.epoch_end(epoch_logs)
            hooks.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        hooks.on_train_end()
        self.history = history
        return history

    def evaluate(
        self,
        x: Any = None,
        y: Any = None,
        batch_size: int | None = None,
        verbose: Any = "auto",
        sample_weight: Any = None,
        steps: Any = None,
        callbacks: Any = None,
        return_dict: bool = False,
        **kwargs: Any,
    ) -> Any:
        """The loss (and metrics) over the data: a float, or a list ``[loss, metric, ...]``."""
        self._assert_compiled("evaluate")
        batches = Batches(x, y, sample_weight, batch_size, shuffle=False)
        params = {"verbose": verbose, "epochs": 1, "steps": batches.steps}
        listeners = list(callbacks or [])
        hooks = cbs.CallbackList([*listeners, cbs.ProgbarLogger()] if verbose else listeners,
                                 self, params)  # fmt: skip
        self.reset_metrics()
        hooks.on_test_begin()
        logs: dict[str, Any] = {}
        for step, data in enumerate(batches):
            hooks.on_test_batch_begin(step)
            logs = self.test_step(data)
            hooks.on_test_batch_end(step, pythonify(logs or {}))
        logs = pythonify(logs) if logs else self.get_metrics_result()
        hooks.on_test_end(logs)
        if return_dict:
            return logs
        return self._in_order(logs)

    def _in_order(self, logs: dict[str, Any]) -> Any:
        names: list[str] = []
        for m in self.metrics:
            compiled = isinstance(m, CompileMetrics | outputs.OutputMetrics)  # (as Keras 3:
            names += [s.name for s in m.metrics] if compiled else [m.name]  # unprefixed names)
        results = [logs[n] for n in names if n in logs]
        results += [logs[k] for k in sorted(logs) if k not in names]
        return results[0] if len(results) == 1 else results

    def predict(
        self,
        x: Any,
        batch_size: int | None = None,
        verbose: Any = "auto",
        steps: Any = None,
        callbacks: Any = None,
    ) -> Any:
        """The model's outputs for ``x``, as numpy arrays (batch by batch)."""
        batches = Batches(x, None, None, batch_size, shuffle=False)
        params = {"verbose": verbose, "epochs": 1, "steps": batches.steps}
        listeners = list(callbacks or [])
        hooks = cbs.CallbackList([*listeners, cbs.ProgbarLogger()] if verbose else listeners,
                                 self, params)  # fmt: skip
        hooks.on_predict_begin()
        outs: list[Any] = []
        for step, data in enumerate(batches):
            hooks.on_predict_batch_begin(step)
            outs.append(self.predict_step(data))
            hooks.on_predict_batch_end(step)
        hooks.on_predict_end()
        if not outs:
            return np.zeros((0,), dtype=np.float32)
        flat = [nest.flatten(o) for o in outs]
        joined = [
            np.concatenate([np.asarray(f[k]._value) for f in flat]) for k in range(len(flat[0]))
        ]
        return nest.pack_as(outs[0], joined)

    def train_on_batch(
        self,
        x: Any,
        y: Any = None,
        sample_weight: Any = None,
        class_weight: Any = None,
        return_dict: bool = False,
    ) -> Any:
        """One training step on one batch; returns the loss (and metrics)."""
        self._assert_compiled("train_on_batch")
        logs = self.train_step(_one_batch(x, y, sample_weight))
        logs = {k: _as_array(v) for k, v in logs.items()}  # (Keras: np.array of each value)
        return logs if return_dict else self._in_order(logs)

    def test_on_batch(
        self, x: Any, y: Any = None, sample_weight: Any = None, return_dict: bool = False
    ) -> Any:
        """Loss (and metrics) of one batch, without training."""
        self._assert_compiled("test_on_batch")
        self.reset_metrics()
        logs = self.test_step(_one_batch(x, y, sample_weight))
        logs = {k: _as_array(v) for k, v in logs.items()}  # (Keras: np.array of each value)
        return logs if return_dict else self._in_order(logs)

    def predict_on_batch(self, x: Any) -> Any:
        """The model's output for one batch, as numpy."""
        out = self.predict_step((to_tensors(as_numpy(x)),))
        return nest.pack_as(out, [np.asarray(t._value) for t in nest.flatten(out)])
