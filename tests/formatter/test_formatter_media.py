"""Recognising images by their first bytes."""

from __future__ import annotations

import pytest
from formatter_helpers import PNG_BYTES

from desktop_agent.formatter._media import sniff_image_type


@pytest.mark.parametrize(
    ("head", "media_type"),
    [
        (PNG_BYTES[:16], "image/png"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "image/jpeg"),
        (b"GIF89a\x01\x00", "image/gif"),
        (b"RIFF\x10\x00\x00\x00WEBPVP8 ", "image/webp"),
        (b"BM\x36\x00", "image/bmp"),
        (b"\x00\x00\x00\x1cftypavif", "image/avif"),
        (b"\x00\x00\x00\x18ftypheic", "image/heic"),
        (b"RIFF\x10\x00\x00\x00WAVEfmt ", None),
        (b"hello world", None),
    ],
)
def test_sniff_image_type(head: bytes, media_type: str | None) -> None:
    assert sniff_image_type(head) == media_type
