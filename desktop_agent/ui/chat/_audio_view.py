"""An audio block: play/pause, position, duration — or "open externally" without QtMultimedia.

Base64 audio plays from memory (``QBuffer`` + ``QMediaPlayer.setSourceDevice``; the URL
passed alongside is only a format hint); files by ``setSource``. Loading starts when the
widget is created, so the duration shows before playing (decoding works without an audio
device). Remote audio is only fetched when the user presses play.
"""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSlider, QToolButton

from desktop_agent.ui._plain import plain_label, sentence
from desktop_agent.ui.chat._context import RenderContext
from desktop_agent.ui.chat._media_loader import decode_base64, is_remote, local_path
from desktop_agent.ui.chat._media_views import (
    MEDIA_EXTENSIONS,
    leaves_its_folder,
    media_box,
    moved_text,
    multimedia,
    refused_text,
    source_label,
    source_url,
)

PLAY_GLYPH = "\u25b6"
PAUSE_GLYPH = "\u275a\u275a"


def format_ms(ms: int) -> str:
    """``m:ss`` for a duration in milliseconds."""
    seconds = max(0, ms) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


class AudioView(QFrame):
    """Play/pause, a position slider and ``position / duration``; errors are shown inline."""

    def __init__(self, ctx: RenderContext, block: dict[str, Any]) -> None:
        """Show and load the audio of ``block``."""
        super().__init__()
        self._ctx = ctx
        self._source: dict[str, Any] = {}
        self._signature: tuple[Any, ...] = ()
        self._player: Any = None
        self._pending_remote: QUrl | None = None
        self.state = "loading"
        self.duration_ms = 0
        layout = media_box(self)
        row = QHBoxLayout()
        row.setSpacing(8)
        self.play_button = QToolButton(self)
        self.play_button.setObjectName("playAudio")
        self.play_button.setText(PLAY_GLYPH)  # glyphs follow the theme's text colour
        self.play_button.setToolTip(QCoreApplication.translate("AudioView", "Play"))
        self.play_button.clicked.connect(self.toggle_playback)
        row.addWidget(self.play_button)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setRange(0, 0)
        self.slider.sliderMoved.connect(self._seek)
        row.addWidget(self.slider, 1)
        self.time_label = QLabel("0:00 / --:--", self)
        self.time_label.setObjectName("mediaCaption")
        row.addWidget(self.time_label)
        self.open_button = QPushButton(
            QCoreApplication.translate("AudioView", "Open externally"), self
        )
        self.open_button.clicked.connect(self.open_externally)
        self.open_button.hide()
        row.addWidget(self.open_button)
        layout.addLayout(row)
        self.caption = plain_label("", self)
        self.caption.setObjectName("mediaCaption")
        self.caption.setWordWrap(True)
        layout.addWidget(self.caption)
        self.update_block(block, streaming=False)

    # -- loading -----------------------------------------------------------------------

    def update_block(self, block: dict[str, Any], streaming: bool) -> None:
        """Load the block's source when it changed (after it stopped streaming)."""
        source = block.get("source") or {}
        source = source if isinstance(source, dict) else {}
        signature = (source.get("type"), source.get("url"), len(str(source.get("data", ""))))
        if streaming:
            self._set_caption(QCoreApplication.translate("AudioView", "Receiving audio…"))
            return
        if signature == self._signature:
            return
        self._source, self._signature = source, signature
        self._load()

    def _load(self) -> None:
        mm = multimedia()
        if mm is None:
            self._degrade(
                QCoreApplication.translate(
                    "AudioView", "Audio playback is unavailable (QtMultimedia is not installed)."
                )
            )
            return
        self._reset_player(mm)
        caption = QCoreApplication.translate("AudioView", "Audio · {source}")
        self._set_caption(caption.format(source=source_label(self._source)))
        if self._source.get("type") == "base64":
            self._load_base64()
            return
        url = str(self._source.get("url", ""))
        path = local_path(url)
        if path and (leaves_its_folder(path) or not os.path.isfile(path)):
            refused = leaves_its_folder(path)
            self._degrade(refused_text(path) if refused else moved_text(path))
            self.open_button.hide()  # nothing to open
            self.state = "refused" if refused else "moved"
        elif path:
            self._player.setSource(QUrl.fromLocalFile(path))
        elif is_remote(url):
            self._pending_remote = QUrl(url)  # fetched only when the user presses play
            self.state = "ready"
        else:
            self._fail(
                QCoreApplication.translate("AudioView", "unsupported source {url}").format(
                    url=repr(url)
                )
            )

    def _load_base64(self) -> None:
        try:
            raw = decode_base64(str(self._source.get("data", "")))
        except ValueError as exc:
            self._fail(str(exc))
            return
        if not raw:
            self._fail(QCoreApplication.translate("AudioView", "the audio data is empty"))
            return
        buffer = QBuffer(self._player)  # dies with the player, never before it
        buffer.setData(QByteArray(raw))
        buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        ext = MEDIA_EXTENSIONS.get(str(self._source.get("media_type", "")), "wav")
        self._player.setSourceDevice(buffer, QUrl(f"audio.{ext}"))

    def _reset_player(self, mm: Any) -> None:
        if self._player is not None:
            self._player.stop()
            self._player.deleteLater()
        player = mm.QMediaPlayer(self)
        output = mm.QAudioOutput(player)
        player.setAudioOutput(output)
        player.durationChanged.connect(self._on_duration)
        player.positionChanged.connect(self._on_position)
        player.playbackStateChanged.connect(self._on_playback_state)
        player.mediaStatusChanged.connect(self._on_media_status)
        player.errorOccurred.connect(self._on_error)
        self._player = player
        self.state = "loading"
        self.duration_ms = 0

    # -- player events -----------------------------------------------------------------

    def _on_duration(self, duration: int) -> None:
        self.duration_ms = duration
        self.slider.setRange(0, duration)
        self._show_time(self._player.position() if self._player else 0)

    def _on_position(self, position: int) -> None:
        if not self.slider.isSliderDown():
            self.slider.setValue(position)
        self._show_time(position)

    def _show_time(self, position: int) -> None:
        total = format_ms(self.duration_ms) if self.duration_ms > 0 else "--:--"
        self.time_label.setText(f"{format_ms(position)} / {total}")

    def _on_media_status(self, status: Any) -> None:
        mm = multimedia()
        if mm is None:
            return
        statuses = mm.QMediaPlayer.MediaStatus
        if status == statuses.InvalidMedia:
            reason = self._player.errorString()
            self._fail(
                reason or QCoreApplication.translate("AudioView", "unsupported or damaged audio")
            )
        elif status in (statuses.LoadedMedia, statuses.BufferedMedia) and self.state == "loading":
            self.state = "ready"

    def _on_error(self, _error: Any, message: str) -> None:
        self._fail(
            message or QCoreApplication.translate("AudioView", "unsupported or damaged audio")
        )

    def _on_playback_state(self, state: Any) -> None:
        mm = multimedia()
        playing = mm is not None and state == mm.QMediaPlayer.PlaybackState.PlayingState
        self.play_button.setText(PAUSE_GLYPH if playing else PLAY_GLYPH)
        if playing:
            self.play_button.setToolTip(QCoreApplication.translate("AudioView", "Pause"))
        else:
            self.play_button.setToolTip(QCoreApplication.translate("AudioView", "Play"))

    # -- user actions ------------------------------------------------------------------

    def toggle_playback(self) -> None:
        """Play, or pause if playing."""
        player = self._player
        if player is None or self.state == "error":
            return
        if self._pending_remote is not None:
            player.setSource(self._pending_remote)
            self._pending_remote = None
        mm = multimedia()
        if mm is not None and player.playbackState() == mm.QMediaPlayer.PlaybackState.PlayingState:
            player.pause()
        else:
            player.play()

    def is_playing(self) -> bool:
        """Whether audio is playing (its row is then kept alive off-screen)."""
        mm = multimedia()
        if mm is None or self._player is None:
            return False
        return bool(self._player.playbackState() == mm.QMediaPlayer.PlaybackState.PlayingState)

    def _seek(self, position: int) -> None:
        if self._player is not None:
            self._player.setPosition(position)

    def open_externally(self) -> None:
        """Open the audio with the system's player."""
        url = source_url(self._source, "wav")
        if url is not None:
            QDesktopServices.openUrl(url)

    # -- states ------------------------------------------------------------------------

    def _fail(self, reason: str) -> None:
        self.state = "error"
        self.play_button.setEnabled(False)
        self.slider.setEnabled(False)
        text = QCoreApplication.translate("AudioView", "Could not load audio: {reason}").format(
            reason=reason
        )
        self._set_caption(sentence(text))

    def _degrade(self, reason: str) -> None:
        self.state = "unavailable"
        for widget in (self.play_button, self.slider, self.time_label):
            widget.hide()
        self.open_button.show()
        self._set_caption(reason)

    def _set_caption(self, text: str) -> None:
        if self.caption.text() != text:
            self.caption.setText(text)
            self.updateGeometry()
