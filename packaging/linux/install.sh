#!/bin/sh
# Install Desktop Agent's Linux desktop integration: the .desktop entry (app menus, docks,
# window matching), the AppStream metadata (software centres) and the icon in every size.
#
# Usage: packaging/linux/install.sh [--prefix DIR] [--exec COMMAND]
#   --prefix DIR    where to install (default: ~/.local, i.e. for the current user only;
#                   /usr/local for everyone, as root)
#   --exec COMMAND  what the menu entry runs (default: desktop-agent, found on PATH), e.g.
#                   "$PWD/dist/desktop-agent/desktop-agent" for the packaged app
# Remove with: packaging/linux/install.sh --uninstall [--prefix DIR]
set -eu

APP_ID=io.github.desktop_agent.DesktopAgent
SIZES="16 32 48 64 128 256 512"
HERE=$(cd "$(dirname "$0")" && pwd)
ICONS="$HERE/../../resources/icons"
PREFIX="${HOME}/.local"
EXEC=desktop-agent
UNINSTALL=0

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX=$2; shift 2 ;;
        --exec) EXEC=$2; shift 2 ;;
        --uninstall) UNINSTALL=1; shift ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

SHARE="$PREFIX/share"
DESKTOP="$SHARE/applications/$APP_ID.desktop"
METAINFO="$SHARE/metainfo/$APP_ID.metainfo.xml"
HICOLOR="$SHARE/icons/hicolor"

if [ "$UNINSTALL" = 1 ]; then
    rm -f "$DESKTOP" "$METAINFO" "$HICOLOR/scalable/apps/$APP_ID.svg"
    for size in $SIZES; do rm -f "$HICOLOR/${size}x${size}/apps/$APP_ID.png"; done
else
    mkdir -p "$(dirname "$DESKTOP")" "$(dirname "$METAINFO")" "$HICOLOR/scalable/apps"
    # Exec= takes the command as given; a path with spaces must be quoted in the entry.
    case "$EXEC" in
        *" "*) exec_line="Exec=\"$EXEC\"" ;;
        *) exec_line="Exec=$EXEC" ;;
    esac
    replacement=$(printf '%s' "$exec_line" | sed 's/[&|\\]/\\&/g')  # literal in sed
    sed "s|^Exec=.*|$replacement|" "$HERE/$APP_ID.desktop" > "$DESKTOP"
    cp "$HERE/$APP_ID.metainfo.xml" "$METAINFO"
    cp "$ICONS/desktop-agent.svg" "$HICOLOR/scalable/apps/$APP_ID.svg"
    for size in $SIZES; do
        mkdir -p "$HICOLOR/${size}x${size}/apps"
        cp "$ICONS/desktop-agent-$size.png" "$HICOLOR/${size}x${size}/apps/$APP_ID.png"
    done
fi

# Refresh the menu and icon caches where the tools exist (they are optional).
if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$SHARE/applications" || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$HICOLOR/index.theme" ]; then
    gtk-update-icon-cache -q -t "$HICOLOR" || true
fi
if [ "$UNINSTALL" = 1 ]; then
    echo "Removed $APP_ID from $PREFIX"
else
    echo "Installed $APP_ID into $PREFIX (menu entry runs: $EXEC)"
fi
