"""Find, validate and map IRIs (RFC 3987): the iriscan library for Python.

Every hit is a dict with the keys and values of `iriscan --json`.
"""

from typing import Any, Optional

__version__: str

def find(text: str) -> list[dict[str, Any]]:
    """The valid hits of `text`; `start`, `end` and `column` count its
    characters."""

def scan_bytes(
    data: bytes,
    format: str = "auto",
    charset: Optional[str] = None,
    base: Optional[str] = None,
    path: Optional[str] = None,
) -> list[dict[str, Any]]:
    """The valid hits of `data` read as `format` (auto, text, mail, html,
    warc), as `iriscan --json --format FORMAT` gives them (byte offsets)."""

def to_uri(iri: str, charset: Optional[str] = None) -> str:
    """The URI of an IRI."""

def to_iri(uri: str, decode_punycode: bool = False) -> str:
    """The IRI of a URI."""

def normalize(iri: str, level: str = "syntax", form: str = "iri", nfc: bool = False) -> str:
    """The normal form of an IRI; ValueError if it is invalid."""

def resolve(base: str, reference: str) -> str:
    """`reference` resolved against `base`; ValueError if either is invalid."""
