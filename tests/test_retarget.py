"""`symt retarget`: a heuristic model written for a domain that differs from its training domain
only in names. Independent truth: the same task written in either domain's names must get the
same values from the old and the new model file, in Python and through the Fast Downward plugin;
domains that differ in anything but names must be refused."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from symt.errors import SymtError
from symt.export import load_exported, retarget
from symt.generators import domain_file, generate_task
from symt.guidance import plan_with_exported_model
from symt.models import model_domain
from symt.pddl import ground, parse_domain, parse_problem
from symt.pddl.isomorphism import find_renaming
from symt.tokens import (
    Signature,
    collate,
    encode_task,
    rename,
)
from test_fast_downward import IPC_ROOT, random_model, read_trace

PAPER_TO_IPC_BLOCKS = {"ontable": "on-table", "handempty": "arm-empty", "pick-up": "pickup",
                       "put-down": "putdown", "blocks": "blocksworld"}
needs_ipc = pytest.mark.skipif(not IPC_ROOT.is_dir(), reason="../shared/benchmarks/ipc2023-learning is missing")


def rename_words(text: str, names: dict[str, str]) -> str:
    """PDDL text with whole names replaced (``on`` is not a prefix of ``on-table``)."""
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")
    return pattern.sub(lambda m: names[m.group(1)], text)


def state_values(model: Path, domain: Path, problem: Path, states: list[set[tuple[str, tuple[str, ...]]]]
                 ) -> list[float]:
    """The model's values (full forward pass) of states given by their true fluent atoms."""
    module, meta = load_exported(model)
    parsed = parse_domain(domain)
    task = ground(parsed, parse_problem(problem, parsed))
    encoded = encode_task(task, Signature.from_json(meta), parsed)
    values = []
    for atoms in states:
        rows = rename(encoded.state_rows(sorted(task.fluent_index[a] for a in atoms)),
                      encoded.assignment, meta["vocab_size"])
        with torch.inference_mode():
            values.append(float(module(*collate([rows], meta["vocab_size"]))[0]))
    return values


def random_walk(domain: Path, problem: Path, steps: int, seed: int = 0) -> list[set[tuple[str, tuple[str, ...]]]]:
    """States (as named atoms) along a random walk from the initial state."""
    parsed = parse_domain(domain)
    task = ground(parsed, parse_problem(problem, parsed))
    rng = random.Random(seed)
    state = frozenset(task.init)
    names = {index: atom for atom, index in task.fluent_index.items()}
    walk = []
    for _ in range(steps):
        walk.append({names[f] for f in state})
        successors = [task.apply(task.actions[a], state) for a in task.applicable_actions(state)]
        if not successors:
            break
        state = rng.choice(successors)
    return walk


