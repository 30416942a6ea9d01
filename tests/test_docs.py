"""README.md, CONTRIBUTING.md and docs/ read as references: no development history, tables
that render with every cell, relative links that stay inside the repository and lead to a file,
and every `make` target, `python -m` module and setting they name real."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from bot.config import BotSettings

ROOT = Path(__file__).resolve().parents[1]

CHECKED = (
    "README.md",
    "CONTRIBUTING.md",
    "PRIVACY.md",
    "docs/activity.md",
    "docs/ai.md",
    "docs/architecture.md",
    "docs/benchmarks.md",
    "docs/deploy.md",
    "docs/engine.md",
    "docs/my-data.md",
    "docs/records.md",
    "docs/ratings.md",
    "docs/rules.md",
)
"""The files every check below reads."""

NOT_YET_CHECKED: tuple[str, ...] = ()
"""Docs still to be brought to these checks; each moves to CHECKED once it passes them."""

COMMIT = r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b"
NOT_KEPT = r"\bnot (?:taken|kept)\b"

HISTORY = (
    (r"\bissues?\s*#?\d+", "Issue 17's target"),
    (r"\brounds?\b", "the ninth round measured"),
    (
        r"\b(?:this|that|next|last|previous) session\b|\bsession (?:before|after)\b",
        "the session before",
    ),
    (r"\b(?:code|engine|version|runs?|`\w+`) before\b", "the engine before: 2.26×"),
    (r"\bbefore (?:issue|the change|this change|these changes|the fix)\b", "before the fix"),
    (NOT_KEPT, "Tried and not taken: uvloop"),
    (r"\b(?:earlier|previous) (?:runs?|figures|versions? of the code)\b", "earlier runs measured"),
    (r"\blast (?:figures|run)\b", "Last figures (six runs)"),
    (r"\bno longer\b", "which the harness no longer does"),
    (COMMIT, "the engine of 2e87174"),
    (r"\b20\d\d-\d\d-\d\d\b", "measured 2026-07-18"),
)
"""What development history looks like, each with a sentence it finds."""

NOT_HISTORY = (
    "After the third set of bids the bids stand; a bid may repeat.",
    "A made zero bid scores 12 x cards / players, rounded to the nearest point.",
    "The test session starts a PostgreSQL server from the pgserver package.",
    "A click is refused before anything is loaded; the card played before it.",
    "Seeds 400-402 and `hard` at 1 s, decisions p99 911 ms, 26,560 hands a second.",
)
"""Sentences a reference may hold, which no pattern of HISTORY may find."""

OUTSIDE_MODULES = ("pytest", "pip", "venv")
"""Modules of the tools, not of this repository, that `python -m` may name."""


def _read(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


_FENCED = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
_SPAN = re.compile(r"`([^`\n]+)`")


def _without_code(text: str) -> str:
    """The text with fenced blocks and inline code spans taken out (they hold no links)."""
    return _SPAN.sub("", _FENCED.sub("", text))


def _code(text: str) -> list[str]:
    """Every fenced block and inline code span: where commands are written."""
    return _FENCED.findall(text) + _SPAN.findall(_FENCED.sub("", text))


TRIED = "## What was tried and not kept"
"""The one section a reference may name commits in: a variant measured and deleted is one line
there, with its figure and the commit that holds its code."""


def history_found(text: str) -> list[str]:
    """Each place where the text tells the project's past, with the line it is on."""
    found = []
    tried = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            tried = line.strip() == TRIED
        for pattern, _ in HISTORY:
            if tried and pattern in (COMMIT, NOT_KEPT):
                continue
            found += [
                f"line {number}: {m.group()!r}" for m in re.finditer(pattern, line, re.IGNORECASE)
            ]
    return found


def _cells(row: str) -> int:
    """Cells of a table row as GitHub renders it: split at every unescaped pipe, code spans
    included."""
    row = row.strip()
    row = row.removeprefix("|")
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return len(re.split(r"(?<!\\)\|", row))


_DELIMITER = re.compile(r"\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?")


