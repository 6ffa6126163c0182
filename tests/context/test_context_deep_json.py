"""JSON nested thousands deep is a ContextConfigError naming the problem, not a RecursionError."""

from __future__ import annotations

import pytest

from desktop_agent.context import ContextConfigError, InputModule


def test_load_config_of_json_text_nested_thousands_deep() -> None:
    module = InputModule()
    before = module.config
    with pytest.raises(ContextConfigError, match="nests too deeply"):
        module.load_config('{"context_template": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert module.config is before
