"""The main window and its parts, built and wired in one place by ``main_window.MainWindow``.

Each part owns its state and gets its collaborators in its constructor: ``code_pane`` (mode,
Run/Stop, editor, errors, notes), ``runs.RunController`` (sandbox runs, live re-runs),
``sessions.SessionController`` (files, recent files, autosave), ``presenter.
PresenterController`` (text scale, theme, clean mode), ``dialogs.DialogsController``
(language, Preferences, code export, About), ``lower_tabs.LowerTabs`` (the stepper and the
studio in tabs, their keys, the split), ``studio_link.StudioLink`` (what the studio
optimizes), ``tape_list.TapeList``, ``status_progress.StatusProgress`` and
``value_warning.ValueWarning`` (a nan or ±inf in the graph, and why); also the editor,
the variables table, the preferences and code export dialogs, and how an error reads.
"""

from __future__ import annotations
