"""Plan generation building blocks: plan tokens, SymT-ED's incremental decoder, masking, PlanGPT."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from symt.errors import SymtError
from symt.generators import domain_file, generate_task
from symt.pddl import ground, parse_domain, parse_problem
from symt.pddl.validate import validate_plan
from symt.plangen.decoding import filtered, generate, greedy
from symt.plangen.plangpt import PlanGPT, PlanGPTConfig, prompt_tokens
from symt.plangen.symted import SymTED, SymTEDConfig
from symt.plangen.vocab import ActionTokenIndex, PlanVocabulary
from symt.statespace import expand
from symt.tokens import domain_signature, encode_task, identity_assignment, rename


def _encoded(domain_name: str, size: int, seed: int, tmp_path):
    domain_path = tmp_path / "domain.pddl"
    domain_path.write_text(domain_file(domain_name).read_text())
    problem_path = tmp_path / f"{domain_name}-{size}-{seed}.pddl"
    problem_path.write_text(generate_task(domain_name, size, seed, "p"))
    domain = parse_domain(domain_path)
    task = ground(domain, parse_problem(problem_path, domain))
    return domain, encode_task(task, domain_signature(domain), domain)


def test_plan_tokens_round_trip(tmp_path) -> None:
    domain, encoded = _encoded("gripper", 3, 0, tmp_path)
    task = encoded.task
    vocab = PlanVocabulary.for_domain(domain, 16)
    assignment = np.random.default_rng(0).permutation(16)[: len(task.objects)]
    index = ActionTokenIndex(task, vocab, assignment)
    plan = [0, 5, 9, 2] if len(task.actions) > 9 else [0, 1]
    tokens = vocab.plan_tokens([task.actions[a] for a in plan], {o: i for i, o in enumerate(task.objects)},
                               assignment)
    assert tokens[-1] == vocab.eos
    assert index.parse(tokens[:-1]) == (plan, None)
    actions, problem = index.parse(tokens[:2])
    assert actions == [] and "malformed" in problem


@pytest.mark.parametrize(("tie_objects", "scale"), [(False, "fixed"), (True, "fixed"), (True, "log-length")])
def test_incremental_decoding_matches_one_pass(tie_objects: bool, scale: str) -> None:
    torch.manual_seed(0)
    config = SymTEDConfig(num_predicates=4, max_arity=2, num_tokens=30, num_outputs=29, vocab_size=20,
                          n_layers=3, num_schemas=3, tie_objects=tie_objects, attention_scale=scale)
    model = SymTED(config).eval()
    pred = torch.randint(0, 8, (2, 7))
    args = torch.randint(0, 21, (2, 7, 2))
    mask = torch.ones(2, 7, dtype=torch.bool)
    mask[1, 5:] = False
    tokens = torch.randint(0, 29, (2, 6))
    with torch.no_grad():
        full, _ = model(pred, args, mask, tokens)
        memory, bias, _, _ = model.encode(pred, args, mask)
        cache = model.start(memory, bias)
        steps = [model.decode(tokens[:, i : i + 1], cache)[0] for i in range(6)]
        # Two tokens, then four at once, through the same cache: the same logits again.
        cache = model.start(memory, bias)
        chunks = [model.decode(tokens[:, :2], cache)[0], model.decode(tokens[:, 2:], cache)[0]]
    assert torch.allclose(full, torch.cat(steps, dim=1), atol=1e-5)
    assert torch.allclose(full, torch.cat(chunks, dim=1), atol=1e-5)


def test_log_length_reads_the_real_atoms_only() -> None:
    """With ``log-length`` the encoder's and the cross-attention's queries are scaled by ln of the
    real atoms: padding a sample changes nothing, while the same atoms seen with more real atoms do
    change the logits (the scale is in use), and the untrained model starts as fixed attention at 64
    atoms."""
    torch.manual_seed(1)
    config = SymTEDConfig(num_predicates=4, max_arity=2, num_tokens=30, num_outputs=29, vocab_size=20,
                          n_layers=2, num_schemas=3, attention_scale="log-length")
    model = SymTED(config).eval()
    fixed = SymTED(SymTEDConfig(**{**config.to_dict(), "attention_scale": "fixed"})).eval()
    fixed.load_state_dict(model.state_dict(), strict=False)
    pred = torch.randint(0, 8, (1, 6))
    args = torch.randint(0, 20, (1, 6, 2))
    tokens = torch.randint(0, 29, (1, 4))
    padded_pred = torch.cat([pred, torch.zeros(1, 5, dtype=torch.long)], dim=1)
    padded_args = torch.cat([args, torch.full((1, 5, 2), 20)], dim=1)
    mask = torch.ones(1, 6, dtype=torch.bool)
    padded_mask = torch.cat([mask, torch.zeros(1, 5, dtype=torch.bool)], dim=1)
    with torch.no_grad():
        plain, _ = model(pred, args, mask, tokens)
        padded, _ = model(padded_pred, padded_args, padded_mask, tokens)
        unscaled, _ = fixed(pred, args, mask, tokens)
    assert torch.allclose(plain, padded, atol=1e-5)
    assert not torch.allclose(plain, unscaled, atol=1e-3)  # ln 6 / ln 64: the scale is applied
    assert model.decoder_layer.cross_scale.shape == (config.n_heads,)


class RandomLogits:
    """A 'model' whose next-token scores are random: masking alone must keep plans applicable."""

    def __init__(self, vocab: PlanVocabulary, seed: int, plan_prefix: int = 0):
        self.vocab = vocab
        self.plan_prefix = plan_prefix
        self.rng = np.random.default_rng(seed)

    def session(self, encoded, state):
        return self

    def step(self, token: int) -> np.ndarray:
        return self.rng.normal(size=self.vocab.num_outputs)


@pytest.mark.parametrize("domain_name,size", [("gripper", 3), ("blocksworld", 4), ("logistics", 2)])
def test_masking_never_allows_an_inapplicable_action(domain_name, size, tmp_path) -> None:
    domain, encoded = _encoded(domain_name, size, 1, tmp_path)
    task = encoded.task
    vocab = PlanVocabulary.for_domain(domain, 64)
    space = expand(task)
    sampler = space.sampler(7)
    for seed in range(25):
        # From random reachable states (as the initial state) with random scores.
        state = space.state_set(sampler.sample_state())
        start = type(task)(**{**task.__dict__, "init": tuple(sorted(state))})
        start_encoded = encode_task(start, encoded.signature, domain)
        for reground in (False, True):
            result = filtered(RandomLogits(vocab, seed), start_encoded, reground, max_tokens=120)
            labels = [(start.actions[a].name, *start.actions[a].args) for a in result.actions]
            check = validate_plan(start, labels)
            # Every generated prefix is executable; a solved run really reaches the goal.
            assert check.valid or (not result.solved and "goal" in check.reason), check.reason
            assert result.solved == check.valid


def test_greedy_reports_a_malformed_plan(tmp_path) -> None:
    domain, encoded = _encoded("gripper", 2, 0, tmp_path)
    vocab = PlanVocabulary.for_domain(domain, 16)

    class ObjectsFirst(RandomLogits):
        def step(self, token: int) -> np.ndarray:
            scores = np.zeros(vocab.num_outputs)
            scores[vocab.object_token(0)] = 1.0 if token == vocab.bos else -1.0
            scores[vocab.eos] = 0.5
            return scores

    result = greedy(ObjectsFirst(vocab, 0), encoded)
    assert not result.solved and "malformed" in result.reason


def test_regrounding_masks_self_loops_and_stops_at_a_revisited_state(tmp_path) -> None:
    """A generator that always wants ``move`` to the lowest-numbered object: regrounding never
    emits ``move x x`` (its successor is the same state) and stops as soon as it returns to a
    state it saw, instead of looping to the token cap."""
    domain, encoded = _encoded("gripper", 2, 0, tmp_path)
    vocab = PlanVocabulary.for_domain(domain, 16)
    move = vocab.schema_ids()["move"]

    class AlwaysMove(RandomLogits):
        def step(self, token: int) -> np.ndarray:
            scores = np.full(vocab.num_outputs, -10.0)
            scores[move] = 5.0
            scores[vocab.num_schemas : vocab.bos] = -np.arange(vocab.vocab_size, dtype=float)
            return scores

    task = encoded.task
    result = filtered(AlwaysMove(vocab, 0), encoded, reground=True)
    moves = [task.actions[a] for a in result.actions]
    assert not result.solved and result.reason.startswith("loop"), result.reason
    assert [m.name for m in moves] == ["move", "move"]
    assert all(m.args[0] != m.args[1] for m in moves)
    assert result.tokens == 6  # two actions of three tokens each, nothing more


def test_plangpt_cached_decoding_matches_one_pass() -> None:
    """PlanGPT's key/value-cached decoding (prompt once, then one token at a time) gives the
    logits of a full forward pass over the whole sequence."""
    torch.manual_seed(0)
    model = PlanGPT(PlanGPTConfig(num_predicates=4, num_plan_inputs=32, num_outputs=30, max_positions=64,
                                  n_layers=3)).eval()
    tokens = torch.randint(0, 40, (1, 20))
    with torch.no_grad():
        full, _ = model(tokens, torch.zeros(tokens.shape, dtype=torch.bool))
        past: list = []
        steps = [model.extend(tokens[:, :12], past)]
        steps += [model.extend(tokens[:, i : i + 1], past) for i in range(12, 20)]
    assert torch.allclose(torch.cat(steps, dim=1), full, atol=1e-5)
    with pytest.raises(Exception, match="positions"):
        model.extend(torch.zeros((1, 50), dtype=torch.long), past)


def test_plangpt_positions_correspond_under_renaming(tmp_path) -> None:
    domain, encoded = _encoded("logistics", 2, 3, tmp_path)
    vocab = PlanVocabulary.for_domain(domain, 40)
    rows = encoded.state_rows(sorted(encoded.task.init))
    rng = np.random.default_rng(0)
    n = encoded.num_objects
    a = prompt_tokens(rename(rows, rng.permutation(40)[:n], 40), encoded.signature.num_predicates, vocab)
    b = prompt_tokens(rename(rows, rng.permutation(40)[:n], 40), encoded.signature.num_predicates, vocab)
    c = prompt_tokens(rename(rows, identity_assignment(n), 40), encoded.signature.num_predicates, vocab)
    assert len(a) == len(b) == len(c)
    offset = 4 + encoded.signature.num_predicates
    is_object = [offset + vocab.num_schemas <= t < offset + vocab.bos for t in a]
    assert is_object == [offset + vocab.num_schemas <= t < offset + vocab.bos for t in b]
    assert [t for t, o in zip(a, is_object) if not o] == [t for t, o in zip(b, is_object) if not o]
    model = PlanGPT(PlanGPTConfig(encoded.signature.num_predicates, vocab.num_inputs, vocab.num_outputs, 512))
    logits, internals = model(torch.tensor([a]), torch.zeros(1, len(a), dtype=torch.bool), return_internals=True)
    assert logits.shape == (1, len(a), vocab.num_outputs)
    assert len(internals["attention"]) == model.config.n_layers


@pytest.mark.parametrize("strategy", ["greedy", "applicable", "regrounding"])
def test_a_full_plangpt_context_stops_decoding_with_its_reason(tmp_path, strategy) -> None:
    """PlanGPT with barely more positions than the prompt: decoding stops when they run out, as
    a failure with that reason (not an error); a prompt longer than the context is an input error."""
    from symt.errors import SymtError
    from symt.plangen.decoding import generate
    from symt.plangen.planner import Planner

    domain, encoded = _encoded("gripper", 2, 0, tmp_path)
    vocab = PlanVocabulary.for_domain(domain, 16)
    prompt = prompt_tokens(rename(encoded.state_rows(sorted(encoded.task.init)),
                                  identity_assignment(encoded.num_objects), 16),
                           encoded.signature.num_predicates, vocab)
    torch.manual_seed(0)
    config = PlanGPTConfig(encoded.signature.num_predicates, vocab.num_inputs, vocab.num_outputs,
                           max_positions=len(prompt) + 1)  # room for one plan token
    planner = Planner("plangpt", PlanGPT(config).eval(), encoded.signature, vocab)
    result = generate(planner, encoded, strategy)
    assert not result.solved and result.reason.startswith("context full"), result.reason
    assert result.tokens <= 2
    config.max_positions = len(prompt) - 1
    with pytest.raises(SymtError, match="prompt has"):
        generate(Planner("plangpt", PlanGPT(config).eval(), encoded.signature, vocab), encoded, strategy)


def test_a_prefix_model_plans_by_regrounding_only(tmp_path) -> None:
    """A generator trained on plan prefixes writes no whole plans: greedy and applicable decoding
    are refused with the reason, regrounding runs."""
    domain, encoded = _encoded("gripper", 2, 1, tmp_path)
    model = RandomLogits(PlanVocabulary.for_domain(domain, 64), 0, plan_prefix=1)
    for strategy in ("greedy", "applicable"):
        with pytest.raises(SymtError, match="regrounding only"):
            generate(model, encoded, strategy)
    assert generate(model, encoded, "regrounding").tokens > 0


@pytest.mark.slow
@pytest.mark.parametrize("problem,balls", [("prob01.pddl", 4), ("prob05.pddl", 12)])
def test_shipped_first_action_generator_plans_ipc_gripper(problem, balls) -> None:
    """The shipped `gripper-ed-first` (trained on 2-8 balls of symt's generator) plans the IPC's own
    Gripper tasks by regrounding: a valid plan (symt's validator, not the decoder, checks it) of at
    most two steps more than the optimal 3n - 1 (n balls, two grippers: n/2 round trips)."""
    import subprocess
    import sys
    from pathlib import Path

    folder = Path(__file__).parent / "classical_ipc" / "gripper"
    result = subprocess.run([sys.executable, "-m", "symt.cli", "plan", "--model", "gripper-ed-first",
                             "--strategy", "regrounding", str(folder / "domain.pddl"), str(folder / problem)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "validator: valid plan" in result.stderr
    steps = [line for line in result.stdout.splitlines() if line.startswith("(")]
    assert 3 * balls - 1 <= len(steps) <= 3 * balls + 1, len(steps)


@pytest.mark.parametrize("domain_name,size", [("gripper", 3), ("blocksworld", 4)])
def test_regrounding_unvisited_never_returns_to_a_state(domain_name, size, tmp_path) -> None:
    """With random scores, regrounding-unvisited writes executable actions whose states along the
    way are all distinct (checked by simulating the plan with the validator's task model), and
    stops at the goal, the token cap or a state whose successors were all visited."""
    domain, encoded = _encoded(domain_name, size, 1, tmp_path)
    task = encoded.task
    for seed in range(10):
        result = generate(RandomLogits(PlanVocabulary.for_domain(domain, 64), seed), encoded,
                          "regrounding-unvisited", max_tokens=300)
        labels = [(task.actions[a].name, *task.actions[a].args) for a in result.actions]
        check = validate_plan(task, labels)
        assert check.valid or (not result.solved and "goal" in check.reason), check.reason
        states = [frozenset(task.init)]
        for a in result.actions:
            states.append(task.apply(task.actions[a], states[-1]))
        assert len(set(states)) == len(states)
        assert result.solved or "token cap" in result.reason or "visited state" in result.reason, result.reason
