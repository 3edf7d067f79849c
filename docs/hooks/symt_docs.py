"""MkDocs hooks of symt's documentation site (``mkdocs.yml``), and the command that refreshes the
generated tables in the Markdown sources.

Three jobs:

* **Tables from the committed reports.** A block

      <!-- table from=benchmarks/results/wl/paper/summary.csv metric=coverage -->
      ...
      <!-- /table -->

  is regenerated from the report's ``summary.csv`` (rows: domains, or domain and group with
  ``by=group``; columns: algorithms; ``metric`` one of coverage, qs, expansions; optional
  ``algorithms=a,b,c`` and ``domains=x,y``). The site is built from the regenerated text, and
  ``python docs/hooks/symt_docs.py --check`` (run by the tests) fails when a committed block differs
  from what its CSV gives, so a page cannot drift from its report. ``--update`` rewrites the blocks.
* **Result files in the site.** Pages link reports and plots where they live in the repository
  (``../benchmarks/results/...``), so the links also work in a plain checkout; the hook copies
  every folder so linked into the site under ``results-files/`` and points the links there.
  Report pages copied in are reachable from their links but not listed in the navigation.
* **Docstrings.** symt's docstrings use Sphinx roles (``:class:`~symt.x.Y```); the API pages show
  them as plain code (``Y``).
"""

from __future__ import annotations

import argparse
import posixpath
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RESULTS = "benchmarks/results"
SITE_RESULTS = "results-files"

BLOCK = re.compile(r"(<!-- table (?P<spec>[^>]*?)-->\n)(?P<body>.*?)(<!-- /table -->)", re.S)
LINK = re.compile(r"(?P<head>!?\[[^\]]*\]\()(?P<target>[^)\s#]+)(?P<tail>[^)]*\))")
ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj|const):<code>~?(?P<name>[^<]+)</code>")
METRICS = ("coverage", "qs", "expansions")


# ---------------------------------------------------------------------------------------------
# Tables from summary.csv


def _parse_spec(spec: str, where: str) -> dict[str, str]:
    options = dict(item.split("=", 1) for item in spec.split() if "=" in item)
    unknown = set(options) - {"from", "metric", "by", "algorithms", "domains"}
    if "from" not in options or unknown:
        raise ValueError(f"{where}: a table block needs from=CSV (unknown options: {sorted(unknown)})")
    if options.setdefault("metric", "coverage") not in METRICS:
        raise ValueError(f"{where}: metric must be one of {', '.join(METRICS)}")
    return options


def render_table(spec: str, where: str = "table") -> str:
    """The Markdown table that a ``<!-- table ... -->`` block's options ask for."""
    from symt.experiments.metrics import pooled_row, read_summary_csv

    options = _parse_spec(spec, where)
    path = ROOT / options["from"]
    if not path.is_file():
        raise ValueError(f"{where}: {options['from']} does not exist")
    rows = read_summary_csv(path)
    if "domains" in options:
        keep = options["domains"].split(",")
        rows = [row for row in rows if row["domain"] in keep]
    algorithms = options["algorithms"].split(",") if "algorithms" in options else list(
        dict.fromkeys(row["algorithm"] for row in rows))
    by_group = options.get("by") == "group"
    # A report over several suites (the paper's and IPC's Blocksworld) keeps them apart.
    several_suites = len({row["suite"] for row in rows}) > 1
    scopes = list(dict.fromkeys((row["suite"], row["domain"], row["group"] if by_group else "")
                                for row in rows))
    metric = options["metric"]

    def value(selected: list[dict[str, Any]]) -> str:
        if not selected:
            return "–"
        row = selected[0] if len(selected) == 1 else pooled_row(selected)
        if metric == "coverage":
            return f"{row['solved']}/{row['tasks']}"
        if metric == "qs":
            return "–" if row["qs"] is None else f"{row['qs']:.2f}"
        if not row["expansions_tasks"]:
            return "–"
        return f"{row['expansions_gmean']:,.0f} ({row['expansions_tasks']})"

    header = ["domain", *(["group"] if by_group else []), *algorithms]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for suite, domain, group in scopes:
        cells = [value([r for r in rows if r["algorithm"] == algorithm and r["domain"] == domain
                        and r["suite"] == suite and (not by_group or r["group"] == group)])
                 for algorithm in algorithms]
        name = f"{domain} ({'IPC 2023' if suite == 'ipc2023' else suite})" if several_suites else domain
        lines.append("| " + " | ".join([name, *([group] if by_group else []), *cells]) + " |")
    if metric == "coverage" and len(scopes) > 1:
        totals = [value([r for r in rows if r["algorithm"] == algorithm]) for algorithm in algorithms]
        lines.append("| " + " | ".join(["**total**", *([""] if by_group else []), *totals]) + " |")
    note = {"coverage": "solved / tasks", "qs": "quality score (IPC: best known length / length, 0 unsolved)",
            "expansions": "geometric mean of expansions on the tasks every algorithm solved (their number)"}
    return "\n".join(lines) + f"\n\n<small>{note[metric]}; from `{options['from']}`</small>\n"


