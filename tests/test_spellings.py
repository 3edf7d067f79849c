"""Every spelling of a known domain (``symt.pddl.canonical``).

Independent truths: the classical IPC files of shipped domains, written by the competitions'
authors (``tests/classical_ipc``), are the same domains as the shipped models' and get them;
the domains that only look the same are refused, naming the schema and literal that differ; and a
task written another way by the test's own re-encoder (``reencode.py``: new names, permuted
arguments and parameters, types as predicates, unit action costs, objects in another order) gets
the same heuristic values from Fast Downward's ``symt()`` and ``wl()`` as the task as written.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from reencode import reencode
from symt.errors import SymtError
from symt.generators import domain_file, generate_task
from symt.models import select_heuristic, select_wl
from symt.pddl import parse_domain, parse_problem
from symt.pddl.canonical import canonical_form, cost_profile, match_domains
from symt.pddl.translate import translate_task
from symt.val import run_val

CLASSICAL = Path(__file__).resolve().parent / "classical_ipc"
IPC_ROOT = Path(__file__).resolve().parents[1] / ".." / "shared" / "benchmarks" / "ipc2023-learning"
FAST_DOWNWARD = Path(sys.executable).parent / "fast-downward"
needs_ipc = pytest.mark.skipif(not IPC_ROOT.is_dir(), reason="../shared/benchmarks/ipc2023-learning is missing")

ACCEPTED = {
    "blocks": "blocksworld", "gripper": "gripper", "logistics00": "logistics", "logistics98": "logistics",
    "visitall-sat11-strips": "visitall-local", "visitall-sat14-strips": "visitall-local", "rovers": "ipc2023-rovers",
    "satellite": "ipc2023-satellite", "transport-sat08-strips": "ipc2023-transport",
    "transport-sat11-strips": "ipc2023-transport", "transport-sat14-strips": "ipc2023-transport",
    "childsnack-sat14-strips": "ipc2023-childsnack", "floortile-sat11-strips": "ipc2023-floortile",
    "floortile-sat14-strips": "ipc2023-floortile",
}
REFUSED = {
    "miconic": ("ipc2023-miconic", "schema 'board': the model domain has the delete effect (origin ?p ?f), "
                                   "this domain does not"),
    "sokoban-sat08-strips": ("ipc2023-sokoban", "3 action schemas against the model domain's 2"),
    "sokoban-sat11-strips": ("ipc2023-sokoban", "3 action schemas against the model domain's 2"),
}


def files(folder: str) -> tuple[Path, Path | None]:
    problems = sorted(p for p in (CLASSICAL / folder).glob("*.pddl") if p.name != "domain.pddl")
    return CLASSICAL / folder / "domain.pddl", (problems[0] if problems else None)


@pytest.mark.slow
@pytest.mark.parametrize("folder", sorted(ACCEPTED))
def test_classical_spellings_get_the_shipped_model(folder: str) -> None:
    domain, problem = files(folder)
    path, reason = select_heuristic(domain, problem)
    assert path.stem == ACCEPTED[folder], reason
    parsed = parse_domain(domain)
    wl_path, wl_reason = select_wl(parsed, parse_problem(problem, parsed) if problem else None)
    # WL has no objects or local model.
    assert wl_path.stem == ACCEPTED[folder].removesuffix("-objects").removesuffix("-local"), wl_reason


@pytest.mark.parametrize("folder", sorted(REFUSED))
def test_look_alike_domains_are_refused_naming_the_difference(folder: str) -> None:
    domain, problem = files(folder)
    closest, why = REFUSED[folder]
    for select in (lambda: select_heuristic(domain, problem),
                   lambda: select_wl(parse_domain(domain))):
        with pytest.raises(SymtError) as caught:
            select()
        message = str(caught.value)
        assert "\n" not in message
        assert f"closest: '{closest}', not the domain of" in message and why in message, message


@pytest.mark.slow
def test_what_each_spelling_maps() -> None:
    """The mappings themselves, against what the files say (read by hand)."""
    def match(folder: str, target: Path):
        domain, problem = files(folder)
        parsed = parse_domain(domain)
        return match_domains(parsed, parse_domain(target), parse_problem(problem, parsed) if problem else None)

    visitall = match("visitall-sat11-strips", domain_file("visitall"))
    assert visitall.predicates["type:place"] == ("place", (0,))
    assert match("logistics98", domain_file("logistics")).predicates["obj"] == ("package", (0,))
    if IPC_ROOT.is_dir():
        rovers = match("rovers", IPC_ROOT / "rovers" / "domain.pddl")
        # available and channel_free are deleted and re-added (no change, as Fast Downward reads
        # it) and hold for exactly the rovers and landers of the task: dropped.
        assert set(rovers.source.dropped) >= {"available", "channel_free"}
        assert "available" not in rovers.predicates and rovers.predicates["at"] == ("at", (0, 1))
        satellite = match("satellite", IPC_ROOT / "satellite" / "domain.pddl")
        assert satellite.predicates["satellite"] == ("type:satellite", (0,))
        floortile = match("floortile-sat11-strips", IPC_ROOT / "floortile" / "domain.pddl")
        assert floortile.actions["change-color"][0] == "change_color"


@pytest.mark.slow
@needs_ipc
def test_a_symmetric_domain_is_matched_the_same_way_in_every_run(tmp_path: Path) -> None:
    """Childsnack with every name new matches the model's domain in two ways (bread and content
    swapped); which one is chosen must not change with Python's string hashing, or a task's
    heuristic values would change from run to run."""
    domain = IPC_ROOT / "childsnack" / "domain.pddl"
    parsed = parse_domain(domain)
    problem = IPC_ROOT / "childsnack" / "training" / "easy" / "p01.pddl"
    encoding = reencode(parsed, parse_problem(problem, parsed), seed=18)
    (tmp_path / "d.pddl").write_text(encoding.domain_text)
    (tmp_path / "p.pddl").write_text(encoding.problem_text)
    script = ("import sys; from symt.pddl import parse_domain, parse_problem; "
              "from symt.pddl.canonical import match_domains; d = parse_domain(sys.argv[1]); "
              "print(match_domains(d, parse_domain(sys.argv[3]), parse_problem(sys.argv[2], d)).describe())")
    described = {subprocess.run([sys.executable, "-c", script, str(tmp_path / "d.pddl"), str(tmp_path / "p.pddl"),
                                 str(domain)], capture_output=True, text=True, check=True,
                                env=dict(os.environ, PYTHONHASHSEED=str(seed))).stdout for seed in range(6)}
    assert len(described) == 1, described


def test_a_guard_is_dropped_only_where_the_task_makes_it_redundant(tmp_path: Path) -> None:
    """Rovers with one rover not ``available``: the guard then removes actions, so it stays, and
    the domain is not the IPC 2023 one for that task."""
    if not IPC_ROOT.is_dir():
        pytest.skip("../shared/benchmarks/ipc2023-learning is missing")
    domain, problem = files("rovers")
    text = problem.read_text()
    assert "(available rover0)" in text
    changed = tmp_path / "p.pddl"
    changed.write_text(text.replace("(available rover0)", ""))
    parsed = parse_domain(domain)
    with pytest.raises(SymtError, match="not the domain of"):
        match_domains(parsed, parse_domain(IPC_ROOT / "rovers" / "domain.pddl"), parse_problem(changed, parsed))


def test_cost_profiles_of_the_classical_files() -> None:
    def profile(folder: str) -> str:
        domain, problem = files(folder)
        parsed = parse_domain(domain)
        return cost_profile(parsed, parse_problem(problem, parsed)).kind

    assert profile("transport-sat08-strips") == "object-dependent"
    assert profile("floortile-sat11-strips") == "per-action"
    assert profile("blocks") == "unit"


def test_canonical_form_reads_effects_as_fast_downward_does() -> None:
    """Classical Rovers' communicate actions delete and re-add ``available``: no effect on it."""
    form = canonical_form(parse_domain(files("rovers")[0]))
    assert "available" in form.static and "channel_free" in form.static
    assert not any(p in ("available", "channel_free") for a in form.actions for k, p, _ in a.literals
                   if k in ("add", "del"))


