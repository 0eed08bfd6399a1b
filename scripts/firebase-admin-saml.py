"""The official firebase-admin Python SDK's SAML provider calls against a development-mode Hearth, in emulator mode
(FIREBASE_AUTH_EMULATOR_HOST: `Bearer owner`, no API key): create, get, update, list and delete
`inboundSamlConfigs`, in the project and in a tenant (`tenant_mgt.auth_for_tenant`).

The SDK's tenant management service ignores the emulator host (it would call identitytoolkit.googleapis.com), so
the tenant is made with a plain request to Hearth, and the app gets the emulator's credential (`Bearer owner`) so
that `auth_for_tenant` can be built without Google's default credentials.

    FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099 HEARTH_PROJECT=demo-hearth scripts/python-venv.sh firebase-admin-saml.py

Prints one line per check and exits non-zero at the first failure; "all checks passed" at the end.
"""

import datetime
import json
import urllib.request

import firebase_admin
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from emulator_checks import HOST, PROJECT, OwnerCredential, check, fails_with
from firebase_admin import auth, exceptions, tenant_mgt


def create_tenant(display_name):
    """POST /v2/projects/{p}/tenants on Hearth itself: the tenant's id."""
    request = urllib.request.Request(
        f"http://{HOST}/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/tenants",
        data=json.dumps({"displayName": display_name}).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer owner"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)["tenantId"]


def certificate(name):
    """A self-signed certificate of an RSA key, PEM: what an IdP publishes."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    built = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=365)).sign(key, hashes.SHA256())
    )
    return built.public_bytes(serialization.Encoding.PEM).decode()


def exercise(client, where):
    """Every SAML call of `client` (the `auth` module or a tenant's client)."""
    first, second = certificate("idp-1"), certificate("idp-2")
    created = client.create_saml_provider_config(
        "saml.okta", idp_entity_id="http://www.okta.com/exk1", sso_url="https://example.okta.com/app/hearth/sso/saml",
        x509_certificates=[first], rp_entity_id="https://auth.example.com", callback_url="https://auth.example.com/__/auth/handler",
        display_name="Okta", enabled=True)
    check(created.provider_id == "saml.okta", f"{where}: create_saml_provider_config returns saml.okta")
    check(created.idp_entity_id == "http://www.okta.com/exk1" and created.sso_url.endswith("/sso/saml"), f"{where}: IdP fields")
    check(created.x509_certificates == [first], f"{where}: the certificate comes back")
    check(created.rp_entity_id == "https://auth.example.com", f"{where}: rp_entity_id")
    check(created.callback_url == "https://auth.example.com/__/auth/handler", f"{where}: callback_url")
    check(created.display_name == "Okta" and created.enabled, f"{where}: display name and enabled")
    fails_with(
        lambda: client.create_saml_provider_config(
            "saml.okta", idp_entity_id="x", sso_url="https://idp.example/sso", x509_certificates=[first], rp_entity_id="sp",
            callback_url="https://auth.example.com/__/auth/handler"),
        exceptions.FirebaseError, f"{where}: creating it twice is refused")

    got = client.get_saml_provider_config("saml.okta")
    check(got.provider_id == "saml.okta" and got.display_name == "Okta", f"{where}: get_saml_provider_config")

    updated = client.update_saml_provider_config(
        "saml.okta", display_name="Okta (rolled over)", x509_certificates=[first, second], enabled=False)
    check(updated.display_name == "Okta (rolled over)" and not updated.enabled, f"{where}: update changes what it names")
    check(updated.x509_certificates == [first, second], f"{where}: two certificates for a rollover")
    check(updated.idp_entity_id == "http://www.okta.com/exk1", f"{where}: update keeps what it does not name")

    client.create_saml_provider_config(
        "saml.entra", idp_entity_id="https://sts.windows.net/tenant-id/", sso_url="https://login.microsoftonline.com/tenant-id/saml2",
        x509_certificates=[second], rp_entity_id="https://auth.example.com", callback_url="https://auth.example.com/__/auth/handler")
    page = client.list_saml_provider_configs(max_results=1)
    check([config.provider_id for config in page.provider_configs] == ["saml.entra"], f"{where}: the first page of one")
    check(page.has_next_page, f"{where}: a next page")
    every = sorted(config.provider_id for config in client.list_saml_provider_configs().iterate_all())
    check(every == ["saml.entra", "saml.okta"], f"{where}: list_saml_provider_configs lists both")

    client.delete_saml_provider_config("saml.okta")
    client.delete_saml_provider_config("saml.entra")
    fails_with(lambda: client.get_saml_provider_config("saml.okta"), auth.ConfigurationNotFoundError, f"{where}: gone after delete")
    fails_with(
        lambda: client.delete_saml_provider_config("saml.okta"), auth.ConfigurationNotFoundError, f"{where}: deleting it again")


def main():
    firebase_admin.initialize_app(OwnerCredential(), options={"projectId": PROJECT})
    exercise(auth, "project")
    tenant_id = create_tenant("SamlTenant")
    exercise(tenant_mgt.auth_for_tenant(tenant_id), f"tenant {tenant_id}")
    check(list(auth.list_saml_provider_configs().iterate_all()) == [], "the project has none of the tenant's")
    print("all checks passed", flush=True)


if __name__ == "__main__":
    main()
