"""Images and audio in the OpenAI wire format.

Local files are read and inlined as base64 (the server cannot read our disk); web URLs
of images are passed through, web URLs of audio are downloaded (the API only takes
inline audio) with the standard library in a worker thread, so the event loop never
blocks. A local image without a known extension is recognised by its first bytes.
"""

from __future__ import annotations

import asyncio
import base64
import os
from typing import Any
from urllib.parse import urlparse

_IMAGE_EXTENSIONS = ("png", "jpg", "jpeg", "gif", "webp")
_AUDIO_FORMATS = {"wav": "wav", "mp3": "mp3"}
# Media types accepted for inline audio, beyond AgentScope's "audio/wav" and "audio/mp3".
_AUDIO_MEDIA_TYPES = {
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/mp3": "mp3",
    "audio/mpeg": "mp3",
}
_DOWNLOAD_TIMEOUT = 30.0


def sniff_image_type(head: bytes) -> str | None:
    """The media type of an image from its first bytes (≥ 12), or ``None``."""
    signatures = (
        (b"\x89PNG\r\n\x1a\n", "image/png"),
        (b"\xff\xd8\xff", "image/jpeg"),
        (b"GIF87a", "image/gif"),
        (b"GIF89a", "image/gif"),
        (b"BM", "image/bmp"),
        (b"II*\x00", "image/tiff"),
        (b"MM\x00*", "image/tiff"),
        (b"\x00\x00\x01\x00", "image/x-icon"),
    )
    for magic, media_type in signatures:
        if head.startswith(magic):
            return media_type
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if head[4:8] == b"ftyp":
        brand = head[8:12]
        if brand in (b"avif", b"avis"):
            return "image/avif"
        if brand in (b"heic", b"heix", b"mif1", b"msf1"):
            return "image/heic"
    return None


def _local_path(url: str) -> str:
    return url[len("file://") :] if url.startswith("file://") else url


def _is_web_url(url: str) -> bool:
    scheme = urlparse(url).scheme
    # A one-letter scheme is a Windows drive ("C:\\images\\a.png"), not a URL.
    return scheme not in ("", "file") and len(scheme) > 1


def _data_url(media_type: str, data: bytes) -> str:
    return f"data:{media_type};base64,{base64.b64encode(data).decode('ascii')}"


async def image_url(source: dict[str, Any]) -> str:
    """The ``image_url.url`` for an image source: a data URL, or a web URL as is.

    Local files are read in a worker thread.

    Raises:
        ValueError: A URL that is neither a web URL nor an existing local image.
    """
    if source.get("type") == "base64":
        return f"data:{source['media_type']};base64,{source['data']}"
    if source.get("type") != "url":
        raise ValueError(f"Unsupported image source type {source.get('type')!r}.")
    return await asyncio.to_thread(_url_image_url, str(source["url"]))


def _url_image_url(url: str) -> str:
    path = _local_path(url)
    if os.path.isfile(path):
        return _local_image_url(path, url)
    if _is_web_url(url):
        return url
    raise ValueError(
        f"Invalid image URL {url!r}: it is neither a web URL nor an existing local file."
    )


def _local_image_url(path: str, url: str) -> str:
    extension = os.path.splitext(path)[1].lower().lstrip(".")
    with open(path, "rb") as file:
        data = file.read()
    if extension in _IMAGE_EXTENSIONS:
        return _data_url(f"image/{extension}", data)
    media_type = sniff_image_type(data[:32])
    if media_type is None:
        raise ValueError(f"Invalid image URL {url!r}: the local file is not a known image type.")
    return _data_url(media_type, data)


async def input_audio(source: dict[str, Any]) -> dict[str, str]:
    """The ``input_audio`` object (``data``, ``format``) for an audio source.

    Raises:
        TypeError: Not wav or mp3.
        ValueError: A URL that is neither a web URL nor an existing local file.
    """
    if source.get("type") == "base64":
        media_type = str(source.get("media_type", ""))
        fmt = _AUDIO_MEDIA_TYPES.get(media_type.lower())
        if fmt is None:
            raise TypeError(
                f"Invalid audio media type {media_type!r}: only audio/wav and audio/mp3 "
                "are supported."
            )
        return {"data": source["data"], "format": fmt}
    if source.get("type") != "url":
        raise ValueError(f"Unsupported audio source type {source.get('type')!r}.")
    url = str(source["url"])
    path = _local_path(url)
    extension = os.path.splitext(urlparse(url).path if _is_web_url(url) else path)[1]
    fmt = _AUDIO_FORMATS.get(extension.lower().lstrip("."))
    if fmt is None:
        raise TypeError(
            f"Unsupported audio file extension {extension!r} in {url!r}: wav and mp3 are supported."
        )
    data = await _read_audio(url, path)
    return {"data": base64.b64encode(data).decode("ascii"), "format": fmt}


async def _read_audio(url: str, path: str) -> bytes:
    data = await asyncio.to_thread(_read_file, path)
    if data is not None:
        return data
    if _is_web_url(url):
        return await asyncio.to_thread(_download, url)
    raise ValueError(f"Invalid audio URL {url!r}: it is neither a web URL nor an existing file.")


def _read_file(path: str) -> bytes | None:
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as file:
        return file.read()


def _download(url: str) -> bytes:
    from urllib.request import urlopen

    with urlopen(url, timeout=_DOWNLOAD_TIMEOUT) as response:
        data: bytes = response.read()
        return data
