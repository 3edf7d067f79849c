"""Plans from a learned model, search-free as in the paper (Appendix D): the entry point of
``symt plan`` and the search-free experiments; nothing below them imports it.

:func:`plan_with_model` runs any model file with any strategy: ``heuristic`` for a SymT-E
(TorchScript) model, ``greedy``, ``applicable`` or ``regrounding`` (:mod:`symt.plangen.decoding`)
for a plan generator (SymT-ED or PlanGPT).
"""

from __future__ import annotations

from pathlib import Path

from .errors import SymtError
from .guidance import MAX_STEPS, PlanResult, plan_with_exported_model
from .pddl import Domain, GroundTask
from .plangen.decoding import STRATEGIES as DECODING_STRATEGIES
from .plangen.decoding import GenerationResult
from .tokens import encode_task

STRATEGIES = ("heuristic", *DECODING_STRATEGIES)


def plan_with_model(
    path: Path, domain: Domain, task: GroundTask, strategy: str, max_steps: int = MAX_STEPS,
    where: str | None = None, precision: str = "fp32",
) -> tuple[PlanResult | GenerationResult, str]:
    """Plan with the model file ``path`` (heuristic or plan generator) and ``strategy``.

    Returns the result and its effort as text (``evaluations N`` or ``tokens N``). A model that
    cannot run ``strategy`` is refused with an error that says which strategies it can run.
    ``max_steps`` caps actions for ``heuristic`` and generated tokens for the others.
    ``precision`` (:data:`symt.export.PRECISIONS`) applies to SymT-E heuristics.
    """
    from .formats import model_file_kind

    if strategy not in STRATEGIES:
        raise SymtError(f"unknown strategy '{strategy}' (choose from {', '.join(STRATEGIES)})")
    where = where or task.problem_name
    kind = model_file_kind(path)
    if kind == "planner":
        from .plangen.decoding import generate
        from .plangen.planner import load_planner

        if strategy == "heuristic":
            raise SymtError(f"{path} generates plans; --strategy heuristic needs a SymT-E (heuristic) "
                            "model; use greedy, applicable or regrounding")
        planner = load_planner(path)
        encoded = encode_task(task, planner.signature, domain)
        planner.check_task(encoded, domain, f"task {where}")
        try:
            result = generate(planner, encoded, strategy, max_steps)
        except SymtError as error:  # a strategy the model was not trained for: name the file
            raise SymtError(f"{path}: {error}") from None
        return result, f"tokens {result.tokens}"
    from .export import load_exported

    if kind != "heuristic":
        from .formats import read_model_meta

        read_model_meta(path)  # says what the file is instead
    if strategy != "heuristic":
        raise SymtError(f"{path} is a SymT-E heuristic; it plans only with --strategy heuristic")
    module, meta = load_exported(path)
    result = plan_with_exported_model(module, meta, domain, task, max_steps, where, precision)
    return result, f"evaluations {result.evaluations}"
