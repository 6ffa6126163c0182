"""Voice input: record from the microphone into a WAV audio attachment.

:class:`VoiceRecorder` reads PCM from a ``QAudioSource`` (QtMultimedia, in the PySide6 Addons
wheel) in push mode, tracks the level and duration, and writes a 16-bit WAV when stopped —
the format every audio-capable model accepts. Samples of another format (float, 32-bit) are
converted. :class:`VoiceButton` is the composer's microphone button: it records, shows the
level and duration, and hands over an :class:`Attachment` holding the WAV. Without
QtMultimedia, a microphone or the permission to use it, the button says why instead.
"""

from __future__ import annotations

import array
import base64
import io
import sys
import wave
from typing import Any

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QIODevice,
    QObject,
    Qt,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QToolButton,
    QToolTip,
    QWidget,
)
from shiboken6 import isValid

from desktop_agent.app._transcription import Transcriber, TranscriptionError
from desktop_agent.message import Base64Source
from desktop_agent.ui.composer._attachments import Attachment, AttachmentChip

MAX_RECORDING_MS = 10 * 60 * 1000
"""Recording stops by itself after this long."""
RATE = 16_000
"""Samples per second asked of the microphone (speech needs no more)."""
MIC_GLYPH = "\u25cf"  # a plain record dot: emoji fonts are often missing
STOP_GLYPH = "\u25a0"
_TYPECODES = {"Int16": "h", "Int32": "i", "Float": "f", "UInt8": "B"}


def wav_bytes(pcm16: bytes, rate: int, channels: int = 1) -> bytes:
    """A WAV file holding 16-bit little-endian ``pcm16``."""
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(channels)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(pcm16)
    return out.getvalue()


def to_int16(raw: bytes, sample_format: str) -> bytes:
    """``raw`` samples of ``sample_format`` (``"Int16"``, ``"Float"``…) as 16-bit PCM."""
    code = _TYPECODES.get(sample_format)
    if code is None:
        raise ValueError(f"unsupported sample format {sample_format}")
    if code == "h":
        return raw
    samples = array.array(code)
    samples.frombytes(raw[: len(raw) - len(raw) % samples.itemsize])
    if code == "f":
        scaled = (max(-32768, min(32767, int(s * 32767))) for s in samples)
    elif code == "i":
        scaled = (s >> 16 for s in samples)
    else:
        scaled = ((s - 128) << 8 for s in samples)
    out = array.array("h", scaled)
    return _little_endian(out)


def _little_endian(samples: array.array[int]) -> bytes:
    if sys.byteorder == "big":
        samples.byteswap()
    return samples.tobytes()


def peak_level(pcm16: bytes) -> float:
    """The loudest sample of ``pcm16`` (every 4th sample is enough), from 0 to 1."""
    samples = array.array("h")
    samples.frombytes(pcm16[: len(pcm16) - len(pcm16) % 2])
    if sys.byteorder == "big":
        samples.byteswap()
    if not samples:
        return 0.0
    return min(1.0, max(abs(s) for s in samples[::4]) / 32768)


def voice_attachment(wav: bytes, duration_ms: int) -> Attachment:
    """The audio attachment of a recording."""
    seconds = duration_ms // 1000
    label = QCoreApplication.translate("VoiceButton", "Voice message {duration}").format(
        duration=f"{seconds // 60}:{seconds % 60:02d}"
    )
    source = Base64Source(
        type="base64", media_type="audio/wav", data=base64.b64encode(wav).decode("ascii")
    )
    return Attachment("audio", label, source)


def multimedia() -> Any:
    """The QtMultimedia module, or ``None`` when the Addons wheel is missing."""
    try:
        from PySide6 import QtMultimedia  # slow, maybe absent: on first use
    except ImportError:
        return None
    return QtMultimedia


