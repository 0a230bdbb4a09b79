"""``tf.saved_model.save`` / ``load``: an object's variables and traced functions, kept for the run.

``save(obj, "path")`` writes a SavedModel folder into the run's own folder
(:mod:`tapeviz.tf.run_files`: ``path/saved_model.pb``, ``path/variables/...``, ``path/assets``)
holding every variable reachable from ``obj`` (:mod:`tapeviz.tf.trackable`) and every
``tf.function`` of ``obj`` and of the modules in it, with the calls that traced them (the
traced program of each call, kept in memory: the folder lives as long as the run).

``load("path")`` gives a new object (not an instance of the saved class, as in TensorFlow)
with copies of the variables as attributes, the sub-modules as such objects, and the
functions: a call whose arguments match a traced one replays that trace's ops on the copies
(none of the function's Python runs, as in TensorFlow); other arguments raise TensorFlow's
"Could not find matching concrete function" ``ValueError``, except for a function with an
``input_signature``, which runs its Python on the loaded object. ``signatures`` given to
``save`` are ``loaded.signatures["serving_default"]`` (keyword arguments, a dict of
``output_0``...). A Keras model is saved with its config and weights and loads as an object
whose ``serve`` (and call) runs a copy of the model.
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine import function_replay
from tapeviz.engine.function import Function, _trace_key
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.tensor import TensorLike, Variable, convert_to_tensor
from tapeviz.tf import run_files, trackable
from tapeviz.tf.unavailable import unavailable

__all__ = ["SAVED_MODEL", "contains_saved_model", "load", "save"]

_PB = "saved_model.pb"
# How a Keras layer or model is saved and made again (``dump``, ``revive``): set by
# keras_src.saving (the Keras side knows this module, not the other way round).
KERAS: dict[str, Callable[..., Any]] = {}


class _UserObject:
    """What ``tf.saved_model.load`` gives: the saved variables, sub-objects and functions."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = self.__dict__.get("_call")
        if fn is None:
            raise TypeError("'_UserObject' object is not callable")
        return fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<tensorflow.python.saved_model.load._UserObject object at {id(self):#x}>"


def _functions(obj: Any) -> list[tuple[str, Function, bool]]:
    """The tf.functions of ``obj``: (name, function, whether it is a method of the object)."""
    out: list[tuple[str, Function, bool]] = []
    seen: set[str] = set()
    for klass in type(obj).__mro__:
        for name, value in vars(klass).items():
            fn = getattr(value, "function", value)  # a script class holds it in a method
            if type(fn) is Function and name not in seen:
                seen.add(name)
                out.append((name, fn, True))
    for name, value in vars(obj).items() if hasattr(obj, "__dict__") else ():
        if type(value) is Function and not name.startswith("_") and name not in seen:
            out.append((name, value, False))
    return out


def _traces(fn: Function, obj: Any, method: bool) -> list[tuple[Any, Any]]:
    """The (trace key, program) pairs of ``fn``'s calls on ``obj``."""
    out = []
    for key in fn._traced:
        program = fn._programs.get(key)  # None: a trace the engine cannot replay
        if method and key != "input_signature":
            if isinstance(key, tuple) and key and key[0] == "input_signature":
                first = key[1]
            else:
                first = (
                    key[0][1]
                    if isinstance(key, tuple) and key and isinstance(key[0], tuple)
                    else None
                )
            if first != ("object", id(obj)):
                continue
            key = "input_signature" if key[0] == "input_signature" else key
        out.append((key, program))
    return out


def _tree(obj: Any, ctx: dict[str, Any], path: str) -> dict[str, Any]:
    """The structure to rebuild: variables by checkpoint path, sub-objects, functions."""
    node: dict[str, Any] = {"children": {}, "functions": []}
    for name, fn, method in _functions(obj):
        ctx["functions"].append((fn, obj, method, _traces(fn, obj, method)))
        node["functions"].append([name, len(ctx["functions"]) - 1])
    for name, child in trackable.children(obj):
        node["children"][name] = _child(child, ctx, f"{path}/{name}" if path else name)
    return node


def _child(value: Any, ctx: dict[str, Any], path: str) -> Any:
    if isinstance(value, Variable):
        key = next((p for p, v in ctx["graph"].variables.items() if v is value), path)
        return {"variable": key}
    if isinstance(value, list | tuple):
        return {"list": [_child(v, ctx, f"{path}/{i}") for i, v in enumerate(value)]}
    if isinstance(value, dict):
        return {"dict": {str(k): _child(v, ctx, f"{path}/{k}") for k, v in value.items()}}
    if id(value) in ctx["done"]:
        return {"same": ctx["done"][id(value)]}
    ctx["done"][id(value)] = path
    return {"object": _tree(value, ctx, path)}


def save(obj: Any, export_dir: Any, signatures: Any = None, options: Any = None) -> None:
    """Save ``obj``'s variables and traced functions as a SavedModel folder (see the module)."""
    if not trackable.is_trackable(obj) or isinstance(obj, list | tuple | dict | Variable):
        raise ValueError(
            "Expected an object of type `Trackable`, such as `tf.Module` or a subclass of the "
            f"`Trackable` class, for export. Got {obj!r:.60} with type {type(obj)}."
        )
    path = run_files.fspath(export_dir)
    graph = trackable.collect([("", obj)])
    arrays = {p: np.asarray(v._value) for p, v in graph.variables.items()}
    live: dict[str, Any] = {"variables": graph.variables, "signatures": {}}
    config: dict[str, Any] = {"variables": {p: [v.name, bool(v.trainable)]
                                            for p, v in graph.variables.items()}}  # fmt: skip
    if hasattr(type(obj), "_own_weights") and KERAS:  # a Keras layer: its config rebuilds it
        config["keras"], live["keras"], weights = KERAS["dump"](obj)
        arrays = {f"keras/{k}": v for k, v in weights.items()}
        config["variables"] = {}
    else:
        ctx_tree: dict[str, Any] = {"functions": [], "done": {id(obj): ""}, "graph": graph}
        config["tree"] = _tree(obj, ctx_tree, "")
        live["functions"] = ctx_tree["functions"]
        for name, (fn, owner) in _signatures(signatures).items():
            live["signatures"][name] = (fn, owner, _traces(fn, owner, owner is not None))
    run_files.write(posixpath.join(path, _PB), "saved_model", config, arrays, live=live)
    run_files.write(posixpath.join(path, "fingerprint.pb"), "part", {})
    for name in ("variables.index", "variables.data-00000-of-00001"):
        run_files.write(posixpath.join(path, "variables", name), "part", {})
    run_files.makedirs(posixpath.join(path, "assets"), exist_ok=True)


def _signatures(signatures: Any) -> dict[str, tuple[Function, Any]]:
    if signatures is None:
        return {}
    items = (
        signatures.items() if isinstance(signatures, dict) else [("serving_default", signatures)]
    )
    out: dict[str, tuple[Function, Any]] = {}
    for name, fn in items:
        owner = None
        if isinstance(fn, functools.partial) and isinstance(
            getattr(fn.func, "__self__", None), Function
        ):
            fn, owner = fn.func.__self__, fn.args[0] if fn.args else None
        if not isinstance(fn, Function):
            raise ValueError(
                f"Expected a TensorFlow function for which to generate a signature, got {fn!r:.60}"
            )
        out[str(name)] = (fn, owner)
    return out


def contains_saved_model(export_dir: Any) -> bool:
    """Whether ``export_dir`` holds a SavedModel."""
    found = run_files.read(posixpath.join(run_files.fspath(export_dir), _PB))
    return found is not None and found.kind == "saved_model"


def load(export_dir: Any, tags: Any = None, options: Any = None) -> Any:
    """The object saved at ``export_dir``, with copies of its variables (see the module)."""
    path = run_files.fspath(export_dir)
    found = run_files.read(posixpath.join(path, _PB))
    if found is None or found.kind != "saved_model":
        from tapeviz.engine.errors import NotFoundError

        raise (
            OSError(
                f"SavedModel file does not exist at: {path}/{{saved_model.pbtxt|saved_model.pb}}"
            )
            if not run_files.exists(path)
            else NotFoundError(f"Could not find SavedModel at {path}", "load")
        )
    config, live = found.config, found.live
    if "keras" in config:
        return _load_keras(config, live, found.arrays)
    copies: dict[int, Variable] = {}
    for key, (name, trainable) in config["variables"].items():
        original = live["variables"][key]
        copy = Variable(np.array(found.arrays[key]), trainable=trainable, dtype=original.dtype)
        copy.name = name
        copies[id(original)] = copy
    by_path = {p: copies[id(v)] for p, v in live["variables"].items()}
    pairs = [(v, copies[id(v)]) for v in live["variables"].values()]
    made: dict[str, Any] = {}
    root = _make(config["tree"], live["functions"], by_path, pairs, made, "")
    pairs = [(v, copies[id(v)]) for v in live["variables"].values()]
    root.signatures = {name: _Signature(_Restored(fn, owner, owner is not None, traces, pairs))
                       for name, (fn, owner, traces) in live["signatures"].items()}  # fmt: skip
    return root


Pairs = list[tuple[Variable, Variable]]  # (saved variable, its loaded copy)


def _make(node: dict[str, Any], functions: list[Any], by_path: dict[str, Variable],
          pairs: Pairs, made: dict[str, Any], path: str) -> Any:  # fmt: skip
    obj = _UserObject()
    made[path] = obj

    def build(entry: Any, where: str) -> Any:
        if "variable" in entry:
            return by_path[entry["variable"]]
        if "list" in entry:
            return [build(e, f"{where}/{i}") for i, e in enumerate(entry["list"])]
        if "dict" in entry:
            return {k: build(e, f"{where}/{k}") for k, e in entry["dict"].items()}
        if "same" in entry:
            return made.get(entry["same"])
        return _make(entry["object"], functions, by_path, pairs, made, where)

    for name, entry in node["children"].items():
        setattr(obj, name, build(entry, f"{path}/{name}" if path else name))
    for name, index in node["functions"]:
        fn, original, method, traces = functions[index]
        restored = _Restored(fn, original, method, traces, pairs)
        if name == "__call__":
            obj.__dict__["_call"] = restored
        else:
            setattr(obj, name, restored)
    obj.variables = list(by_path.values()) if not path else []
    obj.trainable_variables = [v for v in obj.variables if v.trainable]
    return obj


def _remap(value: Any, copies: dict[int, Variable]) -> Any:
    if isinstance(value, Variable):
        return copies.get(id(value), value)
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_remap(v, copies) for v in value)
    return value


