"""Fixtures for the context template engine's tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def write_json(tmp_path: Path) -> Callable[..., Path]:
    """Write JSON data (or raw text) to a file in ``tmp_path`` and return its path."""

    def write(data: Any, name: str = "config.json") -> Path:
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        return path

    return write
