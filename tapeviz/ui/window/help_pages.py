"""The Help pages' contents: getting started, the keys, and the TensorFlow names tapeviz has.

The keys are read from the window's own menus (so the list is what the menus do), plus the
keys the views take themselves; the TensorFlow names come from the ``tapeviz.tf`` namespace
itself (its ``supported_names()`` when it has one, else a walk of its attributes).
"""

from __future__ import annotations

import html
import types
from collections.abc import Iterator
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar

from tapeviz.engine.namespace import Namespace

CONTEXT = "Help"
TEXTS = {
    "keys": QT_TRANSLATE_NOOP("Help", "Keyboard shortcuts"),
    "key": QT_TRANSLATE_NOOP("Help", "Key"),
    "does": QT_TRANSLATE_NOOP("Help", "Does"),
    "where": QT_TRANSLATE_NOOP("Help", "Where"),
    "names": QT_TRANSLATE_NOOP("Help", "Libraries in tapeviz"),
    "names_intro": QT_TRANSLATE_NOOP(
        "Help",
        "Scripts can use these names after import tensorflow as tf (or tapeviz.tf), "
        "import torch (or tapeviz.torch) and import sklearn (its data sets, splits, scalers "
        "and scores).",
    ),
    "no_match": QT_TRANSLATE_NOOP("Help", "No name matches."),
    "keras3": QT_TRANSLATE_NOOP(
        "Help",
        "tf.keras is Keras 3, and where Keras 3 does something other than a tutorial's text "
        "says, tapeviz does what Keras 3 does: a layer's weights are the ones add_weight or "
        "keras.Variable made (a tf.Variable attribute of a Keras layer or model is not among "
        "its variables, is not counted in the summary and is not trained by fit, while a "
        "tf.Module's are); a layer's positional inputs must be tensors or arrays (a list of "
        "numbers raises ValueError); a Keras model has no submodules; get_config()['dtype'] "
        "is a DTypePolicy dict; compile() without a loss keeps the loss given before; an "
        "overridden train_step gets (x, y) from fit, (x, y, sample_weight) with sample "
        "weights, and (x, y, sample_weight) always from train_on_batch.",
    ),
}
# Keys the views take themselves (no menu shows them): (where, key, what it does)
VIEW_KEYS = (
    (QT_TRANSLATE_NOOP("Help", "Graph"), "F", QT_TRANSLATE_NOOP("Help", "fit the graph")),
    (QT_TRANSLATE_NOOP("Help", "Graph"), "+  −", QT_TRANSLATE_NOOP("Help", "zoom in, out")),
    (QT_TRANSLATE_NOOP("Help", "Graph"), "← → ↑ ↓",
     QT_TRANSLATE_NOOP("Help", "walk to the neighbouring node")),
    (QT_TRANSLATE_NOOP("Help", "Graph"), "Esc", QT_TRANSLATE_NOOP("Help", "clear the selection")),
    (QT_TRANSLATE_NOOP("Help", "Graph"), QT_TRANSLATE_NOOP("Help", "wheel, drag"),
     QT_TRANSLATE_NOOP("Help", "zoom at the pointer, pan")),
    (QT_TRANSLATE_NOOP("Help", "Backward pass"), "R",
     QT_TRANSLATE_NOOP("Help", "reveal the step (predict, then reveal)")),
    (QT_TRANSLATE_NOOP("Help", "Editor"), "Tab",
     QT_TRANSLATE_NOOP("Help", "indent (four spaces)")),
    (QT_TRANSLATE_NOOP("Help", "Editor"), "Enter",
     QT_TRANSLATE_NOOP("Help", "new line, indented like the last (one level more after ':')")),
    (QT_TRANSLATE_NOOP("Help", "Optimization"), QT_TRANSLATE_NOOP("Help", "click the surface"),
     QT_TRANSLATE_NOOP("Help", "start every run from there")),
)  # fmt: skip
GETTING_STARTED = (
    QT_TRANSLATE_NOOP("Help", "Getting started"),
    QT_TRANSLATE_NOOP(
        "Help",
        "<b>1. Type a function.</b> In expression mode the editor holds one formula of the "
        "variables, such as <code>a*x**2 + b*x + c</code> (<code>^</code>, <code>·</code> and "
        "<code>x²</code> work too). The graph follows as you type.",
    ),
    QT_TRANSLATE_NOOP(
        "Help",
        "<b>2. Give the variables values.</b> Each row of the Variables table is a name, a "
        "value (a number or a list such as <code>[1, 2, 3]</code>) and a kind: "
        "<i>trainable</i> (a tf.Variable, it gets a gradient), <i>watched</i> (a constant the "
        "tape watches) or <i>constant</i>. An unknown name in the formula offers to add it.",
    ),
    QT_TRANSLATE_NOOP(
        "Help",
        "<b>3. Read the graph.</b> Every recorded op is a node with its value; after the "
        "backward pass each node also shows its gradient. Click a node to see every path to "
        "the result; hover for the full value and the op's rule.",
    ),
    QT_TRANSLATE_NOOP(
        "Help",
        "<b>4. Step through the backward pass.</b> The Backward pass tab walks the chain "
        "rule one op at a time: → steps, ← goes back, Space plays, Home starts again. Turn "
        "on <i>predict, then reveal</i> to let the class guess each gradient first.",
    ),
    QT_TRANSLATE_NOOP(
        "Help",
        "<b>5. Watch an optimizer.</b> The Optimization tab (Ctrl+2) minimizes the function "
        "over its trainable variables: pick optimizers and learning rates, press Play, click "
        "the surface to start elsewhere. The graph shows the tape of the step on screen.",
    ),
    QT_TRANSLATE_NOOP(
        "Help",
        "<b>6. Or paste TensorFlow code.</b> Switch the mode to Script and paste a "
        "<code>tf.GradientTape</code> example as it is: <code>import tensorflow as tf</code> "
        "runs on tapeviz's own tape (the last page lists the names it has). Ctrl+Enter runs, "
        "Stop ends a long run.",
    ),
    QT_TRANSLATE_NOOP(
        "Help",
        "<b>7. Present it.</b> Ctrl + and Ctrl − scale every text, F11 is full screen, "
        "Ctrl+Shift+D the dark theme and Ctrl+Shift+H clean mode (only the graph and the "
        "tabs). The Presets menu holds every example of the tutorials.",
    ),
)


