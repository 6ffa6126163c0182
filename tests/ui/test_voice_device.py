"""Recording from a real (virtual) microphone through QtMultimedia, with a generated tone.

A private PulseAudio server is started with a null sink whose monitor is remapped into an
ordinary source ("TestMic"); ``pacat`` plays a generated 440 Hz tone into the sink; a child
process (its own QtMultimedia, pointed at this server by ``PULSE_SERVER``) records with the
composer's microphone button. Skipped where PulseAudio is not installed
(``scripts/install-system-deps.sh`` installs it). PulseAudio's own ``module-sine-source``
is not used: Qt's PulseAudio input stalls on it after a few milliseconds.
"""

from __future__ import annotations

import array
import base64
import io
import json
import math
import os
import shutil
import subprocess
import sys
import time
import wave
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not (shutil.which("pulseaudio") and shutil.which("pacat") and shutil.which("pactl")),
    reason="PulseAudio (pulseaudio, pulseaudio-utils) is not installed",
)

_RECORD = """
import base64, json, time
from PySide6.QtWidgets import QApplication
app = QApplication([])
from desktop_agent.ui.composer import Composer
composer = Composer()
composer.voice.toggle()
started = time.monotonic()
while time.monotonic() - started < 2.0:
    app.processEvents()
    time.sleep(0.01)
recording = composer.voice.recorder.recording
levels = composer.voice.level.value()
composer.voice.toggle()
chips = composer.attachment_chips()
print(json.dumps({
    "recording": recording,
    "level": levels,
    "tooltip": composer.voice.button.toolTip(),
    "label": chips[0].attachment.label if chips else None,
    "data": chips[0].attachment.source.get("data") if chips else None,
}))
"""


@pytest.fixture
def pulse_server(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A private PulseAudio server whose only input hears a generated tone."""
    socket = tmp_path / "native"
    env = {
        **os.environ,
        "XDG_RUNTIME_DIR": str(tmp_path / "run"),
        "HOME": str(tmp_path / "home"),
        "PULSE_SERVER": f"unix:{socket}",
    }
    for folder in ("run", "home"):
        (tmp_path / folder).mkdir()
    modules = [
        f"module-native-protocol-unix socket={socket} auth-anonymous=1",
        "module-null-sink sink_name=speaker",
        "module-remap-source master=speaker.monitor source_name=mic "
        "source_properties=device.description=TestMic",
    ]
    command = ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1"]
    command += ["--use-pid-file=no", "--disable-shm=yes"]
    for module in modules:
        command += ["-L", module]
    server = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    tone = tmp_path / "tone.raw"
    samples = (int(16000 * math.sin(2 * math.pi * 440 * i / 16000)) for i in range(16000 * 8))
    tone.write_bytes(array.array("h", samples).tobytes())
    player = None
    try:
        deadline = time.monotonic() + 10
        while not socket.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        subprocess.run(["pactl", "set-default-source", "mic"], env=env, check=True, timeout=10)
        play = ["pacat", "--playback", "--raw", "--rate=16000", "--channels=1", "--format=s16le"]
        player = subprocess.Popen([*play, "--device=speaker", str(tone)], env=env)
        yield env
    finally:
        for process in (player, server):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)


def test_the_microphone_button_records_a_generated_tone_into_a_wav(
    pulse_server: dict[str, str],
) -> None:
    env = {**pulse_server, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", _RECORD], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["recording"] is True
    assert result["level"] >= 30  # the tone's peak is ~49 %
    assert result["label"].startswith("Voice message 0:0")
    with wave.open(io.BytesIO(base64.b64decode(result["data"]))) as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
        seconds = wav.getnframes() / wav.getframerate()
        pcm = array.array("h", wav.readframes(wav.getnframes()))
    assert 0.3 < seconds <= 2.1
    assert max(abs(s) for s in pcm) > 10_000  # the tone, not silence
