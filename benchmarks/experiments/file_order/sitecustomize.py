"""Benchmark switch for ``object_order.sh`` (never on a user's path): with this folder on
PYTHONPATH, every Python process that imports symt gives objects the tokens of their place in the
problem file (object i -> token i), as symt did before the canonical order
(``symt.tokens.canonical_assignment``). Everything else is the checkout's code, so the two arms of
the benchmark differ in the object tokens alone."""

import importlib.util

if importlib.util.find_spec("symt") is not None:
    from functools import cached_property

    import symt.tokens as _tokens

    def _file_order(self):  # type: ignore[no-untyped-def]
        return _tokens.identity_assignment(self.num_objects)

    prop = cached_property(_file_order)
    prop.__set_name__(_tokens.EncodedTask, "assignment")
    _tokens.EncodedTask.assignment = prop
