"""The Network tab's controls connected to its panel: each one's change of the settings.

A combo applies when activated, a slider once it rests (``later``), a button at once; every
change goes through :meth:`NetworkPanel.change <tapeviz.ui.network.panel.NetworkPanel.change>`
with one of :mod:`~tapeviz.ui.network.edits`' functions, so a refused one is said and undone.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox

from tapeviz.ui.network import edits

translate = QCoreApplication.translate  # lupdate reads translate("NetworkPanel", "…")


def fill_presets(combo: QComboBox) -> None:
    """The Network presets in the demo combo, by their titles (the first item: none)."""
    from tapeviz.models.network.presets import PRESETS, TITLES

    combo.addItem(translate("NetworkPanel", "Choose a demo…"), None)
    for name in PRESETS:
        combo.addItem(translate("presets", TITLES.get(name, name)), name)


def connect(panel: Any) -> None:
    """Connect ``panel``'s top bar, data column, diagram and output options to it."""
    t, d, g, change = panel.top, panel.data_controls, panel.diagram, panel.change
    t.demo.activated.connect(lambda i: _demo(panel, t.demo.itemData(i)))
    t.reset.clicked.connect(panel.reset)
    t.play.toggled.connect(lambda on: panel.play() if on else panel.pause())
    t.step.clicked.connect(panel.step)
    t.new_weights.clicked.connect(panel.new_weights)
    t.codeRequested.connect(panel.exportRequested)
    t.mediaRequested.connect(panel.export)
    t.lr.valueChanged.connect(lambda lr: change(lambda c: edits.with_lr(c, lr), later=True))
    t.activation.activated.connect(
        lambda _: change(lambda c: c.with_net(activation=t.activation.currentData()))
    )
    t.regularization.activated.connect(
        lambda _: change(lambda c: c.with_net(regularization=t.regularization.currentData()))
    )
    t.rate.activated.connect(lambda _: change(lambda c: c.with_net(reg_rate=t.rate.currentData())))
    t.problem.activated.connect(
        lambda _: change(lambda c: edits.with_problem(c, t.problem.currentData()))
    )
    t.optimizer.activated.connect(
        lambda _: change(lambda c: edits.with_kind(c, t.optimizer.currentData()))
    )
    t.raceChanged.connect(panel.set_race)
    d.datasetChosen.connect(lambda name: change(lambda c: c.with_data(dataset=name)))
    d.ratioChanged.connect(lambda v: change(lambda c: c.with_data(train_ratio=v), later=True))
    d.noiseChanged.connect(lambda v: change(lambda c: c.with_data(noise=v), later=True))
    d.batchChanged.connect(lambda v: change(lambda c: c.with_train(batch_size=v), later=True))
    d.regenerate.connect(lambda: change(lambda c: c.with_data(seed=(c.data.seed + 1) % 2**32)))
    g.featureToggled.connect(panel.toggle_feature)
    g.layersChanged.connect(panel.change_layers)
    g.neuronsChanged.connect(panel.change_neurons)
    g.weightEdited.connect(panel.set_weight)
    g.editRefused.connect(lambda message: panel.show_message("⚠ " + message))


def _demo(panel: Any, name: str | None) -> None:
    if name:
        panel.load_preset(name)
