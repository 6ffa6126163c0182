"""Voice input: recording into a WAV attachment, the level and duration, no microphone.

This machine (and CI) has no audio input device, and QtMultimedia offers no fake one, so
recording is tested by feeding the recorder generated samples the way the device's
``readyRead`` does; the device path itself is exercised only where a microphone exists.
"""

from __future__ import annotations

import array
import base64
import io
import math
import wave

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop_agent.ui.composer import Composer
from desktop_agent.ui.composer._voice import (
    AudioChip,
    VoiceButton,
    VoiceRecorder,
    peak_level,
    to_int16,
    wav_bytes,
)


def _sine(seconds: float, rate: int = 16_000, amplitude: float = 0.5) -> list[float]:
    return [amplitude * math.sin(2 * math.pi * 440 * i / rate) for i in range(int(seconds * rate))]


def _int16(samples: list[float]) -> bytes:
    return array.array("h", (int(s * 32767) for s in samples)).tobytes()


def _read_wav(data: bytes) -> tuple[int, int, int, int]:
    with wave.open(io.BytesIO(data)) as wav:
        return wav.getnchannels(), wav.getsampwidth(), wav.getframerate(), wav.getnframes()


def test_generated_samples_become_a_valid_wav_with_level_and_duration(qtbot: QtBot) -> None:
    recorder = VoiceRecorder()
    levels: list[float] = []
    durations: list[int] = []
    recorder.level_changed.connect(levels.append)
    recorder.duration_changed.connect(durations.append)
    recorder.begin(16_000, 1, "Int16")
    pcm = _int16(_sine(1.5))
    for start in range(0, len(pcm), 3200):  # 100 ms a read, as a device delivers
        recorder.feed(pcm[start : start + 3200])
    wav = recorder.stop()
    assert _read_wav(wav) == (1, 2, 16_000, 24_000)
    assert durations[-1] == 1500
    assert 0.45 < max(levels) <= 0.51
    assert not recorder.recording


def test_float_samples_are_converted_to_16_bit(qtbot: QtBot) -> None:
    recorder = VoiceRecorder()
    recorder.begin(48_000, 1, "Float")
    recorder.feed(array.array("f", _sine(0.25, 48_000, 1.0)).tobytes())
    assert _read_wav(recorder.stop()) == (1, 2, 48_000, 12_000)


def test_sample_conversions_and_level() -> None:
    assert to_int16(array.array("f", [1.0, -1.0, 0.0]).tobytes(), "Float") == _int16(
        [1.0, -1.0, 0.0]
    )
    assert to_int16(bytes([128, 255]), "UInt8") == array.array("h", [0, 127 << 8]).tobytes()
    assert peak_level(_int16([0.0, 0.0, 0.0, 0.0])) == 0.0
    assert peak_level(b"") == 0.0
    with pytest.raises(ValueError):
        to_int16(b"\0\0", "Int24")
    assert _read_wav(wav_bytes(b"\0\0" * 80, 8000)) == (1, 2, 8000, 80)


def test_a_recording_attaches_as_an_audio_block_that_plays_in_the_composer(
    qtbot: QtBot,
) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    composer.show()
    voice = composer.voice
    voice.recorder.begin(16_000, 1, "Int16")
    voice._show_recording()  # as after a successful start on a real microphone
    assert voice.level.isVisible() and voice.duration.isVisible()
    voice.recorder.feed(_int16(_sine(2.0)))
    assert voice.duration.text() == "0:02" and voice.level.value() >= 45
    voice.toggle()  # stop: the recording becomes an attachment
    assert not voice.level.isVisible()
    (chip,) = composer.attachment_chips()
    assert isinstance(chip, AudioChip)
    assert chip.attachment.label == "Voice message 0:02"
    (block,) = composer.content()  # type: ignore[misc]
    assert block["type"] == "audio" and block["source"]["media_type"] == "audio/wav"
    assert _read_wav(base64.b64decode(block["source"]["data"]))[3] == 32_000


def test_without_a_microphone_the_button_explains_why(qtbot: QtBot) -> None:
    from PySide6.QtMultimedia import QMediaDevices

    if not QMediaDevices.defaultAudioInput().isNull():
        pytest.skip("this machine has a microphone")
    button = VoiceButton()
    qtbot.addWidget(button)
    reasons: list[str] = []
    button.unavailable.connect(reasons.append)
    button.button.click()
    assert reasons and "No microphone" in reasons[0]
    assert "No microphone" in button.button.toolTip()
    assert not button.recorder.recording
    QApplication.processEvents()
