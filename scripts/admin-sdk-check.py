"""Google's google-auth and firebase-admin against a live Hearth with a service-account key (see admin-sdk-check.sh).

Prints one line per check and exits non-zero at the first failure.
"""

import base64
import json
import os
import sys

import requests
import google.auth
import google.auth.transport.requests
from google.oauth2 import service_account

import firebase_admin
from firebase_admin import _auth_providers, _token_gen, _user_mgt, auth, exceptions

BASE = os.environ["HEARTH_URL"].rstrip("/")
API_KEY = os.environ["HEARTH_API_KEY"]
KEY_FILE = os.environ["GOOGLE_APPLICATION_CREDENTIALS"]
SCOPES = ["https://www.googleapis.com/auth/cloud-platform"]


def check(condition, message):
    if not condition:
        print(f"FAIL {message}", flush=True)
        sys.exit(1)
    print(f"ok   {message}", flush=True)


def claims(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


with open(KEY_FILE, encoding="utf-8") as handle:
    info = json.load(handle)
project = info["project_id"]
print(f"google-auth {google.auth.__version__}, firebase-admin {firebase_admin.__version__}; token_uri {info['token_uri']}")

# 1. google-auth: the JWT-bearer grant at the file's token_uri, then an admin route with the access token.
credentials = service_account.Credentials.from_service_account_file(KEY_FILE, scopes=SCOPES)
credentials.refresh(google.auth.transport.requests.Request())
check(credentials.token and credentials.valid, "google-auth service_account.Credentials.refresh() got an access token from Hearth")
check(claims(credentials.token).get("sub") == info["client_email"], "the access token names the service account")
session = google.auth.transport.requests.AuthorizedSession(credentials)
answer = session.get(f"{BASE}/v2/projects/{project}/defaultSupportedIdpConfigs")
check(answer.status_code == 200, f"AuthorizedSession GET /v2/projects/{project}/defaultSupportedIdpConfigs: {answer.status_code}")
check(requests.get(f"{BASE}/v2/projects/{project}/defaultSupportedIdpConfigs", headers={"Authorization": "Bearer owner"}).status_code == 401,
      "Bearer owner is refused (production mode)")

# 2. firebase-admin with the same file through GOOGLE_APPLICATION_CREDENTIALS (google.auth.default()).
# firebase-admin has no public setting for the Identity Toolkit's address: only FIREBASE_AUTH_EMULATOR_HOST, which
# also swaps the credential for `Bearer owner`. Its clients read these class attributes when they are made, so
# pointing them at Hearth before the first auth call keeps the real credential.
_user_mgt.UserManager.ID_TOOLKIT_URL = f"{BASE}/v1"
_token_gen.TokenGenerator.ID_TOOLKIT_URL = f"{BASE}/v1"
_auth_providers.ProviderConfigClient.PROVIDER_CONFIG_URL = f"{BASE}/v2"
app = firebase_admin.initialize_app()
check(app.project_id == project, f"firebase-admin read the project id {project} from the file")
check(app.credential.get_access_token().access_token.count(".") == 2, "firebase-admin's credential got an access token from Hearth")
configs = list(auth.list_oidc_provider_configs().iterate_all())
check(isinstance(configs, list), f"auth.list_oidc_provider_configs() with Hearth's access token ({len(configs)} configs)")

# 3. A custom token signed with the service-account key signs in.
uid = "admin-sdk-check-user"
custom_token = auth.create_custom_token(uid, {"role": "ops"}).decode()
check(claims(custom_token)["iss"] == info["client_email"], "auth.create_custom_token signed with the service-account key")
signed_in = requests.post(f"{BASE}/v1/accounts:signInWithCustomToken", params={"key": API_KEY},
                          json={"token": custom_token, "returnSecureToken": True})
check(signed_in.status_code == 200, f"accounts:signInWithCustomToken accepted it: {signed_in.status_code} {signed_in.text[:200]}")
id_token_claims = claims(signed_in.json()["idToken"])
check(id_token_claims["user_id"] == uid and id_token_claims.get("role") == "ops", "the ID token has the uid and the developer claims")

# 4. User management, where this server has the admin routes (accounts:lookup).
try:
    user = auth.get_user(uid)
    check(user.uid == uid, "auth.get_user found the user the custom token made")
except exceptions.FirebaseError as error:
    status = error.http_response.status_code if error.http_response is not None else None
    if status == 404 and "USER_NOT_FOUND" not in (error.http_response.text or ""):
        print("skip auth.get_user: this server has no admin accounts:lookup route yet (404)")
    else:
        raise

print("all checks passed")
