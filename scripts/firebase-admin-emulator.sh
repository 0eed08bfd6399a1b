#!/usr/bin/env bash
# Checks a development-mode Hearth with the official firebase-admin Python SDK in emulator mode (Bearer owner,
# no API key): users created, read, listed, updated, disabled, given claims, revoked, imported with Firebase
# scrypt and bcrypt hashes, deleted; session cookies; custom tokens; tenants (tenant_mgt) and their users.
#
#   FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099 scripts/firebase-admin-emulator.sh
#
# The venv is scripts/python-venv.sh's. The server should be fresh: the script makes users with fixed uids.
set -euo pipefail
: "${FIREBASE_AUTH_EMULATOR_HOST:?host:port of a development-mode Hearth, e.g. 127.0.0.1:9099}"
exec "$(dirname "$0")/python-venv.sh" firebase-admin-emulator.py
