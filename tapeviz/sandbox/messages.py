"""What tapeviz itself says about user code: a code, an English template, and its fields.

The headless layers never build tapeviz's sentences as plain strings: an error carries a
:class:`Message` (``code`` and ``fields``), so the window can show it in the interface language
(:mod:`tapeviz.ui.messages`) while the command line and the tests read the English ``text``.
Python's and TensorFlow's own exception texts are not messages: they stay as the real tools
word them, and a field may hold one (``{python}``).

Templates are marked for Qt's translation tools by the local ``QT_TRANSLATE_NOOP`` (this layer
never imports Qt). A field whose value is one of :data:`PHRASES` (words, not code) is
translated too, and so is one that has the form of one of :data:`FORMS` (a phrase with fields
of its own: a reason inside a sentence). A layer above adds its own sentences with
:func:`register` when imported (the studio's, in :mod:`tapeviz.models.descent.messages`).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass

CONTEXT = "UserCode"
Fields = tuple[tuple[str, str], ...]


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark ``text`` for translation without translating it (Qt's tools look for this name)."""
    return text


TEMPLATES: dict[str, str] = {
    # -- stopping and the limits ----------------------------------------------------------
    "stopped": QT_TRANSLATE_NOOP("UserCode", "stopped by the user"),
    "steps": QT_TRANSLATE_NOOP("UserCode", "more than {cap} steps executed"),
    "wall_time": QT_TRANSLATE_NOOP(
        "UserCode", "the script ran longer than the {seconds} s time limit"
    ),
    "output": QT_TRANSLATE_NOOP("UserCode", "more than {cap} characters printed"),
    "print_output": QT_TRANSLATE_NOOP("UserCode", "print() would write more than {cap} characters"),
    "repr_output": QT_TRANSLATE_NOOP(
        "UserCode", "a __repr__ returned more than {cap} characters (the output limit)"
    ),
    "tf_print_output": QT_TRANSLATE_NOOP(
        "UserCode", "tf.print would print more than {cap} characters"
    ),
    "recursion": QT_TRANSLATE_NOOP(
        "UserCode", "{name}() called itself (or other functions) more than {cap} levels deep"
    ),
    "too_deep": QT_TRANSLATE_NOOP("UserCode", "the code is nested or recursive too deeply"),
    "memory_grown": QT_TRANSLATE_NOOP(
        "UserCode", "the script used {grown} MB more memory, more than the limit of {cap} MB"
    ),
    "memory": QT_TRANSLATE_NOOP("UserCode", "more than {cap} MB of memory"),
    "answer_refused": QT_TRANSLATE_NOOP(
        "UserCode", "the run's result is too big or too deep for the window to show: {why}"
    ),
    "size": QT_TRANSLATE_NOOP(
        "UserCode", "{what} would have {count} elements, more than the limit of {cap}"
    ),
    "tensor_size": QT_TRANSLATE_NOOP(
        "UserCode", "{what} would have {count} elements, more than the tensor size limit of {cap}"
    ),
    "work": QT_TRANSLATE_NOOP(
        "UserCode", "{what} would take {count} multiply-adds, more than the limit of {cap}"
    ),
    "int_bits": QT_TRANSLATE_NOOP(
        "UserCode",
        "{what} would be an integer of about {bits} bits, more than the limit of {cap}",
    ),
    "text_size": QT_TRANSLATE_NOOP(
        "UserCode", "{what} would make more than {cap} characters of text"
    ),
    "text_length": QT_TRANSLATE_NOOP(
        "UserCode", "{what} would be at least {count} characters long, more than the limit of {cap}"
    ),
    "width": QT_TRANSLATE_NOOP("UserCode", "{what} asks for a width of {width} (more than {cap})"),
    "tuple_nesting": QT_TRANSLATE_NOOP("UserCode", "a tuple nested more than {cap} levels deep"),
    "tuple_hash": QT_TRANSLATE_NOOP(
        "UserCode", "hashing this tuple would take too long (it shares parts)"
    ),
    "list_nesting": QT_TRANSLATE_NOOP(
        "UserCode", "{what}: the list is nested more than {cap} levels deep"
    ),
    "big_constant": QT_TRANSLATE_NOOP("UserCode", "this number is too large to compute"),
    # -- what the sandbox refuses ---------------------------------------------------------
    "round_digits": QT_TRANSLATE_NOOP(
        "UserCode", "round() with more than 10,000 digits either way is not available"
    ),
    "iter_sentinel": QT_TRANSLATE_NOOP(
        "UserCode", "iter(function, sentinel) is not available; use a while loop"
    ),
    "print_file": QT_TRANSLATE_NOOP(
        "UserCode", "print(file=...) is not available: output goes to the console"
    ),
    "math_bound": QT_TRANSLATE_NOOP(
        "UserCode", "math.{name} of a number above {cap} is not available"
    ),
    "import": QT_TRANSLATE_NOOP("UserCode", "import of '{module}' is not allowed"),
    "numpy_dtype_value": QT_TRANSLATE_NOOP(
        "UserCode", "numpy values of dtype {dtype} are not available"
    ),
    "numpy_dtype_array": QT_TRANSLATE_NOOP(
        "UserCode", "numpy arrays of dtype {dtype} are not available"
    ),
    "array_dtype": QT_TRANSLATE_NOOP("UserCode", "arrays of dtype {dtype} are not available"),
    "big_integer": QT_TRANSLATE_NOOP(
        "UserCode", "the integer {value} is too large for a numpy array"
    ),
    "numpy_option": QT_TRANSLATE_NOOP(
        "UserCode", "numpy options given as lists or tuples must hold integers"
    ),
    "attribute": QT_TRANSLATE_NOOP(
        "UserCode", "'{name}' of {owner} is not available in tapeviz scripts"
    ),
    "set_attribute": QT_TRANSLATE_NOOP("UserCode", "cannot set '{name}' on {owner}"),
    "construct": QT_TRANSLATE_NOOP(
        "UserCode", "{name} objects cannot be created directly in tapeviz scripts"
    ),
    "call": QT_TRANSLATE_NOOP("UserCode", "calling {name} is not available in tapeviz scripts"),
    "builtin": QT_TRANSLATE_NOOP("UserCode", "{name}() is not available in tapeviz scripts"),
    "nested_format": QT_TRANSLATE_NOOP(
        "UserCode", "nested {{}} in a format spec are not available"
    ),
    "format_lookup": QT_TRANSLATE_NOOP(
        "UserCode", "format field '{field}' looks up attributes or items"
    ),
    "percent_star": QT_TRANSLATE_NOOP("UserCode", "% formatting with * widths is not available"),
    "with_manager": QT_TRANSLATE_NOOP("UserCode", "with cannot use {name}"),
    "tapes_capped": QT_TRANSLATE_NOOP(
        "UserCode",
        "to stay within the memory limit the timeline keeps the first {kept} tapes ({mb} MB of "
        "values); the run went on without keeping later ones (raise the limit in Preferences "
        "to keep more)",
    ),
    "decorator": QT_TRANSLATE_NOOP(
        "UserCode",
        "only @tf.function, @tf.custom_gradient, @property (and @x.setter), @staticmethod "
        "and @classmethod decorators are supported",
    ),
    "item_assignment": QT_TRANSLATE_NOOP("UserCode", "item assignment is not available on {name}"),
    "assign_target": QT_TRANSLATE_NOOP("UserCode", "cannot assign to {name}"),
    "del_items": QT_TRANSLATE_NOOP("UserCode", "del is not available on {name} items"),
    "del_target": QT_TRANSLATE_NOOP(
        "UserCode", "only names, attributes and list/dict items can be deleted"
    ),
    "not_supported": QT_TRANSLATE_NOOP("UserCode", "{name} is not supported"),
    "keyword_names": QT_TRANSLATE_NOOP("UserCode", "keyword arguments must be plain names"),
    "async_def": QT_TRANSLATE_NOOP("UserCode", "async functions are not supported"),
    "async_for": QT_TRANSLATE_NOOP("UserCode", "async loops are not supported"),
    "async_with": QT_TRANSLATE_NOOP("UserCode", "async with is not supported"),
    "await": QT_TRANSLATE_NOOP("UserCode", "await is not supported"),
    "yield": QT_TRANSLATE_NOOP(
        "UserCode", "yield works as a statement only (yield value), not inside an expression"
    ),
    "yield_from": QT_TRANSLATE_NOOP(
        "UserCode", "yield from works as a statement only, not inside an expression"
    ),
    "walrus": QT_TRANSLATE_NOOP(
        "UserCode", "the walrus operator := is not supported; assign on its own line"
    ),
    "dunder": QT_TRANSLATE_NOOP("UserCode", "{what} '{name}' is not available"),
    "private_attribute": QT_TRANSLATE_NOOP("UserCode", "the attribute '{name}' is not available"),
    "import_star": QT_TRANSLATE_NOOP("UserCode", "import * is not supported"),
    "relative_import": QT_TRANSLATE_NOOP("UserCode", "relative imports are not supported"),
    # -- reading the text -----------------------------------------------------------------
    "syntax": QT_TRANSLATE_NOOP("UserCode", "syntax error: {python}"),
    "syntax_indent": QT_TRANSLATE_NOOP("UserCode", "syntax error: indentation: {python}"),
    "syntax_early_end": QT_TRANSLATE_NOOP(
        "UserCode", "syntax error: {python} (the code ends too early)"
    ),
    "syntax_indent_early_end": QT_TRANSLATE_NOOP(
        "UserCode", "syntax error: indentation: {python} (the code ends too early)"
    ),
    "unreadable": QT_TRANSLATE_NOOP("UserCode", "cannot read the code: {python}"),
    "unreadable_deep": QT_TRANSLATE_NOOP("UserCode", "cannot read the code: nested too deeply"),
    "line_break": QT_TRANSLATE_NOOP(
        "UserCode", "the character {name} is a line break to some tools but not to Python"
    ),
    "coding": QT_TRANSLATE_NOOP(
        "UserCode", "a coding declaration is not allowed: tapeviz code is always UTF-8"
    ),
    "unknown_name": QT_TRANSLATE_NOOP("UserCode", "unknown name '{name}'"),
    "unknown_mode": QT_TRANSLATE_NOOP(
        "UserCode", "unknown mode {mode}: use 'script' or 'expression'"
    ),
    "division_by_zero": QT_TRANSLATE_NOOP("UserCode", "division by zero"),
    "assertion": QT_TRANSLATE_NOOP("UserCode", "assertion failed"),
    "assertion_text": QT_TRANSLATE_NOOP("UserCode", "assertion failed: {python}"),
    "no_key": QT_TRANSLATE_NOOP("UserCode", "no key {key} in the dict"),
    # -- expression mode ------------------------------------------------------------------
    "empty_expression": QT_TRANSLATE_NOOP("UserCode", "the expression is empty"),
    "expression_unknown_name": QT_TRANSLATE_NOOP(
        "UserCode", "unknown name '{name}' — add it as a variable?"
    ),
    "expression_function_name": QT_TRANSLATE_NOOP(
        "UserCode", "'{name}' is a function: call it like {name}(x)"
    ),
    "expression_not_allowed": QT_TRANSLATE_NOOP(
        "UserCode", "{what} is not allowed in an expression"
    ),
    "expression_constant": QT_TRANSLATE_NOOP("UserCode", "cannot compute this constant: {python}"),
    "expression_call": QT_TRANSLATE_NOOP(
        "UserCode", "only plain function names can be called, like sin(x)"
    ),
    "expression_function": QT_TRANSLATE_NOOP("UserCode", "unknown function '{name}'"),
    "expression_positional": QT_TRANSLATE_NOOP(
        "UserCode", "{name}() takes positional arguments only"
    ),
    # -- the worker process ---------------------------------------------------------------
    "crash": QT_TRANSLATE_NOOP(
        "UserCode",
        "the run crashed the worker ({why}); your code is kept and the worker was restarted",
    ),
    "crash_status": QT_TRANSLATE_NOOP(
        "UserCode",
        "the run crashed the worker (it exited with status {status}); your code is kept and "
        "the worker was restarted",
    ),
    # -- the variables table --------------------------------------------------------------
    "value_empty": QT_TRANSLATE_NOOP("UserCode", "the value is empty"),
    "value_long": QT_TRANSLATE_NOOP("UserCode", "the value is too long"),
    "value_not_number": QT_TRANSLATE_NOOP(
        "UserCode", "{text} is not a number or a list like [1, 2, 3]"
    ),
    "variable_name": QT_TRANSLATE_NOOP("UserCode", "{name} is not a valid variable name"),
    "variable_kind": QT_TRANSLATE_NOOP(
        "UserCode", "variable kind must be one of {kinds}, got {kind}"
    ),
    "variable_twice": QT_TRANSLATE_NOOP("UserCode", "the name {name} is used twice"),
    # -- hints ----------------------------------------------------------------------------
    "hint_raise_limit": QT_TRANSLATE_NOOP(
        "UserCode", "raise the limit in Preferences if this is intended"
    ),
    "hint_endless_loop": QT_TRANSLATE_NOOP(
        "UserCode", "an endless loop? (or raise the time limit in Preferences)"
    ),
    "hint_base_case": QT_TRANSLATE_NOOP("UserCode", "does the recursion have a base case?"),
    "hint_did_you_mean": QT_TRANSLATE_NOOP("UserCode", "did you mean '{name}'?"),
    "hint_known_functions": QT_TRANSLATE_NOOP("UserCode", "known: {names}"),
    "hint_imports": QT_TRANSLATE_NOOP(
        "UserCode",
        "tapeviz scripts can import tensorflow, torch, numpy, matplotlib, sklearn, math, random, "
        "os, time, timeit, datetime, pathlib, pprint, tqdm and tapeviz",
    ),
    "hint_public_api": QT_TRANSLATE_NOOP(
        "UserCode", "only the documented public API of tensors, tapes and optimizers is"
    ),
    "hint_settable": QT_TRANSLATE_NOOP("UserCode", "only opt.learning_rate is settable"),
    "hint_width": QT_TRANSLATE_NOOP("UserCode", "write the width itself"),
    "hint_format_value": QT_TRANSLATE_NOOP(
        "UserCode", "format the value itself instead, e.g. f'{{x:.3f}}'"
    ),
    "hint_contains_itself": QT_TRANSLATE_NOOP("UserCode", "does it contain itself?"),
    "hint_with": QT_TRANSLATE_NOOP(
        "UserCode",
        "with works with tf.GradientTape(...), tape.stop_recording() and torch.no_grad()",
    ),
    "hint_no_files": QT_TRANSLATE_NOOP("UserCode", "no file or memory access"),
    "hint_no_code": QT_TRANSLATE_NOOP("UserCode", "no running of other code"),
    "hint_no_introspection": QT_TRANSLATE_NOOP("UserCode", "no introspection"),
    "hint_dunder": QT_TRANSLATE_NOOP("UserCode", "dunder names are off limits"),
    "hint_private": QT_TRANSLATE_NOOP(
        "UserCode",
        "private attributes are open on your own classes' objects and on the methods your "
        "classes add to library classes, never on library objects; dunder attributes are off "
        "limits",
    ),
    "hint_import_names": QT_TRANSLATE_NOOP("UserCode", "import the names you need"),
    "hint_line_break": QT_TRANSLATE_NOOP("UserCode", "replace it with a newline or a space"),
    "hint_coding": QT_TRANSLATE_NOOP("UserCode", "remove the '# coding: …' comment"),
    "hint_script_mode": QT_TRANSLATE_NOOP("UserCode", "switch to script mode for Python code"),
    "hint_write_float": QT_TRANSLATE_NOOP(
        "UserCode", "{op} needs a float: write {value} instead of {literal}"
    ),
    "hint_cast": QT_TRANSLATE_NOOP("UserCode", "use {ns}.cast(x, {ns}.{dtype})"),
    # -- names that are not there (scripts as people paste them) --------------------------
    "python_error": QT_TRANSLATE_NOOP("UserCode", "{python}"),
    "not_in_tapeviz": QT_TRANSLATE_NOOP("UserCode", "{name} is not available in tapeviz"),
    "run_over": QT_TRANSLATE_NOOP(
        "UserCode", "the run is over: its functions cannot be called any more"
    ),
    "unshowable": QT_TRANSLATE_NOOP("UserCode", "{name} (its message could not be shown)"),
    "hint_text": QT_TRANSLATE_NOOP("UserCode", "{text}"),
    "class_keywords": QT_TRANSLATE_NOOP(
        "UserCode", "class keywords (metaclass=...) are not supported in tapeviz scripts"
    ),
    "class_decorators": QT_TRANSLATE_NOOP(
        "UserCode", "class decorators are not supported in tapeviz scripts"
    ),
    "class_bases": QT_TRANSLATE_NOOP(
        "UserCode", "a class's bases must be written out, not unpacked with *"
    ),
    "class_attribute": QT_TRANSLATE_NOOP(
        "UserCode", "the class attribute '{name}' is not available"
    ),
    "hint_class_dunder": QT_TRANSLATE_NOOP(
        "UserCode",
        "a tapeviz class may define __init__, __call__, __len__, __getitem__, __repr__ and the "
        "arithmetic operators (__add__, __radd__, __sub__, __mul__, __truediv__, __pow__, "
        "__matmul__, __neg__, …), no other __methods__",
    ),
    "hint_class_private": QT_TRANSLATE_NOOP(
        "UserCode",
        "a class may not give a name starting with _ that a library base class already has "
        "(nor any __name)",
    ),
    "del_attribute": QT_TRANSLATE_NOOP("UserCode", "cannot delete '{name}' of {owner}"),
    "type_three": QT_TRANSLATE_NOOP(
        "UserCode", "type() with three arguments is not available: write a class statement"
    ),
    "object_call": QT_TRANSLATE_NOOP("UserCode", "object() is not available in tapeviz scripts"),
    "hint_object_base": QT_TRANSLATE_NOOP("UserCode", "object works as a base class"),
    "functions_only": QT_TRANSLATE_NOOP(
        "UserCode", "{what} works only on functions defined in the script"
    ),
    "method_def": QT_TRANSLATE_NOOP("UserCode", "{name} must be a method defined with def"),
    "super_attribute": QT_TRANSLATE_NOOP(
        "UserCode", "super().{name} is not available in tapeviz scripts"
    ),
    "hint_help": QT_TRANSLATE_NOOP(
        "UserCode", 'see Help → "Libraries in tapeviz" for what is there'
    ),
    "hint_add_import": QT_TRANSLATE_NOOP(
        "UserCode", "add `{line}` above (tf and np are always there)"
    ),
    "hint_did_you_mean_plt": QT_TRANSLATE_NOOP(
        "UserCode", "did you mean 'plt.{name}'? (`import matplotlib.pyplot as plt`)"
    ),
    "hint_tf_lacks": QT_TRANSLATE_NOOP(
        "UserCode",
        'tf.{name} is not available in tapeviz; see Help → "Libraries in tapeviz" '
        "for what is there",
    ),
    "hint_numpy_has": QT_TRANSLATE_NOOP(
        "UserCode", "tapeviz's numpy has maths, random numbers and array creation"
    ),
    "hint_plots_draw": QT_TRANSLATE_NOOP(
        "UserCode", "the Plots tab draws plot, scatter, hist, bar, imshow and contour"
    ),
}

