"""What compiled user code runs against: limits, frames, builtins, policy and size checks.

Also the modules a script may import (a restricted numpy, math, tapeviz's TensorFlow).
"""

from __future__ import annotations
