"""The files the pages load from the bot itself (`/static/<name>`): the style sheets and scripts
in cogs/web/static, read once at start, and each compressed once then (gzip), for the browsers
that take it (every one does: the Discord SDK's script goes from some 150 kB to 45 kB). A page
names each with its digest (`url`), so a browser may keep it for good and a new version is a
new address."""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"


@dataclass(frozen=True)
class Asset:
    name: str
    body: bytes
    content_type: str
    digest: str
    gzipped: bytes
    """`body` compressed (gzip, the most it compresses, no time in its header)."""

    @property
    def url(self) -> str:
        return f"/static/{self.name}?v={self.digest}"


def _read() -> dict[str, Asset]:
    found = {}
    for path in sorted(STATIC.iterdir()):
        if path.suffix not in (".css", ".js", ".svg"):
            continue
        body = path.read_bytes()
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        digest = hashlib.sha256(body).hexdigest()[:12]
        gzipped = gzip.compress(body, compresslevel=9, mtime=0)
        found[path.name] = Asset(path.name, body, f"{kind}; charset=utf-8", digest, gzipped)
    return found


ASSETS = _read()


def asset_url(name: str) -> str:
    return ASSETS[name].url


def takes_gzip(accept_encoding: str) -> bool:
    """Whether a request's Accept-Encoding takes gzip: named, or else `*`, with a weight above
    0."""
    weights: dict[str, float] = {}
    for part in accept_encoding.split(","):
        coding, *parameters = (piece.strip().lower() for piece in part.split(";"))
        weight = 1.0
        for parameter in parameters:
            name, _equals, value = parameter.partition("=")
            if name.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        weights[coding] = weight
    return weights.get("gzip", weights.get("*", 0.0)) > 0