def table_faults(text: str) -> list[str]:
    """Rows of a table with another number of cells than its header: GitHub drops the extra
    cells and leaves the missing ones empty."""
    lines = text.splitlines()
    faults = []
    fenced = False
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            fenced = not fenced
        header = lines[i]
        if fenced or "|" not in header or i + 1 >= len(lines):
            i += 1
            continue
        if not _DELIMITER.fullmatch(lines[i + 1].strip()):
            i += 1
            continue
        width = _cells(header)
        if _cells(lines[i + 1]) != width:
            faults.append(f"line {i + 2}: the delimiter row does not match the header")
        i += 2
        # A table goes on to the first blank line; any line before it is a row.
        while i < len(lines) and lines[i].strip():
            if _cells(lines[i]) != width:
                faults.append(f"line {i + 1}: {_cells(lines[i])} cells, the header has {width}")
            i += 1
    return faults


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} (.+)$", _FENCED.sub("", text), re.MULTILINE):
        slug = _slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)


def link_faults(path: Path, root: Path = ROOT) -> list[str]:
    """Relative links of a Markdown file that leave the repository, lead to no file, or name
    an anchor the file they lead to does not have."""
    text = _without_code(path.read_text(encoding="utf-8"))
    faults = []
    for target in _LINK.findall(text) + _REFERENCE.findall(text):
        if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", target):
            continue  # https:, mailto: — not a file of the repository
        where, _, fragment = target.partition("#")
        file = (path.parent / where).resolve() if where else path.resolve()
        if not file.is_relative_to(root.resolve()):
            faults.append(f"{target}: outside the repository")
        elif not file.exists():
            faults.append(f"{target}: no such file")
        elif fragment and file.suffix == ".md" and fragment not in anchors(file.read_text()):
            faults.append(f"{target}: no heading #{fragment} in {file.name}")
    # A path up the tree written as code leads a reader as surely as a link does.
    for written in re.findall(r"(?<![\w/.])((?:\.\./)+[\w./-]*)", path.read_text(encoding="utf-8")):
        file = (path.parent / written).resolve()
        if not file.is_relative_to(root.resolve()):
            faults.append(f"{written}: outside the repository")
        elif not file.exists():
            faults.append(f"{written}: no such file")
    return faults


def make_targets_named(text: str) -> set[str]:
    """Every `make X` written as a command."""
    return {
        target
        for code in _code(text)
        for target in re.findall(r"(?:^|[\s(;&|])make\s+([a-z][\w-]*)", code)
    }


def makefile_targets() -> set[str]:
    return set(re.findall(r"^([A-Za-z][\w-]*)\s*:(?!=)", _read("Makefile"), re.MULTILINE))


def modules_named(text: str) -> set[str]:
    """Every `python -m MODULE` written as a command."""
    return {
        module
        for code in _code(text)
        for module in re.findall(r"python3?\s+-m\s+([A-Za-z_][\w.]*)", code)
    }


def module_fault(name: str) -> str | None:
    """Why `python -m NAME` would not run this repository's module, or None."""
    try:
        spec = importlib.util.find_spec(name)
    except ModuleNotFoundError:
        spec = None
    if spec is None:
        return f"{name}: no such module"
    if name in OUTSIDE_MODULES:
        return None
    if spec.origin is None or not Path(spec.origin).resolve().is_relative_to(ROOT):
        return f"{name}: not a module of this repository ({spec.origin})"
    return None


def settings_documented(readme: str) -> set[str]:
    """The settings README.md's Settings table lists (its first column)."""
    section = re.split(r"^## ", readme, flags=re.MULTILINE)
    table = next((part for part in section if part.startswith("Settings\n")), "")
    return set(re.findall(r"^\| `([A-Z_]+)` \|", table, re.MULTILINE))


# The checks of the files.


