"""What the scripts that drive the official firebase-admin Python SDK against a development-mode Hearth share: where
Hearth is (FIREBASE_AUTH_EMULATOR_HOST, HEARTH_PROJECT), the emulator's credential, and one line printed per check.
"""

import os
import sys

from firebase_admin import _utils, credentials

HOST = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
PROJECT = os.environ.get("HEARTH_PROJECT", "demo-hearth")


class OwnerCredential(credentials.Base):
    """The emulator's own credential (`Bearer owner`) as an app credential, for the services that do not look at the
    emulator host."""

    def get_credential(self):
        return _utils.EmulatorAdminCredentials()


def check(condition, message):
    if not condition:
        print(f"FAIL {message}", flush=True)
        sys.exit(1)
    print(f"ok   {message}", flush=True)


def fails_with(call, error_type, message):
    try:
        call()
    except error_type as error:
        check(True, f"{message}: {type(error).__name__}")
        return error
    except Exception as error:  # noqa: BLE001 - any other error is the failure being reported
        check(False, f"{message}: got {type(error).__name__}: {error}")
    check(False, f"{message}: no error")
