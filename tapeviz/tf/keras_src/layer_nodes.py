"""``layer.input`` / ``layer.output``: the tensors of a layer's first call on KerasTensors.

Keras 3 keeps every symbolic call of a layer as an inbound node; ``output`` (and ``input``) are
the first node's, unwrapped when there is one tensor. A layer never called symbolically has
none (``AttributeError``, as in Keras); a functional model's are its graph's inputs and outputs.
"""

from __future__ import annotations

from typing import Any

from tapeviz.engine import nest

__all__ = ["NodeAttributes"]


def _one(values: list[Any]) -> Any:
    return values[0] if len(values) == 1 else values


class NodeAttributes:
    """Mixed into ``Layer``: ``input`` and ``output`` from the first inbound node."""

    name: str

    def _first_node(self, what: str) -> Any:
        nodes = self.__dict__.get("_inbound_nodes") or []
        if not nodes:
            raise AttributeError(
                f"The layer {self.name} has never been called and thus has no defined {what}."
            )
        return nodes[0]

    @property
    def output(self) -> Any:
        """The output KerasTensor(s) of the layer's first symbolic call."""
        graph = self.__dict__.get("_graph_outputs")
        if graph is not None and not self.__dict__.get("_inbound_nodes"):
            return _one(list(graph))
        node = self._first_node("output")
        return _one(nest.flatten(node.outputs)) if isinstance(node.outputs, list) else node.outputs

    @property
    def input(self) -> Any:
        """The input KerasTensor(s) of the layer's first symbolic call."""
        graph = self.__dict__.get("_graph_inputs")
        if graph is not None and not self.__dict__.get("_inbound_nodes"):
            return _one(list(graph))
        node = self._first_node("input")
        if not node.args and not node.kwargs:  # an InputLayer: its own output
            return node.outputs
        return _one(list(node.parents))