PHRASES: tuple[str, ...] = (
    # why a name is not there (sandbox.runtime.known: WHY_NOT, ELSEWHERE; a test keeps them equal)
    QT_TRANSLATE_NOOP("UserCode", "tapeviz scripts have no file access"),
    QT_TRANSLATE_NOOP(
        "UserCode", "it would run Python code or expose memory outside tapeviz's checks"
    ),
    QT_TRANSLATE_NOOP("UserCode", "pandas is not available in tapeviz: use numpy arrays"),
    QT_TRANSLATE_NOOP("UserCode", "JAX is not available in tapeviz: write it with tf or np"),
    QT_TRANSLATE_NOOP("UserCode", "seaborn is not available in tapeviz: use plt"),
    QT_TRANSLATE_NOOP("UserCode", "scipy is not available in tapeviz: use np and tf"),
    QT_TRANSLATE_NOOP("UserCode", "TensorFlow Probability is not available in tapeviz"),
    QT_TRANSLATE_NOOP(
        "UserCode",
        "TensorFlow Datasets is not available in tapeviz (no downloads): "
        "sklearn.datasets.load_digits has 8×8 digits, make_moons and make_circles toy sets",
    ),
    QT_TRANSLATE_NOOP(
        "UserCode",
        "torchvision, torchaudio and torchtext are not available in tapeviz (no downloads): make "
        "a small data set in the script (torch.randn, TensorDataset), or use "
        "sklearn.datasets.load_digits (8×8 digits)",
    ),
    QT_TRANSLATE_NOOP(
        "UserCode",
        "scikit-learn's models are not in tapeviz (its data sets, splits, scalers and scores "
        "are): build the model with tf or torch",
    ),
    QT_TRANSLATE_NOOP(
        "UserCode",
        "tapeviz downloads nothing: use a bundled set (load_iris, load_digits, load_wine, "
        "load_breast_cancer, load_diabetes) or make one (make_moons, make_circles, make_blobs)",
    ),
    QT_TRANSLATE_NOOP(
        "UserCode", "tapeviz scripts have no access to files, the system or the clock"
    ),
    QT_TRANSLATE_NOOP("UserCode", "display() is IPython's: use print(), or plt.show() for plots"),
    # the {what} of the size limits
    QT_TRANSLATE_NOOP("UserCode", "the array"),
    QT_TRANSLATE_NOOP("UserCode", "the list"),
    QT_TRANSLATE_NOOP("UserCode", "the dict"),
    QT_TRANSLATE_NOOP("UserCode", "the set"),
    QT_TRANSLATE_NOOP("UserCode", "the collection"),
    QT_TRANSLATE_NOOP("UserCode", "the slice"),
    QT_TRANSLATE_NOOP("UserCode", "the display"),
    QT_TRANSLATE_NOOP("UserCode", "the comprehension"),
    QT_TRANSLATE_NOOP("UserCode", "the f-string"),
    QT_TRANSLATE_NOOP("UserCode", "the formatted values"),
    QT_TRANSLATE_NOOP("UserCode", "the replaced string"),
    QT_TRANSLATE_NOOP("UserCode", "the formatted string"),
    QT_TRANSLATE_NOOP("UserCode", "the % format"),
    QT_TRANSLATE_NOOP("UserCode", "the changed string"),
    QT_TRANSLATE_NOOP("UserCode", "the joined string"),
    QT_TRANSLATE_NOOP("UserCode", "the result of +"),
    QT_TRANSLATE_NOOP("UserCode", "the repeated sequence"),
    QT_TRANSLATE_NOOP("UserCode", "the matrix product"),
    QT_TRANSLATE_NOOP("UserCode", "the range scan"),
    QT_TRANSLATE_NOOP("UserCode", "the * arguments"),
    QT_TRANSLATE_NOOP("UserCode", "the product"),
    QT_TRANSLATE_NOOP("UserCode", "the shifted integer"),
    QT_TRANSLATE_NOOP("UserCode", "the power"),
    QT_TRANSLATE_NOOP("UserCode", "the code"),
    # the {what} of a dunder name
    QT_TRANSLATE_NOOP("UserCode", "the name"),
    QT_TRANSLATE_NOOP("UserCode", "the function name"),
    QT_TRANSLATE_NOOP("UserCode", "the parameter"),
    QT_TRANSLATE_NOOP("UserCode", "the keyword"),
    QT_TRANSLATE_NOOP("UserCode", "the module"),
    # the {why} of a crash
    QT_TRANSLATE_NOOP("UserCode", "segmentation fault"),
    QT_TRANSLATE_NOOP("UserCode", "bus error"),
    QT_TRANSLATE_NOOP("UserCode", "aborted"),
    QT_TRANSLATE_NOOP("UserCode", "floating-point exception"),
    QT_TRANSLATE_NOOP("UserCode", "illegal instruction"),
    QT_TRANSLATE_NOOP("UserCode", "killed"),
    QT_TRANSLATE_NOOP("UserCode", "CPU time limit"),
    QT_TRANSLATE_NOOP("UserCode", "the application is closing"),
    QT_TRANSLATE_NOOP(
        "UserCode",
        "tapeviz downloads nothing: make the data in the script or take it from sklearn.datasets "
        "(make_circles, make_moons, load_digits, …)",
    ),
    QT_TRANSLATE_NOOP(
        "UserCode",
        "helper_functions.py is a course's own file (downloaded with requests): paste the functio"
        "ns you need into the script; the Network view draws a 2-D model's decision boundary",
    ),
    QT_TRANSLATE_NOOP(
        "UserCode",
        "torchmetrics is not available in tapeviz: compute the metric with torch ((y_pred == y).f"
        "loat().mean()) or sklearn.metrics",
    ),
    QT_TRANSLATE_NOOP(
        "UserCode",
        "torchinfo is not available in tapeviz: print(model) lists the layers and sum(p.numel() f"
        "or p in model.parameters()) counts the parameters",
    ),
)
_FORMATTER = string.Formatter()


