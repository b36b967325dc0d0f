"""A self-signed TLS certificate for the tests' servers (one key, valid for a day)."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from pathlib import Path


def self_signed(directory: Path, *, for_ip: str | None = None) -> tuple[ssl.SSLContext, Path]:
    """A server context and the certificate file a client can trust it by.

    ``for_ip`` names the address in the certificate (subjectAltName), so that a client that
    trusts the file also verifies the host; without it the certificate names ``127.0.0.1``
    as its common name only, which no client verifies.
    """
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, for_ip or "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
    )
    if for_ip is not None:
        address = x509.IPAddress(ipaddress.ip_address(for_ip))
        builder = builder.add_extension(x509.SubjectAlternativeName([address]), critical=False)
        builder = builder.add_extension(
            x509.BasicConstraints(ca=True, path_length=None), critical=True
        )
    cert = builder.sign(key, hashes.SHA256())
    cert_file, key_file = directory / "cert.pem", directory / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    return context, cert_file