# ------------------------------------------------------------------------------ re-encodings


def small_tasks() -> list[tuple[str, Path, str]]:
    """(shipped model, domain file, problem text) for every shipped heuristic's domain."""
    tasks = [(d, domain_file(d), generate_task(d, size, 3, f"{d}-small"))
             for d, size in (("blocksworld", 4), ("gripper", 3), ("logistics", 2), ("visitall", 4))]
    if IPC_ROOT.is_dir():
        for d in ("blocksworld", "childsnack", "ferry", "floortile", "miconic", "rovers", "satellite",
                  "sokoban", "spanner", "transport"):
            tasks.append((f"ipc2023-{d}", IPC_ROOT / d / "domain.pddl",
                          (IPC_ROOT / d / "training" / "easy" / "p01.pddl").read_text()))
    return tasks


TASKS = small_tasks()


def traced_values(tmp_path: Path, tag: str, domain: Path, problem: Path, heuristic: str, trace_var: str
                  ) -> tuple[list[tuple[float, frozenset]], str]:
    trace = tmp_path / f"{tag}.tsv"
    result = subprocess.run(
        [str(FAST_DOWNWARD), str(domain), str(problem), "--search",
         f"eager_greedy([{heuristic}], max_time=30, bound=6)"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env=dict(os.environ, **{trace_var: str(trace)}))
    assert result.returncode in (0, 12), result.stdout[-3000:] + result.stderr  # 12: no plan within the bound
    rows = []
    for line in trace.read_text().splitlines():
        # symt(): "<value>\t<atoms>"; wl(): "<atoms>\t<value>".
        raw, _, atoms = line.partition("\t") if trace_var == "SYMT_TRACE" else line.rpartition("\t")[::-1]
        names = []
        for atom in filter(None, atoms.split(";")):
            name, args = atom.rstrip(")").split("(")
            names.append((name, tuple(a.strip() for a in args.split(",") if a.strip())))
        rows.append((float(raw), frozenset(names)))
    return rows, result.stdout


def object_tokens(model: str, domain: Path, problem: Path, out: Path) -> dict[str, int]:
    """The token of each object in the task context that ``symt()`` gets for this task."""
    from symt.formats import read_model_meta, write_task_context
    from symt.models import fit_model, shipped

    parsed = parse_domain(domain)
    task = parse_problem(problem, parsed)
    path = shipped()[model]
    meta = read_model_meta(path)
    match = fit_model(parsed, task, path, None, meta)
    lines = write_task_context(meta, domain, problem, out, None if match is None else translate_task(match, task)
                               ).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("objects "))
    return {name: token for token, name in enumerate(lines[start + 1 : start + 1 + int(lines[start].split()[1])])}


