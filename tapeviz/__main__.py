"""``python -m tapeviz``: the same as the ``tapeviz`` command."""

from __future__ import annotations

import sys

from tapeviz.cli import main

sys.exit(main())
