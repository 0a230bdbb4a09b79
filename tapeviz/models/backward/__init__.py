"""The backward pass, step by step: the stepper's cursor and explanations, the gradient check.

``stepper.BackwardStepper`` is a cursor over the steps of ``engine.backward.BackwardPass`` (the
walk ``tape.gradient()`` makes), with the chain rule of each step in words;
``ForwardStepper`` replays the forward ops; ``gradient_check`` compares a tape's gradients
with central finite differences. No Qt.
"""

from __future__ import annotations
