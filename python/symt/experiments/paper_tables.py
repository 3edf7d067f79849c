"""The paper's plan-generation result tables, as published (means over 3 seeds; std dropped).

Source: ``../shared/paper/symmetry-aware-transformers.tex`` (AAAI 2026), transcribed row by row;
each row names its line in the tex. Columns are :data:`PLAN_COLUMNS`, in the paper's order:
PlanGPT with greedy, applicability-filtered and regrounding decoding, SymT-E's greedy heuristic
guidance, SymT-ED with the same three decodings. Rows are (domain, split). ``None``: the paper
prints N/A (QS_S where nothing was solved).

*Base* models are the paper's main setting: PlanGPT without the contrastive loss, SymT-E and
SymT-ED with it. *Ablation* models invert that (PlanGPT with it, SymT without it).

How the paper computed them: 3 seeds per configuration; each seed keeps the checkpoint that is
best on the validation tasks by greedy coverage, then fewer token-cap hits, fewer invalid actions,
fewer malformed plans, accuracy, loss; every strategy runs on that checkpoint; 500-token cap.
QS = mean over tasks of |pi*| / |pi| (unsolved: 0), QS_S the same over solved tasks; pi* is optimal
(Scorpion) or an upper bound (LAMA, 2 h). Model size: PlanGPT 117M parameters, SymT-E 7M, SymT-ED
16M (12 layers, width 768, 12 heads, shared weights). The main table's "PlanGPT best"
(``paper.md``) is the best of the three PlanGPT columns.
"""

from __future__ import annotations

PLAN_COLUMNS = ("plangpt-greedy", "plangpt-applicable", "plangpt-regrounding", "symt-e-guidance", "symt-ed-greedy", "symt-ed-applicable", "symt-ed-regrounding")

Row = tuple[float | None, ...]


# Main-text coverage table, lines 392-423 (rows 402-416), label tab:coverage_split_base_woCL,
# caption "Normalized coverage scores [(mu +- sigma)] for all architectures when decoding with the
# various generation strategies...". Used as the BASE coverage table: the appendix has NO separate
# base-coverage table (App. E2 line 1222 refers back to this table). The label suffix "woCL" vs. the
# appendix labels "base_wCL" is inconsistent naming; header has no w/ / w/o CL annotation. Values are
# consistent with the base QS/QS_S tables (QS <= coverage everywhere; e.g. Gripper interp PlanGPT
# applicable .44 here vs QS .36 base, while ablation coverage is .11).
PAPER_BASE_COVERAGE: dict[tuple[str, str], Row] = {
    ('blocksworld', 'validation'): (0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0),  # line 402
    ('blocksworld', 'interpolation'): (0.56, 0.56, 0.0, 1.0, 1.0, 1.0, 1.0),  # line 403
    ('blocksworld', 'extrapolation'): (0.0, 0.0, 0.0, 0.05, 0.07, 0.13, 0.0),  # line 404
    ('gripper', 'validation'): (0.0, 0.0, 0.0, 1.0, 0.17, 1.0, 1.0),  # line 406
    ('gripper', 'interpolation'): (0.0, 0.44, 0.0, 0.89, 0.67, 1.0, 1.0),  # line 407
    ('gripper', 'extrapolation'): (0.0, 0.0, 0.0, 0.02, 0.0, 0.15, 0.79),  # line 408
    ('visitall', 'validation'): (0.0, 0.14, 0.0, 1.0, 0.33, 0.93, 0.99),  # line 410
    ('visitall', 'interpolation'): (0.05, 0.67, 0.41, 1.0, 0.87, 0.99, 1.0),  # line 411
    ('visitall', 'extrapolation'): (0.0, 0.02, 0.0, 0.42, 0.0, 0.15, 0.64),  # line 412
    ('logistics', 'validation'): (0.0, 0.08, 0.0, 0.0, 0.0, 0.0, 0.0),  # line 414
    ('logistics', 'interpolation'): (0.07, 0.44, 0.19, 0.11, 0.22, 0.26, 0.22),  # line 415
    ('logistics', 'extrapolation'): (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),  # line 416
}