@pytest.fixture
def ipc_named_blocks(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    """The paper's Blocksworld domain and a 6-block task, and both written in IPC 2023's names."""
    paper_domain = domain_file("blocksworld")
    paper_problem = tmp_path / "paper.pddl"
    paper_problem.write_text(generate_task("blocksworld", 6, 3, "b6"))
    ipc_domain = tmp_path / "ipc-domain.pddl"
    ipc_domain.write_text(rename_words(paper_domain.read_text(), PAPER_TO_IPC_BLOCKS))
    ipc_problem = tmp_path / "ipc.pddl"
    ipc_problem.write_text(rename_words(paper_problem.read_text(), PAPER_TO_IPC_BLOCKS))
    return paper_domain, paper_problem, ipc_domain, ipc_problem


@needs_ipc
def test_paper_and_ipc_blocksworld_differ_only_in_two_names() -> None:
    paper, ipc = parse_domain(domain_file("blocksworld")), parse_domain(IPC_ROOT / "blocksworld" / "domain.pddl")
    assert find_renaming(paper, ipc).changed() == {"ontable": "on-table", "handempty": "arm-empty"}
    assert find_renaming(ipc, paper).changed() == {"on-table": "ontable", "arm-empty": "handempty"}


@needs_ipc
@pytest.mark.parametrize("name", ["blocksworld", "childsnack", "ferry", "floortile", "miconic", "rovers",
                                  "satellite", "sokoban", "spanner", "transport"])
def test_every_ipc_domain_is_itself_with_no_renaming(name: str) -> None:
    domain = parse_domain(IPC_ROOT / name / "domain.pddl")
    assert find_renaming(domain, domain).changed() == {}


@pytest.mark.parametrize(("edit", "message"), [
    (("(not (handempty))", ""), "no renaming"),                    # pick-up no longer takes the hand
    (("(clear ?y)", "(clear ?x)"), "no renaming"),                 # stack's precondition on the wrong block
    (("(holding ?x))", "(holding ?x) (ready))"), "5 predicates and 0 types against 6"),
])
def test_domains_that_differ_in_more_than_names_are_refused(tmp_path: Path, edit: tuple[str, str],
                                                           message: str) -> None:
    text = domain_file("blocksworld").read_text()
    assert edit[0] in text
    changed = tmp_path / "changed.pddl"
    changed.write_text(text.replace(edit[0], edit[1], 1))
    with pytest.raises(SymtError, match=message) as error:
        find_renaming(parse_domain(domain_file("blocksworld")), parse_domain(changed))
    assert str(changed) in str(error.value)


def test_symmetric_choices_need_a_pin(tmp_path: Path) -> None:
    """Two predicates that play the same role can be swapped: ambiguous unless pinned."""
    text = """(define (domain d) (:predicates (a ?x) (b ?x))
      (:action f :parameters (?x) :precondition (a ?x) :effect (and (not (a ?x)) (b ?x)))
      (:action g :parameters (?x) :precondition (b ?x) :effect (and (not (b ?x)) (a ?x))))"""
    source, target = tmp_path / "s.pddl", tmp_path / "t.pddl"
    source.write_text(text)
    target.write_text(rename_words(text, {"a": "p", "b": "q"}))
    with pytest.raises(SymtError, match="match in 2 ways"):
        find_renaming(parse_domain(source), parse_domain(target))
    assert find_renaming(parse_domain(source), parse_domain(target), {"a": "q"}).predicates == {"a": "q", "b": "p"}


def test_retargeted_model_gives_the_same_values(tmp_path: Path, ipc_named_blocks: tuple[Path, ...]) -> None:
    paper_domain, paper_problem, ipc_domain, ipc_problem = ipc_named_blocks
    model = random_model(paper_domain, tmp_path / "paper.pt")
    meta, changed = retarget(model, ipc_domain, tmp_path / "ipc.pt")
    assert changed == {"ontable": "on-table", "handempty": "arm-empty"}
    assert meta["domain"] == "blocksworld"
    assert [p["name"] for p in meta["predicates"]] == ["on", "on-table", "clear", "arm-empty", "holding"]
    _, reloaded = load_exported(tmp_path / "ipc.pt")
    assert reloaded["retargeted"]["from_domain"] == "blocks"
    assert reloaded["retargeted"]["from_model"] == "paper"
    # The domain the file says it serves is the target, in the target's names.
    kept = random_model(paper_domain, tmp_path / "kept.pt", keep_domain=True)
    retarget(kept, ipc_domain, tmp_path / "kept-ipc.pt")
    served = model_domain(tmp_path / "kept-ipc.pt")
    assert served is not None and served.name == "blocksworld"
    assert sorted(served.predicates) == sorted(p["name"] for p in meta["predicates"])
    walk = random_walk(paper_domain, paper_problem, 40)
    renamed = [{(PAPER_TO_IPC_BLOCKS.get(p, p), args) for p, args in state} for state in walk]
    before = state_values(model, paper_domain, paper_problem, walk)
    after = state_values(tmp_path / "ipc.pt", ipc_domain, ipc_problem, renamed)
    assert len(set(before)) > 5
    assert after == pytest.approx(before, abs=1e-5)
    # The old file does not fit the new names: the values above are not a coincidence of names.
    with pytest.raises(SymtError):
        state_values(model, ipc_domain, ipc_problem, renamed)


@needs_ipc
def test_retargeted_context_model_with_renamed_types_plans_alike(tmp_path: Path) -> None:
    """A format-4 context model of typed IPC Ferry, retargeted to Ferry with a renamed type and
    predicate, makes the same greedy plan through the cached path (encode_context, forward_states)."""
    names = {"car": "vehicle", "at-ferry": "ferry-at"}
    ferry = IPC_ROOT / "ferry" / "domain.pddl"
    problem = IPC_ROOT / "ferry" / "training" / "easy" / "p10.pddl"
    renamed_domain, renamed_problem = tmp_path / "domain.pddl", tmp_path / "p10.pddl"
    renamed_domain.write_text(rename_words(ferry.read_text(), names))
    renamed_problem.write_text(rename_words(problem.read_text(), names))
    model = random_model(ferry, tmp_path / "ferry.pt", seed=3, context=True)
    with pytest.raises(SymtError, match="shipped paper domain"):
        retarget(model, renamed_domain, tmp_path / "renamed.pt")
    meta, changed = retarget(model, renamed_domain, tmp_path / "renamed.pt", source_domain=ferry)
    assert changed == {"at-ferry": "ferry-at", "type car": "type vehicle"}
    assert "type:vehicle" in [p["name"] for p in meta["predicates"]]
    plans = []
    for path, domain_path, problem_path in [(model, ferry, problem),
                                            (tmp_path / "renamed.pt", renamed_domain, renamed_problem)]:
        module, module_meta = load_exported(path)
        assert module.symt_context_cache == 1
        domain = parse_domain(domain_path)
        task = ground(domain, parse_problem(problem_path, domain))
        plans.append(plan_with_exported_model(module, module_meta, domain, task, max_steps=30))
    assert plans[0].actions == plans[1].actions
    assert plans[0].evaluations == plans[1].evaluations > 3
    walk = random_walk(ferry, problem, 30)
    renamed = [{(names.get(p, p), args) for p, args in state} for state in walk]
    before = state_values(model, ferry, problem, walk)
    assert len(set(before)) > 5
    assert state_values(tmp_path / "renamed.pt", renamed_domain, renamed_problem, renamed) == pytest.approx(before, abs=1e-5)


@pytest.mark.slow
def test_cli_writes_a_model_and_refuses_another_domain_in_one_line(tmp_path: Path,
                                                                  ipc_named_blocks: tuple[Path, ...]) -> None:
    _, _, ipc_domain, _ = ipc_named_blocks
    symt = [str(Path(sys.executable).parent / "symt")]
    ok = subprocess.run([*symt, "retarget", "blocksworld", str(ipc_domain), str(tmp_path / "bw.pt")],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "ontable -> on-table, handempty -> arm-empty" in ok.stdout
    refused = subprocess.run([*symt, "retarget", "blocksworld", str(domain_file("gripper")), str(tmp_path / "g.pt")],
                             capture_output=True, text=True)
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "not the same domain" in refused.stderr
    assert not (tmp_path / "g.pt").exists()
    bad_pin = subprocess.run([*symt, "retarget", "blocksworld", str(ipc_domain), str(tmp_path / "x.pt"),
                              "--map", "nothing=on"], capture_output=True, text=True)
    assert bad_pin.returncode == 2 and "has no predicate or type 'nothing'" in bad_pin.stderr


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_plugin_runs_a_retargeted_model_with_the_same_values(tmp_path: Path,
                                                              ipc_named_blocks: tuple[Path, ...]) -> None:
    """Fast Downward's symt() on the IPC-named task computes the source model's values of the same
    states written in the paper's names, and the plan is valid."""
    from symt.val import run_val

    paper_domain, paper_problem, ipc_domain, ipc_problem = ipc_named_blocks
    # keep_domain: as every `symt train` export, the file says its training domain, which the
    # retargeted file must replace (a file naming the old domain was refused by the plugin).
    model = random_model(paper_domain, tmp_path / "paper.pt", seed=5, keep_domain=True)
    retarget(model, ipc_domain, tmp_path / "ipc.pt")
    trace = tmp_path / "trace.tsv"
    result = subprocess.run(
        [str(Path(sys.executable).parent / "fast-downward"), str(ipc_domain), str(ipc_problem), "--search",
         f"eager_greedy([symt(model={tmp_path / 'ipc.pt'}, scale=100)], max_time=20)"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env=dict(os.environ, SYMT_TRACE=str(trace)))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    paper_names = {v: k for k, v in PAPER_TO_IPC_BLOCKS.items()}
    traced = []
    for raw, atoms in read_trace(trace):
        state = set()
        for atom in atoms:
            name, args = atom.rstrip(")").split("(")
            state.add((paper_names.get(name, name), tuple(a.strip() for a in args.split(",") if a.strip())))
        traced.append((raw, state))
    sample = random.Random(0).sample(traced, min(40, len(traced)))
    expected = state_values(model, paper_domain, paper_problem, [s for _, s in sample])
    assert max(abs(raw - value) for (raw, _), value in zip(sample, expected, strict=True)) <= 1e-4
    assert run_val(ipc_domain, ipc_problem, tmp_path / "sas_plan").valid


def test_a_renamed_paper_domain_gets_its_model_without_retargeting(tmp_path: Path) -> None:
    """symt() maps the task into the model's names itself (symt.pddl.canonical); retargeting is
    only needed for a model file that carries the other names."""
    from symt.models import select_heuristic

    renamed = tmp_path / "domain.pddl"
    renamed.write_text(rename_words(domain_file("blocksworld").read_text(), {"ontable": "on-tbl"}))
    path, reason = select_heuristic(renamed)
    assert path.stem == "blocksworld"
    assert "its domain is this one (on-tbl -> ontable)" in reason


def test_a_plan_generator_is_refused_by_name(tmp_path: Path, ipc_named_blocks: tuple[Path, ...]) -> None:
    from symt.models import resolve

    with pytest.raises(SymtError, match="not an exported SymT-E heuristic: a plan generator"):
        retarget(resolve("blocksworld-ed"), ipc_named_blocks[2], tmp_path / "x.pt")
