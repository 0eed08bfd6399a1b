"""An independent SAML 2.0 identity provider for HearthSAML's tests: signxml signs, lxml builds, cryptography
encrypts, so that the verifier is never checked only against libxmlsec1's own signing.

    saml-idp.py keygen DIR NAME      writes DIR/NAME.key.pem (PKCS #8) and DIR/NAME.cert.pem (self-signed, RSA 2048)
    saml-idp.py response < SPEC.json prints a signed Response (XML)
    saml-idp.py attack NAME < XML    prints the Response changed by an attack (xsw1 … xsw8, nameid-comment,
                                     tamper-attribute, duplicate-id, move-signature)
    saml-idp.py redirect-check CERT URL
                                     verifies a Redirect-binding URL's Signature (RSA-SHA256) with CERT and prints
                                     the inflated AuthnRequest

SPEC (JSON): issuer, destination (null: none), recipient, audience (a list), inResponseTo (null: none), nameID,
nameIDFormat, sessionIndex, attributes ({name: [values]}), issueInstant, notBefore, notOnOrAfter,
confirmationNotOnOrAfter (Unix seconds), responseID, assertionID, status, sign (["assertion"], ["response"], both or
none), signatureAlgorithm ("rsa-sha256" or "rsa-sha1"), key, cert (the IdP's PEM files), encryptTo (the SP's
certificate: encrypt the assertion after signing it), contentEncryption ("aes256-cbc", "aes128-gcm"), keyTransport
("rsa-oaep-mgf1p" or "rsa-1_5"), keyPlacement ("inside": in EncryptedData's KeyInfo; "beside": a sibling).
"""
import base64
import copy
import datetime
import json
import os
import sys
import urllib.parse
import zlib

from cryptography import x509
from cryptography.hazmat.primitives import hashes, padding as sympadding, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.x509.oid import NameOID
from lxml import etree
from signxml import XMLSigner

SAMLP = "urn:oasis:names:tc:SAML:2.0:protocol"
SAML = "urn:oasis:names:tc:SAML:2.0:assertion"
DS = "http://www.w3.org/2000/09/xmldsig#"
XENC = "http://www.w3.org/2001/04/xmlenc#"
EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#"


def q(namespace, name):
    return "{%s}%s" % (namespace, name)


def instant(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class PermissiveSigner(XMLSigner):
    """signxml refuses SHA-1 by default; the tests need one such signature to see HearthSAML refuse it."""

    def check_deprecated_methods(self):
        pass


def keygen(directory, name):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=3650))
        .sign(key, hashes.SHA256())
    )
    with open(os.path.join(directory, name + ".key.pem"), "wb") as out:
        out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with open(os.path.join(directory, name + ".cert.pem"), "wb") as out:
        out.write(certificate.public_bytes(serialization.Encoding.PEM))


def sign(element, spec):
    """element signed (a new tree), the Signature placed after its Issuer as the SAML schema wants."""
    placeholder = etree.Element(q(DS, "Signature"), Id="placeholder", nsmap={"ds": DS})
    issuer = element.find(q(SAML, "Issuer"))
    issuer.addnext(placeholder)
    algorithm = spec.get("signatureAlgorithm", "rsa-sha256")
    digest = "sha1" if algorithm == "rsa-sha1" else "sha256"
    signer = PermissiveSigner(signature_algorithm=algorithm, digest_algorithm=digest, c14n_algorithm=EXC_C14N)
    with open(spec["key"], "rb") as key, open(spec["cert"], "rb") as cert:
        return signer.sign(element, key=key.read(), cert=cert.read().decode())