# Appendix table, lines 1243-1273 (rows 1253-1267), label tab:coverage_split_inv_wCL,
# caption "Normalized coverage scores [(mu +- sigma)] for all ablation models (contrastive loss inverted)".
# Header: PlanGPT w/ CL, SymT^E w/o CL, SymT^ED w/o CL.
PAPER_ABLATION_COVERAGE: dict[tuple[str, str], Row] = {
    ('blocksworld', 'validation'): (0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0),  # line 1253
    ('blocksworld', 'interpolation'): (0.67, 0.67, 0.0, 0.0, 1.0, 1.0, 1.0),  # line 1254
    ('blocksworld', 'extrapolation'): (0.0, 0.0, 0.0, 0.0, 0.03, 0.15, 0.0),  # line 1255
    ('gripper', 'validation'): (0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0),  # line 1257
    ('gripper', 'interpolation'): (0.0, 0.11, 0.0, 1.0, 0.78, 1.0, 1.0),  # line 1258
    ('gripper', 'extrapolation'): (0.0, 0.0, 0.0, 0.04, 0.0, 0.1, 0.85),  # line 1259
    ('visitall', 'validation'): (0.0, 0.42, 0.0, 0.42, 0.15, 0.65, 0.96),  # line 1261
    ('visitall', 'interpolation'): (0.04, 0.86, 0.5, 0.8, 0.85, 0.98, 1.0),  # line 1262
    ('visitall', 'extrapolation'): (0.0, 0.04, 0.0, 0.04, 0.0, 0.05, 0.47),  # line 1263
    ('logistics', 'validation'): (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),  # line 1265
    ('logistics', 'interpolation'): (0.15, 0.3, 0.22, 0.04, 0.11, 0.19, 0.04),  # line 1266
    ('logistics', 'extrapolation'): (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),  # line 1267
}

# Appendix table, lines 1276-1306 (rows 1286-1300), label tab:QS_split_base_wCL,
# caption "Normalized quality scores (QS) [(mu +- sigma)] for all base models".
# Header: PlanGPT w/o CL, SymT^E w/ CL, SymT^ED w/ CL.
PAPER_BASE_QS: dict[tuple[str, str], Row] = {
    ('blocksworld', 'validation'): (0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0),  # line 1286
    ('blocksworld', 'interpolation'): (0.56, 0.56, 0.0, 1.0, 1.0, 1.0, 1.0),  # line 1287
    ('blocksworld', 'extrapolation'): (0.0, 0.0, 0.0, 0.05, 0.07, 0.13, 0.0),  # line 1288
    ('gripper', 'validation'): (0.0, 0.0, 0.0, 0.99, 0.17, 0.98, 0.99),  # line 1290
    ('gripper', 'interpolation'): (0.0, 0.36, 0.0, 0.89, 0.67, 1.0, 1.0),  # line 1291
    ('gripper', 'extrapolation'): (0.0, 0.0, 0.0, 0.02, 0.0, 0.14, 0.77),  # line 1292
    ('visitall', 'validation'): (0.0, 0.07, 0.0, 1.0, 0.32, 0.76, 0.96),  # line 1294
    ('visitall', 'interpolation'): (0.05, 0.57, 0.41, 1.0, 0.87, 0.96, 1.0),  # line 1295
    ('visitall', 'extrapolation'): (0.0, 0.01, 0.0, 0.4, 0.0, 0.1, 0.6),  # line 1296
    ('logistics', 'validation'): (0.0, 0.08, 0.0, 0.0, 0.0, 0.0, 0.0),  # line 1298
    ('logistics', 'interpolation'): (0.07, 0.38, 0.19, 0.11, 0.22, 0.24, 0.22),  # line 1299
    ('logistics', 'extrapolation'): (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),  # line 1300
}

