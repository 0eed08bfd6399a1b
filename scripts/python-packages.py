"""Prints the versions of the packages scripts/python-venv.sh installs: a check that its venv is whole."""
from importlib.metadata import version

import cryptography  # noqa: F401  (imported to prove it loads, not only that it is listed)
import firebase_admin  # noqa: F401
import google.auth  # noqa: F401
import lxml  # noqa: F401
import requests  # noqa: F401
import signxml  # noqa: F401

for name in ("google-auth", "firebase-admin", "requests", "signxml", "lxml", "cryptography"):
    print(name, version(name))
