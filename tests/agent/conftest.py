"""Agent tests leave no class hook behind."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from desktop_agent.agent import ReActAgent


@pytest.fixture(autouse=True)
def _clean_react_class_hooks() -> Iterator[None]:
    yield
    ReActAgent.clear_class_hooks()