def assertion(spec):
    a = etree.Element(q(SAML, "Assertion"), nsmap={"saml": SAML}, ID=spec["assertionID"], Version="2.0",
                      IssueInstant=instant(spec["issueInstant"]))
    etree.SubElement(a, q(SAML, "Issuer")).text = spec["issuer"]
    subject = etree.SubElement(a, q(SAML, "Subject"))
    name_id = etree.SubElement(subject, q(SAML, "NameID"))
    name_id.text = spec["nameID"]
    if spec.get("nameIDFormat"):
        name_id.set("Format", spec["nameIDFormat"])
    confirmation = etree.SubElement(subject, q(SAML, "SubjectConfirmation"), Method="urn:oasis:names:tc:SAML:2.0:cm:bearer")
    data = etree.SubElement(confirmation, q(SAML, "SubjectConfirmationData"), Recipient=spec["recipient"],
                            NotOnOrAfter=instant(spec["confirmationNotOnOrAfter"]))
    if spec.get("inResponseTo"):
        data.set("InResponseTo", spec["inResponseTo"])
    conditions = etree.SubElement(a, q(SAML, "Conditions"), NotBefore=instant(spec["notBefore"]),
                                  NotOnOrAfter=instant(spec["notOnOrAfter"]))
    restriction = etree.SubElement(conditions, q(SAML, "AudienceRestriction"))
    for audience in spec["audience"]:
        etree.SubElement(restriction, q(SAML, "Audience")).text = audience
    statement = etree.SubElement(a, q(SAML, "AuthnStatement"), AuthnInstant=instant(spec["issueInstant"]))
    if spec.get("sessionIndex"):
        statement.set("SessionIndex", spec["sessionIndex"])
    context = etree.SubElement(statement, q(SAML, "AuthnContext"))
    etree.SubElement(context, q(SAML, "AuthnContextClassRef")).text = "urn:oasis:names:tc:SAML:2.0:ac:classes:Password"
    if spec.get("attributes"):
        attributes = etree.SubElement(a, q(SAML, "AttributeStatement"))
        for name, values in spec["attributes"].items():
            attribute = etree.SubElement(attributes, q(SAML, "Attribute"), Name=name)
            for value in values:
                etree.SubElement(attribute, q(SAML, "AttributeValue")).text = value
    return a


def encrypt(element, spec):
    """An EncryptedAssertion holding element, XML Encryption 1.0/1.1 written by hand over cryptography."""
    with open(spec["encryptTo"], "rb") as cert:
        public_key = x509.load_pem_x509_certificate(cert.read()).public_key()
    plaintext = etree.tostring(element)
    content = spec.get("contentEncryption", "aes256-cbc")
    if content == "aes128-gcm":
        key = os.urandom(16)
        nonce = os.urandom(12)
        cipher_value = nonce + AESGCM(key).encrypt(nonce, plaintext, None)
        content_uri = "http://www.w3.org/2009/xmlenc11#aes128-gcm"
    else:
        key = os.urandom(32)
        iv = os.urandom(16)
        padder = sympadding.PKCS7(128).padder()
        padded = padder.update(plaintext) + padder.finalize()
        encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
        cipher_value = iv + encryptor.update(padded) + encryptor.finalize()
        content_uri = XENC + "aes256-cbc"
    transport = spec.get("keyTransport", "rsa-oaep-mgf1p")
    if transport == "rsa-1_5":
        wrapped = public_key.encrypt(key, padding.PKCS1v15())
    else:
        wrapped = public_key.encrypt(key, padding.OAEP(mgf=padding.MGF1(hashes.SHA1()), algorithm=hashes.SHA1(), label=None))

    encrypted = etree.Element(q(SAML, "EncryptedAssertion"), nsmap={"saml": SAML})
    data = etree.SubElement(encrypted, q(XENC, "EncryptedData"), nsmap={"xenc": XENC}, Type=XENC + "Element", Id="_ed1")
    etree.SubElement(data, q(XENC, "EncryptionMethod"), Algorithm=content_uri)
    encrypted_key = etree.Element(q(XENC, "EncryptedKey"), nsmap={"xenc": XENC, "ds": DS}, Id="_ek1")
    method = etree.SubElement(encrypted_key, q(XENC, "EncryptionMethod"), Algorithm=XENC + transport)
    if transport == "rsa-oaep-mgf1p":
        etree.SubElement(method, q(DS, "DigestMethod"), Algorithm=DS + "sha1")
    key_cipher = etree.SubElement(encrypted_key, q(XENC, "CipherData"))
    etree.SubElement(key_cipher, q(XENC, "CipherValue")).text = base64.b64encode(wrapped).decode()
    key_info = etree.SubElement(data, q(DS, "KeyInfo"), nsmap={"ds": DS})
    if spec.get("keyPlacement", "inside") == "inside":
        key_info.append(encrypted_key)
    else:
        etree.SubElement(key_info, q(DS, "RetrievalMethod"), URI="#_ek1", Type=XENC + "EncryptedKey")
        encrypted.append(encrypted_key)
    cipher = etree.SubElement(data, q(XENC, "CipherData"))
    etree.SubElement(cipher, q(XENC, "CipherValue")).text = base64.b64encode(cipher_value).decode()
    return encrypted


