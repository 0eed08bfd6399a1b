"""The official firebase-admin Python SDK against a development-mode Hearth, as its emulator mode reaches it
(FIREBASE_AUTH_EMULATOR_HOST: `Bearer owner`, no API key, paths under /identitytoolkit.googleapis.com), second
factors included (written through the SDK's own client: it has no multi-factor API), and tenants (tenant_mgt: the
tenants themselves, and users, tokens, action links and OIDC provider configs inside one).

    FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099 HEARTH_PROJECT=demo-hearth python firebase-admin-emulator.py

Run by scripts/firebase-admin-emulator.sh (which makes the venv). Prints one line per check and exits non-zero at
the first failure.
"""

import base64
import json
import time
import urllib.parse
import urllib.request

import firebase_admin
from emulator_checks import HOST, PROJECT, OwnerCredential, check, fails_with
from firebase_admin import auth, exceptions, tenant_mgt


def client_call(path, body):
    """An app's call (API key, no bearer), for signing in."""
    request = urllib.request.Request(
        f"http://{HOST}/identitytoolkit.googleapis.com/v1/{path}?key=any-key",
        data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def claims_of(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


firebase_admin.initialize_app(options={"projectId": PROJECT})
print(f"firebase-admin {firebase_admin.__version__} against {HOST}, project {PROJECT}")

# create / get
ada = auth.create_user(uid="ada-1", email="Ada@Example.com", password="analytical", display_name="Ada Lovelace",
                       phone_number="+15555550100", email_verified=True)
check(ada.uid == "ada-1" and ada.email == "ada@example.com", "create_user with a chosen uid")
check(auth.get_user("ada-1").display_name == "Ada Lovelace", "get_user")
check(auth.get_user_by_email("ada@example.com").uid == "ada-1", "get_user_by_email")
check(auth.get_user_by_phone_number("+15555550100").uid == "ada-1", "get_user_by_phone_number")
fails_with(lambda: auth.get_user("nobody"), auth.UserNotFoundError, "get_user of an unknown uid")
fails_with(lambda: auth.create_user(uid="ada-1"), auth.UidAlreadyExistsError, "create_user with a taken uid")
fails_with(lambda: auth.create_user(email="ada@example.com"), auth.EmailAlreadyExistsError, "create_user with a taken e-mail")
fails_with(lambda: auth.create_user(phone_number="+15555550100"), auth.PhoneNumberAlreadyExistsError,
           "create_user with a taken phone number")
found = auth.get_users([auth.UidIdentifier("ada-1"), auth.EmailIdentifier("ada@example.com"), auth.UidIdentifier("ghost")])
check([user.uid for user in found.users] == ["ada-1"] and len(found.not_found) == 1, "get_users de-duplicates and reports the missing")

# update, claims, disable
updated = auth.update_user("ada-1", display_name="Countess", photo_url="https://example.com/ada.png", disabled=True)
check(updated.display_name == "Countess" and updated.disabled, "update_user")
signed_in = None
try:
    client_call("accounts:signInWithPassword", {"email": "ada@example.com", "password": "analytical", "returnSecureToken": True})
except urllib.error.HTTPError as error:
    check(json.load(error)["error"]["message"] == "USER_DISABLED", "a disabled user's sign-in answers USER_DISABLED")
auth.update_user("ada-1", disabled=False, phone_number=auth.DELETE_ATTRIBUTE)
check(auth.get_user("ada-1").phone_number is None, "update_user removes the phone number (deleteProvider phone)")
auth.set_custom_user_claims("ada-1", {"admin": True, "level": 3})
check(auth.get_user("ada-1").custom_claims == {"admin": True, "level": 3}, "set_custom_user_claims")
fails_with(lambda: auth.set_custom_user_claims("ada-1", {"sub": "x"}), ValueError, "a reserved claim is refused")
signed_in = client_call("accounts:signInWithPassword", {"email": "ada@example.com", "password": "analytical", "returnSecureToken": True})
check(claims_of(signed_in["idToken"]).get("admin") is True, "custom claims reach the next ID token")
decoded = auth.verify_id_token(signed_in["idToken"])
check(decoded["uid"] == "ada-1", "verify_id_token")

# session cookies (when the server has them)
try:
    cookie = auth.create_session_cookie(signed_in["idToken"], expires_in=3600)
    check(auth.verify_session_cookie(cookie)["uid"] == "ada-1", "create_session_cookie / verify_session_cookie")
except auth.UnexpectedResponseError as error:
    check(False, f"create_session_cookie: {error}")

# revocation
time.sleep(1.1)
auth.revoke_refresh_tokens("ada-1")
check(auth.get_user("ada-1").tokens_valid_after_timestamp > 0, "revoke_refresh_tokens sets tokensValidAfterTime")
fails_with(lambda: auth.verify_id_token(signed_in["idToken"], check_revoked=True), auth.RevokedIdTokenError,
           "verify_id_token(check_revoked=True) refuses a token of a revoked session")

# list
for index in range(30):
    auth.create_user(uid=f"list-{index:02d}")
listed = [user.uid for user in auth.list_users(max_results=7).iterate_all()]
check(len(listed) == 31 and listed == sorted(listed), "list_users pages through every user in uid order")

# import, with Firebase scrypt (github.com/firebase/scrypt's vector) and with bcrypt
scrypt = auth.UserImportHash.scrypt(
    key=base64.b64decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="),
    salt_separator=base64.b64decode("Bw=="), rounds=8, memory_cost=14)
result = auth.import_users([
    auth.ImportUserRecord(uid="imp-1", email="user1@example.com",
                          password_hash=base64.b64decode("lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="),
                          password_salt=base64.b64decode("42xEC+ixf3L2lw=="), custom_claims={"plan": "pro"},
                          provider_data=[auth.UserProvider(uid="gh-1", provider_id="github.com", email="imp@github.example")]),
    auth.ImportUserRecord(uid="imp-bad", email="ada@example.com"),
], hash_alg=scrypt)
check(result.success_count == 1 and result.failure_count == 1 and result.errors[0].index == 1, "import_users reports failures by index")
imported = client_call("accounts:signInWithPassword", {"email": "user1@example.com", "password": "user1password", "returnSecureToken": True})
check(imported["localId"] == "imp-1", "an imported Firebase-scrypt user signs in with the old password")
bcrypt = auth.import_users([auth.ImportUserRecord(uid="imp-2", email="bc@example.com",
                                                  password_hash=b"$2b$06$tXoPZeB8dx8h54okwd2scOmLV1OtST6c5Rvwop8C3f37fcoiqND7S")],
                           hash_alg=auth.UserImportHash.bcrypt())
check(bcrypt.success_count == 1, "import_users with bcrypt")
check(client_call("accounts:signInWithPassword", {"email": "bc@example.com", "password": "Hearth import ✓ £",
                                                  "returnSecureToken": True})["localId"] == "imp-2", "an imported bcrypt user signs in")

# delete
auth.delete_user("imp-2")
fails_with(lambda: auth.get_user("imp-2"), auth.UserNotFoundError, "delete_user")
deleted = auth.delete_users([f"list-{index:02d}" for index in range(30)] + ["ghost"])
check(deleted.success_count == 31 and deleted.failure_count == 0, "delete_users (force) deletes enabled users, skips unknown ones")
check([user.uid for user in auth.list_users().iterate_all()] == ["ada-1", "imp-1"], "what is left")

# custom tokens: firebase-admin signs nothing in emulator mode (alg none), which development mode accepts
custom = auth.create_custom_token("ada-1", {"premium": True}).decode()
exchanged = client_call("accounts:signInWithCustomToken", {"token": custom, "returnSecureToken": True})
check(claims_of(exchanged["idToken"]).get("premium") is True, "create_custom_token signs in, its claims in the ID token")
# e-mail action links: generated and returned, not mailed (returnOobLink)
settings = auth.ActionCodeSettings(url="http://localhost/done", handle_code_in_app=True)
reset_link = auth.generate_password_reset_link("ada@example.com", settings)
check("mode=resetPassword" in reset_link and "continueUrl=http" in reset_link, "generate_password_reset_link")
reset_code = urllib.parse.parse_qs(urllib.parse.urlparse(reset_link).query)["oobCode"][0]
looked = client_call("accounts:resetPassword", {"oobCode": reset_code})
check(looked["requestType"] == "PASSWORD_RESET" and looked["email"] == "ada@example.com", "the reset link's code, looked at")
client_call("accounts:resetPassword", {"oobCode": reset_code, "newPassword": "from the link"})
client_call("accounts:signInWithPassword", {"email": "ada@example.com", "password": "from the link", "returnSecureToken": True})
verify_link = auth.generate_email_verification_link("ada@example.com")
verify_code = urllib.parse.parse_qs(urllib.parse.urlparse(verify_link).query)["oobCode"][0]
check(client_call("accounts:resetPassword", {"oobCode": verify_code})["requestType"] == "VERIFY_EMAIL",
      "generate_email_verification_link")
check(client_call("accounts:update", {"oobCode": verify_code})["emailVerified"] is True, "the verification link, applied")
sign_in_link = auth.generate_sign_in_with_email_link("newcomer@example.com", settings)
check("mode=signIn" in sign_in_link, "generate_sign_in_with_email_link")
fails_with(lambda: auth.generate_password_reset_link("nobody@example.com"), auth.EmailNotFoundError,
           "generate_password_reset_link for an unknown address")

# second factors. firebase-admin for Python has no multi-factor API (firebase/firebase-admin-python#611: no
# `multi_factor` on UserRecord, create_user or update_user). Its UserRecord keeps the server's answer, so the
# factors are read from there, and they are written through the SDK's own authenticated client, in the shape
# firebase-admin for Node gives `multiFactor.enrolledFactors` (src/auth/user-import-builder.ts): `mfaInfo` on
# create and import, `mfa.enrollments` on update, `mfa: {}` for an empty list.
users_api = auth._get_client(None)._user_manager  # noqa: SLF001 - the SDK's own transport and credential


def admin_post(path, body):
    return users_api._make_request("post", path, json=body)[0]  # noqa: SLF001


def enrolled_factors(uid):
    return auth.get_user(uid)._data.get("mfaInfo", [])  # noqa: SLF001 - the lookup's answer as the SDK keeps it


admin_post("/accounts", {"localId": "mfa-1", "email": "mfa@example.com", "emailVerified": True, "password": "second factor",
                         "mfaInfo": [{"phoneInfo": "+15555550120", "displayName": "Work phone"},
                                     {"phoneInfo": "+15555550121", "displayName": "Home", "enrolledAt": "2017-09-22T01:49:58.000Z"}]})
factors = enrolled_factors("mfa-1")
check([factor.get("phoneInfo") for factor in factors] == ["+15555550120", "+15555550121"], "create_user with phone second factors")
check(len(factors[0]["mfaEnrollmentId"]) == 28 and factors[0]["displayName"] == "Work phone" and "enrolledAt" in factors[0],
      "a second factor's id is made by the server, its enrolment time is now")
check(factors[1]["enrolledAt"] == "2017-09-22T01:49:58.000Z", "a given enrolment time is kept")
check(auth.get_user("mfa-1").email == "mfa@example.com", "get_user reads a user with second factors")
home = factors[1]
admin_post("/accounts:update", {"localId": "mfa-1", "mfa": {"enrollments": [
    {"mfaEnrollmentId": home["mfaEnrollmentId"], "phoneInfo": home["phoneInfo"], "displayName": "Home", "enrolledAt": home["enrolledAt"]},
    {"mfaEnrollmentId": "new-phone", "phoneInfo": "+15555550122", "displayName": "New"}]}})
factors = enrolled_factors("mfa-1")
check([(factor["mfaEnrollmentId"], factor["phoneInfo"]) for factor in factors]
      == [(home["mfaEnrollmentId"], "+15555550121"), ("new-phone", "+15555550122")], "update_user replaces the second factors")
error = fails_with(lambda: admin_post("/accounts:update", {"localId": "mfa-1", "mfa": {"enrollments": [{"mfaEnrollmentId": "x", "phoneInfo": "555"}]}}),
                   exceptions.InvalidArgumentError, "a second factor with a malformed number is refused")
check("INVALID_MFA_PHONE_NUMBER" in str(error), f"... as INVALID_MFA_PHONE_NUMBER: {error}")
error = fails_with(lambda: admin_post("/accounts:update", {"localId": "mfa-1", "mfa": {"enrollments": [{"phoneInfo": "+15555550123"}]}}),
                   exceptions.InvalidArgumentError, "a replacing factor without an id is refused")
check("INVALID_MFA_ENROLLMENT_ID" in str(error), f"... as INVALID_MFA_ENROLLMENT_ID: {error}")
check(len(enrolled_factors("mfa-1")) == 2, "a refused update changes nothing")
admin_post("/accounts:update", {"localId": "mfa-1", "mfa": {}})
check(enrolled_factors("mfa-1") == [], "update_user with an empty list of enrolled factors removes them all")
admin_post("/accounts:update", {"localId": "mfa-1", "mfa": {"enrollments": [{"mfaEnrollmentId": "again", "phoneInfo": "+15555550124"}]}})
admin_post("/accounts:update", {"localId": "mfa-1", "mfa": {"enrollments": []}})
check(enrolled_factors("mfa-1") == [], "... and with an empty enrollments list")


class FactorImportUserRecord(auth.ImportUserRecord):
    """An ImportUserRecord with phone second factors, as firebase-admin for Node writes them in an import."""

    def __init__(self, uid, factors, **kwargs):
        super().__init__(uid, **kwargs)
        self.factors = factors

    def to_dict(self):
        return {**super().to_dict(), "mfaInfo": self.factors}


work = [{"mfaEnrollmentId": "w1", "phoneInfo": "+15555550125", "displayName": "Work"}]
result = auth.import_users([FactorImportUserRecord("mfa-imp-1", work, email="mfa-imp@example.com", email_verified=True),
                            FactorImportUserRecord("mfa-imp-2", work, email="mfa-imp2@example.com")])
check(result.success_count == 1 and result.errors[0].index == 1
      and result.errors[0].reason == "Second factor account requires email to be verified.",
      f"import_users with second factors; an unverified user refused: {[error.reason for error in result.errors]}")
check([(factor["mfaEnrollmentId"], factor["phoneInfo"]) for factor in enrolled_factors("mfa-imp-1")] == [("w1", "+15555550125")],
      "an imported user's second factors")

# tenants. firebase-admin's tenant_mgt does not follow FIREBASE_AUTH_EMULATOR_HOST (firebase/firebase-admin-python#910):
# its tenant calls go to Google's TENANT_MGT_URL with the app's credential. So the URL is pointed at the server, as
# scripts/admin-sdk-check.py points the others, and an app of its own carries the SDK's own emulator credential
# (Bearer owner); auth_for_tenant's clients follow the emulator host as the project's do.
tenant_mgt._TenantManagementService.TENANT_MGT_URL = f"http://{HOST}/identitytoolkit.googleapis.com/v2"  # noqa: SLF001


tenants_app = firebase_admin.initialize_app(OwnerCredential(), options={"projectId": PROJECT}, name="tenants")
acme = tenant_mgt.create_tenant("Acme", allow_password_sign_up=True, app=tenants_app)
check(acme.tenant_id.startswith("acme-") and acme.display_name == "Acme" and acme.allow_password_sign_up
      and not acme.enable_email_link_sign_in, "create_tenant")
globex = tenant_mgt.create_tenant("Globex", app=tenants_app)
check(tenant_mgt.get_tenant(acme.tenant_id, app=tenants_app).display_name == "Acme", "get_tenant")
fails_with(lambda: tenant_mgt.get_tenant("nobody-12345", app=tenants_app), tenant_mgt.TenantNotFoundError,
           "get_tenant of an unknown tenant")
updated_tenant = tenant_mgt.update_tenant(globex.tenant_id, display_name="Globex-Two", enable_email_link_sign_in=True,
                                          allow_password_sign_up=True, app=tenants_app)
check(updated_tenant.display_name == "Globex-Two" and updated_tenant.enable_email_link_sign_in
      and updated_tenant.allow_password_sign_up, "update_tenant (updateMask)")
listed_tenants = [tenant.tenant_id for tenant in tenant_mgt.list_tenants(max_results=1, app=tenants_app).iterate_all()]
check(sorted(listed_tenants) == sorted([acme.tenant_id, globex.tenant_id]), "list_tenants pages through every tenant")

acme_auth = tenant_mgt.auth_for_tenant(acme.tenant_id, app=tenants_app)
globex_auth = tenant_mgt.auth_for_tenant(globex.tenant_id, app=tenants_app)
check(acme_auth.tenant_id == acme.tenant_id, "auth_for_tenant")
# The project's ada@example.com exists; in the tenant the address is free, and the uid too.
grace = acme_auth.create_user(uid="ada-1", email="ada@example.com", password="in the tenant", display_name="Grace")
check(grace.uid == "ada-1" and grace.tenant_id == acme.tenant_id, "create_user in a tenant, with a uid and e-mail the project has")
check(acme_auth.get_user("ada-1").display_name == "Grace" and auth.get_user("ada-1").display_name == "Countess",
      "get_user sees the tenant's user; the project's is another")
check(acme_auth.get_user_by_email("ada@example.com").tenant_id == acme.tenant_id, "get_user_by_email in a tenant")
fails_with(lambda: globex_auth.get_user("ada-1"), auth.UserNotFoundError, "another tenant has no such user")
fails_with(lambda: acme_auth.create_user(email="ada@example.com"), auth.EmailAlreadyExistsError,
           "create_user with an e-mail the tenant has")
check(acme_auth.update_user("ada-1", display_name="Grace Hopper").display_name == "Grace Hopper", "update_user in a tenant")
acme_auth.set_custom_user_claims("ada-1", {"role": "admiral"})
check(acme_auth.get_user("ada-1").custom_claims == {"role": "admiral"}, "set_custom_user_claims in a tenant")
for index in range(3):
    acme_auth.create_user(uid=f"acme-{index}")
check([user.uid for user in acme_auth.list_users(max_results=2).iterate_all()] == ["acme-0", "acme-1", "acme-2", "ada-1"],
      "list_users lists the tenant's users alone")

tenant_signed_in = client_call("accounts:signInWithPassword", {"email": "ada@example.com", "password": "in the tenant",
                                                               "tenantId": acme.tenant_id, "returnSecureToken": True})
check(tenant_signed_in["localId"] == "ada-1", "a tenant's user signs in with tenantId")
tenant_token = acme_auth.verify_id_token(tenant_signed_in["idToken"])
check(tenant_token["firebase"]["tenant"] == acme.tenant_id and tenant_token.get("role") == "admiral",
      "verify_id_token in the tenant: firebase.tenant and the claims")
fails_with(lambda: globex_auth.verify_id_token(tenant_signed_in["idToken"]), tenant_mgt.TenantIdMismatchError,
           "verify_id_token in another tenant")
check(auth.verify_id_token(tenant_signed_in["idToken"])["uid"] == "ada-1", "the project's verify_id_token takes a tenant's token")
custom = acme_auth.create_custom_token("acme-0", {"premium": True}).decode()
check(claims_of(custom).get("tenant_id") == acme.tenant_id, "create_custom_token in a tenant names it (tenant_id)")
exchanged = client_call("accounts:signInWithCustomToken", {"token": custom, "tenantId": acme.tenant_id, "returnSecureToken": True})
check(claims_of(exchanged["idToken"])["firebase"]["tenant"] == acme.tenant_id and claims_of(exchanged["idToken"]).get("premium"),
      "the tenant's custom token signs in to the tenant")
check(acme_auth.verify_id_token(exchanged["idToken"])["uid"] == "acme-0", "... and verifies in it")

tenant_reset = acme_auth.generate_password_reset_link("ada@example.com")
query = urllib.parse.parse_qs(urllib.parse.urlparse(tenant_reset).query)
check(query.get("tenantId") == [acme.tenant_id], "generate_password_reset_link in a tenant: the link names the tenant")
client_call("accounts:resetPassword", {"oobCode": query["oobCode"][0], "newPassword": "reset in the tenant",
                                       "tenantId": acme.tenant_id})
client_call("accounts:signInWithPassword", {"email": "ada@example.com", "password": "reset in the tenant",
                                            "tenantId": acme.tenant_id, "returnSecureToken": True})
check(True, "... its code resets the tenant user's password")

oidc = acme_auth.create_oidc_provider_config("oidc.acme-sso", client_id="acme-client", issuer="https://sso.acme.example",
                                             display_name="Acme SSO", enabled=True)
check(oidc.provider_id == "oidc.acme-sso" and oidc.issuer == "https://sso.acme.example" and oidc.enabled,
      "create_oidc_provider_config in a tenant")
check(acme_auth.get_oidc_provider_config("oidc.acme-sso").client_id == "acme-client", "get_oidc_provider_config in a tenant")
check([config.provider_id for config in acme_auth.list_oidc_provider_configs().iterate_all()] == ["oidc.acme-sso"],
      "list_oidc_provider_configs in a tenant")
check([config.provider_id for config in globex_auth.list_oidc_provider_configs().iterate_all()] == [],
      "another tenant has no such provider")
acme_auth.delete_oidc_provider_config("oidc.acme-sso")
fails_with(lambda: acme_auth.get_oidc_provider_config("oidc.acme-sso"), auth.ConfigurationNotFoundError,
           "delete_oidc_provider_config in a tenant")

acme_auth.delete_user("acme-2")
fails_with(lambda: acme_auth.get_user("acme-2"), auth.UserNotFoundError, "delete_user in a tenant")
tenant_mgt.delete_tenant(globex.tenant_id, app=tenants_app)
fails_with(lambda: tenant_mgt.get_tenant(globex.tenant_id, app=tenants_app), tenant_mgt.TenantNotFoundError, "delete_tenant")
check(auth.get_user("ada-1").display_name == "Countess", "the project's user is untouched")
print("all checks passed")
