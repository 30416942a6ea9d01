"""The files the pages load from the bot itself (`/static/<name>`): the style sheets and scripts
in cogs/web/static, read once at start. A page names each with its digest (`url`), so a browser
may keep it for good and a new version is a new address."""

from __future__ import annotations

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
        found[path.name] = Asset(path.name, body, f"{kind}; charset=utf-8", digest)
    return found


ASSETS = _read()


def asset_url(name: str) -> str:
    return ASSETS[name].url