def task_symmetry(model: str, domain: Path, problem: Path, new_domain: Path, new_problem: Path,
                  tmp_path: Path, original_object) -> dict[str, str]:
    """Each object's original name -> the original object whose token its re-encoded self gets,
    checked to be a symmetry of the original task (its initial state and goal onto themselves):
    the identity wherever the task's objects are told apart by its structure."""
    before = object_tokens(model, domain, problem, tmp_path / "c-before")
    after = object_tokens(model, new_domain, new_problem, tmp_path / "c-after")
    by_token = {token: name for name, token in before.items()}
    symmetry = {original_object(name): by_token[token] for name, token in after.items()}
    parsed = parse_domain(domain)
    task = parse_problem(problem, parsed)
    for part in (task.init, task.goal):
        atoms = {(lit.predicate, lit.terms) for lit in part}
        assert {(p, tuple(symmetry.get(a, a) for a in args)) for p, args in atoms} == atoms
    return symmetry


def composed(encoding, translated, atom: tuple[str, tuple[str, ...]]) -> tuple[str, tuple[str, ...]] | None:
    """An atom of the original spelling, re-encoded, then translated into the model's vocabulary."""
    name, perm = encoding.predicates[atom[0]]
    return translated.atom(name, tuple(atom[1][i] for i in perm))


