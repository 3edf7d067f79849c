"""Property-based robustness: generated and mutated PDDL and plans fed to the parser, the
grounder and the validator end in a result or in one :class:`SymtError` (the CLI's one-line
message), never in another exception. Derandomized, so every run tries the same cases."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symt.errors import SymtError
from symt.generators import domain_file, generate_task
from symt.pddl import ground, parse_domain, parse_problem
from symt.pddl.validate import read_plan, validate_plan

ROBUST = settings(max_examples=300, deadline=None, derandomize=True,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

DOMAINS = ("blocksworld", "gripper", "logistics", "visitall")
PROBLEMS = {name: generate_task(name, 3, 1, f"{name}-3") for name in DOMAINS}
DOMAIN_TEXTS = {name: domain_file(name).read_text() for name in DOMAINS}
# A valid Gripper plan (3 balls: pick two, move, drop two, move back, pick, move, drop), the
# starting point of the plan mutations.
GRIPPER_TASK = ("(define (problem g3) (:domain gripper) (:objects ra rb l r b0 b1 b2)"
                " (:init (room ra) (room rb) (gripper l) (gripper r) (free l) (free r) (at-robby ra)"
                " (ball b0) (ball b1) (ball b2) (at b0 ra) (at b1 ra) (at b2 ra))"
                " (:goal (and (at b0 rb) (at b1 rb) (at b2 rb))))")
GRIPPER_PLAN = ["(pick b0 ra l)", "(pick b1 ra r)", "(move ra rb)", "(drop b0 rb l)",
                "(drop b1 rb r)", "(move rb ra)", "(pick b2 ra l)", "(move ra rb)", "(drop b2 rb l)"]

WORDS = ["(", ")", "(", ")", "define", "domain", "problem", ":domain", ":requirements", ":strips",
         ":typing", ":types", ":predicates", ":action", ":parameters", ":precondition", ":effect",
         ":objects", ":init", ":goal", "and", "not", "or", "forall", "exists", "when", "either",
         "=", "-", "object", "?x", "?y", "p", "q", "a", "b", ";", "\n", "0", "-1", "(increase",
         ":constants", ":derived", ":functions", "total-cost"]


def mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply (position, kind, word) edits: delete a character, insert a word or a character,
    or swap a character for a parenthesis."""
    for position, kind, word in edits:
        at = position % (len(text) + 1)
        if kind == 0:
            text = text[:at] + text[at + 1 :]
        elif kind == 1:
            text = text[:at] + f" {word} " + text[at:]
        elif kind == 2:
            text = text[:at] + word[:1] + text[at:]
        else:
            text = text[:at] + "()"[position % 2] + text[at + 1 :]
    return text


edits = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3), st.sampled_from(WORDS)),
                 min_size=1, max_size=4)


def parse_and_ground(domain_text: str, problem_text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        domain_path, problem_path = Path(folder) / "domain.pddl", Path(folder) / "problem.pddl"
        domain_path.write_text(domain_text)
        problem_path.write_text(problem_text)
        try:
            domain = parse_domain(domain_path)
            task = ground(domain, parse_problem(problem_path, domain))
        except SymtError as error:
            assert str(error).startswith(str(domain_path)) or str(error).startswith(str(problem_path)), error
            return
        assert task.num_fluents >= 0


@pytest.mark.slow
@ROBUST
@given(st.lists(st.sampled_from(WORDS), max_size=60), st.sampled_from(DOMAINS))
def test_generated_token_soup_is_parsed_or_refused(words: list[str], name: str) -> None:
    parse_and_ground(" ".join(words), PROBLEMS[name])
    parse_and_ground(DOMAIN_TEXTS[name], " ".join(words))


@pytest.mark.slow
@ROBUST
@given(st.sampled_from(DOMAINS), edits, st.booleans())
def test_mutated_pddl_is_parsed_or_refused(name: str, changes: list[tuple[int, int, str]],
                                           in_domain: bool) -> None:
    domain_text, problem_text = DOMAIN_TEXTS[name], PROBLEMS[name]
    if in_domain:
        domain_text = mutate(domain_text, changes)
    else:
        problem_text = mutate(problem_text, changes)
    parse_and_ground(domain_text, problem_text)


@pytest.mark.slow
@ROBUST
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3), st.sampled_from(WORDS + GRIPPER_PLAN)),
                max_size=4),
       st.lists(st.integers(0, 8), max_size=3))