def test_every_doc_is_checked_or_waiting_to_be() -> None:
    docs = {str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")}
    assert docs <= set(CHECKED) | set(NOT_YET_CHECKED)
    assert all((ROOT / name).is_file() for name in CHECKED)


@pytest.mark.parametrize("name", CHECKED)
def test_no_development_history(name: str) -> None:
    assert history_found(_read(name)) == []


@pytest.mark.parametrize("name", CHECKED)
def test_tables_have_as_many_cells_in_every_row_as_in_their_header(name: str) -> None:
    assert table_faults(_read(name)) == []


@pytest.mark.parametrize("name", CHECKED)
def test_relative_links_lead_to_files_of_the_repository(name: str) -> None:
    assert link_faults(ROOT / name) == []


@pytest.mark.parametrize("name", CHECKED)
def test_every_make_target_named_is_in_the_makefile(name: str) -> None:
    assert make_targets_named(_read(name)) - makefile_targets() == set()


@pytest.mark.parametrize("name", CHECKED)
def test_every_python_module_named_is_a_module_of_the_repository(name: str) -> None:
    faults = [module_fault(module) for module in sorted(modules_named(_read(name)))]
    assert [fault for fault in faults if fault] == []


def test_the_readme_names_every_make_target() -> None:
    named = make_targets_named(_read("README.md"))
    assert len(named) > 10
    assert makefile_targets() - named == set()


def test_the_readme_lists_every_setting_and_no_other() -> None:
    assert settings_documented(_read("README.md")) == {
        name.upper() for name in BotSettings.model_fields
    }


# Each check finds what it is there to find.


@pytest.mark.parametrize(("pattern", "example"), HISTORY)
def test_each_history_pattern_finds_its_example(pattern: str, example: str) -> None:
    assert re.search(pattern, example, re.IGNORECASE)
    assert history_found(f"Current.\n{example}\n") != []


def test_commits_are_named_in_the_tried_section_only() -> None:
    line = "- A wider search: -0.2 (-0.9..+0.5) — 2ce5b63; not kept.\n"
    assert history_found(f"{TRIED}\n\n{line}") == []
    assert history_found(f"## Levels\n\n{line}") != []
    assert history_found(f"{TRIED}\n\n{line}## Figures\n\n{line}") != []


@pytest.mark.parametrize("sentence", NOT_HISTORY)
def test_no_history_pattern_finds_a_plain_reference_sentence(sentence: str) -> None:
    assert history_found(sentence) == []


def test_a_row_with_a_third_cell_in_a_two_column_table_is_found() -> None:
    table = "| command | what |\n|---|---|\n| `make a` | one |\n| `make b` | two | three |\n"
    assert table_faults(table) == ["line 4: 3 cells, the header has 2"]
    assert table_faults(table.replace(" | three |", " |")) == []
    assert table_faults("| a | b |\n|---|\n| 1 | 2 |\n") != []
    assert table_faults("| a | b |\n|---|---|\n| `x|y` | 2 |\n") != []  # a pipe in code splits
    assert table_faults("```\n| a | b |\n|---|---|\n| 1 |\n```\n") == []


def test_links_outside_the_repository_or_to_nothing_are_found(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("# Rules\n## The hook\n")
    page = tmp_path / "README.md"
    page.write_text(
        "[rules](docs/rules.md), [hook](docs/rules.md#the-hook), [top](#a-page), "
        "[web](https://example.org/x), `[code](../nowhere.md)`\n# A page\n"
        "[seeds](../shared/seeds/), [gone](docs/gone.md), [anchor](docs/rules.md#knocking)\n"
        "![chart](docs/chart.png)\n[ref]: ../shared/RULES.md\n"
    )
    assert link_faults(page, tmp_path) == [
        "../shared/seeds/: outside the repository",
        "docs/gone.md: no such file",
        "docs/rules.md#knocking: no heading #knocking in rules.md",
        "docs/chart.png: no such file",
        "../shared/RULES.md: outside the repository",
        "../nowhere.md: outside the repository",
        "../shared/seeds/: outside the repository",
        "../shared/RULES.md: outside the repository",
    ]
    inside = tmp_path / "docs" / "engine.md"
    inside.write_text("[rules](rules.md), `../README.md` and [up](../README.md)\n")
    assert link_faults(inside, tmp_path) == []
    inside.write_text("The rules: `../shared/RULES.md`.\n")
    assert link_faults(inside, tmp_path) == ["../shared/RULES.md: no such file"]


def test_commands_are_read_from_code_only() -> None:
    text = "Run `make demo`, then\n```\nmake arena ARGS='--x'\n.venv/bin/python -m tools.demo\n```"
    text += "\nThese make the tables; `python -m bot.nowhere` and `make nothing-here`."
    assert make_targets_named(text) == {"demo", "arena", "nothing-here"}
    assert modules_named(text) == {"tools.demo", "bot.nowhere"}
    assert "nothing-here" not in makefile_targets()
    assert module_fault("bot.nowhere") == "bot.nowhere: no such module"
    assert module_fault("tools.demo") is None
    assert module_fault("json") is not None  # runs, but is not this repository's
    assert module_fault("pytest") is None


def test_a_setting_missing_from_the_readme_table_is_found() -> None:
    readme = "## Settings\n\n| setting | default | what |\n|---|---|---|\n| `LOG_LEVEL` | x | y |\n"
    assert settings_documented(readme + "\n## Next\n| `OTHER` | x | y |\n") == {"LOG_LEVEL"}


# docs/architecture.md: short cells, no figure that goes stale, every module placed.

ARCHITECTURE = "docs/architecture.md"
LONGEST_CELL = 400
"""A cell longer than this is a section's worth of text squeezed into a table."""

STALE_FIGURE = re.compile(
    r"\d+(?:[.,]\d+)?\s?(?:µs|ms|%|microseconds?|milliseconds?|per ?cent)(?!\w)", re.IGNORECASE
)
"""A measured figure: it belongs in docs/benchmarks.md, where it is dated by its run."""


def long_cells(text: str, limit: int = LONGEST_CELL) -> list[str]:
    """Cells of the text's tables longer than `limit` characters, each with its line."""
    found = []
    lines = text.splitlines()
    in_table = fenced = False
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not line.strip():
            in_table = False
            continue
        following = lines[number] if number < len(lines) else ""
        if "|" in line and _DELIMITER.fullmatch(following.strip()):
            in_table = True
        if in_table:
            cells = re.split(r"(?<!\\)\|", line.strip().removeprefix("|").removesuffix("|"))
            found += [
                f"line {number}: {len(cell.strip())} characters"
                for cell in cells
                if len(cell.strip()) > limit
            ]
    return found


def stale_figures(text: str) -> list[str]:
    """Each measured figure in the text, with its line."""
    return [
        f"line {number}: {match.group()!r}"
        for number, line in enumerate(text.splitlines(), 1)
        for match in STALE_FIGURE.finditer(line)
    ]


def product_modules(root: Path = ROOT) -> list[Path]:
    """Every module file of the product: bot/ and cogs/, but packages' __init__.py and the
    catalogs' folder."""
    return sorted(
        path.relative_to(root)
        for folder in ("bot", "cogs")
        for path in (root / folder).rglob("*.py")
        if path.name != "__init__.py" and "locales" not in path.parts
    )


def modules_unnamed(text: str, modules: list[Path]) -> list[str]:
    """The modules the text names neither by file name (`store.py`, `items/table.py`) nor by
    dotted path (`bot.storage.store`)."""
    unnamed = []
    for module in modules:
        dotted = ".".join(module.with_suffix("").parts)
        by_name = re.search(rf"(?<![\w.]){re.escape(module.name)}(?!\w)", text)
        by_path = re.search(rf"(?<![\w.]){re.escape(dotted)}(?![\w.])", text)
        if not (by_name or by_path):
            unnamed.append(str(module))
    return unnamed


def test_architecture_has_no_cell_longer_than_a_short_paragraph() -> None:
    assert long_cells(_read(ARCHITECTURE)) == []


def test_architecture_carries_no_figure_that_goes_stale() -> None:
    assert stale_figures(_read(ARCHITECTURE)) == []


def test_architecture_places_every_module_of_the_product() -> None:
    modules = product_modules()
    assert Path("bot/storage/store.py") in modules and Path("cogs/items/table.py") in modules
    assert not any(module.name == "__init__.py" for module in modules)
    assert modules_unnamed(_read(ARCHITECTURE), modules) == []


def test_a_long_cell_is_found_in_a_table_only() -> None:
    row = "| `x.py` | " + "word " * 100 + "|\n"
    table = "| module | what |\n|---|---|\n" + row
    assert long_cells(table) == ["line 3: 499 characters"]
    assert long_cells(table.replace("word " * 100, "word " * 10)) == []
    assert long_cells("A paragraph | with a pipe " + "word " * 100 + "\n") == []
    assert long_cells("```\n| a | b |\n|---|---|\n" + row + "```\n") == []


@pytest.mark.parametrize(
    "sentence",
    ["the service's part is about 350 µs", "a card costs 4–5 ms", "3-4%", "7 % of the CPU"],
)
def test_a_measured_figure_is_found(sentence: str) -> None:
    assert stale_figures(f"Current.\n{sentence}\n") != []


def test_a_fixed_number_is_not_a_measured_figure() -> None:
    text = "Discord's 3 s; 8 random moments; `ohp:<list>:<page>`; a 63-card pack; 5xx answers."
    assert stale_figures(text) == []


def test_a_module_named_by_file_name_or_dotted_path_is_placed() -> None:
    modules = [Path("bot/storage/store.py"), Path("cogs/items/table.py"), Path("bot/workers.py")]
    text = "`store.py`, `items/table.py` and `bot.workers`"
    assert modules_unnamed(text, modules) == []
    assert modules_unnamed("`restore.py`, `table.pyc`, `bot.workers_pool`", modules) == [
        "bot/storage/store.py",
        "cogs/items/table.py",
        "bot/workers.py",
    ]
