"""The planners an experiment compares, all run through the project's ``fast-downward`` command,
plus the paper's search-free greedy heuristic guidance (Python) with the same model.

``{model}`` in a search string is replaced by the model file of the task's domain.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import SymtError


@dataclass(frozen=True)
class Algorithm:
    name: str
    kind: str
    """``fd`` (Fast Downward) or ``guidance`` (greedy heuristic guidance, no search)."""
    driver_options: tuple[str, ...] = ()
    search: str | None = None
    description: str = ""

    @property
    def uses_model(self) -> bool:
        return self.kind == "guidance" or (self.search is not None and "{model}" in self.search)

    def search_string(self, model: str | None) -> str | None:
        if self.search is None:
            return None
        if self.uses_model and model is None:
            raise SymtError(f"algorithm {self.name} needs a model")
        return self.search.replace("{model}", model or "")


ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in (
        Algorithm("symt", "fd", search="eager_greedy([symt(model={model})])",
                  description="GBFS with the learned heuristic (one forward pass per state)"),
        Algorithm("symt-batch", "fd", search="batch_eager_greedy([symt(model={model})])",
                  description="GBFS evaluating all new successors of a state in one forward pass"),
        Algorithm("ff", "fd", search="eager_greedy([ff()])", description="GBFS with h^FF"),
        Algorithm("lama-first", "fd", driver_options=("--alias", "lama-first"),
                  description="LAMA's first iteration (lazy GBFS, h^FF + landmarks, preferred operators)"),
        Algorithm("add", "fd", search="eager_greedy([add()])", description="GBFS with h^add"),
        Algorithm("blind", "fd", search="eager_greedy([blind()])",
                  description="GBFS with the blind heuristic (a floor)"),
        Algorithm("symt-guidance", "guidance",
                  description="the paper's greedy heuristic guidance: follow the best successor, "
                  "no search, 500-step cap"),
    )
}


def algorithms(names: list[str]) -> list[Algorithm]:
    unknown = [n for n in names if n not in ALGORITHMS]
    if unknown:
        raise SymtError(f"unknown algorithm(s) {', '.join(unknown)} (known: {', '.join(ALGORITHMS)})")
    return [ALGORITHMS[n] for n in names]
