"""Code export: a session as a runnable TensorFlow, PyTorch or JAX script, and its training loop.

``code`` translates the checked expression (the allow-listed tree the sandbox runs) call by
call into each framework, and exports a script (TensorFlow code already) as it is; ``train``
adds the training loop of the studio's selected run (same optimizer, hyper-parameters and
steps). No Qt.
"""

from __future__ import annotations