# Phrases with fields of their own ("loss() calls {func}"): a field's value that has one's
# form is translated as that form, its own values kept (a reason inside a sentence, say).
FORMS: dict[str, re.Pattern[str]] = {}


def register(
    templates: dict[str, str], phrases: Iterable[str] = (), forms: Iterable[str] = ()
) -> None:
    """Add a layer's templates (codes must be new), phrases and phrase forms to the catalogue."""
    clash = [code for code in templates if TEMPLATES.get(code, templates[code]) != templates[code]]
    if clash:
        raise KeyError(f"message codes already taken: {clash}")
    TEMPLATES.update(templates)
    global PHRASES
    PHRASES = (*PHRASES, *(p for p in phrases if p not in PHRASES))
    for form in forms:
        FORMS.setdefault(form, _form_pattern(form))


def _form_pattern(form: str) -> re.Pattern[str]:
    """What a value of ``form`` looks like: its words, each ``{field}`` any text."""
    parts: list[str] = []
    seen: list[str] = []
    for literal, name, _, _ in _FORMATTER.parse(form):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.append(name)
    return re.compile("".join(parts), re.DOTALL)


def _phrase(value: str, translate: Callable[[str], str]) -> str:
    """A field's value in the interface language if it is a phrase or has a phrase's form."""
    if value in PHRASES:
        return translate(value)
    for form, pattern in FORMS.items():
        found = pattern.fullmatch(value)
        if found is not None:
            try:
                values = {k: _phrase(v, translate) for k, v in found.groupdict().items()}
                return translate(form).format_map(values)  # (its values may be phrases too)
            except (KeyError, IndexError, ValueError):  # (a translation that lost a field)
                return value
    return value


