"""PDDL front end: every shared file parses, bad input is refused with file:line and a reason."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from symt.errors import PDDLSyntaxError, UnsupportedConstructError
from symt.generators import domain_file
from symt.pddl import ground, parse_domain, parse_problem

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"
IPC = SHARED / "benchmarks" / "ipc2023-learning"
PAPER_DOMAINS = domain_file("gripper").parent  # the package's copies of the paper domains
IPC_DOMAINS = sorted(p.name for p in IPC.iterdir() if (p / "domain.pddl").exists())


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def test_paper_domains_parse():
    names = {p.stem: parse_domain(p).name for p in PAPER_DOMAINS.glob("*.pddl")}
    assert names == {
        "blocksworld": "blocks",
        "gripper": "gripper",
        "logistics": "logistics",
        "visitall": "grid-visit-all",
    }


@pytest.mark.slow
@pytest.mark.parametrize("domain_name", IPC_DOMAINS)
def test_every_ipc_problem_parses(domain_name):
    domain = parse_domain(IPC / domain_name / "domain.pddl")
    problems = sorted((IPC / domain_name).glob("*/*/*.pddl"))
    assert len(problems) >= 150
    for path in problems:
        problem = parse_problem(path, domain)
        assert problem.goal, path
        assert problem.objects, path


@pytest.mark.parametrize("domain_name", IPC_DOMAINS)
def test_ipc_training_problem_grounds(domain_name):
    """The smallest training task of each IPC domain grounds to a non-trivial task."""
    training = sorted((IPC / domain_name / "training" / "easy").glob("*.pddl"))
    smallest = min(training, key=lambda p: p.stat().st_size)
    task = ground(IPC / domain_name / "domain.pddl", smallest)
    assert task.actions and task.fluent_atoms and task.goal_atoms
    assert set(task.init) <= set(range(task.num_fluents))


# ---------------------------------------------------------------- errors: syntax, file:line:col

def test_unbalanced_close_reports_line_and_column(tmp_path):
    path = write(tmp_path, "d.pddl", """
        (define (domain d)
          (:predicates (p ?x)))
          )
        """)
    with pytest.raises(PDDLSyntaxError) as info:
        parse_domain(path)
    assert str(info.value).startswith(f"{path}:3:3:")
    assert "unbalanced ')'" in str(info.value)


def test_unclosed_paren_reports_end_of_file(tmp_path):
    path = write(tmp_path, "d.pddl", """
        (define (domain d)
          (:predicates (p ?x))
        """)
    with pytest.raises(PDDLSyntaxError, match=r"d\.pddl:\d+: unexpected end of file"):
        parse_domain(path)


def nested_goal_problem(tmp_path: Path, depth: int) -> Path:
    goal = "(and " * depth + "(at b0 rb)" + ")" * depth
    return write(tmp_path, f"deep{depth}.pddl",
                 "(define (problem d) (:domain gripper) (:objects ra rb l r b0)\n"
                 "(:init (room ra) (room rb) (gripper l) (gripper r) (free l) (free r) (at-robby ra)"
                 f" (ball b0) (at b0 ra))\n(:goal {goal}))")


@pytest.mark.slow
def test_absurdly_deep_nesting_is_an_error_not_a_recursion_error(tmp_path):
    """20,000 nested (and ...): one error at the first list too deep, not Python's RecursionError
    (from the parser, the grounder or the validator, each of which recurses over formulas)."""
    import subprocess
    import sys

    from symt.generators import domain_file
    from symt.pddl.sexpr import MAX_NESTING

    problem = nested_goal_problem(tmp_path, 20_000)
    with pytest.raises(PDDLSyntaxError, match=rf"deep20000\.pddl:3:\d+: lists nested more than {MAX_NESTING}"):
        parse_problem(problem, parse_domain(domain_file("gripper")))
    result = subprocess.run([sys.executable, "-m", "symt.cli", "ground", str(domain_file("gripper")), str(problem)],
                            capture_output=True, text=True)
    assert result.returncode == 2 and result.stderr.startswith(f"symt: error: {problem}:3:")
    assert len(result.stderr.splitlines()) == 1
    # Just below the limit, everything that recurses over formulas still works.
    task = ground(domain_file("gripper"), nested_goal_problem(tmp_path, MAX_NESTING - 4))
    assert list(task.goal_atoms) == [("at", ("b0", "rb"))]


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(PDDLSyntaxError, match="file not found"):
        parse_domain(tmp_path / "nope.pddl")


def test_problem_given_as_domain(tmp_path):
    path = write(tmp_path, "p.pddl", "(define (problem p) (:domain d) (:objects a) (:init) (:goal (and)))")
    with pytest.raises(PDDLSyntaxError, match="this is a problem file"):
        parse_domain(path)


DOMAIN_TEMPLATE = """
    (define (domain d)
      (:requirements :strips :typing :negative-preconditions :equality :adl)
      (:types item)
      (:predicates (p ?x - item) (q ?x - item))
      (:action a
        :parameters (?x - item)
        :precondition {pre}
        :effect {eff}))
    """


@pytest.mark.parametrize(
    "pre, eff, construct",
    [
        ("(or (p ?x) (q ?x))", "(q ?x)", "disjunctive preconditions (or)"),
        ("(exists (?y - item) (p ?y))", "(q ?x)", "existential quantifiers (exists)"),
        ("(forall (?y - item) (p ?y))", "(q ?x)", "universal quantifiers (forall)"),
        ("(imply (p ?x) (q ?x))", "(q ?x)", "disjunctive preconditions (imply)"),
        ("(p ?x)", "(when (p ?x) (q ?x))", "conditional effects (when)"),
        ("(p ?x)", "(and (q ?x) (increase (fuel) 1))", "numeric fluents (increase of something other than total-cost)"),
        ("(p ?x)", "(forall (?y - item) (q ?y))", "universal quantifiers in effects (forall)"),
        ("(not (and (p ?x) (q ?x)))", "(q ?x)", "negation of a compound formula"),
    ],
)
def test_unsupported_constructs_are_named_with_their_line(tmp_path, pre, eff, construct):
    path = write(tmp_path, "d.pddl", DOMAIN_TEMPLATE.format(pre=pre, eff=eff))
    with pytest.raises(UnsupportedConstructError) as info:
        parse_domain(path)
    message = str(info.value)
    assert construct in message
    line = 8 if construct.startswith(("conditional", "numeric fluents", "universal quantifiers in")) else 7
    assert message.startswith(f"{path}:{line}:"), message


@pytest.mark.parametrize(
    "section, construct",
    [
        ("(:functions (holder ?x - item) - item)", "object fluents"),
        ("(:derived (q ?x - item) (p ?x))", "derived predicates"),
    ],
)
def test_unsupported_domain_sections(tmp_path, section, construct):
    path = write(tmp_path, "d.pddl", f"""
        (define (domain d)
          (:types item)
          (:predicates (p ?x - item) (q ?x - item))
          {section})
        """)
    with pytest.raises(UnsupportedConstructError, match=rf"d\.pddl:4: .*{construct}"):
        parse_domain(path)


COST_DOMAIN = """
    (define (domain d)
      (:requirements :typing :action-costs)
      (:types item)
      (:predicates (p ?x - item) (q ?x - item))
      (:functions (total-cost) - number (price ?x - item) - number)
      (:action a :parameters (?x - item) :precondition (p ?x)
        :effect (and (q ?x) (increase (total-cost) (price ?x))))
      (:action b :parameters (?x - item) :precondition (q ?x)
        :effect (and (not (q ?x)) (increase (total-cost) 3))))
    """


def test_action_costs_are_read_as_fast_downward_counts_them(tmp_path):
    """Costs are accepted and kept apart from the structure: a function term or a constant per
    schema, the values from :init, and the metric deciding whether they count at all."""
    from symt.pddl.canonical import cost_profile

    parsed = parse_domain(write(tmp_path, "d.pddl", COST_DOMAIN))
    assert [a.cost for a in parsed.actions] == [("price", ("?x",)), 3]
    assert parsed.functions == {"total-cost": 0, "price": 1}
    problem = """
        (define (problem p) (:domain d) (:objects a c - item)
          (:init (p a) (= (total-cost) 0) (= (price a) {a}) (= (price c) {c}))
          (:goal (q a)) {metric})
        """
    same = parse_problem(write(tmp_path, "p1.pddl", problem.format(a=3, c=3, metric="(:metric minimize (total-cost))")), parsed)
    assert same.metric and same.function_values[("price", ("a",))] == 3.0
    assert cost_profile(parsed, same).kind == "constant" and cost_profile(parsed, same).scale == 3.0
    varies = parse_problem(write(tmp_path, "p2.pddl", problem.format(a=3, c=5, metric="(:metric minimize (total-cost))")), parsed)
    assert cost_profile(parsed, varies).kind == "object-dependent"
    # Without a metric Fast Downward counts every action as 1.
    unit = parse_problem(write(tmp_path, "p3.pddl", problem.format(a=3, c=5, metric="")), parsed)
    assert cost_profile(parsed, unit).kind == "unit"


def test_other_numeric_constructs_are_refused(tmp_path):
    parsed = parse_domain(write(tmp_path, "d.pddl", COST_DOMAIN))
    metric = write(tmp_path, "p1.pddl", """
        (define (problem p) (:domain d) (:objects a - item)
          (:init (p a))
          (:goal (q a))
          (:metric maximize (total-cost)))
        """)
    with pytest.raises(UnsupportedConstructError, match=r"p1\.pddl:4: .*metrics other than"):
        parse_problem(metric, parsed)
    numeric = write(tmp_path, "p2.pddl", """
        (define (problem p) (:domain d) (:objects a - item)
          (:init (p a)
                 (= (price a) (price a)))
          (:goal (q a)))
        """)
    with pytest.raises(UnsupportedConstructError, match=r"p2\.pddl:3: .*numeric fluents in :init"):
        parse_problem(numeric, parsed)


def test_declared_but_unused_requirements_are_fine(tmp_path):
    path = write(tmp_path, "d.pddl", DOMAIN_TEMPLATE.format(pre="(p ?x)", eff="(q ?x)"))
    domain = parse_domain(path)
    assert ":adl" in domain.requirements


@pytest.mark.parametrize(
    "init, goal, message, line",
    [
        ("(p a) (r a)", "(q a)", "unknown predicate 'r'", 2),
        ("(p a b)", "(q a)", "predicate 'p' takes 1 argument(s), found 2", 2),
        ("(p zz)", "(q a)", "unknown object 'zz'", 2),
        ("(p a)", "(q ?x)", "variable '?x' in a ground atom", 3),
        ("(p a)", "(or (q a) (p a))", "disjunctive preconditions (or)", 3),
    ],
)
def test_problem_errors(tmp_path, init, goal, message, line):
    domain = parse_domain(write(tmp_path, "d.pddl", DOMAIN_TEMPLATE.format(pre="(p ?x)", eff="(q ?x)")))
    path = write(tmp_path, "p.pddl", f"""
        (define (problem p) (:domain d) (:objects a - item)
          (:init {init})
          (:goal {goal}))
        """)
    with pytest.raises((PDDLSyntaxError, UnsupportedConstructError)) as info:
        parse_problem(path, domain)
    assert message in str(info.value)
    assert str(info.value).startswith(f"{path}:{line}")


def test_problem_for_another_domain(tmp_path):
    domain = parse_domain(PAPER_DOMAINS / "gripper.pddl")
    path = write(tmp_path, "p.pddl", "(define (problem p) (:domain blocks) (:objects a) (:init) (:goal (and)))")
    with pytest.raises(PDDLSyntaxError, match="problem is for domain 'blocks'"):
        parse_problem(path, domain)


def test_undeclared_variable_in_action(tmp_path):
    path = write(tmp_path, "d.pddl", DOMAIN_TEMPLATE.format(pre="(p ?y)", eff="(q ?x)"))
    with pytest.raises(PDDLSyntaxError, match=r"d\.pddl:7:.*undeclared variable '\?y'"):
        parse_domain(path)


def test_case_insensitive_and_comments(tmp_path):
    domain = parse_domain(write(tmp_path, "d.pddl", """
        ; a comment
        (DEFINE (DOMAIN Mixed)   ; another
          (:PREDICATES (P ?X))
          (:ACTION Go :PARAMETERS (?X) :PRECONDITION (P ?X) :EFFECT (NOT (P ?X))))
        """))
    assert domain.name == "mixed"
    assert domain.action("go").delete_effects[0].predicate == "p"


# Every domain file of Fast Downward's classical collection (aibasel/downward-benchmarks, one copy
# per distinct file up to 20 kB: tests/classical_domains/index.json says which folders share it).
CLASSICAL_DOMAINS = sorted((Path(__file__).resolve().parent / "classical_domains").glob("*.pddl"))


@pytest.mark.parametrize("path", CLASSICAL_DOMAINS, ids=[p.stem for p in CLASSICAL_DOMAINS])
def test_every_classical_domain_file_is_read_or_refused_by_name(path: Path) -> None:
    """Fast Downward reads all of them; symt reads every one in its fragment, and refuses the
    others naming the construct (never a syntax error: the files are as the IPCs wrote them)."""
    try:
        domain = parse_domain(path)
    except UnsupportedConstructError as error:
        assert "unsupported construct: " in str(error) and f"{path}:" in str(error)
        return
    assert domain.actions


def test_a_variable_glued_to_its_predicate_is_two_words() -> None:
    """IPC 2002 Zenotravel writes ``(aircraft?a)``; Fast Downward's reader puts a space before
    every ``?``, and so does symt's."""
    domain = parse_domain(Path(__file__).resolve().parent / "classical_domains" / "zenotravel.pddl")
    refuel = next(a for a in domain.actions if a.name == "refuel")
    assert ("aircraft", ("?a",)) in {(lit.predicate, lit.terms) for lit in refuel.preconditions}