class VoiceRecorder(QObject):
    """Records the default microphone; PCM comes in through :meth:`feed`."""

    level_changed = Signal(float)
    duration_changed = Signal(int)
    """Milliseconds recorded so far."""

    def __init__(self, parent: QObject | None = None) -> None:
        """Create an idle recorder."""
        super().__init__(parent)
        self.rate = RATE
        self.channels = 1
        self.sample_format = "Int16"
        self._pcm = bytearray()
        self._source: Any = None
        self._io: Any = None
        self.recording = False

    @staticmethod
    def unavailable_reason() -> str:
        """Why recording cannot start (``""``: it can)."""
        mm = multimedia()
        if mm is None:
            return QCoreApplication.translate(
                "VoiceRecorder", "Voice input needs QtMultimedia (the PySide6 Addons package)."
            )
        # Slow, maybe absent: on first use.
        from PySide6.QtCore import QMicrophonePermission

        app = QCoreApplication.instance()
        if app is not None:
            status = app.checkPermission(QMicrophonePermission())
            if status == Qt.PermissionStatus.Denied:
                return QCoreApplication.translate(
                    "VoiceRecorder",
                    "The microphone is blocked: allow this app to use it in the system settings.",
                )
            if status == Qt.PermissionStatus.Undetermined:  # macOS: ask the user once
                app.requestPermission(QMicrophonePermission(), app, lambda _permission: None)
                return QCoreApplication.translate(
                    "VoiceRecorder",
                    "Allow the microphone when the system asks, then press record again.",
                )
        if mm.QMediaDevices.defaultAudioInput().isNull():
            return QCoreApplication.translate(
                "VoiceRecorder", "No microphone was found. Connect one (or enable it) to record."
            )
        return ""

    def start(self) -> str:
        """Start recording from the default microphone; ``""`` or why it cannot."""
        reason = self.unavailable_reason()
        if reason:
            return reason
        mm = multimedia()
        device = mm.QMediaDevices.defaultAudioInput()
        fmt = mm.QAudioFormat()
        fmt.setSampleRate(RATE)
        fmt.setChannelCount(1)
        fmt.setSampleFormat(mm.QAudioFormat.SampleFormat.Int16)
        if not device.isFormatSupported(fmt):
            fmt = device.preferredFormat()
        name = fmt.sampleFormat().name
        if name not in _TYPECODES:
            text = QCoreApplication.translate(
                "VoiceRecorder", "The microphone's sample format ({name}) is not supported."
            )
            return text.format(name=name)
        self.begin(fmt.sampleRate(), fmt.channelCount(), name)
        self._source = mm.QAudioSource(device, fmt, self)
        self._io = self._source.start()
        if self._io is None:
            self.recording = False
            return QCoreApplication.translate(
                "VoiceRecorder", "The microphone could not be opened."
            )
        self._io.readyRead.connect(self._read)
        return ""

    def begin(self, rate: int, channels: int, sample_format: str = "Int16") -> None:
        """Start a recording of samples in this format (fed by the device or a test)."""
        self.rate, self.channels, self.sample_format = rate, channels, sample_format
        self._pcm.clear()
        self.recording = True

    def _read(self) -> None:
        if self._io is not None:
            self.feed(bytes(self._io.readAll().data()))

    def feed(self, raw: bytes) -> None:
        """Take samples recorded since the last call."""
        if not self.recording or not raw:
            return
        pcm = to_int16(raw, self.sample_format)
        self._pcm += pcm
        self.level_changed.emit(peak_level(pcm))
        self.duration_changed.emit(self.duration_ms)

    @property
    def duration_ms(self) -> int:
        """How long the recording is."""
        frames = len(self._pcm) // (2 * max(1, self.channels))
        return frames * 1000 // max(1, self.rate)

    def stop(self) -> bytes:
        """Stop recording; the WAV (empty bytes if nothing was recorded)."""
        if self._source is not None:
            self._read()
            self._source.stop()
            self._source.deleteLater()
            self._source = self._io = None
        self.recording = False
        if not self._pcm:
            return b""
        return wav_bytes(bytes(self._pcm), self.rate, self.channels)


