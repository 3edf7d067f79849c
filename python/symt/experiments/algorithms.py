"""The planners an experiment compares.

* ``fd``: the project's ``fast-downward`` command; ``{model}`` in a search string is replaced by
  the task domain's SymT-E model file.
* ``search-free``: the paper's search-free strategies (Appendix D), run by
  :mod:`.searchfree`: SymT-E's greedy heuristic guidance, and greedy, applicability-filtered and
  regrounding decoding of a plan generator (SymT-ED or PlanGPT).

Every algorithm that needs a model names its model *family*; the model of a task is the shipped
model ``<domain><suffix>`` (:data:`MODEL_FAMILIES`), e.g. ``gripper-ed`` for ``symt-ed``; the
``wl`` family's are the shipped WL models (``symt.models.wl_models``). The
``-nocl`` and ``-cl`` families are the paper's ablations: SymT without and PlanGPT with the
contrastive loss.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import SymtError
from ..fd_configs import ALIASES

MODEL_FAMILIES: dict[str, str] = {
    "symt-e": "",
    "symt-e-nocl": "-nocl",
    "symt-ed": "-ed",
    "symt-ed-nocl": "-ed-nocl",
    "symt-ed-first": "-ed-first",
    "symt-ed-first-nocl": "-ed-first-nocl",
    "plangpt": "-plangpt",
    "plangpt-cl": "-plangpt-cl",
}
"""Model family -> suffix of its shipped model names (``<domain><suffix>``)."""


@dataclass(frozen=True)
class Algorithm:
    """A planner configuration an experiment can run: a Fast Downward search or a search-free
    strategy, with the model family it needs, if any."""

    name: str
    kind: str
    """``fd`` (Fast Downward) or ``search-free`` (a strategy of :mod:`symt.plan`, no search)."""
    driver_options: tuple[str, ...] = ()
    search: str | None = None
    description: str = ""
    model: str | None = None
    """The model family (:data:`MODEL_FAMILIES`) it runs, if any."""
    strategy: str | None = None
    """For ``search-free``: heuristic, greedy, applicable or regrounding."""
    evaluators: tuple[str, ...] = ()
    """Fast Downward predefinitions (``--evaluator NAME=...``) before ``--search``; ``{model}`` as
    in the search string."""

    @property
    def uses_model(self) -> bool:
        return self.model is not None

    def search_string(self, model: str | None) -> str | None:
        """The ``--search`` argument with ``{model}`` replaced by ``model`` (None when the algorithm
        has no search string); raises a :class:`~symt.errors.SymtError` when it needs a model and
        gets none."""
        if self.search is None:
            return None
        if self.uses_model and model is None:
            raise SymtError(f"algorithm {self.name} needs a model")
        return self.search.replace("{model}", model or "")

    def evaluator_definitions(self, model: str | None) -> list[str]:
        """:attr:`evaluators` with ``{model}`` replaced by ``model`` (a definition may be the
        ``symt()`` that several queues share)."""
        if self.uses_model and model is None and any("{model}" in d for d in self.evaluators):
            raise SymtError(f"algorithm {self.name} needs a model")
        return [definition.replace("{model}", model or "") for definition in self.evaluators]


_DECODING = {
    "greedy": "the most likely token until <EOS>",
    "applicable": "applicability-filtered decoding",
    "regrounding": "applicability-filtered decoding, re-encoding the state after each action",
    "regrounding-unvisited": "regrounding that never returns to a visited state (symt's, not the paper's)",
}
_GENERATORS = {
    "symt-ed": "SymT-ED", "plangpt": "PlanGPT",
    "symt-ed-nocl": "SymT-ED without the contrastive loss (ablation)",
    "plangpt-cl": "PlanGPT with the contrastive loss (ablation)",
}
_GUIDANCE = "the paper's greedy heuristic guidance: follow the best successor, no search, 500-step cap"

ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in (
        Algorithm("symt", "fd", search="eager_greedy([symt(model={model})])", model="symt-e",
                  description="GBFS with the learned heuristic (one forward pass per state)"),
        Algorithm("symt-batch", "fd", search="batch_eager_greedy([symt(model={model})])", model="symt-e",
                  description="GBFS evaluating all new successors of a state in one forward pass "
                              "(`--alias symt-gbfs`)"),
        *(Algorithm(alias.name, "fd", search=alias.search.replace("symt()", "symt(model={model})"),
                    evaluators=alias.evaluators, model="symt-e",
                    description=f"`--alias {alias.name}`: {alias.summary}")
          for alias in ALIASES.values() if alias.name != "symt-gbfs"),  # symt-gbfs is symt-batch
        Algorithm("symt-first-boost", "fd",
                  search="batch_eager_greedy([symt(model={model}), hff], preferred=[hff], boost=1000)",
                  evaluators=("hff=ff()",), model="symt-e",
                  description="symt-first with LAMA's boost of the preferred queues (1000), as the "
                              "alias was until the boost was measured to hurt (ablation)"),
        Algorithm("symt-first-lazy-explore", "fd",
                  search="lazy(alt([single(hs), single(hs, pref_only=true), single(hff), "
                         "single(hff, pref_only=true), type_based([hs, g()])], boost=1000), preferred=[hff])",
                  evaluators=("hs=symt(model={model})", "hff=ff()"), model="symt-e",
                  description="symt-first-lazy with a type-based exploration queue over (symt(), g) in "
                              "alternation (Xie, Mueller and Holte 2014): every fifth expansion outside "
                              "a boost is a random open state of a random bucket (issue 65's candidate; on the "
                              "IPC 2023 track's 200 easy + medium tasks 144 against symt-first-lazy's 145 "
                              "in one run, 2026-12-06, so not an alias)"),
        Algorithm("symt-first-lazy-psf", "fd",
                  search="lazy(alt([single(hs), single(hff)]), preferred=[hff], preferred_successors_first=true)",
                  evaluators=("hs=symt(model={model})", "hff=ff()"), model="symt-e",
                  description="symt-first-lazy without queues of h^FF's preferred successors: its preferred "
                              "operators only order a state's successors (inserted first, so they win ties). "
                              "Beside such a queue IPC 2023 Spanner's medium tasks stall with symt() and wl() "
                              "alike (p01, p07, p28 probed); without it Spanner gains p01-p07, but on the "
                              "track's first 157 easy + medium tasks it solved 105 against symt-first-lazy's "
                              "118 (issue 65's candidate, 2026-12-07), so not an alias"),
        Algorithm("wl", "fd", search="batch_eager_greedy([wl(model={model})])", model="wl",
                  description="GBFS with the WL baseline (WL-GOOSE: a linear model on WL features of "
                              "the instance learning graph, `symt train-wl`), all new successors of "
                              "a state in one call: symt-batch with wl() instead of symt()"),
        Algorithm("ff", "fd", search="eager_greedy([ff()])", description="GBFS with h^FF"),
        Algorithm("ff-pref", "fd", search="eager_greedy([hff], preferred=[hff], boost=1000)",
                  evaluators=("hff=ff()",),
                  description="GBFS with h^FF and its preferred operators (boost 1000): "
                              "symt-first-boost without the symt() queue"),
        Algorithm("ff-explore", "fd", search="batch_eager_greedy([ff()], type_based=true)",
                  description="GBFS with h^FF alternating with a type-based exploration queue: "
                              "symt-explore with h^FF instead of symt()"),
        Algorithm("lama-first", "fd", driver_options=("--alias", "lama-first"),
                  description="LAMA's first iteration (lazy GBFS, h^FF + landmarks, preferred operators)"),
        Algorithm("add", "fd", search="eager_greedy([add()])", description="GBFS with h^add"),
        Algorithm("blind", "fd", search="eager_greedy([blind()])",
                  description="GBFS with the blind heuristic (a floor)"),
        Algorithm("symt-guidance", "search-free", model="symt-e", strategy="heuristic",
                  description=f"SymT-E, {_GUIDANCE}"),
        Algorithm("symt-nocl-guidance", "search-free", model="symt-e-nocl", strategy="heuristic",
                  description=f"SymT-E without the contrastive loss (ablation), {_GUIDANCE}"),
        *(Algorithm(f"{family}-{strategy}", "search-free", model=family, strategy=strategy,
                    description=f"{label}, {_DECODING[strategy]} (500-token cap)")
          for family, label in _GENERATORS.items() for strategy in _DECODING if strategy != "regrounding-unvisited"),
        Algorithm("symt-ed-first-regrounding", "search-free", model="symt-ed-first", strategy="regrounding",
                  description="SymT-ED trained on the first action of each optimal plan, with achieved goals "
                              "marked and the shared-object attention bias (not the paper's recipe; "
                              f"it writes no whole plans), {_DECODING['regrounding']} (500-token cap)"),
        Algorithm("symt-ed-first-unvisited", "search-free", model="symt-ed-first", strategy="regrounding-unvisited",
                  description=f"the same SymT-ED, {_DECODING['regrounding-unvisited']} (500-token cap)"),
        Algorithm("symt-ed-first-nocl-regrounding", "search-free", model="symt-ed-first-nocl", strategy="regrounding",
                  description="symt-ed-first-regrounding's SymT-ED trained without the contrastive loss (ablation), "
                              f"{_DECODING['regrounding']} (500-token cap)"),
        Algorithm("symt-ed-first-nocl-unvisited", "search-free", model="symt-ed-first-nocl",
                  strategy="regrounding-unvisited",
                  description=f"the same ablation, {_DECODING['regrounding-unvisited']} (500-token cap)"),
    )
}
PLAN_GENERATION = ("plangpt-greedy", "plangpt-applicable", "plangpt-regrounding", "symt-guidance",
                   "symt-ed-greedy", "symt-ed-applicable", "symt-ed-regrounding", "symt-ed-first-regrounding",
                   "symt-ed-first-unvisited")
"""The paper's main plan-generation comparison, in its tables' column order, and symt's SymT-ED
trained for regrounding last (regrounding as the paper's, and never returning to a visited state)."""
PLAN_GENERATION_ABLATION = ("plangpt-cl-greedy", "plangpt-cl-applicable", "plangpt-cl-regrounding",
                            "symt-nocl-guidance", "symt-ed-nocl-greedy", "symt-ed-nocl-applicable",
                            "symt-ed-nocl-regrounding", "symt-ed-first-nocl-regrounding", "symt-ed-first-nocl-unvisited")
"""The same columns for the ablation models (contrastive loss inverted)."""


def algorithms(names: list[str]) -> list[Algorithm]:
    """The algorithms called ``names``, in that order; one error listing every unknown name."""
    unknown = [n for n in names if n not in ALGORITHMS]
    if unknown:
        raise SymtError(f"unknown algorithm(s) {', '.join(unknown)} (known: {', '.join(ALGORITHMS)})")
    return [ALGORITHMS[n] for n in names]
