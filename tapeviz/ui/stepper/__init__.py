"""The Backward pass tab: the stepper panel and the gradient check.

``panel.StepperPanel`` drives a ``BackwardStepper`` (or a ``ForwardStepper``) and shows each
step on the graph view it is given; ``gradcheck_panel`` compares the tape's gradients with
finite differences. It never imports the studio or the window.
"""

from __future__ import annotations
