"""``from tqdm.auto import tqdm``: course loops wrap their epochs in a progress bar.

tapeviz shows a run's progress itself (the status line, the timeline filling), so ``tqdm`` here
draws nothing: it gives the wrapped items back in order and keeps the counters and methods
scripts touch (``update``, ``set_description``, ``set_postfix``, ``close``, ``n``, ``total``,
``with tqdm(total=…) as bar``); ``tqdm.write`` prints a line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from tapeviz.engine.namespace import Namespace
from tapeviz.engine.reprs import without_addresses
from tapeviz.sandbox.errors import limit_hit
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.checks import budget, check_text

__all__ = ["TQDM"]


class tqdm:  # noqa: N801 (tqdm's own name)
    """A progress bar that draws nothing: iterate it as the items it wraps."""

    def __init__(
        self, iterable: Iterable[Any] | None = None, desc: Any = None, total: Any = None,
        *args: Any, **kwargs: Any,
    ) -> None:  # fmt: skip
        self.iterable = iterable
        self.desc = "" if desc is None else str(desc)
        if total is None and iterable is not None:
            try:
                total = len(iterable)  # type: ignore[arg-type]
            except (TypeError, OverflowError):
                total = None
        self.total = total
        self.n = 0
        self.postfix: dict[str, Any] = {}
        self.disable = bool(kwargs.get("disable", False))

    def __iter__(self) -> Iterator[Any]:
        if self.iterable is None:
            raise TypeError("'tqdm' object is not iterable (it was made without an iterable)")
        for item in self.iterable:
            yield item
            self.n += 1

    def __len__(self) -> int:
        if self.total is None:
            raise TypeError("object of type 'tqdm' has no len()")
        return int(self.total)

    def __enter__(self) -> tqdm:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def update(self, n: int = 1) -> bool:
        """Count ``n`` more steps done."""
        self.n += n
        return True

    def set_description(self, desc: Any = None, refresh: bool = True) -> None:
        """Name the bar (``Epoch 3``)."""
        self.desc = "" if desc is None else str(desc)

    def set_description_str(self, desc: Any = None, refresh: bool = True) -> None:
        """Name the bar (no separator)."""
        self.set_description(desc)

    def set_postfix(self, ordered_dict: Any = None, refresh: bool = True, **kwargs: Any) -> None:
        """Values shown after the bar (``loss=0.31``)."""
        self.postfix = {**dict(ordered_dict or {}), **kwargs}

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        """Text shown after the bar."""
        self.postfix = {"": str(s)}

    def refresh(self) -> None:
        """Redraw (nothing to draw)."""

    def reset(self, total: Any = None) -> None:
        """Start counting again."""
        self.n = 0
        if total is not None:
            self.total = total

    def close(self) -> None:
        """Finish the bar."""

    @staticmethod
    def write(s: Any, file: Any = None, end: str = "\n", nolock: bool = False) -> None:
        """Print a line (beside the bar, in tqdm)."""
        check_text(s, "tqdm.write()")
        text = str(s) + str(end)
        cap = budget().limits.max_output
        if len(text) > cap:
            raise budget().trip(limit_hit("output", say("print_output", cap=f"{cap:,}")))
        budget().write(without_addresses(text))


def trange(*args: Any, **kwargs: Any) -> tqdm:
    """``tqdm(range(*args))``."""
    return tqdm(range(*args), **kwargs)


_NAMES = {"tqdm": tqdm, "trange": trange}
TQDM = Namespace(
    "tqdm",
    {**_NAMES, **{sub: Namespace(f"tqdm.{sub}", dict(_NAMES))
                  for sub in ("auto", "notebook", "autonotebook", "std")}},
)  # fmt: skip