def field_names(template: str) -> tuple[str, ...]:
    """The ``{fields}`` of a template, in order, each once."""
    names: list[str] = []
    for _, name, _, _ in _FORMATTER.parse(template):
        if name is not None and name not in names:
            names.append(name)
    return tuple(names)


@dataclass(frozen=True)
class Message:
    """A sentence of tapeviz's: its ``code`` (a key of :data:`TEMPLATES`) and its fields."""

    code: str
    fields: Fields = ()

    @property
    def text(self) -> str:
        """The sentence in English."""
        return render(self)

    def field(self, name: str) -> str | None:
        """The value of one field (None if the message has no such field)."""
        return dict(self.fields).get(name)

    def __str__(self) -> str:
        return self.text


def say(code: str, **fields: object) -> Message:
    """The message ``code`` with its fields (values as text, in the template's order)."""
    names = field_names(TEMPLATES[code])
    if set(names) != set(fields):
        raise KeyError(f"message {code!r} has the fields {names}, got {tuple(fields)}")
    return Message(code, tuple((name, str(fields[name])) for name in names))


def render(message: Message, translate: Callable[[str], str] = lambda text: text) -> str:
    """The sentence, with ``translate`` applied to the template and to phrase fields."""
    values = {k: _phrase(v, translate) for k, v in message.fields}
    try:
        return translate(TEMPLATES[message.code]).format_map(values)
    except (KeyError, IndexError, ValueError):  # a translation that lost a field: say it in English
        return TEMPLATES[message.code].format_map(values)