def _remapped(program: function_replay.Program, copies: dict[int, Variable]) -> Any:
    steps = []
    for step in program.steps:
        if step[0] == "op":
            steps.append(("op", step[1], tuple(_remap(s, copies) for s in step[2])))
        else:
            steps.append((step[0], _remap(step[1], copies),
                          tuple(_remap(s, copies) for s in step[2]), step[3]))  # fmt: skip
    outputs = tuple(_remap(s, copies) for s in program.outputs)
    return program._replace(steps=tuple(steps), outputs=outputs)


class _Restored:
    """A loaded ``tf.function``: replays the traces saved with it on the loaded variables.

    A call that matches a trace the engine could not keep as a program (or an unmatched call
    of a function with an ``input_signature``) runs the function's Python on the saved object
    with the loaded variables' values in its variables for the call (and the values it leaves
    copied back), so the loaded object's state stays its own.
    """

    def __init__(self, fn: Function, original: Any, method: bool, traces: list[Any],
                 pairs: list[tuple[Variable, Variable]]) -> None:  # fmt: skip
        self._fn, self._method, self._original, self._pairs = fn, method, original, pairs
        copies = {id(a): b for a, b in pairs}
        self._traces = [(key, None if p is None else _remapped(p, copies)) for key, p in traces]
        self.__name__ = getattr(fn.python_function, "__name__", "function")

    def _python(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        saved = [(a, a._value) for a, _ in self._pairs]
        for a, b in self._pairs:
            a._value, a._snapshot = b._value, None
        try:
            return self._fn(*args, **kwargs)
        finally:
            for a, b in self._pairs:
                b._value, b._snapshot = a._value, None
            for a, value in saved:
                a._value, a._snapshot = value, None

    def _match(self, bound: dict[str, Any]) -> tuple[Any, list[Any]] | None:
        params = list(bound.items())[1:] if self._method else list(bound.items())
        for key, program in self._traces:
            if key == "input_signature":
                specs = list(self._fn.input_signature or ())
                if len(specs) != len(params):
                    continue
                key = tuple((n, ("tensor", s.dtype.name, None))
                            for (n, _), s in zip(params, specs, strict=True))  # fmt: skip
            tensors = _convert(key, dict(params))
            if tensors is not None and (
                program is None or function_replay.matches(program, tensors)
            ):
                return program, tensors
        return None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = self._fn
        call_args = (self._original, *args) if self._method else args
        bound = fn._bound(call_args, kwargs) or {}
        found = self._match(bound)
        if found is not None and found[0] is not None:
            program, tensors = found
            return function_replay.as_outputs(function_replay.replay(program, tensors))
        if found is not None or fn.input_signature is not None:
            return self._python(call_args, kwargs)
        raise ValueError(
            "Could not find matching concrete function to call loaded from the SavedModel. "
            f"Got:\n  Positional arguments ({len(args)} total):\n"
            + "".join(f"    * {a!r:.80}\n" for a in args)
            + f"  Keyword arguments: {kwargs}\n\n Expected these arguments to match one of "
            f"the following {len(self._traces)} option(s):\n\n"
            + "".join(
                f"Option {i + 1}:\n  {_shown(k)}\n\n" for i, (k, _) in enumerate(self._traces)
            )
        )

    def __repr__(self) -> str:
        return f"<tensorflow.python.saved_model.load.RestoredFunction {self.__name__}>"


def _shown(key: Any) -> str:
    if not isinstance(key, tuple):
        return str(key)
    return ", ".join(f"{name}: {k}" for name, k in key if k[0] != "object")


def _convert(key: Any, named: dict[str, Any]) -> list[Any] | None:
    """The call's tensors, if its arguments fit the trace ``key`` (by parameter)."""
    if not isinstance(key, tuple):
        return None
    tensors = []
    for name, want in key:
        if want[0] == "object":
            continue
        if name not in named:
            return None
        value = named[name]
        if want[0] == "tensor":
            try:
                t = (
                    value
                    if isinstance(value, TensorLike)
                    else convert_to_tensor(value, dtype=want[1])
                )
            except (TypeError, ValueError):
                return None
            if t.dtype.name != want[1] or (want[2] is not None and tuple(t.shape) != want[2]):
                return None
            tensors.append(t)
        elif _trace_key(value) != want:
            return None
    return tensors


class _Signature:
    """A serving signature: keyword arguments in, a dict of ``output_0``, ... out."""

    def __init__(self, restored: _Restored) -> None:
        self._restored = restored

    def __call__(self, **kwargs: Any) -> dict[str, Any]:
        result = self._restored(**kwargs)
        if isinstance(result, dict):
            return result
        leaves = list(result) if isinstance(result, list | tuple) else [result]
        return {f"output_{i}": v for i, v in enumerate(leaves)}


def _load_keras(config: dict[str, Any], live: dict[str, Any], arrays: Any) -> Any:
    model = KERAS["revive"](config["keras"], live["keras"], {k[6:]: v for k, v in arrays.items()})
    obj = _UserObject()

    def serve(*args: Any) -> Any:
        return model(*args, training=False)

    obj.__dict__["_call"] = serve
    obj.serve = serve
    obj.variables = list(model.weights)
    obj.trainable_variables = list(model.trainable_weights)
    obj.signatures = {"serving_default": lambda **kw: {"output_0": serve(*kw.values())}}
    return obj


SAVED_MODEL = Namespace(
    "tf.saved_model",
    {"save": save, "load": load, "contains_saved_model": contains_saved_model,
     "SaveOptions": unavailable("tf.saved_model.SaveOptions", "save"),
     "LoadOptions": unavailable("tf.saved_model.LoadOptions", "save"),
     "Asset": unavailable("tf.saved_model.Asset", "file")},
)  # fmt: skip