class VoiceButton(QWidget):
    """The microphone button, with a level meter and the duration while recording."""

    recorded = Signal(object)
    """An :class:`Attachment` holding the recording as WAV."""

    unavailable = Signal(str)
    """Recording could not start; why."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """Create the button (idle)."""
        super().__init__(parent)
        self.recorder = VoiceRecorder(self)
        self.recorder.level_changed.connect(self._show_level)
        self.recorder.duration_changed.connect(self._show_duration)
        self.button = QToolButton()
        self.button.setObjectName("micButton")
        self.button.setText(MIC_GLYPH)
        self.button.setAutoRaise(True)
        self.button.clicked.connect(self.toggle)
        self.level = QProgressBar()
        self.level.setObjectName("micLevel")
        self.level.setRange(0, 100)
        self.level.setTextVisible(False)
        self.level.setFixedSize(56, 6)
        self.duration = QLabel("0:00")
        self.duration.setObjectName("caption")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.button)
        layout.addWidget(self.level)
        layout.addWidget(self.duration)
        self._limit = QTimer(self)
        self._limit.setSingleShot(True)
        self._limit.setInterval(MAX_RECORDING_MS)
        self._limit.timeout.connect(self.toggle)
        self._show_idle()

    def toggle(self) -> None:
        """Start recording, or stop and attach the recording."""
        if self.recorder.recording:
            self._finish()
            return
        reason = self.recorder.start()
        if reason:
            self.button.setToolTip(reason)
            QToolTip.showText(self.button.mapToGlobal(self.button.rect().bottomLeft()), reason)
            self.unavailable.emit(reason)
            return
        self._show_recording()

    def _finish(self) -> None:
        duration = self.recorder.duration_ms
        wav = self.recorder.stop()
        self._show_idle()
        if wav:
            self.recorded.emit(voice_attachment(wav, duration))

    def _show_recording(self) -> None:
        self._limit.start()
        self.button.setText(STOP_GLYPH)
        self.button.setToolTip(
            QCoreApplication.translate("VoiceButton", "Stop recording and attach it (Ctrl+Shift+M)")
        )
        self.button.setProperty("recording", True)
        self.level.setValue(0)
        self.duration.setText("0:00")
        self.level.show()
        self.duration.show()

    def _show_idle(self) -> None:
        self._limit.stop()
        self.button.setText(MIC_GLYPH)
        self.button.setProperty("recording", False)
        # Devices are looked up on click, not here: QtMultimedia costs ~0.1 s to load.
        self.button.setToolTip(
            QCoreApplication.translate("VoiceButton", "Record a voice message (Ctrl+Shift+M)")
        )
        self.level.hide()
        self.duration.hide()

    def _show_level(self, level: float) -> None:
        self.level.setValue(round(level * 100))

    def _show_duration(self, ms: int) -> None:
        seconds = ms // 1000
        self.duration.setText(f"{seconds // 60}:{seconds % 60:02d}")


class AudioChip(AttachmentChip):
    """An audio attachment's chip with a play/stop button (recordings and audio files)."""

    transcribe_requested = Signal(object)
    """The user asked for the clip as text (the composer runs the transcription)."""

    def __init__(self, attachment: Attachment, parent: QWidget | None = None) -> None:
        """Create the chip; the player is made on the first play."""
        super().__init__(attachment, parent)
        self.play_button = QToolButton()
        self.play_button.setText("\u25b6")
        self.play_button.setAutoRaise(True)
        self.play_button.setToolTip(QCoreApplication.translate("AudioChip", "Play"))
        self.play_button.clicked.connect(self.toggle_playback)
        self.transcribe_button = QToolButton()
        self.transcribe_button.setText(QCoreApplication.translate("AudioChip", "To text"))
        self.transcribe_button.setAutoRaise(True)
        self.transcribe_button.setToolTip(
            QCoreApplication.translate("AudioChip", "Transcribe into the message (to edit)")
        )
        self.transcribe_button.clicked.connect(lambda: self.transcribe_requested.emit(self))
        self.transcribe_button.hide()  # shown when the provider offers speech-to-text
        layout = self.layout()
        if isinstance(layout, QHBoxLayout):
            layout.insertWidget(1, self.play_button)
            layout.insertWidget(layout.count() - 1, self.transcribe_button)
        self._player: Any = None

    @property
    def playing(self) -> bool:
        """Whether the clip is playing."""
        mm = multimedia()
        return bool(
            self._player is not None
            and self._player.playbackState() == mm.QMediaPlayer.PlaybackState.PlayingState
        )

    def toggle_playback(self) -> None:
        """Play the clip from the start, or stop it."""
        mm = multimedia()
        if mm is None:
            self.play_button.setToolTip(
                QCoreApplication.translate(
                    "AudioChip", "Playback needs QtMultimedia (PySide6 Addons)."
                )
            )
            return
        if self.playing:
            self._player.stop()
            return
        if self._player is None:
            self._player = self._make_player(mm)
        self._player.setPosition(0)
        self._player.play()

    def _make_player(self, mm: Any) -> Any:
        player = mm.QMediaPlayer(self)
        player.setAudioOutput(mm.QAudioOutput(player))
        player.playbackStateChanged.connect(self._show_state)
        source = self.attachment.source
        if source.get("type") == "base64":
            buffer = QBuffer(player)
            buffer.setData(QByteArray(base64.b64decode(str(source.get("data", "")))))
            buffer.open(QIODevice.OpenModeFlag.ReadOnly)
            player.setSourceDevice(buffer, QUrl("voice.wav"))
        else:
            player.setSource(QUrl.fromLocalFile(str(source.get("url", ""))))
        return player

    def _show_state(self) -> None:
        self.play_button.setText(STOP_GLYPH if self.playing else "\u25b6")
        if self.playing:
            self.play_button.setToolTip(QCoreApplication.translate("AudioChip", "Stop"))
        else:
            self.play_button.setToolTip(QCoreApplication.translate("AudioChip", "Play"))


