"""The documentation site (issue 37): it builds in strict mode (a broken link, a missing reference
or a page outside the navigation fails), its tables are what their reports' CSVs say, and a real
headless browser shows the home page and a results plot."""

from __future__ import annotations

import functools
import http.server
import importlib.util
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from symt.experiments.metrics import summary_rows, write_summary_csv
from symt.experiments.records import make_record

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

spec = importlib.util.spec_from_file_location("symt_docs", ROOT / "docs" / "hooks" / "symt_docs.py")
symt_docs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(symt_docs)


def build(config: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
                          capture_output=True, text=True, env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = build(ROOT / "mkdocs.yml", out)
    assert result.returncode == 0, result.stderr[-3000:]
    return out


@pytest.mark.slow
def test_the_site_builds_with_every_page_and_the_api_reference(site: Path) -> None:
    for page in ("index.html", "getting-started.html", "results.html", "faq.html", "formats.html",
                 "api/index.html", "api/model.html", "api/statespace.html"):
        assert (site / page).is_file(), page
    # The research record is linked from the results page, not in the navigation: the recipe study
    # comes along with the training records, its plots beside it.
    assert (site / "results-files" / "training" / "recipe-study.html").is_file()
    assert (site / "results-files" / "training" / "recipe-study-blocksworld.png").is_file()
    # The API reference is generated from docstrings, Sphinx roles shown as code.
    model = (site / "api" / "model.html").read_text()
    assert "SymTE" in model and ":class:" not in model
    # Result folders that a page links travel into the site with their plots.
    assert (site / "results-files" / "configs" / "coverage_over_time.png").stat().st_size > 10_000
    assert (site / "results-files" / "configs" / "report.html").is_file()


@pytest.mark.slow
def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    """Strict mode is on: the same site with one link to a missing page does not build."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    # The hook finds the repository from its own place; keep it pointing at this one.
    (tmp_path / "docs" / "hooks" / "symt_docs.py").write_text(
        (ROOT / "docs" / "hooks" / "symt_docs.py").read_text().replace(
            "ROOT = Path(__file__).resolve().parents[2]", f"ROOT = Path({str(ROOT)!r})"))
    faq = tmp_path / "docs" / "faq.md"
    faq.write_text(faq.read_text() + "\nSee [the missing page](no-such-page.md).\n")
    result = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert result.returncode != 0
    assert "no-such-page.md" in result.stdout + result.stderr


def test_committed_tables_are_their_csvs() -> None:
    assert symt_docs.main(["--check"]) == 0


def test_a_table_block_counts_from_the_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tasks in two domains: coverage, QS and the geometric mean over commonly solved tasks,
    worked out by hand."""
    def run(domain: str, problem: str, algorithm: str, length: int | None, expansions: int | None):
        return make_record(suite="paper", domain=domain, group="extrapolation", problem=problem, size=1,
                           algorithm=algorithm, solved=length is not None, plan_valid=length is not None,
                           plan_length=length, best_known=None, expansions=expansions, evaluations=None,
                           search_time=1.0, total_time=1.0, outcome="solved" if length else "timeout",
                           error_detail=None)
    records = [run("gripper", "p1", "a", 10, 100), run("gripper", "p1", "b", 20, 400),
               run("gripper", "p2", "a", 10, 10), run("gripper", "p2", "b", None, None),
               run("visitall", "p1", "a", None, None), run("visitall", "p1", "b", 5, 7)]
    (tmp_path / "r").mkdir()
    write_summary_csv(summary_rows(records), tmp_path / "r" / "summary.csv")
    monkeypatch.setattr(symt_docs, "ROOT", tmp_path)
    coverage = symt_docs.render_table("from=r/summary.csv metric=coverage")
    assert "| gripper | 2/2 | 1/2 |" in coverage and "| **total** | 2/3 | 2/3 |" in coverage
    # QS: best length per task over the algorithms (p1: 10), 0 for unsolved.
    assert "| gripper | 1.00 | 0.25 |" in symt_docs.render_table("from=r/summary.csv metric=qs")
    # Expansions on the one gripper task both solved (p1).
    assert "| gripper | 100 (1) | 400 (1) |" in symt_docs.render_table("from=r/summary.csv metric=expansions")
    block = "<!-- table from=r/summary.csv metric=coverage -->\nstale\n<!-- /table -->"
    assert "stale" not in symt_docs.refresh(block) and "2/2" in symt_docs.refresh(block)


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (scripts/setup.sh installs Debian's as root)")
def test_a_browser_shows_the_home_page_and_a_results_plot(served: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{served}/index.html")
            assert page.title().startswith("symt")
            assert page.get_by_role("link", name="Getting started").first.is_visible()
            headline = page.locator("table").filter(has_text="lama-first").first
            assert headline.is_visible() and "74/74" in headline.inner_text()
            page.goto(f"{served}/results.html")
            plot = page.locator("img[src*='coverage_over_time']")
            plot.scroll_into_view_if_needed()
            complete, width, height = page.evaluate(
                "(img) => [img.complete, img.naturalWidth, img.naturalHeight]", plot.element_handle())
            assert complete and width > 400 and height > 200
            assert plot.bounding_box()["width"] > 300  # laid out on the page, not just loaded
            assert errors == []
        finally:
            browser.close()
