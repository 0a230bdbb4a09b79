"""``import pprint``: the standard library's pretty printer into the run's output.

Courses print state dicts with it (``pprint(model.state_dict())``). The text is made by the
standard ``pprint.pformat`` (objects' reprs are the sandbox's), its size checked before and after
formatting as ``print``'s is, and written to the run's output; a ``stream`` is refused.
"""

from __future__ import annotations

import pprint as _pprint
from typing import Any

from tapeviz.engine.namespace import Namespace
from tapeviz.engine.reprs import without_addresses
from tapeviz.sandbox.errors import limit_hit, refused
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.checks import budget, text_size

__all__ = ["PPRINT"]


def pformat(
    object: Any,
    indent: int = 1,
    width: int = 80,
    depth: int | None = None,
    *,
    compact: bool = False,
    sort_dicts: bool = True,
    underscore_numbers: bool = False,
) -> str:
    """The pretty-printed text of ``object`` (lines of at most ``width`` where it can)."""
    cap = budget().limits.max_output
    size = text_size(object, cap)
    # (line breaks add to repr's size, and every element's line may carry the indent)
    if 2 * size > cap or max(int(indent), 0) * size > cap:
        raise budget().trip(limit_hit("output", say("print_output", cap=f"{cap:,}")))
    text = _pprint.pformat(object, int(indent), int(width), depth, compact=bool(compact),
                           sort_dicts=bool(sort_dicts),
                           underscore_numbers=bool(underscore_numbers))  # fmt: skip
    if len(text) > cap:
        raise budget().trip(limit_hit("output", say("print_output", cap=f"{cap:,}")))
    return without_addresses(text)


def pprint(
    object: Any,
    stream: Any = None,
    indent: int = 1,
    width: int = 80,
    depth: int | None = None,
    *,
    compact: bool = False,
    sort_dicts: bool = True,
    underscore_numbers: bool = False,
) -> None:
    """Print ``object`` pretty-printed into the run's output."""
    if stream is not None:
        raise refused(say("print_file"))
    text = pformat(object, indent, width, depth, compact=compact, sort_dicts=sort_dicts,
                   underscore_numbers=underscore_numbers)  # fmt: skip
    budget().write(text + "\n")


def pp(object: Any, *args: Any, sort_dicts: bool = False, **kwargs: Any) -> None:
    """``pprint`` keeping dicts in their order."""
    pprint(object, *args, sort_dicts=sort_dicts, **kwargs)


PPRINT = Namespace("pprint", {"pprint": pprint, "pformat": pformat, "pp": pp})
