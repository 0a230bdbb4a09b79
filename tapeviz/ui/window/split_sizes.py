"""How tall the graph is above the lower tabs, per view in front (issue 33, item 2).

At 1,366×768 and presenter scale 150 % the studio kept its old share (36 % of the height for the
graph): the graph got ~250 px and showed a few nodes of its tape, cut off; the gradient check
got ~20 px for its table and its plot. A view now says how tall it must be to show everything
unscrolled (``needed_height``), and :func:`graph_height` splits the height:

- the view's share (the tab's default, or the lecturer's own drag: kept as it is);
- the graph at least :data:`GRAPH_WANT` px × the presenter scale when the view can spare it
  (the graph's text grows with the scale, so does the least height it needs);
- the view at least what it needs, unless the graph would get less than :data:`GRAPH_FLOOR`.

Under the studio and the gradient check the graph is a companion, so it is shown whole (fitted
however small, see :meth:`~tapeviz.ui.graph.view.GraphView.fit_all`); :class:`FitByView`
remembers, per view, whether the lecturer asked for the whole graph or a readable fit.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget

GRAPH_WANT = 200  # px × the presenter scale: the graph's least height when the view can spare it
GRAPH_FLOOR = 0.28  # of the height: the graph's least, whatever a view needs
GRADCHECK_VIEW = "gradcheck"  # the Backward pass tab with its Gradient check in front
WHOLE_VIEWS = {GRADCHECK_VIEW}  # (and the studio's tab: lower_tabs adds it) the graph whole


def graph_height(total: int, share: float, need: int | None, scale: float = 1.0) -> int:
    """The graph's height of ``total`` px: its ``share``, moved for a view that ``need``-s px.

    ``need`` None: the share as it is (a view that says nothing, or the lecturer's drag).
    """
    top = round(total * share)
    if need is None or total <= 0:
        return top
    spare = total - need  # the most the graph may get with the view unscrolled
    floor = round(GRAPH_FLOOR * total)
    want = min(round(GRAPH_WANT * scale), spare)
    return max(min(max(top, want), spare), floor)


def view_need(tabs: QWidget, page: QWidget, page_need: int) -> int:
    """The height of ``tabs`` at which ``page`` (a tab page inside it) gets ``page_need`` px.

    ``page`` sits in a stacked widget (a tab widget's) that is always laid out, even when the
    page was just brought to the front: what ``tabs`` spends around it is its height less the
    stack's.
    """
    stack = page.parentWidget()
    around = tabs.height() - (stack.height() if stack is not None else page.height())
    return max(around, 0) + page_need


class FitByView:
    """The graph's fit per view: whole (W) or readable (F), as last chosen in that view.

    ``graph`` is the graph view (``view_state`` and ``restore_view_state``). A view shown the
    first time takes its default: whole for ``whole_views``, readable for the others. A graph
    the lecturer zoomed or panned keeps their view (it is not fitted again).
    """

    def __init__(self, graph: Any, whole_views: set[Any]) -> None:
        self.graph = graph
        self.whole_views = set(whole_views)
        self.whole: dict[Any, bool] = {}  # the fit last seen in each view

    def switch(self, old: Any, new: Any) -> None:
        """The view in front went from ``old`` to ``new``: fit the graph as ``new`` had it."""
        if old == new:
            return
        state = self.graph.view_state()
        if not state.get("auto", True):  # the lecturer's zoom stays until Fit
            return
        now = bool(state.get("whole"))
        self.whole[old] = now
        wanted = self.whole.get(new, new in self.whole_views)
        if wanted != now:
            self.graph.restore_view_state({"auto": True, "whole": wanted})
