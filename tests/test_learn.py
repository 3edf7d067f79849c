"""``symt learn``: a domain and a handful of problems to a model, the WL baseline and a verdict.

Independent truths: the problems' sizes (objects) decide what is held out; the verdict's runs
are Fast Downward's own, their plans checked by VAL; the verdict's rules are checked on runs
made up here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from symt.errors import SymtError
from symt.generators import domain_file, generate_task
from symt.learn import Run, split_problems, verdict
from symt.pddl import ground, parse_domain, parse_problem
from symt.val import run_val

SYMT = Path(sys.executable).parent / "symt"


def gripper_problems(folder: Path, sizes: list[int]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, size in enumerate(sizes):
        path = folder / f"p{i + 1:02d}.pddl"
        path.write_text(generate_task("gripper", size, 7 + i, f"p{i + 1}"))
        paths.append(path)
    return paths


def test_the_largest_problems_are_held_out(tmp_path: Path) -> None:
    paths = gripper_problems(tmp_path, [5, 2, 7, 3, 4])  # file order is not size order
    train, test = split_problems(domain_file("gripper"), paths, None)
    assert [p.name for p in test] == ["p03.pddl"]  # a quarter of 5, at least one: the 7-ball task
    assert [p.name for p in train] == ["p02.pddl", "p04.pddl", "p05.pddl", "p01.pddl"]
    assert [p.name for p in split_problems(domain_file("gripper"), paths, 2)[1]] == ["p01.pddl", "p03.pddl"]
    assert split_problems(domain_file("gripper"), paths[:1], None) == (paths[:1], [])
    with pytest.raises(SymtError, match="--held-out 5 leaves none of the 5 problems to learn from; use --held-out 4"):
        split_problems(domain_file("gripper"), paths, 5)


def made_up(solved: dict[str, list[bool]], expansions: dict[str, int] | None = None) -> list[Run]:
    expansions = expansions or {}
    return [Run(config, f"p{i}", ok, expansions.get(config, 100) if ok else None, None, 1.0, [])
            for config, outcomes in solved.items() for i, ok in enumerate(outcomes)]


def test_the_verdict_names_the_heuristic_to_use() -> None:
    model, wl = Path("m.pt"), Path("w.json")
    worse = verdict(made_up({"symt": [True, False], "wl": [True, True], "ff": [True, True],
                             "symt-first": [True, False], "lama-first": [True, True]}), 2, 0.9, model, wl, 60)
    assert worse[0] == ("verdict on 2 held-out problems (60 s each): plain GBFS solves 1 with the model, 2 with "
                        "WL, 2 with h^FF; symt-first 1, lama-first 2")
    assert worse[1] == "verdict: the model guides worse than WL: use eager_greedy([wl(model=w.json)]), or lama-first"
    assert len(worse) == 2
    better = verdict(made_up({"symt": [True, True], "wl": [True, True], "ff": [True, True], "symt-first": [True, True],
                              "lama-first": [True, True]}, {"symt": 50, "wl": 100}), 2, 0.9, model, wl, 60)
    assert better[1] == ("verdict: the model guides at least as well as WL (0.50x its expansions): use "
                         "eager_greedy([symt(model=m.pt)]) or --alias symt-first --symt-model m.pt")
    alone = verdict(made_up({"symt": [True, True], "wl": [True, False], "ff": [True, True], "symt-first": [False, True],
                             "lama-first": [True, True]}), 2, 0.9, model, wl, 60)
    assert alone[1] == ("verdict: the model guides at least as well as WL (1.00x its expansions): use "
                        "eager_greedy([symt(model=m.pt)])")
    with_ff = verdict(made_up({"symt": [False, False], "wl": [True, True], "ff": [True, True],
                               "symt-first": [True, True], "lama-first": [True, True]}), 2, 0.9, model, wl, 60)
    assert "with h^FF it solves as much as lama-first" in with_ff[1]
    chance = verdict(made_up({"symt": [False], "wl": [True], "ff": [True], "symt-first": [True],
                              "lama-first": [True]}), 1, 0.52, model, wl, 60)
    assert chance[-1].startswith("warning: the model ranks successors no better than chance (validation ranking "
                                 "accuracy 0.52)")


@pytest.mark.train
@pytest.mark.usefixtures("fd_built")
def test_symt_learn_end_to_end(tmp_path: Path) -> None:
    """Four small Gripper problems: the largest is held out and never enters the dataset; the
    model, WL and the verdict's five runs on it are there, and the plans found are valid."""
    paths = gripper_problems(tmp_path / "problems", [1, 2, 3, 4])
    out = tmp_path / "learned"
    result = subprocess.run([str(SYMT), "learn", str(domain_file("gripper")), str(tmp_path / "problems"),
                             "--out", str(out), "--minutes", "0.05", "--test-time", "20", "--held-out", "1",
                             "--plan-time", "0", "--threads", "1", "--quiet"],
                            capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    lines = result.stdout.strip().splitlines()
    assert lines[-2].startswith("verdict on 1 held-out problem (20 s each): plain GBFS solves")
    assert lines[-1].startswith("verdict: ")
    assert (out / "model.pt").is_file() and (out / "wl.json").is_file()
    report = json.loads((out / "verdict.json").read_text())
    assert report["test"] == ["p04.pddl"] and "p04.pddl" not in report["train"]
    assert report["validation"] == ["p03.pddl"]  # no plan labels (--plan-time 0): the largest expanded one
    assert set(report["seconds"]) == {"dataset", "training", "wl", "verdict"}
    assert not list((out / "data").rglob("p04.pddl"))
    assert sorted(r["config"] for r in report["runs"]) == ["ff", "lama-first", "symt", "symt-first", "wl"]
    # h^FF and lama-first solve a 4-ball Gripper task at once; their plans are valid.
    assert all(r["solved"] for r in report["runs"] if r["config"] in ("ff", "lama-first"))
    rerun = subprocess.run([*report["runs"][0]["command"]], capture_output=True, text=True, timeout=300,
                           cwd=tmp_path)
    if report["runs"][0]["solved"]:
        assert run_val(domain_file("gripper"), paths[3], tmp_path / "sas_plan").valid, rerun.stdout[-2000:]
    again = subprocess.run([str(SYMT), "learn", str(domain_file("gripper")), *map(str, paths), "--out", str(out)],
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "is not an empty folder" in again.stderr


def test_goal_subsets_add_tasks_of_the_same_state_space(tmp_path: Path) -> None:
    """add_goal_subsets: each expanded training problem gets distinct variants whose goal is a
    proper subset of its own (checked by parsing them), with the same objects and initial state,
    so the expander finds the same number of states; validation problems get none."""
    from symt.experiments.ipc import add_goal_subsets, write_problem_dataset
    from symt.statespace import expand

    paths = gripper_problems(tmp_path / "problems", [2, 3, 3, 4])
    manifest = write_problem_dataset(domain_file("gripper"), paths, tmp_path / "data", "gripper", plan_time=0,
                                     progress=False)
    before = json.loads(manifest.read_text())
    # Training: 2, 3 and 3 balls (the largest 3-ball one validates); 2 goal atoms leave 2 proper subsets.
    assert add_goal_subsets(tmp_path / "data", 3, seed=1) == 2 + 3 + 3
    after = json.loads(manifest.read_text())
    parsed = parse_domain(domain_file("gripper"))
    originals = {e["name"]: e for e in before}
    for entry in after[len(before):]:
        source = originals[entry["info"]["goal_subset_of"]]
        assert source["split"] == "train" and entry["split"] == "train"
        mine, theirs = (parse_problem(tmp_path / "data" / e["file"], parsed) for e in (entry, source))
        goal = {(lit.predicate, lit.terms) for lit in mine.goal}
        assert goal < {(lit.predicate, lit.terms) for lit in theirs.goal} and goal
        assert mine.objects == theirs.objects and mine.init == theirs.init
        assert expand(ground(parsed, mine)).num_states == source["info"]["states"]
    assert len({e["sha256"] for e in after[len(before):]}) == len(after) - len(before)  # distinct subsets


@pytest.mark.train
@pytest.mark.usefixtures("fd_built")
def test_validation_on_optimal_plans_lets_every_expandable_problem_train(tmp_path: Path) -> None:
    """``validate_on_plans`` (what ``symt learn`` asks for): Gripper with 1, 2, 3, 5 and 6 balls
    and room for 300 states expands the first three (8, 28 and 88 states) and labels the 5- and
    6-ball tasks by A* plans; the largest of those validates (both, with ``plan_validation_share``
    1, as ``symt learn`` asks), every expandable one trains. The
    validation states are the plan's, with exact h*: an optimal Gripper plan for n balls (n even)
    has 3n - 1 steps, so the 6-ball plan's states are 17 down to 0 steps from the goal."""
    from symt.data import load_dataset
    from symt.experiments.ipc import write_problem_dataset
    from symt.sampling import fixed_validation_batches

    paths = gripper_problems(tmp_path / "problems", [1, 2, 3, 5, 6])
    for validate_on_plans, share, validation, train in ((True, 0.25, ["p05"], ["p01", "p02", "p03", "p04"]),
                                                         (True, 1.0, ["p04", "p05"], ["p01", "p02", "p03"]),
                                                         (False, 0.25, ["p03"], ["p01", "p02", "p04", "p05"])):
        out = tmp_path / f"data-{validate_on_plans}-{share}"
        entries = json.loads(write_problem_dataset(domain_file("gripper"), paths, out, "gripper", max_states=300,
                                                   progress=False, plan_time=60, validate_on_plans=validate_on_plans,
                                                   plan_validation_share=share).read_text())
        assert sorted(e["name"] for e in entries if e["split"] == "validation") == validation
        assert sorted(e["name"] for e in entries if e["split"] == "train") == train
        labels = json.loads((out / "labels.json").read_text())
        assert labels["p05.pddl"]["labels"] == "optimal-plan"
        assert labels["p05.pddl"]["split"] == ("validation" if validate_on_plans else "train")
    dataset = load_dataset(tmp_path / "data-True-0.25", progress=False)
    (task,) = dataset.split("validation")
    assert task.plan is not None and task.plan.exact and task.plan.length == 3 * 6 - 1
    batches = fixed_validation_batches(dataset.split("validation"), 123, seed=0, samples=128, batch_size=64)
    sampled = [float(v) for b in batches for v in b.target[: b.num_sampled]]
    assert len(sampled) == 128 and set(sampled) <= set(range(18)) and len(set(sampled)) > 10
    assert all(b.sibling_pairs is not None and len(b.sibling_pairs) > 0 for b in batches)
