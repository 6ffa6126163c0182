"""Where the data files shipped with the app live (context templates, icons).

They are kept in the repository's top-level ``resources/`` folder, and always reached as
the package data ``desktop_agent/resources`` through :mod:`importlib.resources`:

- a source checkout or editable install: ``desktop_agent/resources`` is a symlink to
  ``../resources``;
- an installed wheel: setuptools copied the tree into the package (``pyproject.toml``,
  ``[tool.setuptools.package-data]``);
- the PyInstaller app: the spec puts it at ``desktop_agent/resources`` in the bundle.

Should the symlink be missing (a checkout on a file system without symlinks), the
checkout's ``resources/`` folder is used directly. :func:`resource_path` hides all this
so callers name a file by its parts only.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

_CHECKOUT_RESOURCES = Path(__file__).resolve().parents[1] / "resources"


def _packaged_resources() -> Path | None:
    candidate = files("desktop_agent") / "resources"
    # Only a real folder on disk is usable as a Path (zip imports are not supported).
    if isinstance(candidate, Path) and candidate.is_dir():
        return candidate.resolve()  # in a checkout, the symlink's target: resources/ itself
    return None


def resources_root() -> Path:
    """The ``resources`` folder: the packaged copy if present, else the checkout's."""
    return _packaged_resources() or _CHECKOUT_RESOURCES


def resource_path(*parts: str) -> Path:
    """The path of a shipped data file, e.g. ``resource_path("context", "default.json")``.

    The packaged copy (``desktop_agent/resources``) is tried first, then the source
    checkout's ``resources/`` folder. The returned path is not checked for existence
    when neither holds the file; the checkout path is returned then, so an error names it.

    Args:
        *parts: Path components below ``resources/``.
    """
    packaged = _packaged_resources()
    if packaged is not None and packaged.joinpath(*parts).exists():
        return packaged.joinpath(*parts)
    return _CHECKOUT_RESOURCES.joinpath(*parts)
