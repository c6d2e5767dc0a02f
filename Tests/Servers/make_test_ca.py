#!/usr/bin/env python3
"""Makes a throwaway certificate authority and the certificates of the HTTPS test servers.

Writes into DIRECTORY (created if missing), all PEM:
  ca.pem                 the authority's certificate: what a client trusts
  server-cert.pem        certificate chain for 127.0.0.1, ::1 and localhost
  server-key.pem         its private key
  wrong-name-cert.pem    certificate chain for elsewhere.invalid only, from the same authority
  wrong-name-key.pem     its private key
  client-cert.pem        a client certificate (for mutual TLS) from the same authority
  client-key.pem         its private key
  client-key-encrypted.pem  the same key encrypted with the password in client-key-password.txt
  client-key-password.txt   that password
  other-ca.pem           a second, unrelated authority: what no test server trusts
  other-client-cert.pem  a client certificate from that second authority
  other-client-key.pem   its private key
  server-pin.txt         sha256// and the base64 SHA-256 of server-cert.pem's public key
                         (the form of curl's CURLOPT_PINNEDPUBLICKEY)

The authority lives only as long as the files: a new one is made at every start, so nothing
outside the test run ever trusts it.

Usage: make_test_ca.py DIRECTORY
"""

import base64
import hashlib
import os
import secrets
import sys

import trustme
from cryptography.hazmat.primitives import serialization


def write(path, data):
    # Readable by the owner only: the private keys must be, and the rest need not be more.
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)


def write_leaf(directory, name, leaf):
    chain = b"".join(pem.bytes() for pem in leaf.cert_chain_pems)
    write(os.path.join(directory, name + "-cert.pem"), chain)
    write(os.path.join(directory, name + "-key.pem"), leaf.private_key_pem.bytes())


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_test_ca.py DIRECTORY")
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)
    ca = trustme.CA(organization_name="Endpoint test servers")
    write(os.path.join(directory, "ca.pem"), ca.cert_pem.bytes())
    write_leaf(directory, "server", ca.issue_cert("127.0.0.1", "::1", "localhost"))
    write_leaf(directory, "wrong-name", ca.issue_cert("elsewhere.invalid"))

    client = ca.issue_cert("endpoint-test-client", common_name="endpoint-test-client")
    write_leaf(directory, "client", client)
    password = secrets.token_hex(12)
    key = serialization.load_pem_private_key(client.private_key_pem.bytes(), password=None)
    encrypted = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(password.encode()),
    )
    write(os.path.join(directory, "client-key-encrypted.pem"), encrypted)
    write(os.path.join(directory, "client-key-password.txt"), password.encode())

    other = trustme.CA(organization_name="Endpoint unrelated authority")
    write(os.path.join(directory, "other-ca.pem"), other.cert_pem.bytes())
    write_leaf(
        directory,
        "other-client",
        other.issue_cert("endpoint-test-client", common_name="endpoint-test-client"),
    )

    server_key = serialization.load_pem_private_key(
        open(os.path.join(directory, "server-key.pem"), "rb").read(), password=None
    )
    spki = server_key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    pin = "sha256//" + base64.b64encode(hashlib.sha256(spki).digest()).decode()
    write(os.path.join(directory, "server-pin.txt"), pin.encode())


if __name__ == "__main__":
    main()
