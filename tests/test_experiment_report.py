"""The experiment report layer, on small hand-built run records with hand-computed numbers."""

from __future__ import annotations

import math

import pytest

from symt.cli import main
from symt.experiments.report import (
    IPC2023_COVERAGE,
    IPC2023_PLANNERS,
    PAPER_COVERAGE,
    RECORD_FIELDS,
    best_known_lengths,
    ipc_comparison_table,
    paper_comparison_table,
    quality_scores,
    read_csv,
    read_summary_csv,
    summary_rows,
    write_csv,
    write_plots,
    write_report,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run(algorithm, problem, *, group="validation", suite="paper", domain="gripper", size=4,
        length=None, valid=None, outcome=None, best_known=None, expansions=None,
        search_time=None, total_time=None, detail=None, cost=None):
    """A record; solved exactly when a valid plan was found, as the runner writes them."""
    if outcome is None:
        outcome = "solved" if valid else "timeout"
    return {
        "suite": suite, "domain": domain, "group": group, "problem": problem, "size": size,
        "algorithm": algorithm, "solved": outcome == "solved", "plan_valid": valid,
        "plan_length": length, "best_known": best_known, "plan_cost": cost, "expansions": expansions,
        "evaluations": None if expansions is None else 2 * expansions,
        "search_time": search_time, "total_time": total_time, "outcome": outcome,
        "error_detail": detail,
    }


def make_records():
    """Gripper validation p1..p3 and extrapolation q1, four algorithms.

    Best known: p1 = 8 (symt's plan beats the bound 10), p2 = 6 (lama-first's invalid plan of
    length 3 must not count), p3 = 5 (no bound; symt's plan), q1 = 20.
    symt-guidance reports no expansions or search time, but does report total time.
    lama-first has a run only on p2 (missing runs count unsolved).
    """
    return [
        run("symt", "p1", size=4, length=8, valid=True, best_known=10, expansions=100,
            search_time=1.0, total_time=2.0),
        run("ff", "p1", size=4, length=10, valid=True, best_known=10, expansions=400,
            search_time=0.5, total_time=1.0),
        run("symt-guidance", "p1", size=4, length=9, valid=True, best_known=10, total_time=3.0),
        run("symt", "p2", size=5, best_known=6, total_time=20.0),
        run("ff", "p2", size=5, length=12, valid=True, best_known=6, expansions=1000,
            search_time=2.0, total_time=2.5),
        run("symt-guidance", "p2", size=5, length=6, valid=True, best_known=6, total_time=1.5),
        run("lama-first", "p2", size=5, length=3, valid=False, outcome="invalid-plan",
            best_known=6, detail="Plan failed to execute at step 2"),
        run("symt", "p3", size=5, length=5, valid=True, expansions=10, search_time=0.2,
            total_time=0.7),
        run("ff", "p3", size=5, length=7, valid=True, expansions=1000, search_time=0.1,
            total_time=0.4),
        run("symt-guidance", "p3", size=5, outcome="search-failed", total_time=0.1),
        run("symt", "q1", group="extrapolation", size=9, outcome="out-of-memory", best_known=20),
        run("ff", "q1", group="extrapolation", size=9, length=20, valid=True, best_known=20,
            expansions=5000, search_time=3.0, total_time=3.5),
        run("symt-guidance", "q1", group="extrapolation", size=9, outcome="error",
            detail="Traceback: boom"),
    ]


@pytest.fixture
def records():
    return make_records()


def row_of(rows, algorithm, group="validation"):
    (row,) = [r for r in rows if r["algorithm"] == algorithm and r["group"] == group]
    return row


def table_row(markdown, *leading):
    """Cells of the markdown table row starting with the given cells, keyed by header."""
    lines = [line for line in markdown.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[: len(leading)] == list(leading):
            return dict(zip(header, cells))
    raise AssertionError(f"no row {leading} in\n{markdown}")


def test_best_known_takes_valid_plans_over_bounds_and_ignores_invalid_ones(records):
    best = best_known_lengths(records)
    assert best[("paper", "gripper", "validation", "p1")] == 8
    assert best[("paper", "gripper", "validation", "p2")] == 6
    assert best[("paper", "gripper", "validation", "p3")] == 5
    assert best[("paper", "gripper", "extrapolation", "q1")] == 20
    assert best_known_lengths([run("ff", "x")]) == {("paper", "gripper", "validation", "x"): None}


def test_quality_scores_per_run(records):
    scores = dict(zip(((r["algorithm"], r["problem"]) for r in records), quality_scores(records)))
    assert scores[("symt", "p1")] == 1.0
    assert scores[("ff", "p1")] == pytest.approx(8 / 10)
    assert scores[("symt-guidance", "p1")] == pytest.approx(8 / 9)
    assert scores[("ff", "p2")] == pytest.approx(6 / 12)
    assert scores[("lama-first", "p2")] == 0.0  # invalid plan: unsolved
    assert scores[("symt", "p2")] == 0.0
    assert scores[("ff", "p3")] == pytest.approx(5 / 7)


def test_quality_is_measured_in_plan_cost_where_runs_record_one():
    # Transport-like costs: ff's plan is shorter (4 actions) but dearer (60) than lama-first's
    # (6 actions, 54). Quality follows cost: lama-first's plan is the best known.
    runs = [run("ff", "t", length=4, cost=60, valid=True), run("lama-first", "t", length=6, cost=54, valid=True)]
    assert best_known_lengths(runs) == {("paper", "gripper", "validation", "t"): 54}
    assert quality_scores(runs) == [pytest.approx(54 / 60), 1.0]
    (ff_row,) = [row for row in summary_rows(runs) if row["algorithm"] == "ff"]
    assert ff_row["qs"] == pytest.approx(54 / 60) and ff_row["mean_plan_length"] == 4


def test_summary_coverage_and_quality(records):
    rows = summary_rows(records)
    assert [r["algorithm"] for r in rows[:4]] == ["symt", "ff", "symt-guidance", "lama-first"]
    assert [r["group"] for r in rows[::4]] == ["validation", "extrapolation"]

    symt = row_of(rows, "symt")
    assert (symt["tasks"], symt["solved"]) == (3, 2)
    assert symt["coverage"] == pytest.approx(2 / 3)
    assert symt["qs"] == pytest.approx((1 + 0 + 1) / 3)
    assert symt["qs_solved"] == pytest.approx(1.0)
    assert symt["mean_plan_length"] == pytest.approx((8 + 5) / 2)

    ff = row_of(rows, "ff")
    assert ff["solved"] == 3
    assert ff["qs"] == pytest.approx((0.8 + 0.5 + 5 / 7) / 3)
    assert ff["qs_solved"] == pytest.approx((0.8 + 0.5 + 5 / 7) / 3)

    guidance = row_of(rows, "symt-guidance")
    assert guidance["qs"] == pytest.approx((8 / 9 + 1) / 3)
    assert guidance["qs_solved"] == pytest.approx((8 / 9 + 1) / 2)
    assert guidance["outcome_search-failed"] == 1

    lama = row_of(rows, "lama-first")
    assert (lama["tasks"], lama["runs"], lama["solved"]) == (3, 1, 0)
    assert lama["qs"] == 0.0 and lama["qs_solved"] is None
    assert lama["outcome_invalid-plan"] == 1

    extrapolation = row_of(rows, "symt", "extrapolation")
    assert extrapolation["outcome_out-of-memory"] == 1
    assert row_of(rows, "symt-guidance", "extrapolation")["outcome_error"] == 1


def test_metrics_use_commonly_solved_tasks_per_metric(records):
    rows = summary_rows(records)
    symt, ff, guidance = (row_of(rows, a) for a in ("symt", "ff", "symt-guidance"))
    # Expansions and search time: reported by symt and ff; both solved p1 and p3.
    assert symt["expansions_tasks"] == ff["expansions_tasks"] == 2
    assert symt["expansions_gmean"] == pytest.approx(math.sqrt(100 * 10))
    assert ff["expansions_gmean"] == pytest.approx(math.sqrt(400 * 1000))
    assert guidance["expansions_tasks"] is None and guidance["expansions_gmean"] is None
    assert symt["search_time_sum"] == pytest.approx(1.2)
    assert ff["search_time_sum"] == pytest.approx(0.6)
    # Total time: symt-guidance reports it too, and only p1 is solved by all three.
    assert symt["total_time_tasks"] == 1
    times = (symt["total_time_sum"], ff["total_time_sum"], guidance["total_time_sum"])
    assert times == (2.0, 1.0, 3.0)
    # Extrapolation: symt solved nothing, so nothing is commonly solved there.
    assert row_of(rows, "ff", "extrapolation")["expansions_tasks"] == 0
    assert row_of(rows, "ff", "extrapolation")["expansions_gmean"] is None


def test_algorithms_argument_selects_and_orders(records):
    rows = summary_rows(records, algorithms=["ff", "symt"])
    assert [r["algorithm"] for r in rows] == ["ff", "symt", "ff", "symt"]
    # Without symt-guidance, total time is commonly solved on p1 and p3.
    assert row_of(rows, "ff")["total_time_sum"] == pytest.approx(1.4)


def test_duplicate_runs_are_an_error(records):
    with pytest.raises(ValueError, match="two runs of ff"):
        summary_rows([*records, dict(records[1])])


def test_csv_round_trip(records, tmp_path):
    records[0]["search_time"] = 0.1 + 0.2  # a float whose repr needs all 17 digits
    path = tmp_path / "runs.csv"
    write_csv(records, path)
    assert path.read_text().splitlines()[0] == ",".join(RECORD_FIELDS)
    back = read_csv(path)
    assert back == records
    assert back[3]["plan_valid"] is None and back[0]["solved"] is True
    assert isinstance(back[0]["size"], int) and isinstance(back[0]["total_time"], float)


@pytest.mark.slow
def test_report_warns_about_invalid_plans_and_counts_them_unsolved(records, tmp_path):
    report = write_report(records, tmp_path, "Gripper test", command="symt-experiment --x",
                          notes="Hand-built records.", limits="20 s, 4 GiB per task")
    text = report.read_text()
    assert text.startswith("# WARNING: 1 INVALID PLAN")
    warning = text[: text.index("# Gripper test")]
    assert "| lama-first | paper | gripper | validation | p2 |" in warning
    assert "symt-experiment --x" in text and "Hand-built records." in text

    coverage = text[text.index("## Coverage"):text.index("## Plan quality")]
    validation = table_row(coverage, "paper", "gripper", "validation")
    assert validation["symt"] == "2/3" and validation["ff"] == "3/3"
    assert validation["lama-first"] == "0/3"
    # lama-first has no run at all in the extrapolation group: not run there, not 0 solved.
    extrapolation = table_row(coverage, "paper", "gripper", "extrapolation")
    assert extrapolation["lama-first"] == "–" and extrapolation["ff"] == "1/1"
    total = table_row(coverage, "**total**")
    assert (total["symt"], total["ff"], total["symt-guidance"]) == ("2/4", "4/4", "2/4")

    quality = text[text.index("## Plan quality"):text.index("## Expansions")]
    assert table_row(quality, "paper", "gripper", "validation")["symt"] == "0.67 / 1.00"
    assert table_row(quality, "paper", "gripper", "extrapolation")["lama-first"] == "–"
    outcomes = text[text.index("## Outcomes"):]
    assert table_row(outcomes, "lama-first")["invalid-plan"] == "1"
    assert table_row(outcomes, "lama-first")["no run"] == "3"
    assert "Traceback: boom" in text  # the errors section

    assert "20 s, 4 GiB per task" in text
    assert (tmp_path / "runs.csv").exists() and (tmp_path / "summary.csv").exists()
    summary = read_summary_csv(tmp_path / "summary.csv")
    assert summary == summary_rows(records)


@pytest.mark.slow
def test_report_without_invalid_plans_has_no_warning(records, tmp_path):
    valid_only = [r for r in records if r["outcome"] != "invalid-plan"]
    text = write_report(valid_only, tmp_path, "Clean").read_text()
    assert text.startswith("# Clean") and "WARNING" not in text


@pytest.mark.slow
def test_plots_are_png_files(records, tmp_path):
    paths = write_plots(records, tmp_path)
    assert [p.name for p in paths] == ["coverage_vs_size.png", "expansions_scatter.png",
                                       "plan_length.png"]
    for path in paths:
        assert path.read_bytes()[:8] == PNG_MAGIC


@pytest.mark.slow
def test_plots_without_data_are_skipped(records, tmp_path):
    write_plots(records, tmp_path)
    without_ff = [r for r in records if r["algorithm"] != "ff"]
    paths = write_plots(without_ff, tmp_path)
    assert "expansions_scatter.png" not in [p.name for p in paths]
    assert not (tmp_path / "expansions_scatter.png").exists()  # the stale one is gone
    assert write_plots([r for r in records if not r["solved"]], tmp_path / "none") == [
        tmp_path / "none" / "coverage_vs_size.png"
    ]


def test_published_constants_match_their_sources():
    # Totals of ../shared/benchmarks/ipc2023-learning/README.md's "total /900" row.
    totals = {planner: sum(sum(IPC2023_COVERAGE[d][planner]) for d in IPC2023_COVERAGE)
              for planner in IPC2023_PLANNERS}
    assert totals == {"FD-SMAC baseline": 548, "GOFAI": 560, "HUZAR": 572, "Muninn": 228}
    assert len(PAPER_COVERAGE) == 12
    assert PAPER_COVERAGE[("gripper", "extrapolation")]["SymT-ED regrounding"] == 0.79


def test_paper_comparison_table(records):
    table = paper_comparison_table(records, {"SymT-E + GBFS": "symt", "FF": "ff"})
    row = table_row(table, "gripper", "validation")
    assert row["tasks"] == "3"
    assert row["ours: SymT-E + GBFS"] == "0.67" and row["ours: FF"] == "1.00"
    assert row["paper: SymT-E greedy"] == "1.00"
    assert row["paper: SymT-ED greedy"] == "0.17"
    assert table_row(table, "gripper", "extrapolation")["paper: SymT-ED regrounding"] == "0.79"
    assert paper_comparison_table([]) == ""


@pytest.mark.slow
def test_ipc_comparison_table_and_report_headings(records, tmp_path):
    ipc = [
        run("symt", "p01", suite="ipc2023", domain="blocksworld", group="medium", length=4,
            valid=True, expansions=50),
        run("ff", "p01", suite="ipc2023", domain="blocksworld", group="medium", length=4,
            valid=True, expansions=80),
        run("ff", "p02", suite="ipc2023", domain="blocksworld", group="medium", length=6,
            valid=True, expansions=90),
        run("symt", "p01", suite="ipc2023", domain="blocksworld", group="hard"),
    ]
    row = table_row(ipc_comparison_table(ipc), "blocksworld", "medium")
    assert (row["tasks"], row["ours: symt"], row["ours: ff"]) == ("2", "1/2", "2/2")
    # ff did not run at the hard level: "–", not "0/1".
    hard = table_row(ipc_comparison_table(ipc), "blocksworld", "hard")
    assert (hard["ours: symt"], hard["ours: ff"]) == ("0/1", "–")
    assert row["IPC: FD-SMAC baseline"] == "29/30" and row["IPC: HUZAR"] == "27/30"
    assert ipc_comparison_table(records) == ""

    text = write_report(records + ipc, tmp_path, "Both", limits="20 s, 4 GiB per task").read_text()
    assert "## Against the paper (limits differ: ours 20 s, 4 GiB per task" in text
    assert "## Against the IPC 2023 learning track (limits differ: ours 20 s, 4 GiB" in text
    assert "30 min, 8 GiB" in text
    # The same domain name in two suites stays two rows.
    coverage = text[text.index("## Coverage"):text.index("## Plan quality")]
    assert table_row(coverage, "ipc2023", "blocksworld", "medium")["ff"] == "2/2"
    # The total counts every task, also the hard one ff did not run, so that totals compare.
    assert table_row(coverage, "**total**")["ff"] == "6/7"
    assert table_row(coverage, "ipc2023", "blocksworld", "hard")["ff"] == "–"
    # Pooled geometric mean over the commonly solved tasks of all groups: p1, p3 and p01.
    expansions = text[text.index("## Expansions"):text.index("## Search time")]
    total = table_row(expansions, "**total**")
    assert total["common"] == "3"
    assert total["symt"] == f"{(100 * 10 * 50) ** (1 / 3):,.1f}" == "36.8"
    assert total["ff"] == f"{(400 * 1000 * 80) ** (1 / 3):,.1f}" == "317.5"


def test_plan_generation_table_puts_ours_beside_the_papers():
    """Gripper validation, two tasks (optimum 10 and 6): hand-computed coverage, QS and QS_S of
    two of the paper's columns, each cell "ours (paper)"; columns we did not run read "–"."""
    from symt.experiments.algorithms import PLAN_GENERATION
    from symt.experiments.report import plan_generation_table

    records = [
        run("symt-guidance", "p1", length=10, valid=True, best_known=10),
        run("symt-guidance", "p2", length=8, valid=True, best_known=6),
        run("symt-ed-regrounding", "p1", length=20, valid=True, best_known=10),
        run("symt-ed-regrounding", "p2", outcome="search-failed", best_known=6),
        run("symt-ed-first-regrounding", "p1", length=10, valid=True, best_known=10),
        run("symt-ed-first-regrounding", "p2", length=6, valid=True, best_known=6),
    ]
    rows = {metric: plan_generation_table(records, PLAN_GENERATION, metric, "base").splitlines()[2]
            for metric in ("coverage", "qs", "qs_s")}
    cells = {metric: [c.strip() for c in row.strip("|").split("|")] for metric, row in rows.items()}
    # domain, split, tasks, PlanGPT x3, SymT-E guidance, SymT-ED greedy, applicable, regrounding
    assert cells["coverage"][:3] == ["gripper", "validation", "2"]
    assert cells["coverage"][3] == "– (0.00)"  # PlanGPT greedy did not run; the paper's .00
    assert cells["coverage"][6] == "1.00 (1.00)" and cells["coverage"][9] == "0.50 (1.00)"
    assert cells["qs"][6] == f"{(1 + 6 / 8) / 2:.2f} (0.99)" and cells["qs"][9] == "0.25 (0.99)"
    assert cells["qs_s"][6] == f"{(1 + 6 / 8) / 2:.2f} (0.99)" and cells["qs_s"][9] == "0.50 (0.99)"
    # symt's eighth column, which the paper does not have: "(–)"
    assert cells["coverage"][10] == "1.00 (–)" and cells["qs"][10] == "1.00 (–)"
    assert plan_generation_table(records, ("ff",), "coverage", "base") == ""


def test_failure_table_counts_why_search_free_runs_stopped():
    from symt.experiments.report import failure_table

    records = [
        run("symt-ed-greedy", "p1", outcome="search-failed", detail="malformed: token 3 (o2) is not an action name"),
        run("symt-ed-greedy", "p2", outcome="search-failed", detail="token cap (500) reached"),
        run("symt-ed-regrounding", "p1", outcome="search-failed",
            detail="loop: the state after action 2 was visited before"),
        run("symt-ed-regrounding", "p2", length=5, valid=True),
    ]
    table = failure_table(records, ["symt-ed-greedy", "symt-ed-regrounding", "ff"])
    greedy = table_row_by_algorithm(table, "symt-ed-greedy")
    assert (greedy["failed"], greedy["token cap"], greedy["malformed"], greedy["loop"]) == ("2", "1", "1", "0")
    assert table_row_by_algorithm(table, "symt-ed-regrounding")["loop"] == "1"
    assert "| ff |" not in table
    assert failure_table(records[3:], ["symt-ed-regrounding"]) == ""


def table_row_by_algorithm(table: str, algorithm: str) -> dict[str, str]:
    lines = [line.strip().strip("|").split("|") for line in table.splitlines()]
    header = [cell.strip() for cell in lines[0]]
    for cells in lines[2:]:
        if cells[0].strip() == algorithm:
            return dict(zip(header, (cell.strip() for cell in cells)))
    raise KeyError(algorithm)


@pytest.mark.slow
def test_report_command_combines_experiments_run_in_parts(records, tmp_path):
    """`symt report a/runs.csv b/runs.csv`: one report over both parts; the same run in two
    parts is refused with a one-line error."""
    import subprocess
    import sys

    first, second = records[:6], records[6:]
    write_csv(first, tmp_path / "a.csv")
    write_csv(second, tmp_path / "b.csv")
    command = [sys.executable, "-m", "symt.cli", "report", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"),
               "--out", str(tmp_path / "both"), "--title", "Both parts", "--limits", "20 s"]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert len(read_csv(tmp_path / "both" / "runs.csv")) == len(records)
    assert (tmp_path / "both" / "report.md").read_text().startswith("# WARNING")  # lama-first's invalid plan
    write_csv(first, tmp_path / "c.csv")
    command[5] = str(tmp_path / "c.csv")  # a.csv and c.csv hold the same runs
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 2 and "two runs of" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
def test_report_command_supersede_lets_a_later_part_replace_runs(records, tmp_path):
    """`--supersede`: a part rerun on the same tasks (a newer model) replaces the earlier part's
    runs of those algorithms; every other run stays, and the number replaced is printed."""
    import subprocess
    import sys

    write_csv(records, tmp_path / "all.csv")
    rerun = [dict(r, expansions=7) for r in records[:3]]
    write_csv(rerun, tmp_path / "rerun.csv")
    command = [sys.executable, "-m", "symt.cli", "report", str(tmp_path / "all.csv"), str(tmp_path / "rerun.csv"),
               "--out", str(tmp_path / "both"), "--supersede"]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "3 run(s) superseded" in result.stderr
    combined = read_csv(tmp_path / "both" / "runs.csv")
    assert len(combined) == len(records)
    replaced = {(r["problem"], r["algorithm"]) for r in rerun}
    assert all((r["expansions"] == 7) == ((r["problem"], r["algorithm"]) in replaced) for r in combined)


@pytest.mark.slow
def test_report_command_compares_the_learned_heuristic_alone_pairwise(records, tmp_path):
    """Without a plain `symt` run the learned heuristic alone is `symt-batch` (the configuration
    experiments' name for it): `symt report` compares it pairwise, against --baselines when given;
    --learned picks another. Validation, tasks both solve: p1 and p3; expansions 100, 10 against
    400, 1000 (geometric means 31.6 and 632.5: ratio 0.05); total time 2.7 s against 1.4 s (1.93)."""
    for record in records:
        record["algorithm"] = {"symt": "symt-batch"}.get(record["algorithm"], record["algorithm"])
    write_csv(records, tmp_path / "runs.csv")
    assert main(["report", str(tmp_path / "runs.csv"), "--out", str(tmp_path / "r"), "--baselines", "ff"]) == 0
    text = (tmp_path / "r" / "report.md").read_text()
    text = text[text.index("## symt-batch against each baseline (pairwise)"):]
    assert table_row(text, "paper", "gripper", "validation")["vs ff"] == "2 · 0.05× exp · 1.93× time"
    assert main(["report", str(tmp_path / "runs.csv"), "--out", str(tmp_path / "r"), "--learned", "ff",
                 "--baselines", "symt-batch"]) == 0
    text = (tmp_path / "r" / "report.md").read_text()
    text = text[text.index("## ff against each baseline (pairwise)"):]
    assert table_row(text, "paper", "gripper", "validation")["vs symt-batch"] == "2 · 20.00× exp · 0.52× time"
    assert main(["report", str(tmp_path / "runs.csv"), "--out", str(tmp_path / "s"), "--learned", "symt"]) == 2
    assert not (tmp_path / "s").exists()


@pytest.mark.slow
@pytest.mark.parametrize("content, message", [
    (b"\x89PNG\r\n\x1a\n\x00\x00binary", "not a text CSV file (byte 0 is not UTF-8)"),
    (b"", "line 1: not a runs file"),
    (b"suite,domain,group,problem,size,algorithm,solved\n", "no runs in the file"),
    (b"suite,domain,group,problem,size,algorithm,solved\npaper,gripper,validation,p1,big,ff,True\n",
     "line 2: column 'size': not a whole number: 'big'"),
    (b"suite,domain,group,problem,size,algorithm,solved\npaper,gripper,validation,p1,4,ff,maybe\n",
     "line 2: column 'solved': not a boolean: 'maybe'"),
    (b"domain,problem,algorithm,solved\ngripper,p1,ff,True,extra\n", "line 2: more cells than columns"),
    (b"name,value\nx,1\n", "line 1: not a runs file (an experiment's report/runs.csv): no column 'domain'"),
])
def test_report_refuses_a_file_that_is_not_a_runs_csv(tmp_path, content, message):
    """`symt report` on anything but a runs file: one line naming the file (and line), exit 2,
    no report written."""
    import subprocess
    import sys

    bad = tmp_path / "runs.csv"
    bad.write_bytes(content)
    result = subprocess.run([sys.executable, "-m", "symt.cli", "report", str(bad), "--out", str(tmp_path / "r")],
                            capture_output=True, text=True)
    assert result.returncode == 2, result
    assert result.stderr.startswith(f"symt: error: {bad}") and message in result.stderr
    assert len(result.stderr.splitlines()) == 1 and not (tmp_path / "r").exists()


@pytest.mark.slow
def test_lab_properties_and_labs_absolute_report(records, tmp_path):
    """Records become Lab runs with Lab's attribute names: values of solved runs only, an invalid
    plan unsolved; Lab's own AbsoluteReport is written beside report.md."""
    from symt.experiments.lab_reports import lab_properties

    properties = lab_properties(records)
    assert len(properties) == len(records)
    symt_p1 = properties["symt-paper-gripper-validation-p1"]
    assert symt_p1["domain"] == "gripper:validation" and symt_p1["coverage"] == 1
    assert (symt_p1["expansions"], symt_p1["cost"], symt_p1["search_time"]) == (100, 8, 1.0)
    lama_p2 = properties["lama-first-paper-gripper-validation-p2"]  # the invalid plan
    assert lama_p2["coverage"] == 0 and lama_p2["cost"] is None and lama_p2["error"] == "invalid-plan"
    coverage = {}
    for props in properties.values():
        key = (props["algorithm"], props["domain"])
        coverage[key] = coverage.get(key, 0) + props["coverage"]
    assert coverage[("symt", "gripper:validation")] == 2 and coverage[("ff", "gripper:validation")] == 3
    assert coverage[("symt", "gripper:extrapolation")] == 0 and coverage[("ff", "gripper:extrapolation")] == 1

    report = write_report(records, tmp_path, "With Lab").read_text()
    html = (tmp_path / "lab_absolute.html").read_text()
    assert "lab_absolute.html" in report
    for marker in ("gripper:validation", "gripper:extrapolation", "symt-guidance", "lama-first",
                   "coverage", "expansions"):
        assert marker in html