def tr(text: str) -> str:
    """``text`` (marked with QT_TRANSLATE_NOOP above) in the interface language."""
    return QCoreApplication.translate(CONTEXT, text)


def getting_started_html() -> str:
    """The getting-started page."""
    title, *steps = GETTING_STARTED
    return f"<h2>{html.escape(tr(title))}</h2>" + "".join(f"<p>{tr(s)}</p>" for s in steps)


def _plain(text: str) -> str:
    """A menu text without its mnemonic ampersand and its tab-separated key hint."""
    return text.split("\t")[0].replace("&&", "\0").replace("&", "").replace("\0", "&")


def menu_keys(bar: QMenuBar) -> Iterator[tuple[str, str, str]]:
    """(menu, key, command) for every action of ``bar``'s menus that has a key."""

    def walk(menu: QMenu, path: str) -> Iterator[tuple[str, str, str]]:
        for action in menu.actions():
            sub = action.menu()
            if isinstance(sub, QMenu):
                yield from walk(sub, f"{path} › {_plain(action.text())}")
                continue
            yield from _action_key(action, path)

    for top in bar.actions():
        menu = top.menu()
        if isinstance(menu, QMenu):
            yield from walk(menu, _plain(top.text()))


def _action_key(action: QAction, path: str) -> Iterator[tuple[str, str, str]]:
    native = QKeySequence.SequenceFormat.NativeText
    key = action.shortcut().toString(native)
    if not key and "\t" in action.text():  # a window key shown in the menu ("Play\tSpace")
        key = action.text().split("\t", 1)[1]
    if key:
        yield path, key, _plain(action.text())


def shortcuts_html(bar: QMenuBar) -> str:
    """The keyboard page: the menus' keys, then the keys the views take themselves."""
    rows = [(m, k, c) for m, k, c in menu_keys(bar)]
    rows += [(tr(where), tr(key), tr(what)) for where, key, what in VIEW_KEYS]
    body = "".join(
        f"<tr><td><b>{html.escape(key)}</b></td><td>{html.escape(what)}</td>"
        f"<td><i>{html.escape(where)}</i></td></tr>"
        for where, key, what in rows
    )
    head = html.escape(tr(TEXTS["keys"]))
    cols = "".join(
        f"<th align='left'>{html.escape(tr(TEXTS[c]))}</th>" for c in ("key", "does", "where")
    )
    return f"<h2>{head}</h2><table cellspacing='0' cellpadding='4'><tr>{cols}</tr>{body}</table>"