def response(spec):
    signing = spec.get("sign", ["assertion"])
    a = assertion(spec)
    if "assertion" in signing:
        a = sign(a, spec)
    if spec.get("encryptTo"):
        a = encrypt(a, spec)
    r = etree.Element(q(SAMLP, "Response"), nsmap={"samlp": SAMLP, "saml": SAML}, ID=spec["responseID"], Version="2.0",
                      IssueInstant=instant(spec["issueInstant"]))
    if spec.get("destination"):
        r.set("Destination", spec["destination"])
    if spec.get("inResponseTo"):
        r.set("InResponseTo", spec["inResponseTo"])
    etree.SubElement(r, q(SAML, "Issuer")).text = spec["issuer"]
    status = etree.SubElement(r, q(SAMLP, "Status"))
    code = etree.SubElement(status, q(SAMLP, "StatusCode"), Value=spec.get("status", "urn:oasis:names:tc:SAML:2.0:status:Success"))
    if spec.get("subStatus"):
        etree.SubElement(code, q(SAMLP, "StatusCode"), Value=spec["subStatus"])
    r.append(a)
    if "response" in signing:
        r = sign(r, spec)
    return etree.tostring(r)


def parts(root):
    a = root.find(q(SAML, "Assertion"))
    return a, root.find(q(DS, "Signature")), a.find(q(DS, "Signature"))


def without_signature(element):
    clone = copy.deepcopy(element)
    for signature in clone.findall(q(DS, "Signature")):
        clone.remove(signature)
    return clone


def evil(element, new_id=None):
    """An unsigned copy of an assertion (or of a Response) saying the attacker's NameID."""
    clone = without_signature(element)
    for name_id in clone.iter(q(SAML, "NameID")):
        name_id.text = "attacker@evil.example"
    if new_id:
        clone.set("ID", new_id)
    return clone


