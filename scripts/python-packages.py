"""Prints the versions of the packages scripts/python-venv.sh installs: a check that its venv is whole."""
from importlib.metadata import version

import firebase_admin  # noqa: F401  (imported to prove it loads, not only that it is listed)
import google.auth  # noqa: F401
import requests  # noqa: F401

for name in ("google-auth", "firebase-admin", "requests"):
    print(name, version(name))
