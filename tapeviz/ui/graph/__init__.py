"""The graph view: a GraphModel drawn as items in a scene, and the pane that owns it.

``view.GraphView`` draws, zooms, navigates, highlights paths and exports; ``scene`` plans the
layout (in a worker for big graphs) and builds the items (``items``) without knowing the view;
``pane.GraphPane`` owns the view with its Graph menu, view settings and exports;
``expression_panel`` is the live expression box. It never imports the studio or the window.
"""

from __future__ import annotations
