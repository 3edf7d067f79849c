"""The documentation (issue 37): the README stays short and leads into the site's main pages, and
no relative link in the README or the pages points at a file that is not there (the pages are read
in a plain checkout too; the site itself is checked in test_docs_site.py)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def relative_links(page: Path) -> list[str]:
    return [m.group(1).split("#")[0] for m in LINK.finditer(page.read_text())
            if not re.match(r"^(https?:|mailto:|#)", m.group(1))]


def test_the_readme_is_short():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 220


def test_the_readme_leads_into_the_site():
    linked = {(ROOT / link).resolve() for link in relative_links(ROOT / "README.md")}
    for page in ("index.md", "getting-started.md", "results.md", "faq.md", "api/index.md"):
        assert (ROOT / "docs" / page).resolve() in linked, page


def test_no_relative_link_is_broken():
    broken = [(page.name, link) for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
              for link in relative_links(page) if link and not (page.parent / link).exists()]
    assert broken == []


def test_every_current_result_is_on_the_results_page():
    """benchmarks/results/ holds the current results only (superseded ones are in git history), in
    at most 15 entries grouped by the question each answers, and the results page names each."""
    page = (ROOT / "docs" / "results.md").read_text()
    entries = sorted((ROOT / "benchmarks" / "results").iterdir())
    assert len(entries) <= 15, [entry.name for entry in entries]
    missing = [entry.name for entry in entries
               if f"{entry.name}{'/' if entry.is_dir() else ''}" not in page]
    assert missing == []
