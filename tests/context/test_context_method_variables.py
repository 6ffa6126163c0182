"""Seed 002: a variable naming a public method of an InputModule subclass calls it,
without a decorator; the module's own API names are never variables (issue 18, item 6)."""

from __future__ import annotations

from typing import Any

import pytest
from context_helpers import config, module

from desktop_agent.context import (
    BuildContext,
    ContextConfigError,
    InputModule,
    context_variable,
    importance_function,
)


class SeedModule(InputModule):
    def function_name_1(self) -> str:
        return "value one"

    async def function_name_2(self, context: BuildContext) -> str:
        """Echoes the input."""
        return f"you said {context.user_input}"

    @context_variable
    def described(self) -> str:
        """A variable with a description."""
        return "described value"

    @importance_function
    def never(self) -> bool:
        return False

    def helper(self, left: int, right: int) -> int:  # two arguments: not a variable
        return left + right

    def _private(self) -> str:
        return "hidden"

    async def build_prompt(self, *args: Any, **kwargs: Any) -> str:  # an API name: never a variable
        return await super().build_prompt(*args, **kwargs)


async def test_a_public_method_of_a_subclass_is_a_variable_without_decorator() -> None:
    input_module = SeedModule()
    input_module.load_config(
        config(
            module("a", ("text", "1: "), ("variable", "function_name_1")),
            module("b", ("text", "2: "), ("variable", "function_name_2")),
            module("c", ("variable", "described")),
        )
    )
    prompt = await input_module.build_prompt(user_input="hello")
    assert "1: value one" in prompt
    assert "2: you said hello" in prompt
    assert "described value" in prompt


def test_descriptions_api_names_and_non_variables() -> None:
    known = SeedModule().known_variables()
    assert known["described"] == "A variable with a description."
    assert known["function_name_2"] == "Echoes the input."
    assert "function_name_1" in known
    for name in ("helper", "_private", "never", "build_prompt", "load_config", "state_dict"):
        assert name not in known
    assert "function_name_1" not in InputModule().known_variables()


def test_an_api_name_in_a_template_is_still_unknown() -> None:
    with pytest.raises(ContextConfigError):
        SeedModule().load_config(config(module("a", ("variable", "load_config"))))
