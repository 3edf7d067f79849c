"""The API reference (docs/api/*.md) is generated from docstrings: every module it documents, and
every public function, class and method defined in such a module, has one."""

from __future__ import annotations

import re
from pathlib import Path

import griffe
import pytest

ROOT = Path(__file__).resolve().parents[1]
KINDS = (griffe.Kind.MODULE, griffe.Kind.CLASS, griffe.Kind.FUNCTION)


def documented_modules() -> list[str]:
    """The modules named by the ``::: module`` lines of the API reference's pages."""
    names: list[str] = []
    for page in sorted((ROOT / "docs" / "api").glob("*.md")):
        names += re.findall(r"^:::\s*([\w.]+)\s*$", page.read_text(), flags=re.MULTILINE)
    return names


def undocumented(obj: griffe.Object) -> list[str]:
    """The paths of ``obj`` and of its public members, recursively, that have no docstring."""
    missing = [] if obj.docstring and obj.docstring.value.strip() else [obj.path]
    for name, member in obj.members.items():
        if name.startswith("_") or member.is_alias or member.kind not in KINDS:
            continue
        if member.kind is griffe.Kind.MODULE:
            continue  # a submodule is documented (and checked) on its own page
        missing += undocumented(member)
    return missing


def test_the_api_reference_names_modules() -> None:
    assert len(documented_modules()) > 10


@pytest.mark.slow
def test_every_public_member_of_a_documented_module_has_a_docstring() -> None:
    loader = griffe.GriffeLoader(search_paths=[str(ROOT / "python")])
    missing: list[str] = []
    for name in documented_modules():
        module = loader.load(name)
        assert isinstance(module, griffe.Module), name
        missing += undocumented(module)
    assert not missing, f"{len(missing)} without a docstring:\n" + "\n".join(missing)