def undone_reencoding(model: str, domain: Path, problem: Path, tmp_path: Path):
    """A re-encoding of the task (action names kept) that the match onto the model's domain
    undoes, written to ``re-domain.pddl`` and ``re-problem.pddl``, with the match's translation.
    A symmetric domain (Childsnack's bread and content, Floortile's up and down) may be matched
    onto its mirror image instead: valid, but the model then sees the task mirrored, so the tests
    that compare values take the first seed whose match is the re-encoding undone."""
    from symt.models import fit_model, shipped

    parsed = parse_domain(domain)
    for seed in range(len(model), len(model) + 10):
        encoding = reencode(parsed, parse_problem(problem, parsed), seed=seed, rename_actions=False,
                            rename_objects=True)
        (tmp_path / "re-domain.pddl").write_text(encoding.domain_text)
        (tmp_path / "re-problem.pddl").write_text(encoding.problem_text)
        theirs = parse_domain(tmp_path / "re-domain.pddl")
        task = parse_problem(tmp_path / "re-problem.pddl", theirs)
        match = fit_model(theirs, task, shipped()[model])
        assert match is not None
        translated = translate_task(match, task)
        if all(composed(encoding, translated, atom) in (atom, None)  # None: a predicate no action uses
               for atom in ((p, tuple(f"x{i}" for i in range(len(ps)))) for p, ps in parsed.predicates.items())):
            return encoding, translated
    raise AssertionError(f"every re-encoding of {problem} was matched onto a mirror image")


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
@pytest.mark.parametrize("model, domain, problem_text", TASKS, ids=[t[0] for t in TASKS])
@pytest.mark.parametrize("heuristic", ["symt", "wl"])
def test_a_reencoded_task_gets_the_same_values(tmp_path: Path, model: str, domain: Path, problem_text: str,
                                               heuristic: str) -> None:
    """The same states (the initial state and its successors at least: both searches evaluate
    them whatever their tie-breaking) get the same model values in either spelling: renamed
    predicates with permuted arguments, permuted parameters, types as predicates, unit costs,
    objects in another order. WL's values are a function of the state; SymT-E's object tokens
    come from a canonical order of the task's objects, the same in both spellings up to a symmetry
    of the task (objects it cannot tell apart), so a state's value is the original's for the
    state that symmetry maps it to."""
    original_problem = tmp_path / "problem.pddl"
    original_problem.write_text(problem_text)
    encoding, _ = undone_reencoding(model, domain, original_problem, tmp_path)
    new_domain, new_problem = tmp_path / "re-domain.pddl", tmp_path / "re-problem.pddl"
    call, trace_var = (f"symt(model={model})", "SYMT_TRACE") if heuristic == "symt" else \
        (f"wl(model={model})", "SYMT_WL_TRACE")
    before, _ = traced_values(tmp_path, "before", domain, original_problem, call, trace_var)
    after, out = traced_values(tmp_path, "after", new_domain, new_problem, call, trace_var)
    symmetry: dict[str, str] = {}
    if heuristic == "symt":
        assert "serves the task through its domain" in out and "rel0-" in out, out[:2000]
        symmetry = task_symmetry(model, domain, original_problem, new_domain, new_problem, tmp_path,
                                 encoding.original_object)
    values = {atoms: raw for raw, atoms in before}
    compared = 0
    for raw, atoms in after:
        original = frozenset((p, tuple(symmetry.get(a, a) for a in args))
                             for p, args in (encoding.original(name, args) for name, args in atoms))
        if original in values:
            assert raw == pytest.approx(values[original], rel=1e-4, abs=1e-4), sorted(original)
            compared += 1
    assert compared >= 2, (len(before), len(after))


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_a_classical_task_with_action_costs_is_solved_through_its_translation(tmp_path: Path) -> None:
    """Transport 2008 (road lengths as costs) with the IPC 2023 model: a plan VAL accepts, and the
    start line says the values count steps, not cost."""
    domain, problem = files("transport-sat08-strips")
    result = subprocess.run([str(FAST_DOWNWARD), str(domain), str(problem), "--search",
                             "eager_greedy([symt()], max_time=60)"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert "symt: model ipc2023-transport.pt serves the task through its domain: " \
           "type:capacity-number -> type:size; action costs depend on the objects" in result.stdout
    assert run_val(domain, problem, tmp_path / "sas_plan").valid


def test_a_translated_task_keeps_its_objects_and_goal() -> None:
    domain, problem = files("logistics98")
    parsed = parse_domain(domain)
    task = parse_problem(problem, parsed)
    translation = translate_task(match_domains(parsed, parse_domain(domain_file("logistics")), task), task)
    assert list(translation.problem.objects) == list(task.objects)
    assert len(translation.problem.goal) == len(task.goal)
    assert {lit.predicate for lit in translation.problem.init} <= set(translation.domain.predicates)
    assert translation.atom("obj", ("p1",)) == ("package", ("p1",))


@pytest.mark.slow
def test_symt_match_says_what_fits_and_why_not() -> None:
    domain, problem = files("rovers")
    result = subprocess.run([str(Path(sys.executable).parent / "symt"), "match", str(domain), str(problem)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "ipc2023-rovers (SymT-E): fits: available dropped (implied by another guard on each parameter " \
           "in this task)" in "\n".join(lines)
    assert "gripper (SymT-E): no: 9 action schemas against the model domain's 3" in lines
    assert any(line.startswith("symt(): no model given; chose shipped heuristic model 'ipc2023-rovers'") for line in lines)
    assert "action costs: unit action costs" in lines


@pytest.mark.slow
def test_symt_plan_runs_a_model_through_the_translation(tmp_path: Path) -> None:
    """Classical Rovers (guards dropped) with the IPC 2023 model's greedy guidance: the plan is
    written in the task's own action names and parameter order, and VAL accepts it."""
    if not IPC_ROOT.is_dir():
        pytest.skip("../shared/benchmarks/ipc2023-learning is missing")
    domain, problem = files("rovers")
    result = subprocess.run([str(Path(sys.executable).parent / "symt"), "plan", str(domain), str(problem)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "symt: model ipc2023-rovers.pt plans on the task through its domain: available dropped" in result.stderr
    plan = tmp_path / "plan"
    plan.write_text(result.stdout)
    assert run_val(domain, problem, plan).valid


@pytest.mark.slow
def test_symt_plan_runs_a_plan_generator_through_the_translation(tmp_path: Path) -> None:
    """IPC 2023 Blocksworld (arm-empty, on-table, pickup) with the shipped first-action SymT-ED:
    chosen through the mapping, its plan is written in the task's own names, and VAL accepts it."""
    if not IPC_ROOT.is_dir():
        pytest.skip("../shared/benchmarks/ipc2023-learning is missing")
    domain, problem = IPC_ROOT / "blocksworld" / "domain.pddl", IPC_ROOT / "blocksworld" / "testing" / "easy" / "p02.pddl"
    result = subprocess.run([str(Path(sys.executable).parent / "symt"), "plan", str(domain), str(problem),
                             "--strategy", "regrounding-unvisited"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "plans on the task through its domain: arm-empty -> handempty" in result.stderr
    assert "(pickup " in result.stdout or "(unstack " in result.stdout
    plan = tmp_path / "plan"
    plan.write_text(result.stdout)
    assert run_val(domain, problem, plan).valid


@pytest.mark.slow
@pytest.mark.parametrize("model, domain, problem_text", TASKS, ids=[t[0] for t in TASKS])
def test_a_reencoded_task_translates_back_to_the_same_grounded_task(tmp_path: Path, model: str, domain: Path,
                                                                    problem_text: str) -> None:
    """What ``symt plan`` plans on: the re-encoded task (actions renamed too, objects shuffled),
    translated into the model's domain and grounded, is the original task grounded: the same
    objects, static, fluent and goal atoms, and actions up to their order."""
    from symt.models import fit_model, shipped
    from symt.pddl import ground

    original_problem = tmp_path / "problem.pddl"
    original_problem.write_text(problem_text)
    parsed = parse_domain(domain)
    original = ground(parsed, parse_problem(original_problem, parsed))
    encoding = reencode(parsed, parse_problem(original_problem, parsed), seed=7 + len(model))
    (tmp_path / "d.pddl").write_text(encoding.domain_text)
    (tmp_path / "p.pddl").write_text(encoding.problem_text)
    theirs = parse_domain(tmp_path / "d.pddl")
    task = parse_problem(tmp_path / "p.pddl", theirs)
    match = fit_model(theirs, task, shipped()[model])
    assert match is not None
    translated = translate_task(match, task)
    back = ground(translated.domain, translated.problem)
    # The translation composed with the re-encoding: the identity, or, where the domain is
    # symmetric and every name is new (Floortile's up and down, Miconic's, Childsnack's bread and
    # content), a symmetry of the model's domain: the task mirrored, the same task up to names.
    def mapped(atom: tuple[str, tuple[str, ...]]) -> tuple[str, tuple[str, ...]] | None:
        return composed(encoding, translated, atom)

    assert set(back.objects) == set(original.objects)
    for part in ("static_atoms", "fluent_atoms", "goal_atoms"):
        assert {mapped(a) for a in getattr(original, part)} == set(getattr(back, part)), part
    assert {mapped(a) for a in original.state_atoms(frozenset(original.init))} == \
        set(back.state_atoms(frozenset(back.init)))

    def effects(t, rename=lambda a: a) -> set:
        return {(frozenset(rename(t.fluent_atoms[f]) for f in a.pre_pos),
                 frozenset(rename(t.fluent_atoms[f]) for f in a.add),
                 frozenset(rename(t.fluent_atoms[f]) for f in a.delete)) for a in t.actions}
    assert effects(back) == effects(original, mapped)


@pytest.mark.slow
@pytest.mark.parametrize("model, domain, problem_text", TASKS, ids=[t[0] for t in TASKS])
def test_symt_plan_evaluates_a_reencoded_task_as_written(tmp_path: Path, model: str, domain: Path,
                                                         problem_text: str) -> None:
    """What ``symt plan`` evaluates (the exported model in Python, on the re-encoded task translated
    into the model's domain): every state within two steps of the initial state gets the value of
    the original state that the tokens' symmetry maps it to, and the initial state its own."""
    from symt.export import load_exported
    from symt.guidance import exported_state_evaluator
    from symt.models import shipped
    from symt.pddl import ground

    original_problem = tmp_path / "problem.pddl"
    original_problem.write_text(problem_text)
    parsed = parse_domain(domain)
    encoding, translated = undone_reencoding(model, domain, original_problem, tmp_path)
    module, meta = load_exported(shipped()[model])
    original = ground(parsed, parse_problem(original_problem, parsed))
    back = ground(translated.domain, translated.problem)
    mine = exported_state_evaluator(module, meta, parsed, original)
    yours = exported_state_evaluator(module, meta, translated.domain, back)
    by_token = dict(zip(mine.assignment.tolist(), original.objects, strict=True))
    symmetry = {name: by_token[token] for name, token in zip(back.objects, yours.assignment.tolist(), strict=True)}
    index = {a: i for i, a in enumerate(original.fluent_atoms)}
    layer, seen = [frozenset(back.init)], {frozenset(back.init)}
    for _ in range(2):
        layer = [back.apply(a, s) for s in layer for a in back.actions if back.applicable(a, s)]
        layer = [s for s in layer if not (s in seen or seen.add(s))]
    states = sorted(seen, key=sorted)
    values = mine([frozenset(index[(p, tuple(symmetry[o] for o in args))]
                                             for p, args in (back.fluent_atoms[f] for f in s)) for s in states])
    assert yours(states) == pytest.approx(values, rel=1e-4, abs=1e-4)
    assert len(states) > 2


@pytest.mark.slow
@pytest.mark.usefixtures("fd_built")
def test_a_constant_action_cost_scales_the_learned_values(tmp_path: Path) -> None:
    """Every action costing 3: symt() multiplies its step estimates by 3 and says so."""
    parsed = parse_domain(domain_file("gripper"))
    problem = tmp_path / "g.pddl"
    problem.write_text(generate_task("gripper", 4, 3, "g"))
    h = {}
    for cost in (1, 3):
        encoding = reencode(parsed, parse_problem(problem, parsed), seed=1, shuffle_objects=False, cost=cost)
        (tmp_path / f"d{cost}.pddl").write_text(encoding.domain_text)
        (tmp_path / f"p{cost}.pddl").write_text(encoding.problem_text)
        result = subprocess.run([str(FAST_DOWNWARD), str(tmp_path / f"d{cost}.pddl"), str(tmp_path / f"p{cost}.pddl"),
                                 "--search", "eager_greedy([symt(model=gripper)], bound=1)"],
                                cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert result.returncode in (0, 12), result.stdout[-3000:] + result.stderr
        h[cost] = int(next(line for line in result.stdout.splitlines()
                           if "h(initial state) =" in line).rsplit("=", 1)[1])
        assert ("every action costs 3, so its step counts are scaled by 3" in result.stdout) == (cost == 3)
    assert h[1] > 0 and abs(h[3] - 3 * h[1]) <= 1, h


def test_an_exported_model_keeps_its_domain_and_is_matched_by_it(tmp_path: Path) -> None:
    """A user's model (not shipped) says its domain: a task written another way fits it through
    the mapping, another domain with the same predicate names does not."""
    from model_files import random_model
    from symt.formats import read_model_meta
    from symt.models import fit_model

    model = random_model("gripper", tmp_path / "mine.pt", keep_domain=True)
    assert read_model_meta(model)["domain_pddl"] == domain_file("gripper").read_text()
    parsed = parse_domain(domain_file("gripper"))
    problem = tmp_path / "g.pddl"
    problem.write_text(generate_task("gripper", 3, 1, "g"))
    encoding = reencode(parsed, parse_problem(problem, parsed), seed=2)
    (tmp_path / "d.pddl").write_text(encoding.domain_text)
    (tmp_path / "p.pddl").write_text(encoding.problem_text)
    theirs = parse_domain(tmp_path / "d.pddl")
    match = fit_model(theirs, parse_problem(tmp_path / "p.pddl", theirs), model)
    assert match is not None and {q for q, _ in match.predicates.values()} >= {"at", "carry", "free", "at-robby"}
    # The same predicates, but move no longer deletes the robot's old room.
    other = tmp_path / "other.pddl"
    other.write_text(domain_file("gripper").read_text().replace("(not (at-robby ?from))", ""))
    with pytest.raises(SymtError, match="schema 'move': the model domain has the delete effect"):
        fit_model(parse_domain(other), None, model)
