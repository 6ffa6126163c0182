"""Voice messages to text through the provider's /v1/audio/transcriptions (real SDK, server)."""

from __future__ import annotations

from pydantic import SecretStr
from pytestqt.qtbot import QtBot

from desktop_agent.app._providers import Provider
from desktop_agent.app._transcription import provider_transcriber
from desktop_agent.testing import OpenAICompatServer
from desktop_agent.ui.composer import Composer
from desktop_agent.ui.composer._voice import AudioChip, voice_attachment, wav_bytes


def _provider(server: OpenAICompatServer) -> Provider:
    return Provider("Test", server.base_url, "test-model", SecretStr("sk-test"), "settings")


def _composer_with_voice(qtbot: QtBot, server: OpenAICompatServer) -> tuple[Composer, AudioChip]:
    composer = Composer()
    qtbot.addWidget(composer)
    composer.set_transcriber(provider_transcriber(_provider(server)))
    composer.voice.recorded.emit(voice_attachment(wav_bytes(b"\0\1" * 8000, 16_000), 1000))
    (chip,) = composer.attachment_chips()
    assert isinstance(chip, AudioChip)
    return composer, chip


async def test_a_voice_message_becomes_editable_text_in_the_composer(qtbot: QtBot) -> None:
    with OpenAICompatServer() as server:
        server.transcription = "what is the weather like"
        composer, chip = _composer_with_voice(qtbot, server)
        assert not chip.transcribe_button.isHidden()
        composer.input.setPlainText("Question:")
        task = composer.transcribe(chip)
        assert task is not None
        assert await task is None
        assert composer.input.toPlainText() == "Question: what is the weather like"
        request = server.last_request
        assert request.path.endswith("/audio/transcriptions")
        assert b'filename="voice.wav"' in request.raw_body
        assert b"RIFF" in request.raw_body and b"whisper-1" in request.raw_body
        assert request.headers["authorization"] == "Bearer sk-test"


async def test_a_provider_without_speech_to_text_says_so_and_stops_offering_it(
    qtbot: QtBot,
) -> None:
    with OpenAICompatServer() as server:
        composer, chip = _composer_with_voice(qtbot, server)
        refused: list[str] = []
        composer.send_refused.connect(refused.append)
        task = composer.transcribe(chip)
        assert task is not None
        error = await task
        assert error is not None and error.unsupported
        assert refused == [
            "This provider does not offer speech-to-text (/v1/audio/transcriptions)."
        ]
        assert chip.transcribe_button.isHidden()
        assert composer.input.toPlainText() == ""