# Appendix table, lines 1309-1339 (rows 1319-1333), label tab:QS_split_inv_wCL,
# caption "Normalized quality scores (QS) [(mu +- sigma)] for all ablation models (contrastive loss inverted)".
# Header: PlanGPT w/ CL, SymT^E w/o CL, SymT^ED w/o CL.
PAPER_ABLATION_QS: dict[tuple[str, str], Row] = {
    ('blocksworld', 'validation'): (0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0),  # line 1319
    ('blocksworld', 'interpolation'): (0.67, 0.67, 0.0, 0.0, 1.0, 1.0, 1.0),  # line 1320
    ('blocksworld', 'extrapolation'): (0.0, 0.0, 0.0, 0.0, 0.03, 0.15, 0.0),  # line 1321
    ('gripper', 'validation'): (0.0, 0.0, 0.0, 1.0, 0.0, 0.99, 1.0),  # line 1323
    ('gripper', 'interpolation'): (0.0, 0.1, 0.0, 1.0, 0.78, 1.0, 1.0),  # line 1324
    ('gripper', 'extrapolation'): (0.0, 0.0, 0.0, 0.04, 0.0, 0.09, 0.84),  # line 1325
    ('visitall', 'validation'): (0.0, 0.24, 0.0, 0.38, 0.15, 0.5, 0.91),  # line 1327
    ('visitall', 'interpolation'): (0.04, 0.76, 0.5, 0.77, 0.82, 0.95, 0.99),  # line 1328
    ('visitall', 'extrapolation'): (0.0, 0.02, 0.0, 0.03, 0.0, 0.03, 0.43),  # line 1329
    ('logistics', 'validation'): (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),  # line 1331
    ('logistics', 'interpolation'): (0.15, 0.27, 0.22, 0.04, 0.11, 0.12, 0.04),  # line 1332
    ('logistics', 'extrapolation'): (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),  # line 1333
}

# Appendix table, lines 1342-1372 (rows 1352-1366), label tab:QSS_split_base_wCL,
# caption "Normalized quality scores for solved problems (QS_S) [(mu +- sigma)] for all base models".
# Header: PlanGPT w/o CL, SymT^E w/ CL, SymT^ED w/ CL. None = \NA (no problem solved).
# Note: visitall/extrapolation symt-ed-greedy is .96 although coverage rounds to .00 (219 tasks).
PAPER_BASE_QSS: dict[tuple[str, str], Row] = {
    ('blocksworld', 'validation'): (None, None, None, 1.0, 1.0, 1.0, None),  # line 1352
    ('blocksworld', 'interpolation'): (1.0, 1.0, None, 1.0, 1.0, 1.0, 1.0),  # line 1353
    ('blocksworld', 'extrapolation'): (None, None, None, 1.0, 1.0, 1.0, None),  # line 1354
    ('gripper', 'validation'): (None, None, None, 0.99, 1.0, 0.98, 0.99),  # line 1356
    ('gripper', 'interpolation'): (None, 0.85, None, 1.0, 1.0, 1.0, 1.0),  # line 1357
    ('gripper', 'extrapolation'): (None, None, None, 0.95, None, 0.95, 0.97),  # line 1358
    ('visitall', 'validation'): (None, 0.51, None, 1.0, 0.93, 0.82, 0.97),  # line 1360
    ('visitall', 'interpolation'): (1.0, 0.86, 0.99, 1.0, 0.99, 0.97, 1.0),  # line 1361
    ('visitall', 'extrapolation'): (None, 0.42, None, 0.98, 0.96, 0.63, 0.93),  # line 1362
    ('logistics', 'validation'): (None, 1.0, None, None, None, None, None),  # line 1364
    ('logistics', 'interpolation'): (1.0, 0.89, 1.0, 1.0, 1.0, 0.69, 1.0),  # line 1365
    ('logistics', 'extrapolation'): (None, None, None, None, None, None, None),  # line 1366
}

# Appendix table, lines 1375-1405 (rows 1385-1399), label tab:QSS_split_inv_wCL,
# caption "Normalized quality scores for solved problems (QS_S) [(mu +- sigma)] for all ablation models
# (contrastive loss inverted)". Header: PlanGPT w/ CL, SymT^E w/o CL, SymT^ED w/o CL. None = \NA.
# Note: visitall/extrapolation symt-ed-greedy is 1.00 although coverage rounds to .00 (219 tasks).
PAPER_ABLATION_QSS: dict[tuple[str, str], Row] = {
    ('blocksworld', 'validation'): (None, None, None, None, 1.0, 1.0, None),  # line 1385
    ('blocksworld', 'interpolation'): (1.0, 1.0, None, None, 1.0, 1.0, 1.0),  # line 1386
    ('blocksworld', 'extrapolation'): (None, None, None, None, 1.0, 1.0, None),  # line 1387
    ('gripper', 'validation'): (None, None, None, 1.0, None, 0.99, 1.0),  # line 1389
    ('gripper', 'interpolation'): (None, 0.88, None, 1.0, 1.0, 1.0, 1.0),  # line 1390
    ('gripper', 'extrapolation'): (None, None, None, 0.95, None, 0.91, 0.99),  # line 1391
    ('visitall', 'validation'): (None, 0.57, None, 0.9, 0.98, 0.78, 0.95),  # line 1393
    ('visitall', 'interpolation'): (1.0, 0.88, 1.0, 0.96, 0.97, 0.97, 0.99),  # line 1394
    ('visitall', 'extrapolation'): (None, 0.48, None, 0.88, 1.0, 0.62, 0.92),  # line 1395
    ('logistics', 'validation'): (None, None, None, None, None, None, None),  # line 1397
    ('logistics', 'interpolation'): (1.0, 0.92, 1.0, 1.0, 1.0, 0.43, 1.0),  # line 1398
    ('logistics', 'extrapolation'): (None, None, None, None, None, None, None),  # line 1399
}


