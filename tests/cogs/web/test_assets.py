"""The pages' static files: each compressed once at start (gzip) and sent so to a browser that
takes it, as it is to one that does not; the Discord SDK's script, the heaviest, a third of
itself or less."""

from __future__ import annotations

import gzip

import pytest

from cogs.web.assets import ASSETS, takes_gzip


@pytest.mark.parametrize(
    ("header", "takes"),
    [
        ("gzip, deflate, br, zstd", True),
        ("GZIP ; Q=0.5", True),
        ("*", True),
        ("br;q=1, *;q=0.1", True),
        ("*;q=0, gzip", True),
        ("", False),
        ("identity", False),
        ("br, deflate", False),
        ("gzip;q=0", False),
        ("gzip;q=0.000", False),
        ("gzip;q=nonsense", False),
        ("*;q=0", False),
    ],
)
def test_gzip_is_sent_to_whoever_takes_it(header: str, takes: bool) -> None:
    assert takes_gzip(header) is takes


def test_each_file_is_compressed_to_what_it_is() -> None:
    assert {"discord-sdk.js", "table.js", "table.css", "session.js"} <= set(ASSETS)
    for asset in ASSETS.values():
        assert gzip.decompress(asset.gzipped) == asset.body, asset.name
        assert asset.gzipped[4:8] == b"\0\0\0\0", asset.name  # no time: the same at every start
    sdk = ASSETS["discord-sdk.js"]
    assert len(sdk.gzipped) < len(sdk.body) / 3
