"""The server's Ed25519 signing key and the set of public keys receipts can be checked against.

The private key lives in a PEM file (default `var/signing-key.pem`, mode 0600), created on first
start. Every public key the server has ever signed with is recorded in the database (`keys`
table) and published at `/.well-known/adjudicator-keys.json`, so a rotated key stays verifiable.

Key id (kid): the first 16 hex digits of SHA-256 over the 32 raw public-key bytes. Anyone holding
the public key can recompute it, which is how `adjudicator verify --key pub.pem` matches receipts.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def raw_public_bytes(public_key: Ed25519PublicKey) -> bytes:
    return public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(public_key: Ed25519PublicKey) -> str:
    return hashlib.sha256(raw_public_bytes(public_key)).hexdigest()[:16]


def public_pem(public_key: Ed25519PublicKey) -> str:
    return public_key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode("ascii")


@dataclass(frozen=True)
class SigningKey:
    """The active private key, loaded once per process."""

    private_key: Ed25519PrivateKey
    kid: str

    @property
    def public_key(self) -> Ed25519PublicKey:
        return self.private_key.public_key()

    def sign(self, message: bytes) -> str:
        return b64url(self.private_key.sign(message))


def _write_new_key(path: Path) -> None:
    """Create a key file atomically: never half-written, never overwriting a concurrent winner.

    Several gunicorn workers may start at once; the first link() wins, the others load its key.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(pem)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
    finally:
        tmp.unlink(missing_ok=True)


def load_or_create_signing_key(path: str | os.PathLike) -> SigningKey:
    """The server's key, created on its first start (only the server should create one)."""
    path = Path(path)
    if not path.exists():
        _write_new_key(path)
    return load_signing_key(path)


def load_signing_key(path: str | os.PathLike) -> SigningKey:
    """An existing key file (FileNotFoundError if there is none: never a new key in its place)."""
    path = Path(path)
    private_key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(private_key, Ed25519PrivateKey):
        raise ValueError(f"{path} does not hold an Ed25519 private key")
    return SigningKey(private_key=private_key, kid=key_id(private_key.public_key()))


def rotate_signing_key(path: str | os.PathLike) -> SigningKey:
    """Replace the key file with a fresh key; the old file is kept as `<name>.<kid>.retired`.

    The caller must have recorded the old public key in the database first (the service does
    so at every start), so receipts signed with it stay verifiable.
    """
    path = Path(path)
    old = load_or_create_signing_key(path)
    os.replace(path, path.with_name(f"{path.name}.{old.kid}.retired"))
    return load_or_create_signing_key(path)


@dataclass(frozen=True)
class PublicKeyInfo:
    kid: str
    public_key: Ed25519PublicKey
    created: str | None = None
    retired: str | None = None

    def to_json(self) -> dict:
        return {
            "kid": self.kid,
            "alg": "Ed25519",
            "public_key": b64url(raw_public_bytes(self.public_key)),
            "public_key_pem": public_pem(self.public_key),
            "created": self.created,
            "retired": self.retired,
        }


def public_key_from_raw(raw_b64url: str) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(b64url_decode(raw_b64url))


def verify_signature(public_key: Ed25519PublicKey, signature_b64url: str, message: bytes) -> bool:
    try:
        public_key.verify(b64url_decode(signature_b64url), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def load_public_keys(path: str | os.PathLike) -> dict[str, Ed25519PublicKey]:
    """Public keys for offline verification, keyed by kid.

    Accepts a PEM public key (or private key: its public half is used), or the JSON document
    served at /.well-known/adjudicator-keys.json.
    """
    data = Path(path).read_bytes()
    if data.lstrip().startswith(b"{"):
        document = json.loads(data)
        keys = {}
        for entry in document.get("keys", []):
            public_key = public_key_from_raw(entry["public_key"])
            keys[key_id(public_key)] = public_key
        return keys
    if b"PRIVATE KEY" in data:
        private_key = serialization.load_pem_private_key(data, password=None)
        public_key = private_key.public_key()
    else:
        public_key = serialization.load_pem_public_key(data)
    if not isinstance(public_key, Ed25519PublicKey):
        raise ValueError(f"{path} does not hold an Ed25519 key")
    return {key_id(public_key): public_key}