def attack(name, root):
    a, response_signature, assertion_signature = parts(root)
    if name == "xsw1":
        # The signed Response copied, unchanged, into its own Signature; the root made the attacker's.
        original = without_signature(root)
        response_signature.append(original)
        root.set("ID", "_evil_response")
        for name_id in a.iter(q(SAML, "NameID")):
            name_id.text = "attacker@evil.example"
    elif name == "xsw2":
        # The same, the copy placed before the Signature (a detached signature).
        original = without_signature(root)
        response_signature.addprevious(original)
        root.set("ID", "_evil_response")
        for name_id in a.iter(q(SAML, "NameID")):
            name_id.text = "attacker@evil.example"
    elif name == "xsw3":
        # An unsigned evil assertion (new ID) before the signed one.
        a.addprevious(evil(a, "_evil_assertion"))
    elif name == "xsw4":
        # The evil assertion replaces the signed one, which moves inside it.
        replacement = evil(a, "_evil_assertion")
        a.addprevious(replacement)
        root.remove(a)
        replacement.append(a)
    elif name == "xsw5":
        # The signed assertion changed in place (its signature kept), an unsigned copy of the original at the end.
        original = without_signature(a)
        for name_id in a.iter(q(SAML, "NameID")):
            name_id.text = "attacker@evil.example"
        root.append(original)
    elif name == "xsw6":
        # The same, the unsigned original copy inside the signed assertion's Signature.
        original = without_signature(a)
        for name_id in a.iter(q(SAML, "NameID")):
            name_id.text = "attacker@evil.example"
        assertion_signature.append(original)
    elif name == "xsw7":
        # The signed assertion moved into an Extensions block; an evil unsigned one (new ID) in its place.
        extensions = etree.Element(q(SAMLP, "Extensions"))
        a.addprevious(extensions)
        a.addprevious(evil(a, "_evil_assertion"))
        root.remove(a)
        extensions.append(a)
    elif name == "xsw8":
        # The signed assertion changed in place; its Signature gets an Object holding the unsigned original.
        original = without_signature(a)
        for name_id in a.iter(q(SAML, "NameID")):
            name_id.text = "attacker@evil.example"
        holder = etree.SubElement(assertion_signature, q(DS, "Object"))
        holder.append(original)
    elif name == "move-signature":
        # The Response's valid signature moved into the (unsigned) assertion: it still verifies, but covers the
        # Response, not the element it now sits in.
        root.remove(response_signature)
        a.find(q(SAML, "Issuer")).addnext(response_signature)
    elif name == "nameid-comment":
        # <NameID>user@corp.com<!---->.evil.com</NameID>: the comment is outside what the signature digests.
        for name_id in a.iter(q(SAML, "NameID")):
            text = name_id.text
            cut = text.index(".evil.com")
            name_id.text = text[:cut]
            comment = etree.Comment("")
            comment.tail = text[cut:]
            name_id.append(comment)
    elif name == "tamper-attribute":
        for value in a.iter(q(SAML, "AttributeValue")):
            value.text = "admin"
            break
    elif name == "duplicate-id":
        # Another element carrying the signed assertion's ID.
        extensions = etree.Element(q(SAMLP, "Extensions"))
        root.find(q(SAML, "Issuer")).addnext(extensions)
        etree.SubElement(extensions, "{urn:example:evil}Thing", ID=a.get("ID"))
    else:
        raise SystemExit("unknown attack " + name)
    return etree.tostring(root)


def redirect_check(cert_path, url):
    with open(cert_path, "rb") as cert:
        public_key = x509.load_pem_x509_certificate(cert.read()).public_key()
    query = urllib.parse.urlsplit(url).query
    pairs = [pair.split("=", 1) for pair in query.split("&")]
    values = {name: urllib.parse.unquote_plus(value) for name, value in pairs}
    if "Signature" in values:
        # The bindings' rule: the signed octets are the query as sent, up to (not including) &Signature=.
        signed = query[: query.index("&Signature=")].encode()
        if values.get("SigAlg") != "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256":
            raise SystemExit("unexpected SigAlg " + values.get("SigAlg", ""))
        public_key.verify(base64.b64decode(values["Signature"]), signed, padding.PKCS1v15(), hashes.SHA256())
    print(json.dumps({
        "request": zlib.decompress(base64.b64decode(values["SAMLRequest"]), -15).decode(),
        "relayState": values.get("RelayState"),
        "signed": "Signature" in values,
    }))


def main():
    command = sys.argv[1]
    if command == "keygen":
        keygen(sys.argv[2], sys.argv[3])
    elif command == "response":
        sys.stdout.buffer.write(response(json.load(sys.stdin)))
    elif command == "attack":
        parser = etree.XMLParser(resolve_entities=False, no_network=True)
        sys.stdout.buffer.write(attack(sys.argv[2], etree.fromstring(sys.stdin.buffer.read(), parser)))
    elif command == "redirect-check":
        redirect_check(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit("unknown command " + command)


if __name__ == "__main__":
    main()
