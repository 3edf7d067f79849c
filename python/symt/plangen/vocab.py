"""Plan tokens: how a plan becomes the target sequence of a plan-generating model.

A plan is written action by action as the action schema's token followed by one object token per
parameter, then ``<EOS>``: ``pick b7 rooma left drop ... <EOS>``. Object tokens are the renamed
object names (the same renaming as the input atoms), so a plan is renamed with its input.

Token ids: action schemas ``0..A-1``, objects ``A..A+V-1`` (object token ``t`` is ``A + t``),
then ``<BOS>`` and ``<EOS>``; ``<PAD>`` exists only on the input side of the decoder.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import SymtError
from ..pddl import Domain
from ..pddl.task import GroundAction, GroundTask


@dataclass(frozen=True)
class PlanVocabulary:
    schemas: tuple[tuple[str, int], ...]
    """Action schema names and arities, in domain order."""
    vocab_size: int
    """V: object tokens."""

    @staticmethod
    def for_domain(domain: Domain, vocab_size: int) -> PlanVocabulary:
        return PlanVocabulary(tuple((a.name, len(a.parameters)) for a in domain.actions), vocab_size)

    @property
    def num_schemas(self) -> int:
        return len(self.schemas)

    @property
    def bos(self) -> int:
        return self.num_schemas + self.vocab_size

    @property
    def eos(self) -> int:
        return self.bos + 1

    @property
    def pad(self) -> int:
        return self.bos + 2

    @property
    def num_outputs(self) -> int:
        """Tokens a model can emit: schemas, objects, ``<BOS>`` (never chosen) and ``<EOS>``."""
        return self.eos + 1

    @property
    def num_inputs(self) -> int:
        return self.pad + 1

    def object_token(self, token: int) -> int:
        return self.num_schemas + token

    def schema_ids(self) -> dict[str, int]:
        return {name: i for i, (name, _) in enumerate(self.schemas)}

    def to_json(self) -> dict:
        return {"schemas": [{"name": n, "arity": a} for n, a in self.schemas], "vocab_size": self.vocab_size}

    @staticmethod
    def from_json(data: dict) -> PlanVocabulary:
        return PlanVocabulary(tuple((s["name"], int(s["arity"])) for s in data["schemas"]),
                              int(data["vocab_size"]))

    def action_tokens(self, action: GroundAction, object_index: dict[str, int],
                      assignment: np.ndarray) -> list[int]:
        """The tokens of one ground action under a renaming (``assignment[i]``: token of object i)."""
        schema = self.schema_ids()[action.name]
        return [schema] + [self.object_token(int(assignment[object_index[a]])) for a in action.args]

    def plan_tokens(self, actions: list[GroundAction], object_index: dict[str, int],
                    assignment: np.ndarray) -> list[int]:
        tokens: list[int] = []
        for action in actions:
            tokens += self.action_tokens(action, object_index, assignment)
        return tokens + [self.eos]

    def describe(self, token: int, names: dict[int, str] | None = None) -> str:
        """A readable token (``names`` maps object tokens back to object names)."""
        if token < self.num_schemas:
            return self.schemas[token][0]
        if token < self.bos:
            object_token = token - self.num_schemas
            return names.get(object_token, f"o{object_token}") if names else f"o{object_token}"
        return {self.bos: "<BOS>", self.eos: "<EOS>", self.pad: "<PAD>"}.get(token, f"<{token}>")


class ActionTokenIndex:
    """The ground actions of a task as token sequences under one renaming, for masking and parsing.

    ``allowed(state, prefix)`` gives the tokens that extend ``prefix`` (the tokens of the action
    being written so far) towards some action applicable in ``state``; ``complete(prefix)`` the
    action a full prefix spells, if any.
    """

    def __init__(self, task: GroundTask, vocab: PlanVocabulary, assignment: np.ndarray):
        self.task = task
        self.vocab = vocab
        object_index = {obj: i for i, obj in enumerate(task.objects)}
        self.sequences = [tuple(vocab.action_tokens(a, object_index, assignment)) for a in task.actions]
        self.by_sequence = {seq: i for i, seq in enumerate(self.sequences)}
        self.arity = {i: arity for i, (_, arity) in enumerate(vocab.schemas)}

    def complete(self, prefix: tuple[int, ...]) -> int | None:
        return self.by_sequence.get(prefix)

    def applicable(self, state: frozenset[int]) -> list[int]:
        return self.task.applicable_actions(state)

    def allowed(self, applicable: list[int], prefix: tuple[int, ...]) -> set[int]:
        depth = len(prefix)
        return {self.sequences[i][depth] for i in applicable
                if len(self.sequences[i]) > depth and self.sequences[i][:depth] == prefix}

    def parse(self, tokens: list[int]) -> tuple[list[int], str | None]:
        """Split generated tokens (without ``<EOS>``) into action ids; the first problem, if any."""
        actions: list[int] = []
        position = 0
        while position < len(tokens):
            head = tokens[position]
            if head not in self.arity:
                return actions, (f"malformed: token {position} ({self.vocab.describe(head)}) is not an "
                                 "action name")
            end = position + 1 + self.arity[head]
            chunk = tuple(tokens[position:end])
            if len(chunk) < end - position or any(not (self.vocab.num_schemas <= t < self.vocab.bos)
                                                  for t in chunk[1:]):
                return actions, (f"malformed: action {len(actions) + 1} "
                                 f"({self.vocab.schemas[head][0]}) lacks its {self.arity[head]} objects")
            action = self.by_sequence.get(chunk)
            if action is None:
                return actions, (f"malformed: action {len(actions) + 1} names objects or a combination "
                                 "that no ground action of the task has")
            actions.append(action)
            position = end
        return actions, None


def check_plan_vocabulary(domain: Domain, vocab: PlanVocabulary, where: str) -> None:
    ours = tuple((a.name, len(a.parameters)) for a in domain.actions)
    if ours != vocab.schemas:
        raise SymtError(f"{where}: the domain's actions {[n for n, _ in ours]} differ from the model's "
                        f"{[n for n, _ in vocab.schemas]}")
