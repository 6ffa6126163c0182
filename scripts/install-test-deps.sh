#!/usr/bin/env bash
# Test dependencies from npm, installed once into .cache/npm (ignored by git), so that no
# test downloads anything: the MCP "everything" reference server. Skipped without npm
# (the tests that need it skip then, saying so).
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=.cache/npm
PACKAGE="@modelcontextprotocol/server-everything@2026.8.31"
if ! command -v npm >/dev/null 2>&1; then
    echo "install-test-deps: npm not found; the MCP server-everything tests will skip." >&2
    exit 0
fi
if [ -f "$PREFIX/node_modules/@modelcontextprotocol/server-everything/package.json" ]; then
    exit 0
fi
npm install --silent --no-audit --no-fund --prefix "$PREFIX" "$PACKAGE"
