"""Translations: Qt's machinery, with Simplified Chinese shipped beside English.

Every visible string goes through ``self.tr``/``QCoreApplication.translate``. The Chinese texts
live in ``assets/i18n/zh_CN.json`` (English -> 中文, easy to review); ``python -m tapeviz.ui.i18n``
extracts the strings with ``pyside6-lupdate``, fills them in, and compiles
``assets/i18n/tapeviz_zh_CN.qm`` with ``pyside6-lrelease``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from tapeviz.models.resources import assets_dir

LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
_INSTALLED: list[QTranslator] = []  # keep them alive while installed
_CURRENT = ["en"]  # the language whose translators are installed


def language_for(preference: str | None) -> str:
    """The language to use: the preference, else the system locale's if we ship it."""
    if preference in LANGUAGES:
        return str(preference)
    return "zh_CN" if QLocale.system().name().startswith("zh") else "en"


def install(language: str) -> bool:
    """Install tapeviz's (and Qt's own) translators for ``language``; False for English."""
    app = QCoreApplication.instance()
    for old in _INSTALLED:
        app.removeTranslator(old)
    _INSTALLED.clear()
    _CURRENT[0] = "en"
    if language == "en":
        return False
    ours = QTranslator()
    if not ours.load(str(assets_dir() / "i18n" / f"tapeviz_{language}.qm")):
        return False
    _CURRENT[0] = language
    qt = QTranslator()
    if qt.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _INSTALLED.append(qt)
    app.installTranslator(ours)
    _INSTALLED.append(ours)
    return True


def installed() -> str:
    """The language the interface is shown in now (``en`` or ``zh_CN``)."""
    return _CURRENT[0]


def extract(sources: list[Path]) -> ET.ElementTree:
    """Run pyside6-lupdate over ``sources`` and return the .ts tree.

    Source locations are made relative to ``assets/i18n`` (where the .ts lives), so the file
    does not change with the folder the project is checked out in.
    """
    tool = shutil.which("pyside6-lupdate")
    if tool is None:
        raise RuntimeError("pyside6-lupdate is not on PATH (it ships with PySide6)")
    folder = assets_dir() / "i18n"
    with tempfile.TemporaryDirectory() as tmp:
        ts = Path(tmp) / "strings.ts"
        subprocess.run([tool, *map(str, sources), "-ts", str(ts)], check=True,
                       capture_output=True)  # fmt: skip
        tree = ET.parse(ts)
        for location in tree.getroot().iter("location"):
            name = location.get("filename")
            if name:  # lupdate writes them relative to the temporary .ts
                where = os.path.normpath(os.path.join(tmp, name))
                location.set("filename", Path(os.path.relpath(where, folder)).as_posix())
        return tree


def fill(tree: ET.ElementTree, table: dict[str, str], extra: dict[str, list[str]]) -> list[str]:
    """Fill every translation from ``table``; add ``extra`` contexts; return untranslated texts."""
    root = tree.getroot()
    root.set("language", "zh_CN")
    for context_name, texts in extra.items():
        context = ET.SubElement(root, "context")
        ET.SubElement(context, "name").text = context_name
        for text in texts:
            message = ET.SubElement(context, "message")
            ET.SubElement(message, "source").text = text
            ET.SubElement(message, "translation").text = ""
    missing = []
    for message in root.iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        assert translation is not None
        if source in table:
            translation.text = table[source]
            translation.attrib.pop("type", None)
        else:
            missing.append(source)
    return missing


def ui_sources() -> list[Path]:
    """The Python files whose strings are translated."""
    package = Path(__file__).parents[1]
    descent = package / "models" / "descent"  # headless sentences, translated
    extra = [descent / "divergence.py", descent / "optimizer_config.py", descent / "messages.py",
             package / "models" / "timeline" / "divergence.py",
             package / "sandbox" / "messages.py",
             package / "sandbox" / "note_texts.py"]  # fmt: skip
    return sorted(Path(__file__).parent.rglob("*.py")) + extra


PRINTS = "What TensorFlow prints:"  # a note's header line; the printed lines stay as they are


def preset_texts() -> list[str]:
    """The presets' group names, titles and notes (the Presets menu and the notes label)."""
    from tapeviz.models.network import presets as network
    from tapeviz.models.session.presets import PRESETS

    texts = list(PRESETS.groups())
    for preset in PRESETS.values():
        note = PRINTS if preset.notes.startswith(PRINTS + "\n") else preset.notes
        for text in (preset.title, note):
            if text and text not in texts:
                texts.append(text)
    for name in network.PRESETS:  # the Network tab's demos (translated in this context too)
        for text in (network.TITLES.get(name, ""), network.NOTES.get(name, "")):
            if text and text not in texts:
                texts.append(text)
    return texts


def preset_note(notes: str) -> str:
    """A preset's notes in the interface language (TensorFlow's printed output kept verbatim)."""
    if notes.startswith(PRINTS + "\n"):
        return QCoreApplication.translate("presets", PRINTS) + notes[len(PRINTS) :]
    return QCoreApplication.translate("presets", notes) if notes else ""


def build(language: str = "zh_CN") -> list[str]:
    """Regenerate the .ts and .qm files; returns the English texts still untranslated."""
    folder = assets_dir() / "i18n"
    table = json.loads((folder / f"{language}.json").read_text("utf-8"))
    tree = extract(ui_sources())
    missing = fill(tree, table, {"presets": preset_texts()})
    ts = folder / f"tapeviz_{language}.ts"
    ET.indent(tree)
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    tool = shutil.which("pyside6-lrelease")
    if tool is None:
        raise RuntimeError("pyside6-lrelease is not on PATH (it ships with PySide6)")
    qm = folder / f"tapeviz_{language}.qm"
    subprocess.run([tool, str(ts), "-qm", str(qm)], check=True, capture_output=True)
    return missing


if __name__ == "__main__":
    untranslated = build()
    for text in untranslated:
        print(f"untranslated: {text!r}", file=sys.stderr)
    sys.exit(1 if untranslated else 0)
