"""The web pages' benchmark runs small and ends with its JSON figures; what a page loads is
told apart from its links, and the bot's own files from anything else."""

from __future__ import annotations

import json

import pytest

from tools.bench_web import main, page_loads

PAGE = (
    b'<link rel="icon" href="data:,"><link rel="stylesheet" href="/static/table.1a2b.css">'
    b'<script src="../static/table.3c4d.js" defer></script>'
    b'<a href="../login?next=%2Ft%2Fx">Log in with Discord</a>'
    b'<img alt="" src="https://elsewhere.example/x.png"><script src="//cdn.example/x.js">'
    b'</script><link rel="stylesheet" href="http://127.0.0.1:9/static/x.css">'
)


def test_a_page_loads_its_files_and_not_its_links() -> None:
    own, outside = page_loads(PAGE, "http://127.0.0.1:8080/t/abc")
    assert own == [
        "http://127.0.0.1:8080/static/table.1a2b.css",
        "http://127.0.0.1:8080/static/table.3c4d.js",
    ]
    # Another host, another port: not the bot's.
    assert outside == [
        "https://elsewhere.example/x.png",
        "//cdn.example/x.js",
        "http://127.0.0.1:9/static/x.css",
    ]


@pytest.mark.timeout(120)
def test_bench_web_prints_figures_ending_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--tables", "2", "--watchers", "2", "--max-cards", "2"]) == 0
    fig = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert fig["cpu_ms_per_card_without"] > 0 and fig["cpu_ms_per_card_with"] > 0
    assert 0 < fig["page_bytes"] < 100_000 and 0 < fig["static_bytes"] < 100_000
    assert fig["outside_addresses"] == []
    assert fig["frame_bytes_median"] > 0 and fig["latency_p99_ms"] > 0
    assert fig["streams_unfinished"] == 0
