"""An independent software authenticator for HearthWebAuthn's tests and the passkey endpoints' tests.

Built on Yubico's fido2 (its COSE keys and WebAuthn data classes) and cryptography, never on Hearth's code, so
that what Hearth verifies was made by someone else. Each command reads a JSON spec on standard input and writes
JSON to standard output:

  ca DIR NAME       makes a self-signed P-256 CA (DIR/NAME.key.pem, DIR/NAME.cert.pem) for packed x5c attestation
  register          a registration: {rpId, origin, challenge (base64url), alg: ES256|RS256|EdDSA|RS256-1024,
                    attestation: none|packed-self|packed-x5c, caDirectory, caName, credentialId (base64url: a
                    chosen id, as a second authenticator that reuses one), ...overrides}
                    -> {credential: PublicKeyCredential.toJSON(), privateKey: PEM, alg}
  assert            an assertion: {rpId, origin, challenge, privateKey, alg, credentialId, userHandle, signCount, ...}
                    -> {credential: PublicKeyCredential.toJSON()}

Overrides break one rule at a time: type, crossOrigin, clientRpId (the rpIdHash's RP ID), flags (an int),
fmt, attStmtExtra, selfAlg, corruptSignature, leafOU, leafAAGUID (hex), leafIsCA, aaguid (hex), signCount.
"""

import datetime
import json
import os
import struct
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.x509.oid import NameOID
from fido2 import cbor, cose
from fido2.utils import sha256, websafe_decode, websafe_encode
from fido2.webauthn import AttestedCredentialData, CollectedClientData

UP, UV, BE, BS, AT, ED = 0x01, 0x04, 0x08, 0x10, 0x40, 0x80
AAGUID_EXTENSION = x509.ObjectIdentifier("1.3.6.1.4.1.45724.1.1.4")


def new_key(alg):
    if alg == "ES256":
        return ec.generate_private_key(ec.SECP256R1())
    if alg == "EdDSA":
        return ed25519.Ed25519PrivateKey.generate()
    if alg == "RS256":
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    if alg == "RS256-1024":
        return rsa.generate_private_key(public_exponent=65537, key_size=1024)
    raise SystemExit("unknown alg " + alg)


def cose_key(alg, private_key):
    cls = {"ES256": cose.ES256, "EdDSA": cose.EdDSA, "RS256": cose.RS256, "RS256-1024": cose.RS256}[alg]
    return cls.from_cryptography_key(private_key.public_key())


def cose_alg(alg):
    return {"ES256": -7, "EdDSA": -8, "RS256": -257, "RS256-1024": -257}[alg]


def sign(private_key, data):
    if isinstance(private_key, ec.EllipticCurvePrivateKey):
        return private_key.sign(data, ec.ECDSA(hashes.SHA256()))
    if isinstance(private_key, ed25519.Ed25519PrivateKey):
        return private_key.sign(data)
    return private_key.sign(data, padding.PKCS1v15(), hashes.SHA256())


def pem(private_key):
    return private_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


def name(common, unit=None):
    parts = [
        x509.NameAttribute(NameOID.COUNTRY_NAME, "SE"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Hearth Test Authenticators"),
    ]
    if unit is not None:
        parts.append(x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, unit))
    parts.append(x509.NameAttribute(NameOID.COMMON_NAME, common))
    return x509.Name(parts)


def make_ca(directory, label):
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name(label + " root"))
        .issuer_name(name(label + " root"))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    with open(os.path.join(directory, label + ".key.pem"), "w") as handle:
        handle.write(pem(key))
    with open(os.path.join(directory, label + ".cert.pem"), "wb") as handle:
        handle.write(certificate.public_bytes(serialization.Encoding.PEM))


def attestation_leaf(spec, aaguid):
    directory, label = spec["caDirectory"], spec.get("caName", "ca")
    with open(os.path.join(directory, label + ".key.pem"), "rb") as handle:
        ca_key = serialization.load_pem_private_key(handle.read(), None)
    with open(os.path.join(directory, label + ".cert.pem"), "rb") as handle:
        ca_certificate = x509.load_pem_x509_certificate(handle.read())
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    leaf_aaguid = bytes.fromhex(spec["leafAAGUID"]) if "leafAAGUID" in spec else aaguid
    builder = (
        x509.CertificateBuilder()
        .subject_name(name("Test Authenticator", spec.get("leafOU", "Authenticator Attestation")))
        .issuer_name(ca_certificate.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=bool(spec.get("leafIsCA", False)), path_length=None), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_certificate.public_key()), critical=False
        )
        .add_extension(x509.UnrecognizedExtension(AAGUID_EXTENSION, b"\x04\x10" + leaf_aaguid), critical=False)
    )
    certificate = builder.sign(ca_key, hashes.SHA256())
    return key, [
        certificate.public_bytes(serialization.Encoding.DER),
        ca_certificate.public_bytes(serialization.Encoding.DER),
    ]


