"""``tf.train.Checkpoint``, ``CheckpointManager``, ``latest_checkpoint``: saving variables by path.

A checkpoint saves the values of every variable reachable from its objects
(:mod:`tapeviz.tf.trackable`: ``net/l1/kernel``, ``optimizer/iterations``, an optimizer's slots)
into the run's own folder (:mod:`tapeviz.tf.run_files`), as TensorFlow lays it out:
``ckpt.save("./tf_ckpts/ckpt")`` counts its saves (``save_counter``) and writes
``./tf_ckpts/ckpt-1.index`` and ``./tf_ckpts/ckpt-1.data-00000-of-00001``, and records it in
``./tf_ckpts/checkpoint`` so that ``tf.train.latest_checkpoint("./tf_ckpts")`` finds it;
``write(path)`` writes exactly at ``path`` and records nothing. ``restore(path)`` assigns each
saved value to the variable at the same path and returns a status (``assert_consumed()``,
``assert_existing_objects_matched()``, ``expect_partial()``); values for a Keras layer that is
not built yet are restored when it builds, as TensorFlow defers them. A dataset iterator given
to a checkpoint is accepted but its position is not saved.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.errors import NotFoundError
from tapeviz.engine.optimizer_base import Optimizer
from tapeviz.engine.tensor import Variable
from tapeviz.tf import run_files, trackable

__all__ = [
    "Checkpoint",
    "CheckpointLoadStatus",
    "CheckpointManager",
    "CheckpointReader",
    "latest_checkpoint",
    "list_variables",
    "load_checkpoint",
]

_VALUE = "/.ATTRIBUTES/VARIABLE_VALUE"
_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
_STATE_FILE = "checkpoint"
_DATA = ".data-00000-of-00001"


def _not_trackable(value: Any) -> ValueError:
    return ValueError(
        f"`Checkpoint` was expecting a trackable object (an object derived from `Trackable`), "
        f"got {value!r:.80}. If you believe this object should be trackable (i.e. it is part "
        "of the TensorFlow Python API and manages state), please open an issue."
    )


def _missing(path: str) -> NotFoundError:
    return NotFoundError(
        f"Error when restoring from checkpoint or SavedModel at {path}: Failed to find any "
        f"matching files for {path}. Please double-check that the path is correct. You may be "
        "missing the checkpoint suffix (e.g. the '-1' in 'path/to/ckpt-1').",
        "restore",
    )


class Checkpoint:
    """Saves and restores the variables of the objects it is given (``net=``, ``optimizer=``)."""

    def __init__(self, root: Any = None, **kwargs: Any) -> None:
        for value in ([root] if root is not None else []) + list(kwargs.values()):
            if not trackable.is_trackable(value):
                raise _not_trackable(value)
        self._root = root
        self._save_counter: Variable | None = None
        for name, value in kwargs.items():
            setattr(self, name, value)

    def _checkpoint_children(self) -> list[tuple[str, Any]]:
        out = trackable.children(self._root) if self._root is not None else []
        out += [(k, v) for k, v in vars(self).items()
                if not k.startswith("_") and trackable.is_trackable(v)]  # fmt: skip
        if self._save_counter is not None:
            out.append(("save_counter", self._save_counter))
        return out

    @property
    def save_counter(self) -> Variable:
        """How many times ``save`` was called (it numbers the checkpoints: ``ckpt-3``)."""
        if self._save_counter is None:
            self._save_counter = Variable(np.int64(0), trainable=False, name="save_counter")
        return self._save_counter

    def write(self, file_prefix: Any, options: Any = None) -> str:
        """Save exactly at ``file_prefix`` (no numbering, no record in the folder's state)."""
        prefix = run_files.fspath(file_prefix)
        graph = trackable.collect(self._checkpoint_children())
        arrays = {f"{p}{_VALUE}": np.asarray(v._value) for p, v in graph.variables.items()}
        arrays.update({f"{p}{_VALUE}": v for p, v in graph.slots().items()})
        run_files.write(prefix + ".index", "checkpoint", {"keys": sorted(arrays)}, arrays)
        run_files.write(prefix + _DATA, "part", {})
        return prefix

    def save(self, file_prefix: Any, options: Any = None) -> str:
        """Count a save and write ``<file_prefix>-<count>``; returns that path."""
        prefix = run_files.fspath(file_prefix)
        counter = self.save_counter
        counter.assign_add(1)
        path = self.write(f"{prefix}-{int(counter._value)}")
        _record(posixpath.dirname(prefix), path, [path])
        return path

    def restore(self, save_path: Any, options: Any = None) -> CheckpointLoadStatus:
        """Assign the saved values to the variables at the same paths; a status to check."""
        if save_path is None:
            return CheckpointLoadStatus(None, self, {}, set())
        path = run_files.fspath(save_path)
        found = run_files.read(path + ".index") or run_files.read(path)
        if found is None or found.kind != "checkpoint":
            raise _missing(path)
        saved = {k[: -len(_VALUE)]: v for k, v in found.arrays.items()}
        if "save_counter" in saved:
            self.save_counter  # noqa: B018  (made now, so that it is restored)
        status = CheckpointLoadStatus(path, self, saved, set())
        _restore(self._checkpoint_children(), saved, status.matched.add)
        return status

    def read(self, save_path: Any, options: Any = None) -> CheckpointLoadStatus:
        """Restore a checkpoint written by ``write``."""
        return self.restore(save_path, options)

    def __repr__(self) -> str:
        return f"<tf.train.Checkpoint object at {id(self):#x}>"


def _record(directory: str, latest: str, paths: list[str]) -> None:
    rel = [posixpath.relpath(run_files.normpath(p), run_files.normpath(directory or "."))
           for p in paths]  # fmt: skip
    state = {"model_checkpoint_path": rel[-1] if rel else "", "all_model_checkpoint_paths": rel}
    run_files.write(posixpath.join(directory, _STATE_FILE), "checkpoint_state", state)


def _restore(roots: list[tuple[str, Any]], saved: dict[str, np.ndarray],
             matched: Callable[[str], None]) -> None:  # fmt: skip
    """Assign what exists now; keep the rest for the layers that will make their variables."""
    graph = trackable.collect(roots)
    slots: dict[str, list[tuple[Optimizer, dict[str, np.ndarray], str]]] = {}
    for key, value in saved.items():
        if trackable.SLOT not in key:
            continue
        var_path, _, rest = key.partition(trackable.SLOT)
        opt_path, _, slot = rest.rpartition("/")
        opt = graph.objects.get(opt_path)
        if isinstance(opt, Optimizer):
            group = slots.setdefault(var_path, [])
            entry = next((g for g in group if g[0] is opt), None)
            if entry is None:
                group.append((opt, {slot: value}, key))
            else:
                entry[1][slot] = value
    for path in dict.fromkeys([p for p in saved if trackable.SLOT not in p] + list(slots)):
        keys = [path] * (path in saved) + [k for k in saved if k.startswith(path + trackable.SLOT)]
        var = graph.variables.get(path)
        groups = slots.pop(path, [])
        if var is not None:
            if path in saved:
                trackable.assign(var, saved[path], path + _VALUE)
            for opt, values, _ in groups:
                trackable.set_slots(opt, var, values)
            for k in keys:
                matched(k)
            continue
        layer, rest = trackable.deepest_layer(graph.objects, path)
        if layer is not None and not layer.built:
            done = _marker(matched, keys)
            value = saved.get(path)
            pending = trackable.Pending(value, tuple((o, v) for o, v, _ in groups), done, path)
            trackable.defer(layer, rest, pending)


def _marker(matched: Callable[[str], None], keys: list[str]) -> Callable[[], None]:
    def done() -> None:
        for k in keys:
            matched(k)

    return done


class CheckpointLoadStatus:
    """What ``restore`` matched: assertions that raise AssertionError, as TensorFlow's do."""

    def __init__(
        self, path: str | None, checkpoint: Checkpoint, saved: dict[str, Any], matched: set[str]
    ) -> None:
        self._path, self._checkpoint, self._saved, self.matched = path, checkpoint, saved, matched

    def _nothing(self) -> None:
        if self._path is None:
            raise AssertionError(
                "No checkpoint specified (save_path=None); nothing is being restored."
            )

    def _unbound(self) -> list[str]:
        graph = trackable.collect(self._checkpoint._checkpoint_children())
        return [p for p in graph.variables if p not in self._saved]

    def assert_consumed(self) -> CheckpointLoadStatus:
        """Every saved value was restored and every variable had one."""
        self._nothing()
        left = [k for k in self._saved if k not in self.matched]
        if left:
            raise AssertionError(
                f"Unresolved object in checkpoint {trackable.shown(left[0])}: no variable of the "
                f"program is at this path ({len(left)} saved values were not restored)"
            )
        self.assert_existing_objects_matched()
        return self

    def assert_existing_objects_matched(self) -> CheckpointLoadStatus:
        """Every variable that exists now got a saved value."""
        self._nothing()
        unbound = self._unbound()
        if unbound:
            raise AssertionError(
                "Some Python objects were not bound to checkpointed values, likely due to "
                f"changes in the Python program: {[trackable.shown(p) for p in unbound]}"
            )
        return self

    def assert_nontrivial_match(self) -> CheckpointLoadStatus:
        """At least one saved value (besides the save counter) was restored."""
        self._nothing()
        if not [k for k in self.matched if k != "save_counter"]:
            raise AssertionError(
                "Nothing except the root object matched a checkpointed value. Typically this "
                "means that the checkpoint does not match the Python program."
            )
        return self

    def expect_partial(self) -> CheckpointLoadStatus:
        """Say that not every saved value is expected to be used (silences nothing here)."""
        return self

    def run_restore_ops(self, session: Any = None) -> None:
        """Nothing to run: values were assigned eagerly."""

    def initialize_or_restore(self, session: Any = None) -> None:
        """Nothing to run: values were assigned eagerly."""


def latest_checkpoint(checkpoint_dir: Any, latest_filename: str | None = None) -> str | None:
    """The newest checkpoint saved in ``checkpoint_dir`` (``dir/ckpt-3``), or None."""
    directory = run_files.fspath(checkpoint_dir)
    state = run_files.read(posixpath.join(directory, latest_filename or _STATE_FILE))
    if state is None or state.kind != "checkpoint_state":
        return None
    rel = state.config.get("model_checkpoint_path") or ""
    path = rel if rel.startswith("/") else posixpath.join(directory, rel)
    return path if rel and run_files.isfile(path + ".index") else None


class CheckpointManager:
    """Numbered checkpoints in one folder, keeping the newest ``max_to_keep``."""

    def __init__(
        self,
        checkpoint: Checkpoint,
        directory: Any,
        max_to_keep: int | None,
        keep_checkpoint_every_n_hours: float | None = None,
        checkpoint_name: str = "ckpt",
        step_counter: Any = None,
        checkpoint_interval: Any = None,
        init_fn: Callable[[], Any] | None = None,
    ) -> None:
        if not isinstance(checkpoint, Checkpoint):
            raise TypeError(f"Expected a tf.train.Checkpoint, got {checkpoint!r:.60}")
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(
                f"Expected a positive integer or `None` for `max_to_keep`, got {max_to_keep}."
            )
        self._checkpoint, self._max_to_keep, self._init_fn = checkpoint, max_to_keep, init_fn
        self._directory = run_files.fspath(directory)
        self._prefix = posixpath.join(self._directory, checkpoint_name)
        self._kept: list[str] = []
        self._latest: str | None = None
        state = run_files.read(posixpath.join(self._directory, _STATE_FILE))
        if state is not None and state.kind == "checkpoint_state":
            config = state.config
            self._kept = [posixpath.join(self._directory, p)
                          for p in config.get("all_model_checkpoint_paths", [])]  # fmt: skip
            latest = config.get("model_checkpoint_path")
            self._latest = posixpath.join(self._directory, latest) if latest else None

    @property
    def directory(self) -> str:
        """The folder the checkpoints are saved in."""
        return self._directory

    @property
    def checkpoint(self) -> Checkpoint:
        """The checkpoint this manager saves."""
        return self._checkpoint

    @property
    def checkpoints(self) -> list[str]:
        """The checkpoints kept, oldest first."""
        return list(self._kept)

    @property
    def latest_checkpoint(self) -> str | None:
        """The newest checkpoint's path, or None."""
        return self._latest

    def save(
        self, checkpoint_number: Any = None, check_interval: bool = True, options: Any = None
    ) -> str:
        """Save the next checkpoint (``ckpt-<n>``), then delete the oldest past ``max_to_keep``."""
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        number = (
            int(counter._value)
            if checkpoint_number is None
            else int(getattr(checkpoint_number, "_value", checkpoint_number))
        )
        path = self._checkpoint.write(f"{self._prefix}-{number}")
        if path in self._kept:
            self._kept.remove(path)
        self._kept.append(path)
        self._latest = path
        while self._max_to_keep is not None and len(self._kept) > self._max_to_keep:
            old = self._kept.pop(0)
            for suffix in (".index", _DATA):
                if run_files.isfile(old + suffix):
                    run_files.remove(old + suffix)
        _record(self._directory, path, self._kept)
        return path

    def restore_or_initialize(self) -> str | None:
        """Restore the newest checkpoint if there is one (returns its path), else run init_fn."""
        if self._latest is not None:
            self._checkpoint.restore(self._latest)
            return self._latest
        if self._init_fn is not None:
            self._init_fn()
        return None


class CheckpointReader:
    """Reads the values of a saved checkpoint by name (``tf.train.load_checkpoint``)."""

    def __init__(self, path: str, arrays: dict[str, np.ndarray]) -> None:
        self._path, self._arrays = path, arrays

    def get_tensor(self, name: str) -> np.ndarray:
        """The saved value ``name`` (a key of ``get_variable_to_shape_map``)."""
        if name not in self._arrays:
            raise NotFoundError(f"Key {name} not found in checkpoint", "get_tensor")
        return np.array(self._arrays[name])

    def has_tensor(self, name: str) -> bool:
        """Whether ``name`` is saved."""
        return name in self._arrays

    def get_variable_to_shape_map(self) -> dict[str, list[int]]:
        """Each saved name and its shape."""
        out = {k: list(np.shape(v)) for k, v in sorted(self._arrays.items())}
        return {_GRAPH_KEY: [], **out}

    def get_variable_to_dtype_map(self) -> dict[str, Any]:
        """Each saved name and its dtype."""
        from tapeviz.engine import dtypes

        return {
            k: dtypes.as_dtype(np.asarray(v).dtype.name) for k, v in sorted(self._arrays.items())
        }


def load_checkpoint(ckpt_dir_or_file: Any) -> CheckpointReader:
    """A reader of a checkpoint (a folder reads its newest one)."""
    path = run_files.fspath(ckpt_dir_or_file)
    if run_files.isdir(path):
        newest = latest_checkpoint(path)
        if newest is None:
            raise ValueError(
                f"Couldn't find 'checkpoint' file or checkpoints in given directory {path}"
            )
        path = newest
    found = run_files.read(path + ".index") or run_files.read(path)
    if found is None or found.kind != "checkpoint":
        raise _missing(path)
    return CheckpointReader(path, dict(found.arrays))


def list_variables(ckpt_dir_or_file: Any) -> list[tuple[str, list[int]]]:
    """``(name, shape)`` of every saved value, sorted by name."""
    return sorted(load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map().items())
