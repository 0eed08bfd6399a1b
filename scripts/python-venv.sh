#!/usr/bin/env bash
# python-venv.sh SCRIPT.py [ARGS...]: runs a script of this folder with google-auth, firebase-admin, requests, and
# signxml, lxml and cryptography (scripts/saml-idp.py, the SAML tests' independent IdP) and fido2
# (scripts/webauthn-authenticator.py, the passkey tests' independent authenticator) and zxing-cpp (scripts/qr-decode.py,
# the console's QR codes read by an independent decoder) from PyPI, in a venv made
# once under $HEARTH_PYTHON_VENV (default ~/.cache/hearth-python/venv) and reused.
#
# Safe to run many at once from nothing (the test suites do): the venv is built under an exclusive lock
# (flock on VENV.lock), in a temporary folder beside it that is renamed into place only once every package is
# installed, with the list of packages written last. A folder without that list is never used: it is a build
# that died half way, removed and built again under the lock.
set -euo pipefail
venv="${HEARTH_PYTHON_VENV:-$HOME/.cache/hearth-python/venv}"
packages=(google-auth firebase-admin requests signxml lxml cryptography fido2 zxing-cpp)
ready() { [[ -f "$venv/.hearth-packages" && "$(cat "$venv/.hearth-packages")" == "${packages[*]}" ]]; }
if ! ready; then
    mkdir -p "$(dirname "$venv")"
    exec {lock}> "$venv.lock"
    flock "$lock"
    # Another run may have finished it while this one waited.
    if ! ready; then
        rm -rf "$venv" "$venv".building.*
        building="$(mktemp -d "$venv.building.XXXXXX")"
        python3 -m venv "$building"
        "$building/bin/python" -m pip install --quiet --disable-pip-version-check "${packages[@]}"
        echo "${packages[*]}" > "$building/.hearth-packages"
        # The venv's python finds its packages relative to itself, so the folder may move: pip's own entry
        # scripts keep the old path in their first line, but nothing here runs them.
        mv -T "$building" "$venv"
    fi
    exec {lock}>&-
fi
script="$1"; shift
exec "$venv/bin/python" "$(dirname "$0")/$script" "$@"
