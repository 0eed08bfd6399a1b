#!/usr/bin/env bash
# Checks a live Hearth with Google's own Python libraries, as a backend would use them outside development mode:
# google-auth exchanges a service-account key (made by `hearth admin create-key`) for an access token at the
# file's token_uri and calls an admin route with it; firebase-admin, with the same file, calls the admin API
# and makes a custom token that signs in.
#
#   GOOGLE_APPLICATION_CREDENTIALS=key.json HEARTH_URL=http://127.0.0.1:9099 HEARTH_API_KEY=... scripts/admin-sdk-check.sh
#
# The venv (google-auth, firebase-admin and requests from PyPI) is made once under $HEARTH_PYTHON_VENV
# (default ~/.cache/hearth-python/venv) and reused. FIREBASE_AUTH_EMULATOR_HOST must be unset: with it,
# firebase-admin sends `Bearer owner` instead of the real credential.
set -euo pipefail

: "${GOOGLE_APPLICATION_CREDENTIALS:?the service-account file from hearth admin create-key}"
: "${HEARTH_URL:?the server, e.g. http://127.0.0.1:9099}"
: "${HEARTH_API_KEY:?one of project.apiKeys (custom-token sign-in is an app call)}"
unset FIREBASE_AUTH_EMULATOR_HOST

exec "$(dirname "$0")/python-venv.sh" admin-sdk-check.py
