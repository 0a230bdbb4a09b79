"""``parse_text``: ``ast.parse`` of user text that cannot overflow a thread's C stack.

CPython's parser recurses in C once per nesting level (``not not ... x``, ``- - ... x``,
brackets, ``a ** b ** ...``) up to its own limit of a few thousand levels, which the main
thread's 8 MB stack holds and a small thread stack does not: on macOS a secondary thread has
512 KiB, and ``'not ' * 5000 + 'x'`` parsed there ends the whole process with a segfault. Every
parse of text a user typed or a file carried goes through here: on the main thread it is a
plain ``ast.parse``; on any other thread the parse runs on a fresh thread with a stack as big
as the main thread's, and its result or exception comes back.
"""

from __future__ import annotations

import ast
import threading
from typing import Any

STACK = 16 * 2**20  # bytes: twice a main thread's (only the pages used are ever mapped)
_LOCK = threading.Lock()  # threading.stack_size is process-wide: one big thread at a time


def parse_text(source: str, filename: str = "<script>", mode: str = "exec") -> ast.AST:
    """``ast.parse(source, filename, mode)`` on a stack big enough for any text.

    Raises what ``ast.parse`` raises: SyntaxError, ValueError (NUL bytes), RecursionError or
    MemoryError (text nested deeper than the parser's own limit).
    """
    if threading.current_thread() is threading.main_thread():
        return ast.parse(source, filename=filename, mode=mode)
    box: list[Any] = []

    def work() -> None:
        try:
            box.append(ast.parse(source, filename=filename, mode=mode))
        except BaseException as exc:  # handed to the caller's thread as it is
            box.append(exc)

    with _LOCK:
        previous = threading.stack_size(STACK)
        try:
            thread = threading.Thread(target=work, name="tapeviz-parse", daemon=True)
            thread.start()
        finally:
            threading.stack_size(previous)
    thread.join()
    result = box[0]
    if isinstance(result, BaseException):
        raise result
    return result
