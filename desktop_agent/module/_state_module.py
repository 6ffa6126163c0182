"""``StateModule``: nested, JSON-ready component state.

Assigning a ``StateModule`` to an attribute records it as a child; other attributes
join the state only through :meth:`StateModule.register_state`. ``state_dict`` lists
children first, then registered attributes, and copies nothing, so saving a large
memory costs one traversal. ``load_state_dict`` checks the required keys and converts
the attributes before it changes anything, so a state that fails those leaves the
module as it was.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class _JSONSerializeFunction:
    to_json: Callable[[Any], Any] | None = None
    load_json: Callable[[Any], Any] | None = None


class StateModule:
    """A component whose state can be saved to JSON and loaded back."""

    def __init__(self) -> None:
        self._module_dict: OrderedDict[str, StateModule] = OrderedDict()
        self._attribute_dict: OrderedDict[str, _JSONSerializeFunction] = OrderedDict()

    def __setattr__(self, key: str, value: Any) -> None:
        if isinstance(value, StateModule):
            if not hasattr(self, "_module_dict"):
                raise AttributeError(
                    "Call the super().__init__() method within the constructor of "
                    f"{type(self).__name__} before setting any attributes."
                )
            self._module_dict[key] = value
        super().__setattr__(key, value)

    def __delattr__(self, key: str) -> None:
        if "_module_dict" in self.__dict__:
            self._module_dict.pop(key, None)
        if "_attribute_dict" in self.__dict__:
            self._attribute_dict.pop(key, None)
        super().__delattr__(key)

    def state_dict(self) -> dict[str, Any]:
        """The state: each child's ``state_dict`` first, then the registered attributes."""
        state: dict[str, Any] = OrderedDict()
        for key in self._module_dict:
            child = getattr(self, key, None)
            if isinstance(child, StateModule):
                state[key] = child.state_dict()
        for key, functions in self._attribute_dict.items():
            value = getattr(self, key)
            state[key] = functions.to_json(value) if functions.to_json else value
        return state

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True) -> None:
        """Load a state produced by :meth:`state_dict`.

        Args:
            state_dict: The state to load; extra keys are ignored.
            strict: Raise ``KeyError`` when a child or registered attribute is missing.

        Raises:
            TypeError: ``state_dict`` is not a dict.
            KeyError: A required key is missing (with ``strict``).
        """
        if not isinstance(state_dict, dict):
            raise TypeError(
                f"{type(self).__name__}.load_state_dict expects a dict, "
                f"got {type(state_dict).__name__}."
            )
        if strict:
            # Same KeyError as checking key by key while loading, but raised before
            # anything is loaded, so a bad state leaves the module untouched.
            for key in (*self._module_dict, *self._attribute_dict):
                if key not in state_dict:
                    raise KeyError(_missing_key_message(key))
        # Convert the attributes first: a failing ``custom_from_json`` then leaves the
        # module untouched too.
        values = self._attribute_values(state_dict)
        for key, child in self._module_dict.items():
            if key in state_dict:
                child.load_state_dict(state_dict[key])
        for key, value in values.items():
            setattr(self, key, value)

    def _attribute_values(self, state_dict: dict[str, Any]) -> dict[str, Any]:
        values = {}
        for key, functions in self._attribute_dict.items():
            if key in state_dict:
                value = state_dict[key]
                values[key] = functions.load_json(value) if functions.load_json else value
        return values

    def register_state(
        self,
        attr_name: str,
        custom_to_json: Callable[[Any], Any] | None = None,
        custom_from_json: Callable[[Any], Any] | None = None,
    ) -> None:
        """Add the attribute ``attr_name`` to the state.

        Args:
            attr_name: The attribute; it must exist.
            custom_to_json: Turns the value into JSON-ready data; without it the value
                itself must be JSON serializable.
            custom_from_json: Turns loaded data back into the value.

        Raises:
            AttributeError: The attribute does not exist.
            TypeError: The value is not JSON serializable and no ``custom_to_json`` is given.
            ValueError: The attribute is a child module.
        """
        value = getattr(self, attr_name)
        if custom_to_json is None:
            try:
                json.dumps(value)
            except (TypeError, ValueError) as exc:
                raise TypeError(
                    f"Attribute '{attr_name}' is not JSON serializable. Please provide a "
                    "custom function to convert the attribute to a JSON serializable format."
                ) from exc
        if attr_name in self._module_dict:
            raise ValueError(f"Attribute `{attr_name}` is already registered as a module.")
        self._attribute_dict[attr_name] = _JSONSerializeFunction(
            to_json=custom_to_json, load_json=custom_from_json
        )


def _missing_key_message(key: str) -> str:
    return (
        f"Key '{key}' not found in state_dict. Ensure that the state_dict contains all "
        "required keys."
    )
