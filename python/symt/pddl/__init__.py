"""PDDL front end: parsing (lark), the STRIPS fragment's model, grounding and plan validation."""

from .grounding import ground, static_predicates
from .model import ActionSchema, Domain, Literal, Parameter, Problem
from .parser import parse_domain, parse_problem
from .task import Atom, GroundAction, GroundTask, format_atom

__all__ = [
    "ActionSchema",
    "Atom",
    "Domain",
    "GroundAction",
    "GroundTask",
    "Literal",
    "Parameter",
    "Problem",
    "format_atom",
    "ground",
    "parse_domain",
    "parse_problem",
    "static_predicates",
]
