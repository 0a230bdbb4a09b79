"""matplotlib for scripts: pyplot's state machine recording figures as data (no drawing here).

:mod:`pyplot` is what ``import matplotlib.pyplot as plt`` gives; :mod:`recorder` holds a run's
figures; :mod:`axes`, :mod:`figure` and :mod:`artists` are the objects scripts hold. The public
API of this package is the scripts' (policy.PUBLIC_API): keep internals behind ``_``.
"""

from __future__ import annotations
