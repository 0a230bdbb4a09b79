"""The Keras 3 optimizer base class: learning-rate variable, iterations, apply_gradients.

Subclasses (:mod:`tapeviz.engine.optimizers`) give the maths as ``update(value, grad, state,
step)`` on plain numpy values.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from tapeviz.engine import diagnostics
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError
from tapeviz.engine.keras_variable import KerasVariable
from tapeviz.engine.schedules import LearningRateSchedule
from tapeviz.engine.state import STATE
from tapeviz.engine.tensor import Tensor, TensorLike, Variable, freeze, to_array

State = dict[str, Any]
# Keras arguments that change nothing on a CPU and eagerly (accepted, as Keras accepts them).
_IGNORED_KWARGS = ("jit_compile", "ema_momentum", "ema_overwrite_frequency", "loss_scale_factor")

_NUMPY_VALUES = (np.ndarray, np.generic)
_NDARRAY = np.ndarray  # a module-level name: np.ndarray is not a fast attribute read


def _c(value: Any, like: Any) -> Any:
    """``value`` as a scalar of ``like``'s dtype (hyper-parameters are cast per variable)."""
    dtype = like.dtype if isinstance(like, _NUMPY_VALUES) else np.asarray(like).dtype
    return dtype.type(value)


class Optimizer:
    """Base class: hyper-parameters, slot state per variable, apply_gradients, minimize.

    As in Keras 3, ``learning_rate`` is a variable (``opt.learning_rate.numpy()``; assign to it
    or to the attribute), ``iterations`` counts the steps applied, and the first
    ``apply_gradients`` binds the optimizer to the variables it was given.
    """

    slot_names: tuple[str, ...] = ()
    default_name = "optimizer"

    def __init__(
        self,
        learning_rate: Any = 0.001,
        name: str | None = None,
        clipnorm: float | None = None,
        clipvalue: float | None = None,
        global_clipnorm: float | None = None,
        weight_decay: float | None = None,
        use_ema: bool = False,
        gradient_accumulation_steps: int | None = None,
        **kwargs: Any,
    ) -> None:
        unknown = [k for k in kwargs if k not in _IGNORED_KWARGS]
        if unknown:
            raise EngineTypeError(f"Argument(s) not recognized: {kwargs}", "optimizer")
        if use_ema or gradient_accumulation_steps:
            raise InvalidArgumentError(
                "use_ema and gradient_accumulation_steps are not available in tapeviz", "optimizer"
            )
        self.weight_decay = None if weight_decay is None else float(weight_decay)
        self.name = name or self.default_name
        self._schedule: LearningRateSchedule | None = None
        self._lr = 0.0
        self._learning_rate = KerasVariable(
            np.float32(0.0), trainable=False, name="learning_rate",
            path=f"{self.name}/learning_rate",
        )  # fmt: skip
        self._learning_rate._on_assign = self._lr_assigned
        self.learning_rate = learning_rate
        if sum(c is not None for c in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise InvalidArgumentError(
                "only one of clipnorm, clipvalue and global_clipnorm can be set", "optimizer"
            )
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        self.iterations = KerasVariable(
            np.int64(0), trainable=False, name="iteration", path=f"{self.name}/iteration"
        )
        self._state: dict[int, State] = {}
        self._known: dict[int, None] | None = None  # the variables of the first step (Keras 3)

    @property
    def learning_rate(self) -> Any:
        """The learning rate: a variable (``.numpy()``, assignable), or a schedule's value."""
        if self._schedule is not None:
            return self._schedule(self.iterations._value)
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value: Any) -> None:
        if isinstance(value, LearningRateSchedule):
            self._schedule = value
            self._lr = float(value.value(0))
            return
        if self._schedule is not None:
            raise EngineTypeError(
                "This optimizer was created with a `LearningRateSchedule` object as its "
                "`learning_rate` constructor argument, hence its learning rate is not "
                "settable. If you need the learning rate to be settable, you should "
                "instantiate the optimizer with a float `learning_rate` argument.",
                "optimizer",
            )
        lr = value._value if isinstance(value, TensorLike) else value
        if isinstance(lr, np.ndarray) and lr.ndim == 0:
            lr = lr[()]
        if isinstance(lr, bool) or not isinstance(lr, int | float | np.number) or not lr > 0:
            raise InvalidArgumentError(
                f"learning_rate must be a positive float, got {value!r}", "optimizer"
            )
        self._learning_rate.assign(np.float32(lr))  # the hook below then sets _lr to float32's
        self._lr = float(lr)  # the exact Python float for the update maths

    @property
    def _lr(self) -> float:
        """The learning rate as a Python float (what the update maths uses)."""
        return self._lr_float

    @_lr.setter
    def _lr(self, value: float) -> None:
        self._lr_float = value
        self._lr_cache: dict[Any, Any] = {}  # the rate as a scalar of each variable dtype

    def lr_like(self, value: Any) -> Any:
        """The learning rate as a scalar of ``value``'s dtype (cached per dtype)."""
        dtype = value.dtype if isinstance(value, _NUMPY_VALUES) else np.asarray(value).dtype
        lr = self._lr_cache.get(dtype)
        if lr is None:
            lr = self._lr_cache[dtype] = dtype.type(self._lr_float)
        return lr

    def _lr_assigned(self, value: Any) -> None:
        self._lr = float(value)

    def _current_lr(self) -> None:
        if self._schedule is not None:
            self._lr = float(self._schedule.value(float(self.iterations._value)))

    def hyperparameters(self) -> dict[str, Any]:
        """Every hyper-parameter by name (what ``get_config`` reports)."""
        return {"learning_rate": self._lr}

    def get_config(self) -> dict[str, Any]:
        """Name and hyper-parameters, as Keras reports them."""
        return {"name": self.name, **self.hyperparameters()}

    def init_state(self, value: Any) -> State:
        """Fresh slot state (all zeros) for a parameter of ``value``'s shape and dtype."""
        return {k: np.zeros_like(value) for k in self.slot_names}

    def update(self, value: Any, grad: Any, state: State, step: int) -> Any:
        """Return the parameter after one step (``step`` counts from 0); updates ``state``."""
        raise NotImplementedError

    def _clip(self, grads: list[Any]) -> list[Any]:
        if self.clipvalue is not None:
            c = self.clipvalue
            return [np.clip(g, -c, c) for g in grads]
        if self.clipnorm is not None:
            c = self.clipnorm
            return [g * (c / max(float(np.sqrt(np.sum(g * g))), c)) for g in grads]
        if self.global_clipnorm is not None:
            c = self.global_clipnorm
            total = math.sqrt(sum(float(np.sum(g * g)) for g in grads))
            return [g * (c / max(total, c)) for g in grads]
        return grads

    def apply_gradients(
        self, grads_and_vars: Iterable[Any], name: str | None = None, **_: Any
    ) -> Variable:
        """Apply one step to each (gradient, variable) pair; None gradients are skipped."""
        pairs = []
        for pair in grads_and_vars:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise EngineTypeError(
                    f"apply_gradients expects (gradient, variable) pairs, got {pair!r:.60}",
                    "apply_gradients",
                )
            g, v = pair
            if not isinstance(v, Variable):
                raise EngineTypeError(
                    f"apply_gradients: the second item of each pair must be a tf.Variable, "
                    f"got {type(v).__name__}",
                    "apply_gradients",
                )
            pairs.append((g, v))
        if not pairs:
            return self.iterations
        known = self._known
        if known is None:
            self._known = dict.fromkeys(v.id for _, v in pairs)
        else:
            for _, v in pairs:
                if v.id not in known:
                    raise InvalidArgumentError(
                        f"Unknown variable: {v!r}. This optimizer can only be called for the "
                        "variables it was originally built with. When working with a new set "
                        "of variables, you should recreate a new optimizer instance.",
                        "apply_gradients",
                    )
        kept = [(g, v) for g, v in pairs if g is not None]
        if not kept:
            raise InvalidArgumentError("No gradients provided for any variable.", "apply_gradients")
        if len(kept) < len(pairs):
            missing = [v.name for g, v in pairs if g is None]
            diagnostics.warn(
                f"Gradients do not exist for variables {missing} when minimizing the loss.",
                stacklevel=2,
            )
        grads = [
            g._value
            if type(g) is Tensor and g.dtype is v.dtype
            else to_array(g, v.dtype, "apply_gradients")
            for g, v in kept
        ]
        if (
            self.clipnorm is not None
            or self.clipvalue is not None
            or self.global_clipnorm is not None
        ):
            grads = self._clip(grads)
        if self._schedule is not None:
            self._current_lr()
        iterations = self.iterations
        step = int(iterations._value)
        for g, (_, v) in zip(grads, kept):  # noqa: B905  (_clip keeps the length)
            value = v._value
            if g.shape != value.shape:
                raise InvalidArgumentError(
                    f"apply_gradients: gradient of shape {g.shape} for variable "
                    f"'{v.name}' of shape {value.shape}",
                    "apply_gradients",
                )
            state = self._state.get(v.id)
            if state is None:
                state = self._state[v.id] = self.init_state(value)
                made = STATE.new_variables
                if made is not None:  # Keras makes slot variables here: a tf.function sees them
                    made.append(state)
            if self.weight_decay:  # Keras 3's decoupled weight decay, before the update
                value = value - value * (_c(self.weight_decay, value) * _c(self._lr, value))
            new = self.update(value, g, state, step)
            if isinstance(new, _NDARRAY) or type(new) is not type(value):
                new = freeze(np.asarray(new, dtype=v.dtype.np))  # keep dtype, read-only
            v._set(new, "apply_gradients")
        iterations._value = iterations._value + 1  # an np.int64 scalar: no shape to check
        iterations._snapshot = None
        return iterations

    def apply(self, grads: Any, trainable_variables: Any = None) -> Variable:
        """Keras 3's spelling: ``apply(grads, variables)`` is ``apply_gradients(zip(...))``."""
        if trainable_variables is None:
            if self._known is None:
                raise InvalidArgumentError(
                    "apply(grads) without trainable_variables needs an optimizer that has "
                    "already been built on its variables",
                    "apply",
                )
            from tapeviz.engine.tensor import VARIABLES

            trainable_variables = [VARIABLES[i] for i in self._known if i in VARIABLES]
        grads, variables = list(grads), list(trainable_variables)
        if len(grads) != len(variables):
            raise InvalidArgumentError(
                f"apply: {len(grads)} gradients for {len(variables)} variables", "apply"
            )
        return self.apply_gradients(zip(grads, variables, strict=True))

    @property
    def built(self) -> bool:
        """Whether the optimizer has met its variables (its first step)."""
        return self._known is not None

    @property
    def variables(self) -> list[Variable]:
        """The optimizer's state: ``iteration``, ``learning_rate`` and each slot (copies)."""
        from tapeviz.engine.tensor import VARIABLES

        out: list[Variable] = [self.iterations, self._learning_rate]
        for vid, state in self._state.items():
            owner = VARIABLES.get(vid)
            stem = (getattr(owner, "path", None) or getattr(owner, "name", "v")).split(":")[0]
            for slot, value in state.items():
                name = f"{stem.replace('/', '_')}_{slot}"
                out.append(KerasVariable(value, trainable=False, name=name,
                                         path=f"{self.name}/{name}"))  # fmt: skip
        return out

    def minimize(self, loss: Any, var_list: Any, tape: Any = None) -> Variable:
        """Differentiate ``loss`` (a callable, or a tensor with its ``tape``) and apply a step."""
        from tapeviz.engine.tape import GradientTape

        variables = var_list() if callable(var_list) else list(var_list)
        if callable(loss):
            with GradientTape() as t:
                t.watch(variables)
                value = loss()
            tape = t
        elif tape is None:
            raise InvalidArgumentError(
                "minimize: pass the loss as a function (or give the tape that computed it)",
                "minimize",
            )
        else:
            value = loss
        grads = tape.gradient(value, variables)
        return self.apply_gradients(zip(grads, variables, strict=True))

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v}" for k, v in self.hyperparameters().items())
        return f"{type(self).__name__}({params})"