def refresh(markdown: str, where: str = "page") -> str:
    """``markdown`` with every table block regenerated from its CSV."""
    return BLOCK.sub(lambda m: m.group(1) + render_table(m.group("spec"), where) + m.group(4), markdown)


# ---------------------------------------------------------------------------------------------
# MkDocs hooks


def _repo_path(page_src: str, target: str) -> str | None:
    """The repository path a relative link of docs/``page_src`` points at, if it is a result."""
    if re.match(r"^[a-z]+:", target) or target.startswith("/"):
        return None
    path = posixpath.normpath(posixpath.join("docs", posixpath.dirname(page_src), target))
    return path if path.startswith(RESULTS + "/") else None


def _linked_result_files(docs_dir: Path) -> set[str]:
    """Every file in a results folder that a page links (the folder's files travel together, so
    that a report's own links to its plots keep working)."""
    folders: set[Path] = set()
    for page in docs_dir.rglob("*.md"):
        for match in LINK.finditer(page.read_text(encoding="utf-8")):
            path = _repo_path(page.relative_to(docs_dir).as_posix(), match.group("target"))
            if path and (ROOT / path).exists():
                folders.add((ROOT / path).parent if (ROOT / path).is_file() else ROOT / path)
    return {f.relative_to(ROOT).as_posix() for folder in folders for f in folder.iterdir() if f.is_file()}


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File, InclusionLevel

    for path in sorted(_linked_result_files(Path(config["docs_dir"]))):
        dest = SITE_RESULTS + path[len(RESULTS):]
        generated = File.generated(config, dest, abs_src_path=str(ROOT / path))
        if generated.is_documentation_page():
            generated.inclusion = InclusionLevel.NOT_IN_NAV
        files.append(generated)
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    src = page.file.src_uri
    if src.startswith(SITE_RESULTS + "/"):
        # A copied report: links that stay inside the copied files work as they are; any other
        # link (into the code, or to a file not copied) becomes a path in code type.
        here = posixpath.dirname(src)

        def keep_or_flatten(match: re.Match[str]) -> str:
            target = match.group("target")
            if re.match(r"^[a-z]+:", target) or files.get_file_from_path(
                    posixpath.normpath(posixpath.join(here, target))):
                return match.group(0)
            text = match.group("head")[match.group("head").index("[") + 1:-2]
            return f"{text} (`{posixpath.normpath(posixpath.join(RESULTS + here[len(SITE_RESULTS):], target))}`)"

        return LINK.sub(keep_or_flatten, markdown)

    markdown = refresh(markdown, f"docs/{src}")

    def to_site(match: re.Match[str]) -> str:
        path = _repo_path(src, match.group("target"))
        if path is None:
            return match.group(0)
        target = posixpath.relpath(SITE_RESULTS + path[len(RESULTS):], posixpath.dirname(src) or ".")
        return match.group("head") + target + match.group("tail")

    return LINK.sub(to_site, markdown)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return ROLE.sub(lambda m: f"<code>{m.group('name').rsplit('.', 1)[-1]}</code>", html)


# ---------------------------------------------------------------------------------------------
# Command line: refresh or check the committed blocks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Refresh (--update) or check (--check) the "
                                     "generated tables of the documentation's Markdown pages.")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--update", action="store_true")
    mode.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    stale = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        fresh = refresh(text, page.relative_to(ROOT).as_posix())
        if fresh != text:
            stale.append(page.relative_to(ROOT).as_posix())
            if args.update:
                page.write_text(fresh, encoding="utf-8")
    if args.check and stale:
        print(f"tables differ from their CSVs in: {', '.join(stale)} (run: python docs/hooks/symt_docs.py --update)",
              file=sys.stderr)
        return 1
    if args.update and stale:
        print(f"updated: {', '.join(stale)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
