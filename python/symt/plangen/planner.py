"""A trained plan generator (SymT-ED or PlanGPT) with what it needs to read tasks and write plans.

Model files (``symt-planner`` format, version 1) are ``torch.save`` archives of a dict: kind,
model config, weights, the domain signature (input atoms) and the plan vocabulary (output
tokens). Heuristic models are TorchScript files instead (:mod:`symt.export`);
:func:`symt.models.model_file_kind` tells the two apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from ..errors import SymtError
from ..formats import PLANNER_FORMAT, PLANNER_FORMAT_VERSION, load_plain
from ..pddl import Domain
from ..tokens import EncodedTask, Signature, check_vocabulary, collate, rename
from .plangpt import PAD, PlanGPT, PlanGPTConfig, prompt_tokens
from .symted import SymTED, SymTEDConfig
from .vocab import PlanVocabulary, check_plan_vocabulary

KINDS = ("symt-ed", "plangpt")


@dataclass
class Planner:
    """A plan generator ready for :mod:`.decoding` (``vocab`` + ``session``)."""

    kind: str
    model: SymTED | PlanGPT
    signature: Signature
    vocab: PlanVocabulary
    plan_prefix: int = 0
    """Trained on the first ``plan_prefix`` actions of each plan (0: whole plans); such a model
    plans by regrounding only (:func:`symt.plangen.decoding.generate` refuses the others)."""

    @property
    def vocab_size(self) -> int:
        return self.vocab.vocab_size

    def check_task(self, encoded: EncodedTask, domain: Domain, where: str) -> None:
        """Raise a :class:`~symt.errors.SymtError` naming ``where`` when the task has more objects
        than the model has object tokens, or its domain's action schemas differ from the model's."""
        check_vocabulary(encoded.num_objects, self.vocab_size, where)
        check_plan_vocabulary(domain, self.vocab, where)

    def session(self, encoded: EncodedTask, state: frozenset[int]) -> SymTEDSession | PlanGPTSession:
        """A decoder session on ``state`` (true fluent indices), encoded with the task's canonical object tokens."""
        rows = rename(encoded.state_rows(sorted(state)), encoded.assignment, self.vocab_size)
        if self.kind == "symt-ed":
            return SymTEDSession(self.model, rows, self.vocab_size)
        return PlanGPTSession(self.model, prompt_tokens(rows, self.signature.num_predicates, self.vocab),
                              self.vocab.bos)

    def to_file(self, path: Path, extra: dict | None = None) -> None:
        """Write the model file (``symt-planner`` format) atomically; ``extra`` adds keys to its dict."""
        from ..training.base import save_atomic

        save_atomic({"format": PLANNER_FORMAT, "format_version": PLANNER_FORMAT_VERSION, "kind": self.kind,
                     "config": self.model.config.to_dict(), "state_dict": self.model.state_dict(),
                     "signature": self.signature.to_json(), "plan_vocab": self.vocab.to_json(),
                     **({"plan_prefix": self.plan_prefix} if self.plan_prefix else {}),
                     **(extra or {})}, Path(path))


class SymTEDSession:
    """The state is encoded once; each step runs the decoder on one token against the cache."""

    def __init__(self, model: SymTED, rows: np.ndarray, vocab_size: int):
        self.model = model
        pred, args, mask = collate([rows], vocab_size)
        device = next(model.parameters()).device
        with torch.inference_mode():
            memory, bias, _, _ = model.encode(pred.to(device), args.to(device), mask.to(device))
            self.cache = model.start(memory, bias)
        self.device = device

    @torch.inference_mode()
    def step(self, token: int) -> np.ndarray:
        """Feed ``token``; the logits (float32, one per plan-vocabulary output) of the next token."""
        logits, _, _, _ = self.model.decode(torch.tensor([[token]], device=self.device), self.cache)
        return logits[0, -1].float().cpu().numpy()


class PlanGPTSession:
    """The prompt is run once; each step feeds one token through the key/value cache."""

    def __init__(self, model: PlanGPT, prompt: list[int], bos: int):
        if len(prompt) > model.config.max_positions:
            raise SymtError(f"the task's prompt has {len(prompt)} tokens, more than PlanGPT's "
                            f"{model.config.max_positions} positions")
        self.model = model
        self.prompt = prompt
        self.bos = bos
        self.past: list[tuple[torch.Tensor, torch.Tensor]] = []
        self.device = next(model.parameters()).device

    @torch.inference_mode()
    def step(self, token: int) -> np.ndarray:
        """Feed ``token`` (``<BOS>`` feeds the prompt); the logits of the next token. Raises
        :class:`~.decoding.ContextFull` when PlanGPT's positions run out."""
        # <BOS> opens the plan: in PlanGPT's sequence that role is played by <action>, the
        # prompt's last token, so <BOS> feeds the prompt.
        new = self.prompt if token == self.bos else [self.model.plan_token(token)]
        logits = self.model.extend(torch.tensor([new], device=self.device), self.past)
        return logits[0, -1].float().cpu().numpy()


def load_planner(path: str | Path, device: str | torch.device = "cpu") -> Planner:
    """The plan generator of a model file, on ``device`` in eval mode; a
    :class:`~symt.errors.SymtError` for a missing, unreadable or foreign file or an unsupported version."""
    path = Path(path)
    if not path.is_file():
        raise SymtError(f"{path}: model file not found")
    data = load_plain(path, "plan-generation model", device)
    if not isinstance(data, dict) or data.get("format") != PLANNER_FORMAT:
        raise SymtError(f"{path}: not a symt plan-generation model")
    if data.get("format_version") != PLANNER_FORMAT_VERSION:
        raise SymtError(f"{path}: planner format version {data.get('format_version')} is not supported "
                        f"(this symt reads version {PLANNER_FORMAT_VERSION})")
    kind = data.get("kind")
    if kind not in ("symt-ed", "plangpt"):
        raise SymtError(f"{path}: unknown planner kind {kind!r}")
    try:
        model: SymTED | PlanGPT = (SymTED(SymTEDConfig(**data["config"])) if kind == "symt-ed"
                                   else PlanGPT(PlanGPTConfig(**data["config"])))
        model.load_state_dict(data["state_dict"])
    except (KeyError, TypeError, ValueError, RuntimeError) as error:
        # A file from someone else: its config and weights are data to check, not to trust.
        raise SymtError(f"{path}: damaged plan-generation model ({str(error).splitlines()[0]})") from None
    model.to(device).eval()
    prefix = data.get("plan_prefix", 0)
    if not isinstance(prefix, int) or prefix < 0:
        raise SymtError(f"{path}: damaged plan_prefix {prefix!r}")
    return Planner(kind, model, Signature.from_json(data["signature"]), PlanVocabulary.from_json(data["plan_vocab"]),
                   prefix)


__all__ = ["PAD", "Planner", "load_planner", "KINDS"]