def checked(code: object, fields: object) -> Message | None:
    """A message received as data, if it is one: a known code with exactly its fields."""
    if not isinstance(code, str) or code not in TEMPLATES:
        return None
    if not isinstance(fields, Iterable) or isinstance(fields, str | bytes | dict):
        return None
    pairs = []
    for pair in fields:
        if not (isinstance(pair, list | tuple) and len(pair) == 2):
            return None
        name, value = pair
        if not (isinstance(name, str) and isinstance(value, str)) or len(value) > 5000:
            return None
        pairs.append((name, value))
    if [name for name, _ in pairs] != list(field_names(TEMPLATES[code])):
        return None
    return Message(code, tuple(pairs))


class Note(str):
    """A note beside a run's output: its English text, and the :class:`Message` it says."""

    msg: Message | None

    def __new__(cls, message: Message | str) -> Note:
        """The note of ``message`` (a plain string: a note without a code)."""
        is_message = isinstance(message, Message)
        note = super().__new__(cls, message.text if is_message else message)
        note.msg = message if is_message else None
        return note


class MessageError(ValueError):
    """A ValueError tapeviz worded: ``msg`` is its :class:`Message` (``str()`` is English)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.text)
        self.msg = message


def text_of(message: Message | str | None) -> str | None:
    """The English text of a message (a plain string as it is)."""
    return message.text if isinstance(message, Message) else message
