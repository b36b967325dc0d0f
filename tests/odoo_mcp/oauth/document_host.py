"""A client's metadata host for the client ID metadata document tests: an HTTPS server on
127.0.0.1 with a certificate from a CA made for the test run (``cryptography``), each path
answering what the test put there, every request counted."""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import ssl
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

#: the host names the leaf certificate is for (beside 127.0.0.1)
NAMES = ("localhost", "docs.test")


@dataclass
class Answer:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "application/json"})
    delay: float = 0.0


@dataclass
class DocumentHost:
    """The running host: ``url(path)``, the answers by path, the requests by path."""

    port: int
    ca_file: Path
    answers: dict[str, Answer] = field(default_factory=dict)
    hits: Counter[str] = field(default_factory=Counter)

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"https://{host}:{self.port}{path}"

    def context(self) -> ssl.SSLContext:
        """A client context trusting the test CA (and nothing else)."""
        return ssl.create_default_context(cafile=str(self.ca_file))


#: what the test CA's key may do: sign certificates (and their revocation lists)
_CA_USAGE = dict.fromkeys(
    ("content_commitment", "key_encipherment", "data_encipherment", "key_agreement",
     "encipher_only", "decipher_only"),
    False,
) | {"digital_signature": True, "key_cert_sign": True, "crl_sign": True}  # fmt: skip


def _name(text: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


def _certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A CA, and a leaf for 127.0.0.1 and ``NAMES`` it signed: (ca, leaf chain, leaf key)."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("odoo-mcp test CA"))
        .issuer_name(_name("odoo-mcp test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(**_CA_USAGE),
            critical=True,
        )
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    names: list[x509.GeneralName] = [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    names += [x509.DNSName(name) for name in NAMES]
    leaf = (
        x509.CertificateBuilder()
        .subject_name(_name("127.0.0.1"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    ca_file, chain, key_file = directory / "ca.pem", directory / "leaf.pem", directory / "key.pem"
    ca_file.write_bytes(ca.public_bytes(pem))
    chain.write_bytes(leaf.public_bytes(pem))
    key_file.write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return ca_file, chain, key_file


@contextmanager
def document_host(directory: Path) -> Iterator[DocumentHost]:
    """Serve until the block ends."""
    ca_file, chain, key_file = _certificates(directory)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(chain, key_file)
    host: DocumentHost

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            host.hits[path] += 1
            answer = host.answers.get(path, Answer(404, b"{}"))
            if answer.delay:
                time.sleep(answer.delay)
            self.send_response(answer.status)
            for name, value in answer.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(answer.body)))
            self.end_headers()
            with contextlib.suppress(OSError):  # the client gave up (a timeout test)
                self.wfile.write(answer.body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.socket = tls.wrap_socket(server.socket, server_side=True)
    host = DocumentHost(server.server_address[1], ca_file)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield host
    finally:
        server.shutdown()
        server.server_close()