def test_mutated_plans_are_judged_or_refused(changes: list[tuple[int, int, str]], dropped: list[int]) -> None:
    lines = [line for i, line in enumerate(GRIPPER_PLAN) if i not in dropped]
    text = mutate("\n".join(lines) + "\n", changes)
    with tempfile.TemporaryDirectory() as folder:
        domain_path, problem_path = domain_file("gripper"), Path(folder) / "g3.pddl"
        problem_path.write_text(GRIPPER_TASK)
        plan_path = Path(folder) / "plan"
        plan_path.write_text(text)
        domain = parse_domain(domain_path)
        problem = parse_problem(problem_path, domain)
        task = ground(domain, problem)
        try:
            steps = read_plan(plan_path)
            result = validate_plan(task, steps, domain, problem)
        except SymtError as error:
            assert str(error).startswith(str(plan_path)), error
            return
        # Untouched, the plan is valid (an independent truth: Gripper's optimal length 3n for n odd).
        if not changes and not dropped:
            assert result.valid and len(steps) == 9


# ------------------------------------------------------------------ damaged files (issue 36)

LOADERS = settings(max_examples=60, deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def damage(data: bytes, cut: int | None, flips: list[tuple[int, int]]) -> bytes:
    """``data`` cut to ``cut`` bytes (None: whole) with the given (position, bit) flips."""
    damaged = bytearray(data[: cut % (len(data) + 1)] if cut is not None else data)
    for position, bit in flips:
        if damaged:
            damaged[position % len(damaged)] ^= 1 << bit
    return bytes(damaged)


damages = (st.one_of(st.none(), st.integers(0, 10**7)),
           st.lists(st.tuples(st.integers(0, 10**7), st.integers(0, 7)), max_size=3))


@LOADERS
@given(*damages)
def test_a_damaged_manifest_is_read_or_refused(cut: int | None, flips: list[tuple[int, int]]) -> None:
    import json

    from symt.data import read_manifest

    entries = [{"domain": "gripper", "name": f"gripper-train-n{n}-0", "split": "train", "size": n,
                "file": f"train/gripper-train-n{n}-0.pddl", "optimal_plan_length": None} for n in (2, 3, 4)]
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "manifest.json").write_bytes(damage(json.dumps(entries).encode(), cut, flips))
        try:
            loaded = read_manifest(Path(folder))
        except SymtError as error:
            assert "manifest.json" in str(error)
            return
        assert all({"split", "file"} <= entry.keys() for entry in loaded)


@pytest.mark.slow
@LOADERS
@given(*damages)
def test_a_damaged_model_file_is_loaded_or_refused(cut: int | None, flips: list[tuple[int, int]]) -> None:
    from symt.export import load_exported
    from symt.models import resolve

    data = resolve("gripper").read_bytes()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.pt"
        path.write_bytes(damage(data, cut, flips))
        try:
            load_exported(path)
        except SymtError as error:
            assert str(error).startswith(str(path)), error


@LOADERS
@given(*damages)
def test_a_damaged_checkpoint_is_loaded_or_refused(cut: int | None, flips: list[tuple[int, int]]) -> None:
    import io

    import torch

    from symt.export import load_checkpoint_model
    from symt.model import SymTE
    from symt.model_config import ModelConfig

    model = SymTE(ModelConfig(num_predicates=3, max_arity=2, d_model=8, n_heads=2, n_layers=1, d_ff=8,
                              d_embed=4, k=4, readout_hidden=4, vocab_size=10))
    buffer = io.BytesIO()
    torch.save({"version": 1, "kind": "symt-e", "model": model.state_dict(), "model_config": model.config.to_dict(),
                "train_config": {}, "trainer": {}}, buffer)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "best.pt"
        path.write_bytes(damage(buffer.getvalue(), cut, flips))
        try:
            load_checkpoint_model(path)
        except SymtError as error:
            assert str(error).startswith(str(path)), error
