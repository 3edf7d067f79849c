"""The ``fast-downward`` command (:func:`main`): Fast Downward 19.06's own driver running symt's
build, with ``symt()`` and ``wl()`` models resolved before the driver sees them.

Its parts: :mod:`symt.fast_downward.build` finds the build and starts its driver (and holds Fast
Downward's exit codes), :mod:`symt.fast_downward.options` scans a search string's ``symt(...)``
and ``wl(...)`` calls, and :mod:`symt.fast_downward.wrapper` is the command itself (see there for
what it does). The names the rest of symt uses are imported here.
"""

from .build import (
    BUILD_ENV,
    DRIVER_CRITICAL_ERROR,
    DRIVER_INPUT_ERROR,
    REPO_ROOT,
    SEARCH_INPUT_ERROR,
    SEARCH_OUT_OF_MEMORY,
    SEARCH_OUT_OF_TIME,
    SEARCH_UNSOLVED_INCOMPLETE,
    SUCCESS,
    FastDownwardBuild,
    FastDownwardNotBuilt,
    build_dir,
    driver_command,
    driver_environment,
    fast_downward_command,
    find_build,
)
from .options import SYMT_OPTIONS, ModelSpan, check_symt_options
from .options import _model_spans as _model_spans  # the scanner itself, for the tests
from .wrapper import (
    FORWARDED_SIGNALS,
    SYMT_MODEL_OPTION,
    TERMINATION_GRACE_SECONDS,
    TRANSLATE_OPTIONS_FOR_SYMT,
    check_translatable,
    main,
    prepare_symt,
    prepare_wl,
    private_sas_file,
    run,
    run_driver,
    take_symt_model,
)

__all__ = [
    "BUILD_ENV",
    "DRIVER_CRITICAL_ERROR",
    "DRIVER_INPUT_ERROR",
    "FORWARDED_SIGNALS",
    "REPO_ROOT",
    "SEARCH_INPUT_ERROR",
    "SEARCH_OUT_OF_MEMORY",
    "SEARCH_OUT_OF_TIME",
    "SEARCH_UNSOLVED_INCOMPLETE",
    "SUCCESS",
    "SYMT_MODEL_OPTION",
    "SYMT_OPTIONS",
    "TERMINATION_GRACE_SECONDS",
    "TRANSLATE_OPTIONS_FOR_SYMT",
    "FastDownwardBuild",
    "FastDownwardNotBuilt",
    "ModelSpan",
    "build_dir",
    "check_symt_options",
    "check_translatable",
    "driver_command",
    "driver_environment",
    "fast_downward_command",
    "find_build",
    "main",
    "prepare_symt",
    "prepare_wl",
    "private_sas_file",
    "run",
    "run_driver",
    "take_symt_model",
]
