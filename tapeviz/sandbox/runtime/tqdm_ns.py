"""``from tqdm.auto import tqdm``: course loops wrap their epochs in a progress bar.

tapeviz shows a run's progress itself (the status line, the timeline filling), so ``tqdm`` here
draws nothing: it gives the wrapped items back in order and keeps the counters and methods
scripts touch (``update``, ``set_description``, ``set_postfix``, ``close``, ``n``, ``total``,
``with tqdm(total=…) as bar``); ``tqdm.write`` prints a line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from tapeviz.engine.namespace import Namespace
from tapeviz.engine.reprs import without_addresses
from tapeviz.sandbox.runtime.checks import budget, check_text

__all__ = ["TQDM"]


class tqdm:  # noqa: N801 (tqdm's own name)
    """A progress bar that draws nothing: iterate it as the items it wraps."""

    def __init__(
        self, iterable: Iterable[Any] | None = None, desc: Any = None, total: Any = None,
        *args: Any, **kwargs: Any,
    ) -> None:  # fmt: skip
        self._bar_items = iterable
        self._bar_desc = _text(desc, "tqdm(desc=...)")
        self._bar_len: int | None = None  # (the iterable's own length only: never ``total``)
        if iterable is not None:
            try:
                self._bar_len = len(iterable)  # type: ignore[arg-type]
            except (TypeError, OverflowError):
                self._bar_len = None
        if total is None:
            total = self._bar_len
        self._bar_total = total if isinstance(total, int | float) else None
        self._bar_n = 0
        self._bar_postfix: dict[str, Any] = {}

    @property
    def iterable(self) -> Any:
        """What the bar wraps."""
        return self._bar_items

    @property
    def total(self) -> Any:
        """How many steps the bar expects (None: unknown)."""
        return self._bar_total

    @property
    def n(self) -> int:
        """How many steps are done."""
        return self._bar_n

    @property
    def desc(self) -> str:
        """The bar's name."""
        return self._bar_desc

    @property
    def postfix(self) -> dict[str, Any]:
        """The values shown after the bar."""
        return dict(self._bar_postfix)

    def __iter__(self) -> Iterator[Any]:
        if self._bar_items is None:
            raise TypeError("'tqdm' object is not iterable (it was made without an iterable)")
        for item in self._bar_items:
            yield item
            self._bar_n += 1

    def __len__(self) -> int:
        # A given total is a length only for a bar without items (it cannot be iterated): a
        # bar over items is as long as they are, whatever total says.
        if self._bar_items is None and isinstance(self._bar_total, int):
            return self._bar_total
        if self._bar_len is None:
            raise TypeError("object of type 'tqdm' has no len()")
        return self._bar_len

    def __enter__(self) -> tqdm:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def update(self, n: Any = 1) -> bool:
        """Count ``n`` more steps done."""
        if not isinstance(n, int | float) or isinstance(n, bool):
            raise TypeError("tqdm.update(n): n must be a number")
        self._bar_n += int(n)
        return True

    def set_description(self, desc: Any = None, refresh: bool = True) -> None:
        """Name the bar (``Epoch 3``)."""
        self._bar_desc = _text(desc, "set_description()")

    def set_description_str(self, desc: Any = None, refresh: bool = True) -> None:
        """Name the bar (no separator)."""
        self.set_description(desc)

    def set_postfix(self, ordered_dict: Any = None, refresh: bool = True, **kwargs: Any) -> None:
        """Values shown after the bar (``loss=0.31``)."""
        if ordered_dict is not None and not isinstance(ordered_dict, Mapping):
            raise TypeError("set_postfix() takes a dict (or keyword values)")
        check_text(ordered_dict, "set_postfix()")
        check_text(kwargs, "set_postfix()")
        self._bar_postfix = {**{str(k): v for k, v in (ordered_dict or {}).items()}, **kwargs}

    def set_postfix_str(self, s: Any = "", refresh: bool = True) -> None:
        """Text shown after the bar."""
        self._bar_postfix = {"": _text(s, "set_postfix_str()")}

    def refresh(self) -> None:
        """Redraw (nothing to draw)."""

    def reset(self, total: Any = None) -> None:
        """Start counting again."""
        self._bar_n = 0
        if isinstance(total, int | float):
            self._bar_total = total

    def close(self) -> None:
        """Finish the bar."""

    @staticmethod
    def write(s: Any, file: Any = None, end: Any = "\n", nolock: bool = False) -> None:
        """Print a line (beside the bar, in tqdm)."""
        text = _text(s, "tqdm.write()") + _text(end, "tqdm.write()")
        budget().write(without_addresses(text))


def _text(value: Any, what: str) -> str:
    """``str(value)`` with its size checked first ("" for None)."""
    if value is None:
        return ""
    check_text(value, what)
    return str(value)


def trange(*args: Any, **kwargs: Any) -> tqdm:
    """``tqdm(range(*args))``."""
    return tqdm(range(*args), **kwargs)


_NAMES = {"tqdm": tqdm, "trange": trange}
TQDM = Namespace(
    "tqdm",
    {**_NAMES, **{sub: Namespace(f"tqdm.{sub}", dict(_NAMES))
                  for sub in ("auto", "notebook", "autonotebook", "std")}},
)  # fmt: skip
