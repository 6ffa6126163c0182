"""Speech to text through the provider's ``POST /v1/audio/transcriptions``, when it has one.

A recorded voice message can be turned into text that goes into the composer for editing
before sending. Not every OpenAI-compatible server offers the endpoint: a 404 (or 405/501)
means it does not, which :class:`TranscriptionError` says in words for the user.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from desktop_agent._i18n import translate
from desktop_agent.app._providers import Provider

TRANSCRIPTION_MODEL = "whisper-1"
"""The model asked for (OpenAI's name; most compatible servers accept or ignore it)."""

Transcriber = Callable[[bytes], Awaitable[str]]
"""Turns WAV bytes into text."""


class TranscriptionError(Exception):
    """Transcription failed; the message is meant for the user.

    Attributes:
        unsupported: The provider has no speech-to-text at all (do not offer it again).
    """

    def __init__(self, message: str, unsupported: bool = False) -> None:
        super().__init__(message)
        self.unsupported = unsupported


async def transcribe(
    base_url: str, api_key: str, wav: bytes, model: str = TRANSCRIPTION_MODEL
) -> str:
    """The text spoken in ``wav``.

    Raises:
        TranscriptionError: The provider has no speech-to-text, or the request failed.
    """
    import openai  # ~0.7 s: loaded on first use

    client = openai.AsyncOpenAI(
        base_url=base_url, api_key=api_key or "none", max_retries=0, timeout=120
    )
    try:
        result = await client.audio.transcriptions.create(
            model=model, file=("voice.wav", wav, "audio/wav")
        )
    except openai.APIStatusError as exc:
        if exc.status_code in (404, 405, 501):
            raise TranscriptionError(
                translate(
                    "Transcription",
                    "This provider does not offer speech-to-text (/v1/audio/transcriptions).",
                ),
                unsupported=True,
            ) from exc
        raise TranscriptionError(_failed(exc.message)) from exc
    except openai.APIError as exc:
        raise TranscriptionError(_failed(str(exc))) from exc
    finally:
        await client.close()
    return str(result.text).strip()


def provider_transcriber(provider: Provider) -> Transcriber:
    """A :data:`Transcriber` using ``provider``'s endpoint and key."""

    async def run(wav: bytes) -> str:
        return await transcribe(provider.base_url, provider.api_key.get_secret_value(), wav)

    return run


def _failed(reason: str) -> str:
    return translate("Transcription", "Transcription failed: {error}").format(error=reason)
