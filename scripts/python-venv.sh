#!/usr/bin/env bash
# python-venv.sh SCRIPT.py [ARGS...]: runs a script of this folder with google-auth, firebase-admin and requests
# from PyPI, in a venv made once under $HEARTH_PYTHON_VENV (default ~/.cache/hearth-python/venv) and reused.
set -euo pipefail
venv="${HEARTH_PYTHON_VENV:-$HOME/.cache/hearth-python/venv}"
packages=(google-auth firebase-admin requests)
if [[ ! -f "$venv/.hearth-packages" || "$(cat "$venv/.hearth-packages")" != "${packages[*]}" ]]; then
    rm -rf "$venv"
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${packages[@]}"
    echo "${packages[*]}" > "$venv/.hearth-packages"
fi
script="$1"; shift
exec "$venv/bin/python" "$(dirname "$0")/$script" "$@"
