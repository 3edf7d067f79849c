"""symt() as planners use it: the named configurations, libtorch loaded only by symt(), memory
limits, tasks the translator proves unsolvable, and bf16 inference."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from symt.export import cpu_has_bf16, load_exported, precision_context, resolve_precision
from symt.fd_configs import ALIASES, expand_alias
from symt.generators import domain_file, generate_task
from symt.models import resolve
from symt.pddl import ground, parse_domain, parse_problem
from symt.statespace import expand
from symt.tokens import Signature, collate, encode_task, rename
from symt.val import run_val

FAST_DOWNWARD = Path(sys.executable).parent / "fast-downward"
GRIPPER_DOMAIN = domain_file("gripper")


def fast_downward(cwd: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(FAST_DOWNWARD), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False)


def write_task(folder: Path, domain: str, size: int, seed: int = 3) -> Path:
    problem = folder / f"{domain}-{size}.pddl"
    problem.write_text(generate_task(domain, size, seed, f"{domain}-{size}"))
    return problem


# ------------------------------------------------------------------------------------ the aliases

def test_alias_becomes_search_options() -> None:
    args = expand_alias(["--alias", "symt-first", "--overall-time-limit", "60", "d.pddl", "p.pddl"])
    assert args == ["--overall-time-limit", "60", "d.pddl", "p.pddl", "--search-options",
                    "--evaluator", "hff=ff()", "--search", ALIASES["symt-first"].search]
    assert expand_alias(["--alias", "lama-first", "d", "p"]) == ["--alias", "lama-first", "d", "p"]
    assert expand_alias(["--alias=symt-gbfs", "d", "p"])[-1] == "batch_eager_greedy([symt()])"


def test_alias_with_search_is_refused(tmp_path: Path) -> None:
    result = fast_downward(tmp_path, "--alias", "symt-first", str(GRIPPER_DOMAIN), "p.pddl",
                           "--search", "eager_greedy([ff()])")
    assert result.returncode == 36
    assert result.stderr.strip().startswith("fast-downward: error: --alias symt-first and --search")
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
@pytest.mark.parametrize("alias", list(ALIASES))
def test_each_alias_solves_gripper_with_a_valid_plan(tmp_path: Path, alias: str) -> None:
    problem = write_task(tmp_path, "gripper", 12)
    result = fast_downward(tmp_path, "--alias", alias, str(GRIPPER_DOMAIN), str(problem))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert "symt: model" in result.stdout and "gripper.pt loaded" in result.stdout
    verdict = run_val(GRIPPER_DOMAIN, problem, tmp_path / "sas_plan")
    assert verdict.valid, verdict.output


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_an_alias_takes_ones_own_model(tmp_path: Path) -> None:
    """`--symt-model` gives every symt() without a model that model, so an alias runs with one's
    own (here a copy of the Gripper model under another name); without a symt() it is refused."""
    problem = write_task(tmp_path, "gripper", 6)
    mine = tmp_path / "my-model.pt"
    mine.write_bytes(resolve("gripper").read_bytes())
    result = fast_downward(tmp_path, "--alias", "symt-first", "--symt-model", str(mine), str(GRIPPER_DOMAIN),
                           str(problem))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert "symt: model my-model.pt (--symt-model)" in result.stdout
    assert run_val(GRIPPER_DOMAIN, problem, tmp_path / "sas_plan").valid
    refused = fast_downward(tmp_path, f"--symt-model={mine}", str(GRIPPER_DOMAIN), str(problem),
                            "--search", "astar(blind())")
    assert refused.returncode == 36 and len(refused.stderr.strip().splitlines()) == 1
    assert "the search has no symt()" in refused.stderr
    missing = fast_downward(tmp_path, "--alias", "symt-first", "--symt-model", str(tmp_path / "none.pt"),
                            str(GRIPPER_DOMAIN), str(problem))
    assert missing.returncode == 36 and "none.pt' is neither a file nor a shipped model" in missing.stderr


@pytest.mark.usefixtures("fd_built")
def test_show_aliases_lists_symt_aliases(tmp_path: Path) -> None:
    result = fast_downward(tmp_path, "--show-aliases")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "lama-first" in lines
    for alias in ALIASES:
        assert any(line.startswith(alias + " ") for line in lines)


# ------------------------------------------------------------------ libtorch only where symt() runs

@pytest.mark.usefixtures("fd_built")
@pytest.mark.parametrize("config", [["--search", "eager_greedy([ff()])"], ["--alias", "lama-first"]],
                         ids=["ff", "lama-first"])
def test_stock_configurations_run_under_300_mib(tmp_path: Path, config: list[str]) -> None:
    problem = write_task(tmp_path, "gripper", 8)
    files = [str(GRIPPER_DOMAIN), str(problem)]
    args = [*config, *files] if config[0] == "--alias" else [*files, *config]
    result = fast_downward(tmp_path, "--overall-memory-limit", "300M", *args)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert "libtorch" not in result.stdout + result.stderr
    assert run_val(GRIPPER_DOMAIN, problem, tmp_path / "sas_plan").valid


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_symt_under_a_too_low_limit_names_the_minimum(tmp_path: Path) -> None:
    problem = write_task(tmp_path, "gripper", 4)
    result = fast_downward(tmp_path, "--search-memory-limit", "200M", str(GRIPPER_DOMAIN),
                           str(problem), "--search", "eager_greedy([symt(model=gripper)])")
    assert result.returncode == 22, result.stdout[-3000:] + result.stderr  # SEARCH_OUT_OF_MEMORY
    errors = [line for line in result.stderr.splitlines() if line.startswith("symt: error:")]
    assert len(errors) == 1 and "MiB of address space" in errors[0] and "200 MiB" in errors[0]


# ---------------------------------------------------------------------------------- unsolvable

def unsolvable_gripper(folder: Path) -> Path:
    """Gripper whose goal room is no room: the translator proves it unsolvable (no relaxed plan)."""
    problem = folder / "gripper-unsolvable.pddl"
    problem.write_text(
        "(define (problem gripper-unsolvable) (:domain gripper)\n"
        "  (:objects rooma roomb roomc left right ball1 ball2)\n"
        "  (:init (room rooma) (room roomb) (gripper left) (gripper right) (free left) (free right)\n"
        "         (at-robby rooma) (ball ball1) (ball ball2) (at ball1 rooma) (at ball2 rooma))\n"
        "  (:goal (and (at ball1 roomc) (at ball2 roomb))))\n")
    return problem


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
@pytest.mark.parametrize("search", ["eager_greedy([symt()])", "eager_greedy([ff()])",
                                    "batch_eager_greedy([symt(model=gripper)])"])
def test_unsolvable_task_is_no_solution(tmp_path: Path, search: str) -> None:
    problem = unsolvable_gripper(tmp_path)
    result = fast_downward(tmp_path, str(GRIPPER_DOMAIN), str(problem), "--search", search)
    assert result.returncode == 12, result.stdout[-3000:] + result.stderr  # SEARCH_UNSOLVED_INCOMPLETE
    assert "unknown to the model" not in result.stdout + result.stderr
    assert not (tmp_path / "sas_plan").exists()


# ---------------------------------------------------------------------------------------- bf16

def test_cpu_bf16_detection(tmp_path: Path) -> None:
    with_bf16 = tmp_path / "bf16"
    with_bf16.write_text("processor\t: 0\nflags\t\t: fpu sse avx2 avx512f avx512_bf16\n")
    without = tmp_path / "plain"
    without.write_text("processor\t: 0\nflags\t\t: fpu sse avx2\n")
    assert cpu_has_bf16(with_bf16) and not cpu_has_bf16(without)
    assert resolve_precision("auto") == ("bf16" if cpu_has_bf16() else "fp32")
    assert resolve_precision("fp32") == "fp32" and resolve_precision("bf16") == "bf16"


BF16_MAX_RELATIVE = 0.2
BF16_MEAN_RELATIVE = 0.03
"""Tolerances for |bf16 - fp32| / max(1, |fp32|) over sampled states (largest, mean). Under
autocast the linear layers' outputs, and so the residual stream, are bf16 (8 bits of mantissa),
and the error compounds over the shared layer's applications: measured here, at most 2.4 %
(Gripper), 7 % (Blocksworld) and 14 % (Logistics) for single states, far less on average
(benchmarks/results/speed/fd_symt.md has the share of integer values that change)."""


@pytest.mark.parametrize("name", ["gripper", "blocksworld", "logistics"])
def test_bf16_values_stay_close_to_fp32(tmp_path: Path, name: str) -> None:
    module, meta = load_exported(resolve(name))
    size = {"gripper": 6, "blocksworld": 6, "logistics": 3}[name]
    problem = write_task(tmp_path, name, size)
    domain = parse_domain(domain_file(name))
    task = ground(domain, parse_problem(problem, domain))
    space = expand(task, max_states=200_000)
    sampler = space.sampler(seed=0)
    encoded = encode_task(task, Signature.from_json(meta), domain)
    assignment = encoded.assignment
    rows = [rename(encoded.state_rows(space.state_facts(sampler.sample_state())), assignment,
                   int(meta["vocab_size"])) for _ in range(64)]
    pred, args, mask = collate(rows, int(meta["vocab_size"]))
    with torch.inference_mode():
        fp32 = module(pred, args, mask).float().numpy()
        with precision_context("bf16"):
            bf16 = module(pred, args, mask).float().numpy()
    relative = np.abs(bf16 - fp32) / np.maximum(1.0, np.abs(fp32))
    print(f"{name}: max {relative.max():.4f}, mean {relative.mean():.4f}")
    assert relative.max() <= BF16_MAX_RELATIVE, (relative.max(), fp32[:8], bf16[:8])
    assert relative.mean() <= BF16_MEAN_RELATIVE, (relative.mean(), fp32[:8], bf16[:8])


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_plugin_bf16_equals_python_bf16(tmp_path: Path) -> None:
    """symt(precision=bf16) in Fast Downward gives the values of torch.autocast in Python (both
    run the same graph under the same autocast rules), and precision=auto resolves as in Python."""
    import os

    from test_fast_downward import python_values, read_trace

    problem = write_task(tmp_path, "gripper", 4)
    trace = tmp_path / "trace.tsv"
    env = dict(os.environ, SYMT_TRACE=str(trace))
    result = subprocess.run(
        [str(FAST_DOWNWARD), str(GRIPPER_DOMAIN), str(problem), "--search",
         "eager_greedy([symt(model=gripper, precision=bf16)])"],
        cwd=tmp_path, capture_output=True, text=True, env=env, timeout=180, check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert "precision bf16" in result.stdout
    traced = read_trace(trace)[:30]
    with precision_context("bf16"):
        expected = python_values(resolve("gripper"), "gripper", problem, traced)
    assert max(abs(raw - value) for (raw, _), value in zip(traced, expected)) <= 1e-3
    auto = fast_downward(tmp_path, str(GRIPPER_DOMAIN), str(problem), "--search",
                         "eager_greedy([symt(model=gripper, precision=auto)])")
    assert f"precision {resolve_precision('auto')}" in auto.stdout


def test_driver_options_are_found_only_among_the_drivers_own_arguments() -> None:
    """One scanner serves --alias and --symt-model: both spellings, the first accepted value, and
    nothing after --search-options (those words belong to the search component)."""
    from symt.fd_configs import driver_option

    assert driver_option(["--alias", "lama-first", "d.pddl"], "--alias") == (0, 2, "lama-first")
    assert driver_option(["d.pddl", "--symt-model=m.pt"], "--symt-model") == (1, 2, "m.pt")
    assert driver_option(["d.pddl", "--symt-model"], "--symt-model") == (1, 2, None)
    assert driver_option(["--search-options", "--alias", "x"], "--alias") is None
    assert driver_option(["--alias", "lama-first", "--alias", "symt-first"], "--alias",
                         lambda value: value == "symt-first") == (2, 4, "symt-first")
