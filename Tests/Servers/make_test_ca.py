#!/usr/bin/env python3
"""Makes a throwaway certificate authority and the certificates of the HTTPS test servers.

Writes into DIRECTORY (created if missing), all PEM:
  ca.pem                 the authority's certificate: what a client trusts
  server-cert.pem        certificate chain for 127.0.0.1, ::1 and localhost
  server-key.pem         its private key
  wrong-name-cert.pem    certificate chain for elsewhere.invalid only, from the same authority
  wrong-name-key.pem     its private key

The authority lives only as long as the files: a new one is made at every start, so nothing
outside the test run ever trusts it.

Usage: make_test_ca.py DIRECTORY
"""

import os
import sys

import trustme


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


if __name__ == "__main__":
    main()
