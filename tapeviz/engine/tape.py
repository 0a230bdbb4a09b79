"""GradientTape: records ops while active; gradient() walks the records backwards."""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from tapeviz.engine import core, diagnostics, nest, numeric, ops
from tapeviz.engine.backward import as_tensor_result, run_backward
from tapeviz.engine.core import FLAT, OpRecord, Recorder
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError, describe
from tapeviz.engine.jacobians import diagonal_blocks, full_jacobians
from tapeviz.engine.state import STATE as _STATE  # (core.STATE: read on every tape's entry)
from tapeviz.engine.tensor import Tensor, TensorLike, Variable, to_array
from tapeviz.engine.vjp_rules import DEAD_ENDS


class UnconnectedGradients(enum.Enum):
    """What gradient() returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


class GradientCall(NamedTuple):
    """One gradient()/jacobian() request made of a tape, kept for the UI."""

    kind: str  # "gradient" | "jacobian" | "batch_jacobian"
    target_ids: tuple[int, ...]
    source_ids: tuple[int, ...]
    results: tuple[Any, ...]
    seeds: tuple[Any, ...] | None = None  # output_gradients per target (None: ones)


NO_CALLS: tuple[()] = ()  # a tape's gradient_calls before the first call


_SECOND_USE = (
    "A non-persistent GradientTape can only be used to compute one set of gradients "
    "(or jacobians); create it with tf.GradientTape(persistent=True) to call gradient() again"
)


_NEVER_RECORDED = (
    "A non-persistent GradientTape can only be used to compute one set of gradients "
    "(or jacobians); this tape has not recorded anything yet: compute the target inside a "
    "`with tf.GradientTape() as tape:` block first"
)


def _creation_order(v: Variable) -> int:
    return v.id  # ids come from one counter: a variable's id is its creation order


def _given(targets: list[Any], ogs: list[Any]) -> tuple[Any, ...]:
    """A call's output_gradients as plain arrays, one per target (None: seeded with ones)."""
    return tuple(
        None if og is None else np.array(to_array(og, t.dtype, "gradient"))
        for t, og in zip(targets, ogs, strict=True)
    )


def _is_among(t: TensorLike, flat: list[Any]) -> bool:
    for s in flat:  # noqa: SIM110  (identity, not ==: tensors overload ==)
        if s is t or (isinstance(s, TensorLike) and s.id == t.id):
            return True
    return False


_NONE, _ZERO = UnconnectedGradients.NONE, UnconnectedGradients.ZERO
_new_call = tuple.__new__  # GradientCall(...) without the NamedTuple's Python-level __new__


def _unconnected(value: Any) -> UnconnectedGradients:
    if value is _NONE or value is _ZERO:
        return value
    try:
        return UnconnectedGradients(getattr(value, "value", value))
    except ValueError:
        raise InvalidArgumentError(
            f"unconnected_gradients must be 'none' or 'zero', got {value!r}", "gradient"
        ) from None


