"""Plan-generation batches: sampled states with optimal plans as SymT-ED or PlanGPT inputs and
token targets, and the token loss over them (``symt train-plans``; the trainer is :mod:`.train`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from ..data import TaskData, derive_seed
from ..errors import SymtError
from ..sampling import RENAME_MODES, draw_from_one_group, length_groups
from ..tokens import collate, identity_assignment, rename
from .plangpt import PAD as GPT_PAD
from .plangpt import prompt_tokens
from .vocab import PlanVocabulary

IGNORE = -100
PLAN_TARGETS = ("sampled", "all-optimal")
"""``PlanTrainConfig.plan_targets``: the drawn plan's tokens, or every optimal continuation."""


@dataclass
class PlanBatch:
    """A plan-generation batch: the model inputs and target plan tokens under the first renaming,
    and under the second one for the contrastive terms (None without them)."""

    inputs: tuple[torch.Tensor, ...]
    """SymT-ED: (pred, args, mask, decoder input); PlanGPT: (tokens, padding)."""
    inputs_renamed: tuple[torch.Tensor, ...] | None
    target: torch.Tensor
    """[B,T] plan-vocabulary ids, ``IGNORE`` where no loss applies."""
    target_renamed: torch.Tensor | None = None
    """The same plans under the second renaming (object tokens differ)."""
    allowed: torch.Tensor | None = None
    """``plan_targets`` ``all-optimal``: [B,T,V] bool, the tokens that continue some optimal plan at
    each target position (None: the target token alone)."""
    allowed_renamed: torch.Tensor | None = None
    """``allowed`` under the second renaming."""

    def to(self, device: torch.device) -> PlanBatch:
        """A copy of the batch with every tensor on ``device`` (non-blocking copies)."""
        one = lambda t: t.to(device, non_blocking=True) if t is not None else None  # noqa: E731
        move = lambda ts: tuple(one(t) for t in ts) if ts is not None else None  # noqa: E731
        return PlanBatch(move(self.inputs), move(self.inputs_renamed), one(self.target), one(self.target_renamed),
                         one(self.allowed), one(self.allowed_renamed))

    def pin_memory(self) -> PlanBatch:
        """The batch in page-locked memory (torch's DataLoader calls this), so that the copy to a
        GPU can overlap the step before it."""
        one = lambda t: t.pin_memory() if t is not None else None  # noqa: E731
        pin = lambda ts: tuple(one(t) for t in ts) if ts is not None else None  # noqa: E731
        return PlanBatch(pin(self.inputs), pin(self.inputs_renamed), one(self.target), one(self.target_renamed),
                         one(self.allowed), one(self.allowed_renamed))


