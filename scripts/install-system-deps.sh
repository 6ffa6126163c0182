#!/usr/bin/env bash
# Installs the Debian/Ubuntu libraries Qt (PySide6 wheels) needs at run time when they are
# missing. Runs apt-get only as root; otherwise prints the command to run.
#   --test  also the tools the tests need (validators of the packaging tests).
set -euo pipefail

packages=(
  libegl1 libgl1 libopengl0 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libfreetype6
  libglib2.0-0 libdbus-1-3 libpulse0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1
  libxcb-shape0 libxcb-randr0 libxcb-render-util0 libxcb-image0 libxcb-xinerama0
  libxcb-xkb1 libx11-xcb1 libxrender1 libxi6 libsm6 libice6 fonts-dejavu-core
  # colour emoji in chats (a minimal system shows boxes without an emoji font)
  fonts-noto-color-emoji
  # Chinese (and Japanese kana, Korean Hangul) in the translated window and in chats: 1.6 MB,
  # where fonts-noto-cjk is 56 MB; a desktop with Noto CJK keeps using it (README, Fonts)
  fonts-wqy-microhei
)
if [ "${1:-}" = "--test" ]; then
  # validators for the .desktop entry and AppStream metainfo (tests/packaging)
  packages+=(desktop-file-utils appstream)
  # a private PulseAudio server with a generated tone as the microphone (voice input tests)
  packages+=(pulseaudio pulseaudio-utils)
fi

command -v dpkg-query >/dev/null 2>&1 || { echo "install-system-deps: not a Debian system, skipping"; exit 0; }

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  echo "install-system-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
elif command -v sudo >/dev/null 2>&1; then
  sudo apt-get update -qq && sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-system-deps: missing ${missing[*]}; run: apt-get install ${missing[*]}" >&2
fi