def audio_bytes(attachment: Attachment) -> bytes:
    """The audio file of an attachment (recorded data, or the file it names)."""
    source = attachment.source
    if source.get("type") == "base64":
        return base64.b64decode(str(source.get("data", "")))
    with open(str(source.get("url", "")), "rb") as file:
        return file.read()


async def transcribe_into(
    chip: AudioChip, transcriber: Transcriber, editor: QPlainTextEdit
) -> TranscriptionError | None:
    """Transcribe ``chip``'s audio and append the text to ``editor``; the error, if any."""
    chip.transcribe_button.setEnabled(False)
    chip.transcribe_button.setText(QCoreApplication.translate("AudioChip", "Transcribing…"))
    try:
        text = await transcriber(audio_bytes(chip.attachment))
    except TranscriptionError as exc:
        error: TranscriptionError | None = exc
    except OSError as exc:
        text = QCoreApplication.translate(
            "AudioChip", "The audio could not be read: {reason}"
        ).format(reason=exc)
        error = TranscriptionError(text)
    else:
        error = None
        if text:
            cursor = editor.textCursor()
            cursor.movePosition(QTextCursor.MoveOperation.End)
            separator = " " if editor.toPlainText().strip() else ""
            cursor.insertText(separator + text)
            editor.setTextCursor(cursor)
            editor.setFocus()
    if isValid(chip):
        chip.transcribe_button.setEnabled(True)
        chip.transcribe_button.setText(QCoreApplication.translate("AudioChip", "To text"))
        tip = (
            str(error)
            if error
            else QCoreApplication.translate("AudioChip", "Transcribe into the message (to edit)")
        )
        chip.transcribe_button.setToolTip(tip)
    return error