def raw_authenticator_data(rp_hash, flags, counter, credential_data=b""):
    """Authenticator data laid out by hand (fido2's AuthenticatorData refuses flags that disagree with the data,
    which the tests send on purpose)."""
    return rp_hash + struct.pack(">BI", flags, counter) + credential_data


def client_data(spec, kind):
    extra = {}
    if "topOrigin" in spec:
        extra["topOrigin"] = spec["topOrigin"]
    return CollectedClientData.create(
        type=spec.get("type", kind),
        challenge=spec["challenge"],
        origin=spec["origin"],
        cross_origin=bool(spec.get("crossOrigin", False)),
        **extra,
    )


def register(spec):
    alg = spec.get("alg", "ES256")
    private_key = new_key(alg)
    if "credentialId" in spec:
        credential_id = websafe_decode(spec["credentialId"])
    else:
        credential_id = os.urandom(int(spec.get("credentialIdLength", 32)))
    aaguid = bytes.fromhex(spec.get("aaguid", "00" * 16))
    attested = AttestedCredentialData.create(aaguid, credential_id, cose_key(alg, private_key))
    flags = spec.get("flags", UP | UV | BE | BS | AT)
    rp_hash = sha256(spec.get("clientRpId", spec["rpId"]).encode())
    auth_data = raw_authenticator_data(rp_hash, flags, int(spec.get("signCount", 0)), bytes(attested))
    collected = client_data(spec, "webauthn.create")
    signed = bytes(auth_data) + sha256(bytes(collected))
    attestation = spec.get("attestation", "none")
    if attestation == "none":
        fmt, statement = "none", {}
    elif attestation == "packed-self":
        fmt = "packed"
        statement = {"alg": spec.get("selfAlg", cose_alg(alg)), "sig": sign(private_key, signed)}
    elif attestation == "packed-x5c":
        fmt = "packed"
        leaf_key, chain = attestation_leaf(spec, aaguid)
        statement = {"alg": -7, "sig": sign(leaf_key, signed), "x5c": chain}
    else:
        raise SystemExit("unknown attestation " + attestation)
    if spec.get("corruptSignature"):
        statement["sig"] = statement["sig"][:-1] + bytes([statement["sig"][-1] ^ 1])
    statement.update({key: value for key, value in spec.get("attStmtExtra", {}).items()})
    attestation_object = cbor.encode(
        {"fmt": spec.get("fmt", fmt), "attStmt": statement, "authData": bytes(auth_data)}
    )
    identifier = websafe_encode(credential_id)
    return {
        "credential": {
            "id": identifier,
            "rawId": identifier,
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": {
                "clientDataJSON": websafe_encode(bytes(collected)),
                "attestationObject": websafe_encode(attestation_object),
                "transports": ["internal", "hybrid"],
            },
        },
        "privateKey": pem(private_key),
        "alg": alg,
    }


def assertion(spec):
    private_key = serialization.load_pem_private_key(spec["privateKey"].encode(), None)
    flags = spec.get("flags", UP | UV | BE | BS)
    rp_hash = sha256(spec.get("clientRpId", spec["rpId"]).encode())
    auth_data = raw_authenticator_data(rp_hash, flags, int(spec.get("signCount", 0)))
    collected = client_data(spec, "webauthn.get")
    signature = sign(private_key, auth_data + sha256(bytes(collected)))
    response = {
        "clientDataJSON": websafe_encode(bytes(collected)),
        "authenticatorData": websafe_encode(auth_data),
        "signature": websafe_encode(signature),
    }
    if spec.get("userHandle") is not None:
        response["userHandle"] = spec["userHandle"]
    return {
        "credential": {
            "id": spec["credentialId"],
            "rawId": spec["credentialId"],
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": response,
        }
    }


def main():
    command = sys.argv[1]
    if command == "ca":
        make_ca(sys.argv[2], sys.argv[3])
        print("{}")
        return
    spec = json.load(sys.stdin)
    result = register(spec) if command == "register" else assertion(spec)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
