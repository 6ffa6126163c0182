"""Tiny media files for the formatter tests."""

from __future__ import annotations

import base64
from pathlib import Path

# A valid 1x1 transparent PNG.
PNG_BYTES = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)
PNG_B64 = base64.b64encode(PNG_BYTES).decode()
WAV_BYTES = b"RIFF\x24\x00\x00\x00WAVEfmt " + bytes(28)


def write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)