# -- the TensorFlow names --------------------------------------------------------------------
def _is_name(value: Any) -> bool:
    """A public name of the namespace (not an import or ``from __future__`` left-over)."""
    return not isinstance(value, types.ModuleType) and type(value).__module__ != "__future__"


def walk_names(root: Any, prefix: str = "tf") -> dict[str, list[str]]:
    """``{"tf": [...], "tf.math": [...], ...}``: each namespace once, names sorted.

    Sub-namespaces are listed under their own name (``tf.keras.optimizers``, also reachable as
    ``tf.optimizers``) in the order they are met.
    """
    out: dict[str, list[str]] = {}
    seen: list[int] = []
    todo: list[tuple[str, Any]] = [(prefix, root)]
    while todo:
        path, space = todo.pop(0)
        if id(space) in seen:
            continue
        seen.append(id(space))
        names = space.names() if isinstance(space, Namespace) else vars(space)
        plain: list[str] = []
        for name, value in names.items():
            if name.startswith("_") or not _is_name(value):
                continue
            if isinstance(value, Namespace):
                own = value._name if value._name.startswith(prefix + ".") else f"{path}.{name}"
                todo.append((own, value))
            else:
                plain.append(name)
        out[path] = sorted(plain, key=str.lower)
    return out


def _names(ns: Namespace, title: str, out: dict[str, list[str]]) -> None:
    names = [n for n in ns if not n.startswith("_")]
    plain = [n for n in names if type(getattr(ns, n)) is not Namespace]
    if plain:
        out[title] = sorted(plain, key=str.lower)
    for n in names:
        value = getattr(ns, n)
        if type(value) is Namespace:
            _names(value, f"{title}.{n}", out)


def catalog() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(what scripts can use, what TensorFlow has that tapeviz keeps out), by namespace."""
    import tapeviz.tf as tf
    from tapeviz.sandbox.runtime import modules

    names = tensorflow_names()
    _names(modules.TORCH, "torch", names)
    _names(modules.SKLEARN, "sklearn", names)
    _names(modules.NUMPY, "np", names)
    _names(modules.MATH, "math", names)
    _names(modules.MATPLOTLIB, "matplotlib", names)
    _names(modules.OS, "os", names)  # the run's own folder (saving)
    _names(modules.TIME, "time", names)  # the clock only (no sleep)
    _names(modules.TIMEIT, "timeit", names)
    _names(modules.DATETIME, "datetime", names)
    return names, dict(tf.unavailable_names())


def tensorflow_names() -> dict[str, list[str]]:
    """The names ``import tensorflow as tf`` gives a tapeviz script, by namespace."""
    import tapeviz.tf as tf

    supported = getattr(tf, "supported_names", None)  # the namespace's own list, if it has one
    if callable(supported):
        return {str(k): sorted(map(str, v), key=str.lower) for k, v in supported().items()}
    return walk_names(tf)


def names_html(names: dict[str, list[str]], needle: str = "") -> str:
    """The names page, only the names containing ``needle`` (any case) if one is given."""
    needle = needle.strip().lower()
    parts = [f"<h2>{html.escape(tr(TEXTS['names']))}</h2>",
             f"<p>{html.escape(tr(TEXTS['names_intro']))}</p>",
             f"<p>{html.escape(tr(TEXTS['keras3']))}</p>"]  # fmt: skip
    shown = 0
    for space, items in names.items():
        hits = [n for n in items if needle in f"{space}.{n}".lower()] if needle else items
        if not hits:
            continue
        shown += len(hits)
        listed = ", ".join(f"<code>{html.escape(n)}</code>" for n in hits)
        parts.append(f"<h3><code>{html.escape(space)}</code> ({len(hits)})</h3><p>{listed}</p>")
    if not shown:
        parts.append(f"<p><i>{html.escape(tr(TEXTS['no_match']))}</i></p>")
    return "".join(parts)