class GradientTape(Recorder):
    """Record operations for automatic differentiation (TensorFlow 2 semantics)."""

    # TensorFlow's tape exists: made when the tape is first entered, gone once a non-persistent
    # tape has given its gradients (entering it again starts a new one).
    _alive = False
    _paused = False  # (stop_recording, or consumed inside its block)
    # torch's register_hook: tensor id -> a function of its adjoint (see BackwardPass), and what
    # each gave (the window's walk gives these values back: replayed())
    grad_hooks: dict[int, Any] | None = None
    hooked: dict[int, Any] | None = None
    # The gradient()/jacobian() calls made of this tape, in order: the shared empty tuple until
    # the first (a tape that only records keeps no list; a loop makes one per step).
    gradient_calls: list[GradientCall] = NO_CALLS  # type: ignore[assignment]
    # (Defaults above live on the class: a loop makes a tape per step, each set only if used.)

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True) -> None:
        Recorder.__init__(self, watch_accessed_variables)
        self._persistent = bool(persistent)
        created = _STATE.created
        if created is not None:
            created.append(self)

    @property
    def persistent(self) -> bool:
        """Whether gradient() may be called more than once."""
        return self._persistent

    def __enter__(self) -> GradientTape:
        state = _STATE
        active = state.active
        if active and self.recording:
            raise ValueError(
                "Tape is still recording, This can happen if you try to re-enter an "
                "already-active tape."
            )
        if not self._alive:
            if self._recs or self._pending or self._watched or self._watched_other:
                self._reset_records()  # a used non-persistent tape records anew, as in TF
            self._alive = True
        self._scope = state.scope  # (core.push, inline: a loop enters a tape per step)
        state.entered.append(self)
        active.append(self)
        return self

    def __exit__(self, *exc: object) -> bool:
        state = _STATE  # (core.pop's usual case inline: this tape is the innermost)
        entered, active = state.entered, state.active
        if entered and entered[-1] is self and active and active[-1] is self:
            entered.pop()
            active.pop()
        else:
            core.pop(self)
        if self._paused:
            self._paused = False
        return False

    @property
    def recording(self) -> bool:
        """Whether ops run now are recorded on this tape."""
        for r in core.STATE.active:  # noqa: SIM110  (hot path: no generator)
            if r is self:
                return True
        return False

    def watch(self, tensor: Any) -> None:
        """Track a tensor, variable, or nested structure of them."""
        for t in nest.flatten(tensor):
            if not isinstance(t, TensorLike):
                raise InvalidArgumentError(
                    f"tape.watch: expected a Tensor or Variable, got {describe(t)}; "
                    "wrap values with tf.constant(...) or tf.Variable(...) first",
                    "watch",
                )
            self._watch(t)

    def watched_variables(self) -> tuple[Variable, ...]:
        """The variables this tape watches, in the order they were created (as TensorFlow)."""
        found = [v for v in self._watched.values() if isinstance(v, Variable)]
        found += [v for v in self._watched_other.values() if isinstance(v, Variable)]
        return tuple(sorted(found, key=_creation_order))

    def watched(self) -> tuple[TensorLike, ...]:
        """Every watched tensor and variable, in order."""
        return tuple(self._watched.values())

    @contextlib.contextmanager
    def stop_recording(self) -> Iterator[None]:
        """Temporarily stop recording operations on this tape."""
        if not self._alive:
            raise RuntimeError(
                "Trying to stop recording a tape which is not recording. (Use stop_recording() "
                "inside the `with tape:` block.)"
            )
        if not self.recording:
            raise ValueError("Tape is not recording.")
        self._paused = True
        active = core.STATE.active
        active[:] = [r for r in active if r is not self]
        try:
            yield
        finally:
            self._paused = False
            state = core.STATE
            state.active[:] = [r for r in state.entered if not getattr(r, "_paused", False)]

    def reset(self) -> None:
        """Inside the ``with`` block: forget everything recorded so far and record anew."""
        if not self.recording:
            raise ValueError("Tape is not recording.")
        self._reset_records()
        self.gradient_calls = NO_CALLS  # type: ignore[assignment]

    def _called(self, call: GradientCall) -> None:
        calls = self.gradient_calls
        if calls is NO_CALLS:
            calls = self.gradient_calls = []
        calls.append(call)

    def _check_usable(self) -> None:
        if not self._alive:
            raise RuntimeError(_SECOND_USE if self.gradient_calls else _NEVER_RECORDED)

    def _consume(self) -> None:
        """Mark a non-persistent tape used; like TF, it stops recording if still active."""
        if self._persistent:
            return
        self._alive = False
        if core.STATE.active and self.recording:
            self._paused = True
            core.STATE.active[:] = [r for r in core.STATE.active if r is not self]

    def _records_now(self, made: bool = False) -> Sequence[OpRecord]:
        """The records as now (a copy if more may come), made only for the walk if columns.

        ``made``: make every record now (a Jacobian walks them once per target element).
        """
        rows = self.records if made else self.rows()
        return rows[:] if type(rows) is list and core.STATE.active and self.recording else rows

    def _sources(self, sources: Any, what: str) -> tuple[list[TensorLike], list[int]]:
        if type(sources) is Variable and sources.dtype.is_floating:  # the common call
            return [sources], [sources.id] if sources.id in self._tracked else []
        flat = nest.flatten(sources)
        ids: list[int] = []
        for s in flat:
            if not isinstance(s, TensorLike):
                raise EngineTypeError(
                    f"{what}: sources must be tensors or variables, got {describe(s)}", what
                )
            if not s.dtype.is_floating:
                diagnostics.warn(
                    f"The dtype of the source tensor must be floating (e.g. tf.float32) when "
                    f"calling GradientTape.{what}, got tf.{s.dtype.name}",
                    stacklevel=3,
                )
            elif s.id in self._tracked and s.id not in ids:
                ids.append(s.id)
        return flat, ids

    def _seed(self, t: TensorLike, og: Any, taping: bool) -> Any:
        if og is None:
            value: Any = numeric.ones_like(t._value)
        else:
            value = to_array(og, t.dtype, "gradient")
            if np.shape(value) != np.shape(t._value):
                raise InvalidArgumentError(
                    f"gradient: output_gradients of shape {np.shape(value)} for a target of "
                    f"shape {np.shape(t._value)}",
                    "gradient",
                )
        return Tensor(value, t.dtype) if taping else value

    def gradient(
        self,
        target: Any,
        sources: Any,
        output_gradients: Any = None,
        unconnected_gradients: Any = UnconnectedGradients.NONE,
    ) -> Any:
        """d(sum of targets)/d(each source), shaped like ``sources`` (None where unconnected)."""
        if not self._alive:
            self._check_usable()
        zero = unconnected_gradients is not _NONE and _unconnected(unconnected_gradients) is _ZERO
        targets = [target] if type(target) is Tensor else nest.flatten(target)
        for t in targets:
            if not isinstance(t, TensorLike):
                raise EngineTypeError(
                    f"gradient: the target must be a tensor computed inside the `with tape:` "
                    f"block, got {describe(t)}",
                    "gradient",
                )
            if not t.dtype.is_floating:
                diagnostics.warn(
                    "The dtype of the target tensor must be floating (e.g. tf.float32) when "
                    f"calling GradientTape.gradient, got tf.{t.dtype.name}",
                    stacklevel=2,
                )
        ogs = [None] * len(targets) if output_gradients is None else nest.flatten(output_gradients)
        if len(ogs) != len(targets):
            raise InvalidArgumentError(
                f"gradient: {len(ogs)} output_gradients for {len(targets)} targets", "gradient"
            )
        flat, source_ids = self._sources(sources, "gradient")
        if core.STATE.active:  # inside some tape's (maybe this one's) `with` block
            records = self._records_now()
            self._consume()
            taping = core.is_taping()
        else:  # what the three calls above give when nothing records
            records = self.rows()
            if not self._persistent:
                self._alive = False
            taping = False
        tracked = self._tracked
        seeds: dict[int, Any] = {}
        for t, og in zip(targets, ogs):  # noqa: B905  (same lengths, checked above)
            if t.id not in tracked or not t.dtype.is_floating:
                if not t.dtype.is_floating or not _is_among(t, flat):
                    continue
                source_ids.append(t.id)  # TF: a target that is also a source gets its seed
            seed = self._seed(t, og, taping)
            seeds[t.id] = seeds[t.id] + seed if t.id in seeds else seed
        kept = None if output_gradients is None else _given(targets, ogs)  # for the UI's walk
        reach = self._reach(source_ids, taping)
        adj = run_backward(records, seeds, source_ids, taping, reach, self.grad_hooks)
        if len(flat) == 1 and len(targets) == 1:  # the common call, without comprehensions
            s = flat[0]
            g = adj.get(s.id)
            results = [None if g is None and not zero else self._result(g, s, zero)]
            call = ("gradient", (targets[0].id,), (s.id,), (results[0],), kept)
        else:
            results = [
                None if (g := adj.get(s.id)) is None and not zero else self._result(g, s, zero)
                for s in flat
            ]
            call = (
                "gradient",
                tuple([t.id for t in targets]),
                tuple([s.id for s in flat]),
                tuple(results),
                kept,
            )
        self._called(_new_call(GradientCall, call))
        if len(flat) == 1 and flat[0] is sources:  # one tensor or variable
            return results[0]
        return nest.pack_as(sources, results)

    def _reach(self, source_ids: list[int], taping: bool) -> dict[int, None] | None:
        """The tracked tensors if they are exactly what the sources reach, else None (plan).

        That holds when the sources are every watched tensor and no watched op may end a
        gradient path (:data:`~tapeviz.engine.vjp_rules.DEAD_ENDS`); the backward walk then
        needs no planning pass. Otherwise, and while taping, the plan keeps the walk to the
        sources' paths: no work (or numpy warnings) for branches that reach no source, and no
        extra ops on the enclosing tapes.
        """
        if taping or len(source_ids) < len(self._watched):
            return None
        for i in self._watched:
            if i not in source_ids:
                return None
        recs, flat = self._recs, self._pending
        scanned, count = self._scanned, len(recs) + len(flat) // FLAT
        if scanned < count:  # records added since the last call (persistent tapes)
            for rec in recs[scanned:] if scanned else recs:
                if rec.watched and rec.primitive in DEAD_ENDS:
                    self._dead_end = True
                    break
            first = (scanned - len(recs)) * FLAT if scanned > len(recs) else 0
            if not DEAD_ENDS.isdisjoint(flat[first::FLAT]):  # columns: primitive, ..., watched
                for i in range(first, len(flat), FLAT):
                    if flat[i + 4] and flat[i] in DEAD_ENDS:
                        self._dead_end = True
                        break
            self._scanned = count
        return None if self._dead_end else self._tracked

    @staticmethod
    def _result(value: Any, source: TensorLike, zero: bool) -> Tensor | None:
        if value is None:
            return ops.zeros_like(source) if zero else None
        return as_tensor_result(value, source)

    def jacobian(
        self,
        target: Any,
        sources: Any,
        unconnected_gradients: Any = UnconnectedGradients.NONE,
        parallel_iterations: int | None = None,
        experimental_use_pfor: bool = True,
    ) -> Any:
        """Full Jacobian: result[k] has shape ``target.shape + sources[k].shape``."""
        self._check_usable()
        zero = _unconnected(unconnected_gradients) is _ZERO
        if not isinstance(target, TensorLike):
            raise EngineTypeError(f"jacobian: the target must be a tensor, got {describe(target)}")
        flat, source_ids = self._sources(sources, "jacobian")
        records = self._records_now(made=True)
        self._consume()
        jacobians = full_jacobians(records, target, flat, source_ids, self._tracked)
        results = [
            ops.zeros(tuple(target.shape) + tuple(s.shape), s.dtype) if j is None and zero else j
            for j, s in zip(jacobians, flat, strict=True)
        ]
        self._called(
            GradientCall("jacobian", (target.id,), tuple(s.id for s in flat), tuple(results))
        )
        return nest.pack_as(sources, results)

    def batch_jacobian(
        self,
        target: Any,
        source: Any,
        unconnected_gradients: Any = UnconnectedGradients.NONE,
        parallel_iterations: int | None = None,
        experimental_use_pfor: bool = True,
    ) -> Any:
        """Per-example Jacobians: result[b] = d target[b] / d source[b]."""
        if not isinstance(target, TensorLike) or not isinstance(source, TensorLike):
            raise EngineTypeError("batch_jacobian: target and source must be tensors")
        for t in (target, source):
            if len(t.shape) < 2:
                raise ValueError(f"Shape {t.shape} must have rank at least 2")
        if target.shape[0] != source.shape[0]:
            raise InvalidArgumentError(
                f"Need first dimension of target shape {target.shape} and source shape "
                f"{source.shape} to match.",
                "batch_jacobian",
            )
        full = self.jacobian(target, source, unconnected_gradients)
        if full is None:
            return None
        out = diagonal_blocks(full, target, source)
        self.gradient_calls[-1] = self.gradient_calls[-1]._replace(kind="batch_jacobian",
                                                                   results=(out,))  # fmt: skip
        return out

    def pretty(self, names: Mapping[int, str] | None = None) -> str:
        """A stable text listing of the recorded ops (also the tape's "text view")."""
        from tapeviz.engine.pretty import format_tape

        return format_tape(self, names)

    def __repr__(self) -> str:
        return (
            f"<GradientTape persistent={self._persistent} "
            f"watch_accessed_variables={self.watch_accessed_variables} ops={self.op_count()}>"
        )
