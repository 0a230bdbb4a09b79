"""Preferences: theme, text size, language and the sandbox's limits, kept in QSettings."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QSpinBox,
    QWidget,
)

from tapeviz.sandbox import Limits
from tapeviz.ui.i18n import LANGUAGES

LIMIT_KEYS = {  # settings key -> (Limits field, minimum, maximum)
    "limits/wall_time": ("wall_time", 0.5, 600.0),
    "limits/max_steps": ("max_steps", 10_000, 1_000_000_000),
    "limits/max_memory_mb": ("max_memory_mb", 50, 16_000),
    "limits/max_output": ("max_output", 1_000, 50_000_000),
}


def settings() -> QSettings:
    """The settings file of tapeviz (INI, per user)."""
    fmt, scope = QSettings.Format.IniFormat, QSettings.Scope.UserScope
    return QSettings(fmt, scope, "tapeviz", "tapeviz")


def limits_from(store: QSettings) -> Limits:
    """The sandbox limits for scripts, from the settings (bad values fall back to defaults)."""
    limits, changes = Limits(), {}
    for key, (field, low, high) in LIMIT_KEYS.items():
        raw = store.value(key)
        if raw is None:
            continue
        kind = type(getattr(limits, field))
        try:
            value = kind(float(raw))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        changes[field] = min(max(value, kind(low)), kind(high))
    return replace(limits, **changes)


class PreferencesDialog(QDialog):
    """Edit the preferences; OK writes them (the window applies theme and text size at once)."""

    def __init__(self, store: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("preferencesDialog")
        self.setWindowTitle(self.tr("Preferences"))
        self.store = store
        limits = limits_from(store)
        self.theme = QComboBox(self)
        self.theme.setObjectName("themeCombo")
        self.theme.addItem(self.tr("Light"), "light")
        self.theme.addItem(self.tr("Dark"), "dark")
        self.theme.setCurrentIndex(1 if store.value("prefs/theme", "light") == "dark" else 0)
        self.scale = QDoubleSpinBox(self)
        self.scale.setObjectName("fontScaleSpin")
        self.scale.setRange(80, 300)
        self.scale.setSuffix(" %")
        self.scale.setValue(100 * float(store.value("prefs/font_scale", 1.0)))  # type: ignore[arg-type]
        self.language = QComboBox(self)
        self.language.setObjectName("languageCombo")
        self.language.addItem(self.tr("System language"), "system")
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        index = self.language.findData(str(store.value("prefs/language", "system")))
        self.language.setCurrentIndex(max(index, 0))
        self.wall = QDoubleSpinBox(self)
        self.wall.setObjectName("wallTimeSpin")
        self.wall.setRange(0.5, 600)
        self.wall.setSuffix(self.tr(" s"))
        self.wall.setValue(limits.wall_time)
        self.steps = QSpinBox(self)
        self.steps.setObjectName("maxStepsSpin")
        self.steps.setRange(10_000, 1_000_000_000)
        self.steps.setSingleStep(1_000_000)
        self.steps.setGroupSeparatorShown(True)
        self.steps.setValue(limits.max_steps)
        self.memory = QSpinBox(self)
        self.memory.setObjectName("maxMemorySpin")
        self.memory.setRange(50, 16_000)
        self.memory.setSuffix(" MB")
        self.memory.setValue(limits.max_memory_mb)
        form = QFormLayout(self)
        form.addRow(self.tr("Theme"), self.theme)
        form.addRow(self.tr("Text size"), self.scale)
        form.addRow(self.tr("Language"), self.language)
        form.addRow(self.tr("Time limit of a script"), self.wall)
        form.addRow(self.tr("Step limit of a script"), self.steps)
        form.addRow(self.tr("Memory limit of a script"), self.memory)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def accept(self) -> None:
        """Write the preferences and close."""
        s = self.store
        s.setValue("prefs/theme", self.theme.currentData())
        s.setValue("prefs/font_scale", self.scale.value() / 100)
        s.setValue("prefs/language", self.language.currentData())
        s.setValue("limits/wall_time", self.wall.value())
        s.setValue("limits/max_steps", self.steps.value())
        s.setValue("limits/max_memory_mb", self.memory.value())
        super().accept()
