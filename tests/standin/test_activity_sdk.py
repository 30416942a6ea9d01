"""The Embedded App SDK as shipped: the built file is the version the lock pins, the web room
serves it as a script from the bot itself, its licences lie beside it and are not served."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cogs.web.assets import ASSETS, STATIC

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "tools" / "sdk" / "package-lock.json"


def pinned(package: str) -> str:
    version: str = json.loads(LOCK.read_text())["packages"][f"node_modules/{package}"]["version"]
    return version


def test_the_built_file_is_the_pinned_sdk_and_the_docs_name_it() -> None:
    version = pinned("@discord/embedded-app-sdk")
    package = json.loads((ROOT / "tools" / "sdk" / "package.json").read_text())
    assert package["dependencies"]["@discord/embedded-app-sdk"] == version  # exact, no range
    banner = (STATIC / "discord-sdk.js").read_text().splitlines()[0]
    assert re.match(rf"/\*! @discord/embedded-app-sdk {re.escape(version)} \(MIT\)", banner)
    assert f"**{version}**" in (ROOT / "docs" / "activity.md").read_text()


def test_the_web_room_serves_the_sdk_as_a_script_and_not_its_licence() -> None:
    sdk = ASSETS["discord-sdk.js"]
    assert sdk.content_type.startswith("text/javascript") and sdk.url.startswith("/static/")
    assert not any(name.startswith("discord-sdk.LICENSE") for name in ASSETS)


def test_the_licence_file_covers_everything_bundled() -> None:
    licences = (STATIC / "discord-sdk.LICENSE.txt").read_text()
    assert "Copyright (c) 2024 Discord Inc." in licences
    for name in ("zod", "uuid", "eventemitter3", "big-integer", "decimal.js-light"):
        assert f"\n{name} (bundled by @discord/embedded-app-sdk)" in licences


def test_the_sdk_loads_nothing_from_elsewhere() -> None:
    script = (STATIC / "discord-sdk.js").read_text()
    for loader in ("importScripts(", "import(", "new Function(", "eval("):
        assert loader not in script