# ---------------------------------------------------------------------------------------------
# Published reference numbers

# The paper's main coverage table (mean over 3 seeds, contrastive loss on for SymT-E/ED), as in
# ../shared/paper.md: PlanGPT's best decoding, then SymT-E and SymT-ED's strategies. Derived from
# the full transcription in . These strategies decode without search, capped at 500
# generated tokens; no time or memory limit is stated.
PAPER_COLUMNS: tuple[str, ...] = (
    "PlanGPT best",
    "SymT-E greedy",
    "SymT-ED greedy",
    "SymT-ED applicable",
    "SymT-ED regrounding",
)


def _paper_row(row: tuple[float | None, ...]) -> dict[str, float]:
    plangpt = [value for value in row[:3] if value is not None]
    return dict(zip(PAPER_COLUMNS, (max(plangpt), *row[3:]), strict=True))


PAPER_COVERAGE: dict[tuple[str, str], dict[str, float]] = {
    key: _paper_row(row) for key, row in PAPER_BASE_COVERAGE.items()
}

# The paper's table says "Blocks"; our records may too.
PAPER_DOMAIN_ALIASES: dict[str, str] = {"blocks": "blocksworld"}

PAPER_LIMITS = "search-free decoding capped at 500 tokens, no time limit stated"

# Source: ../shared/benchmarks/ipc2023-learning/README.md, "Competition coverage" (tasks
# solved of 30 per level, from the competition's public run logs; 30 min, 8 GiB, 1 core).
IPC2023_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
IPC2023_TASKS_PER_LEVEL = 30
IPC2023_LIMITS = "30 min, 8 GiB, 1 core per task"
IPC2023_PLANNERS: tuple[str, ...] = ("FD-SMAC baseline", "GOFAI", "HUZAR", "Muninn")


def _ipc_row(*per_planner: tuple[int, int, int]) -> dict[str, tuple[int, int, int]]:
    return dict(zip(IPC2023_PLANNERS, per_planner, strict=True))


IPC2023_COVERAGE: dict[str, dict[str, tuple[int, int, int]]] = {
    "blocksworld": _ipc_row((30, 29, 2), (30, 30, 1), (30, 27, 4), (30, 9, 0)),
    "childsnack": _ipc_row((30, 2, 0), (29, 5, 1), (29, 5, 1), (11, 0, 0)),
    "ferry": _ipc_row((30, 30, 6), (30, 30, 4), (30, 30, 10), (29, 13, 0)),
    "floortile": _ipc_row((26, 0, 0), (30, 5, 0), (26, 0, 0), (0, 0, 0)),
    "miconic": _ipc_row((30, 30, 14), (30, 30, 30), (30, 30, 30), (30, 0, 0)),
    "rovers": _ipc_row((30, 28, 9), (30, 25, 1), (30, 28, 8), (15, 0, 0)),
    "satellite": _ipc_row((30, 30, 30), (30, 30, 16), (30, 30, 28), (15, 1, 0)),
    "sokoban": _ipc_row((30, 6, 0), (30, 12, 0), (30, 10, 0), (26, 0, 0)),
    "spanner": _ipc_row((30, 0, 0), (30, 0, 0), (30, 0, 0), (30, 2, 0)),
    "transport": _ipc_row((30, 30, 6), (30, 30, 11), (30, 30, 6), (17, 0, 0)),
}