class PlanSampler:
    """Draws plan-generation batches: states as the paper samples them, each with a random optimal
    plan from it, under one or two object renamings, shaped for SymT-ED or PlanGPT."""

    def __init__(self, tasks: list[TaskData], vocab: PlanVocabulary, kind: str, mode: str, seed: int,
                 num_predicates: int, max_positions: int, length_buckets: int = 1, plan_prefix: int = 0,
                 plan_targets: str = "sampled"):
        if mode not in RENAME_MODES:
            raise SymtError(f"unknown rename mode '{mode}' (choose from {', '.join(RENAME_MODES)})")
        if plan_targets not in PLAN_TARGETS:
            raise SymtError(f"unknown plan targets '{plan_targets}' (choose from {', '.join(PLAN_TARGETS)})")
        self.plan_targets = plan_targets
        self.tasks = [t for t in tasks if t.space is not None and t.space.max_finite_hstar >= 0]
        if not self.tasks:
            raise SymtError("no training task has a reachable goal")
        self.vocab, self.kind, self.mode, self.seed = vocab, kind, mode, seed
        self.num_predicates, self.max_positions = num_predicates, max_positions
        self.plan_prefix = plan_prefix
        self.object_index = [{o: i for i, o in enumerate(t.task.objects)} for t in self.tasks]
        # Length buckets (``symt.sampling.length_groups``): a batch's tasks from one group of similar
        # length, each task still drawn uniformly overall; 1: the paper's draw.
        self.buckets = length_groups(self.tasks, length_buckets)

    def _assignments(self, rng: np.random.Generator, n: int) -> list[np.ndarray]:
        random = lambda: rng.permutation(self.vocab.vocab_size)[:n]  # noqa: E731
        if self.mode == "rename-one":
            return [identity_assignment(n), random()]
        if self.mode == "rename-both":
            return [random(), random()]
        return [random()]

    def batch(self, step: int, batch_size: int) -> PlanBatch:
        """The batch of ``step`` (a pure function of ``(seed, step)``): ``batch_size`` states with a
        random optimal plan each, targets ``IGNORE`` where no loss applies."""
        rng = np.random.default_rng(derive_seed(self.seed, "plan-batch", step))
        views: list[list[tuple[np.ndarray, list[int]]]] = [[], []]
        sets: list[list[list[set[int]]]] = [[], []]
        task_ids = (draw_from_one_group(rng, self.buckets, np.full(len(self.tasks), 1 / len(self.tasks)), batch_size)
                    if self.buckets else rng.integers(len(self.tasks), size=batch_size))
        for slot, task_id in enumerate(task_ids):
            data = self.tasks[task_id]
            sampler = data.space.sampler(derive_seed(self.seed, "plan-state", step, slot))
            state = sampler.sample_state()
            plan_ids = sampler.random_optimal_plan(state)
            cut = 0 < self.plan_prefix < len(plan_ids)
            if cut:
                plan_ids = plan_ids[: self.plan_prefix]
            plan = [data.task.actions[a] for a in plan_ids]
            rows = data.encoded.state_rows(data.space.state_facts(state))
            optimal = self._optimal_actions(data, state, plan_ids) if self.plan_targets == "all-optimal" else []
            for view, assignment in enumerate(self._assignments(rng, data.encoded.num_objects)):
                tokens = self.vocab.plan_tokens(plan, self.object_index[task_id], assignment)
                tokens = tokens[:-1] if cut else tokens  # no <EOS>: the plan goes on
                views[view].append((rename(rows, assignment, self.vocab.vocab_size), tokens))
                if self.plan_targets == "all-optimal":
                    sets[view].append(self._optimal_token_sets(data, task_id, plan_ids, optimal, tokens, assignment))
        build = self._symted if self.kind == "symt-ed" else self._plangpt
        first, target = build(views[0])
        second, target_renamed = build(views[1]) if views[1] else (None, None)
        allowed = self._allowed(sets[0], target) if sets[0] else None
        allowed_renamed = self._allowed(sets[1], target_renamed) if sets[1] else None
        return PlanBatch(first, second, target, target_renamed, allowed, allowed_renamed)

    @staticmethod
    def _optimal_actions(data: TaskData, state: int, plan_ids: list[int]) -> list[np.ndarray]:
        """The optimal actions of each state the drawn plan ``plan_ids`` passes through from
        ``state`` (the drawn action among them); found once a sample, spelt once a view."""
        space = data.space
        optimal: list[np.ndarray] = []
        for action_id in plan_ids:
            successor_actions, successors = space.successors(state)
            optimal.append(successor_actions[space.optimal_transitions(state)])
            state = int(successors[successor_actions == action_id][0])
        return optimal

    def _optimal_token_sets(self, data: TaskData, task_id: int, plan_ids: list[int], optimal: list[np.ndarray],
                            tokens: list[int], assignment: np.ndarray) -> list[set[int]]:
        """For each of ``tokens`` (the drawn plan's, under ``assignment``), the tokens that continue
        some optimal plan there: at an action's i-th token, the i-th tokens of the optimal actions
        (``optimal``, from ``_optimal_actions``) of the state the plan has reached whose first i
        tokens are the drawn action's; ``<EOS>`` alone where the drawn plan ends."""
        actions, index = data.task.actions, self.object_index[task_id]
        sets: list[set[int]] = []
        for action_id, choices in zip(plan_ids, optimal, strict=True):
            options = [self.vocab.action_tokens(actions[a], index, assignment) for a in choices]
            drawn = options[int(np.flatnonzero(choices == action_id)[0])]
            for i in range(len(drawn)):
                sets.append({seq[i] for seq in options if len(seq) > i and seq[:i] == drawn[:i]})
        sets += [{t} for t in tokens[len(sets):]]  # <EOS>
        return sets

    def _allowed(self, sets: list[list[set[int]]], target: torch.Tensor) -> torch.Tensor:
        """[B,T,V] bool from per-sample token sets laid out as ``target`` (PlanGPT's targets start
        after the prompt: its plan positions are those whose target is not ``IGNORE``)."""
        allowed = torch.zeros((*target.shape, self.vocab.num_outputs), dtype=torch.bool)
        for i, sample in enumerate(sets):
            positions = (target[i] != IGNORE).nonzero().flatten().tolist()
            for position, tokens in zip(positions, sample, strict=True):
                allowed[i, position, list(tokens)] = True
        return allowed

    def _symted(self, samples: list[tuple[np.ndarray, list[int]]]) -> tuple[tuple[torch.Tensor, ...], torch.Tensor]:
        pred, args, mask = collate([rows for rows, _ in samples], self.vocab.vocab_size)
        longest = max(len(plan) for _, plan in samples)
        decoder_in = torch.full((len(samples), longest), self.vocab.pad, dtype=torch.long)
        target = torch.full((len(samples), longest), IGNORE, dtype=torch.long)
        for i, (_, plan) in enumerate(samples):
            decoder_in[i, : len(plan)] = torch.tensor([self.vocab.bos] + plan[:-1])
            target[i, : len(plan)] = torch.tensor(plan)
        return (pred, args, mask, decoder_in), target

    def _plangpt(self, samples: list[tuple[np.ndarray, list[int]]]) -> tuple[tuple[torch.Tensor, ...], torch.Tensor]:
        offset = 4 + self.num_predicates
        sequences, starts = [], []
        for rows, plan in samples:
            prompt = prompt_tokens(rows, self.num_predicates, self.vocab)
            sequences.append(prompt + [offset + t for t in plan])
            starts.append(len(prompt))
        longest = max(len(s) for s in sequences) - 1
        if longest > self.max_positions:
            raise SymtError(f"a training sequence has {longest} tokens, more than PlanGPT's "
                            f"{self.max_positions} positions (raise --max-positions)")
        tokens = torch.full((len(samples), longest), GPT_PAD, dtype=torch.long)
        target = torch.full((len(samples), longest), IGNORE, dtype=torch.long)
        for i, (sequence, start) in enumerate(zip(sequences, starts)):
            tokens[i, : len(sequence) - 1] = torch.tensor(sequence[:-1])
            # Position p predicts token p + 1; only plan tokens (from index ``start``) count.
            target[i, start - 1 : len(sequence) - 1] = torch.tensor([t - offset for t in sequence[start:]])
        return (tokens, tokens == GPT_PAD), target


def token_loss(logits: torch.Tensor, target: torch.Tensor, allowed: torch.Tensor | None) -> torch.Tensor:
    """Mean over the positions whose target is not ``IGNORE``: the cross-entropy of ``target``
    (``allowed`` None), or −log of the probability mass on the ``allowed`` tokens ([B,T,V] bool;
    the two agree where a set holds the target token alone)."""
    if allowed is None:
        return F.cross_entropy(logits.flatten(0, 1), target.flatten(), ignore_index=IGNORE)
    keep = target != IGNORE
    scores, allowed = logits[keep], allowed[keep]
    return (torch.logsumexp(scores, -1) - torch.logsumexp(scores.masked_fill(~allowed, -math.inf), -1)).mean()
