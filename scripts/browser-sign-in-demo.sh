#!/usr/bin/env bash
# Drives browser sign-in end to end in a real headless Chromium against `hearth serve` in development mode:
# createAuthUri → the sandbox's consent page (screenshot) → a click on Approve → the provider's redirect →
# /__/auth/handler → the app's loopback return URL → signInWithIdp. Runs Google (redirects) and Apple
# (form_post, submitted by the page's script), then checks that Cancel reaches the app as
# auth/web-context-cancelled.
#
#   scripts/browser-sign-in-demo.sh            # builds `hearth` into .build-browser if needed
#   HEARTH_BIN=/path/to/hearth scripts/browser-sign-in-demo.sh
#
# Needs chromium (Debian: apt-get install chromium) and Node.js 20 or newer.
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH=${SCRATCH:-.build-browser}
if [[ -z "${HEARTH_BIN:-}" ]]; then
    swift build --product hearth --scratch-path "$SCRATCH" >&2
    HEARTH_BIN="$SCRATCH/debug/hearth"
fi
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome)}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

WORK=$(mktemp -d)
HEARTH_PORT=$(free_port)
DEVTOOLS_PORT=$(free_port)
cleanup() {
    [[ -n "${CHROME_PID:-}" ]] && kill "$CHROME_PID" 2>/dev/null || true
    [[ -n "${HEARTH_PID:-}" ]] && kill "$HEARTH_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

"$HEARTH_BIN" serve --port "$HEARTH_PORT" --data-dir "$WORK/data" >"$WORK/hearth.log" 2>&1 &
HEARTH_PID=$!
for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$HEARTH_PORT/.well-known/openid-configuration" >/dev/null && break
    sleep 0.2
done

"$CHROMIUM" --headless=new --no-sandbox --disable-gpu --no-first-run --user-data-dir="$WORK/chrome" \
    --remote-debugging-port="$DEVTOOLS_PORT" --window-size=720,900 about:blank >"$WORK/chrome.log" 2>&1 &
CHROME_PID=$!
for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$DEVTOOLS_PORT/json/version" >/dev/null && break
    sleep 0.2
done

node --experimental-websocket --no-warnings scripts/browser-sign-in-demo.mjs \
    "http://127.0.0.1:$HEARTH_PORT" "$DEVTOOLS_PORT" docs/sandbox-consent.png
