"""Images and audio in the OpenAI wire format.

Local files are read and inlined as base64 (the server cannot read our disk); web URLs
of images are passed through, web URLs of audio are downloaded (the API only takes
inline audio) with the standard library in a worker thread, so the event loop never
blocks. A local image without a known extension is recognised by its first bytes.

That is AgentScope's behaviour, for any source in any message. An application whose
messages may come from a file it did not write (a session file) sets a
:class:`MediaPolicy` on its formatter: local files are then read only inside the folders
it names (the session's blob folder, where attachments are copied) or, for a user
message, at an absolute path without ``..`` (the attachments of sessions saved before
attachments were copied); remote audio is never downloaded. A refused or missing file
becomes a short text note to the model instead of an error, so the turn goes on.
"""

from __future__ import annotations

import asyncio
import base64
import os
from dataclasses import dataclass, field
from pathlib import Path
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


@dataclass
class MediaPolicy:
    """Which local files and remote media a formatter may read for a request.

    Attributes:
        folders: Local files are read inside these folders (symlinks followed); a
            reference that leaves them (``..``, a symlink) is refused.
        legacy_user_paths: Also read absolute paths (no ``..``) in user messages.
        download_audio: Download remote audio URLs (the API only takes inline audio).
        max_answer_chars: An earlier assistant answer longer than this is sent shortened,
            with a note (a 20 MB answer would cost seconds to encode and send on every
            later turn, and no model's context takes it); ``None``: sent whole.
    """

    folders: list[Path] = field(default_factory=list)
    legacy_user_paths: bool = True
    download_audio: bool = False
    max_answer_chars: int | None = None

    def refusal(self, source: dict[str, Any], role: str, kind: str) -> str | None:
        """Why ``source`` is not sent (a note for the model), or ``None`` to send it."""
        if source.get("type") != "url":
            return None
        url = str(source.get("url", ""))
        name = _display_name(url)
        if _is_web_url(url):
            if kind == "audio" and not self.download_audio:
                return f"[Audio {name} not sent: remote audio is not downloaded.]"
            return None
        path = _local_path(url)
        if not self._allowed(path, role):
            return f"[{kind.capitalize()} {name} not sent: it is not a file attached in this app.]"
        if not os.path.isfile(path):
            return f"[{kind.capitalize()} {name} not sent: the file was moved or deleted.]"
        return None

    def _allowed(self, path: str, role: str) -> bool:
        if ".." in Path(path).parts:
            return False
        real = os.path.realpath(path)
        if any(_inside(real, folder) for folder in self.folders):
            return True
        if not (self.legacy_user_paths and role == "user" and os.path.isabs(path)):
            return False
        # A reference into a blob folder must stay inside the session's own.
        return not any(part.endswith(".blobs") for part in Path(path).parts)


def _inside(real: str, folder: Path) -> bool:
    root = os.path.realpath(folder)
    return real.startswith(root.rstrip(os.sep) + os.sep)


def _display_name(url: str) -> str:
    tail = urlparse(url).path if _is_web_url(url) else _local_path(url)
    return repr(os.path.basename(tail.rstrip("/\\")) or url[:80])


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
    from urllib.request import urlopen  # only remote media needs it

    with urlopen(url, timeout=_DOWNLOAD_TIMEOUT) as response:
        data: bytes = response.read()
        return data
