"""The commands that train models and write model files: ``symt train`` (SymT-E), ``symt train-wl``
(the WL baseline), ``symt train-plans`` (SymT-ED, PlanGPT), ``symt learn`` (dataset, both heuristics
and a verdict from a domain and its problems), ``symt dead-end-head``, ``symt export``, ``symt retarget`` and ``symt upgrade``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import SymtError
from ..folders import check_output_file, check_output_folder
from ..model_config import ATTENTION_BIASES, CONTEXT_KEYS
from .options import add_training_options, float_in, int_in, machine_count


def _dataset_dir(domain_or_dir: str, seed: int, quiet: bool) -> Path:
    """A generated dataset folder for a paper domain (made on first use), or a given folder."""
    from ..generators import DOMAINS, write_dataset

    path = Path(domain_or_dir)
    if (path / "manifest.json").exists():
        return path
    if domain_or_dir in DOMAINS:
        target = Path("data") / domain_or_dir
        if not (target / "manifest.json").exists():
            write_dataset(domain_or_dir, target, seed=seed, progress=not quiet,
                          optimal_lengths=None)
        return target
    raise SymtError(
        f"'{domain_or_dir}' is neither a paper domain ({', '.join(DOMAINS)}) nor a dataset folder "
        "with a manifest.json"
    )


def _config_options(config: type, args: argparse.Namespace, data: Path, out: Path,
                    defaults: dict | None = None) -> dict:
    """The options of a training config (``config``'s fields) from the command line: the data and
    run folders, ``defaults`` (a preset's), then every option the user gave (None: not given)."""
    from dataclasses import fields

    options = {"data": str(data), "out": str(out), **(defaults or {})}
    known = {f.name for f in fields(config)}
    for key, value in vars(args).items():
        if key in known and value is not None and key not in ("data", "out"):
            options[key] = value
    if args.no_contrastive:
        options["contrastive"] = False
    return options


def cmd_train(args: argparse.Namespace) -> int:
    from ..training.config import TrainConfig
    from ..training.trainer import Trainer

    if args.out:
        check_output_folder(args.out)
    data = _dataset_dir(args.domain, args.data_seed, args.quiet)
    out = args.out or Path("runs") / f"{Path(data).name}-{args.preset}-s{args.seed}"
    options = _config_options(TrainConfig, args, data, out,
                              TrainConfig.paper_defaults() if args.preset == "paper" else {})
    if args.context_attention is not None:
        options["context_attention"] = True
        options["goals_with_state"] = args.context_attention == "static"
    overrides = {}
    for key in ("d_model", "n_heads", "n_layers", "d_ff", "d_embed", "dropout", "layer_norm", "readout",
                "attention_scale", "attention_bias", "attention", "global_tokens", "object_links", "recall",
                "max_distance", "directed_graph", "context_keys"):
        value = getattr(args, key)
        if value is not None and value is not False:
            overrides[key] = value
    options["model_overrides"] = overrides
    trainer = Trainer(TrainConfig(**options), resume=args.resume, progress=not args.quiet)
    print(f"model: {trainer.model.num_parameters():,} parameters on {trainer.device}; "
          f"{len(trainer.dataset.split('train'))} training tasks; output in {out}", file=sys.stderr)
    final = trainer.run()
    print(f"done: step {trainer.step}, validation MSE {final.get('val_mse', float('nan')):.4f}, "
          f"coverage {final.get('val_coverage', float('nan')):.2f}; best checkpoint {out / 'best.pt'}")
    return 0


def cmd_train_wl(args: argparse.Namespace) -> int:
    from ..training.wl import WLTrainConfig, train_wl

    out = args.out or Path("runs") / f"{Path(args.domain).name}-wl.json"
    if out.exists() and not args.force:
        raise SymtError(f"{out} exists (pass --force to replace it)")
    if out.is_dir():
        raise SymtError(f"{out} is a folder; --out names the model file")
    data = _dataset_dir(args.domain, args.data_seed, args.quiet)
    config = WLTrainConfig(data=str(data), out=out, learner=args.learner, iterations=args.iterations,
                           pruning=args.pruning, states=args.states, states_per_task=args.states_per_task,
                           max_total_states=args.max_total_states,
                           c=args.c, seed=args.seed, max_states=args.max_states, progress=not args.quiet)
    meta = train_wl(config)
    trained, training = meta["trained_on"], meta["training"]
    quality = ", ".join(f"{key} {value}" for key, value in training.items() if key not in ("load_seconds", "fit_seconds"))
    print(f"wrote {out}: {meta['learner']} on {meta['num_features']:,} WL features ({meta['iterations']} "
          f"iterations, pruning {meta['pruning']}), {trained['states']:,} states and {trained['pairs']:,} "
          f"pairs of {len(trained['tasks'])} tasks; data {training['load_seconds']} s, fit "
          f"{training['fit_seconds']} s; on the training data: {quality}")
    return 0


def cmd_learn(args: argparse.Namespace) -> int:
    from ..learn import LearnConfig, learn

    if args.out.exists() and (not args.out.is_dir() or any(args.out.iterdir())):
        raise SymtError(f"--out {args.out} exists and is not an empty folder; symt learn writes a new one")
    config = LearnConfig(args.domain, list(args.problems), args.out, args.held_out, args.minutes, args.max_states,
                         args.plan_time, args.test_time, args.processes, args.threads, args.seed,
                         args.goal_subsets, validate_on_plans=args.validate_on_plans, progress=not args.quiet)
    result = learn(config)
    print(f"wrote {args.out}: model.pt (SymT-E), wl.json (WL baseline), verdict.json")
    for line in result["verdict"]:
        print(line)
    return 0


def cmd_upgrade(args: argparse.Namespace) -> int:
    from ..formats import upgrade_file

    if not args.trust_file:
        raise SymtError(f"{args.old}: rewriting a file means loading it as it asks, which runs what it names; "
                        "pass --trust-file if you trust where it came from")
    check_output_file(args.new, "model file", "NEW.pt")
    if args.new.exists():
        raise SymtError(f"{args.new} exists; name a new file (the original stays as it is)")
    kind = upgrade_file(args.old, args.new)
    print(f"wrote {args.new}: the {kind} of {args.old} as plain data (loads without running code)")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from ..export import export

    check_output_file(args.output, "model file", "model.pt")  # before any work
    meta = export(args.checkpoint, args.output, layers=args.layers)
    print(f"wrote {args.output} (domain {meta['domain']}, {len(meta['predicates'])} predicates, "
          f"vocabulary {meta['vocab_size']}, format version {meta['format_version']})")
    return 0


def cmd_dead_end_head(args: argparse.Namespace) -> int:
    from ..training.dead_end_head import fit_dead_end_head

    check_output_file(args.out, "checkpoint", "head.pt")  # before any work
    if args.out.exists() and not args.force:
        raise SymtError(f"{args.out}: exists; give --force to replace it")
    if args.out.resolve() == args.checkpoint.resolve():
        raise SymtError(f"{args.out}: the checkpoint read; write the model with its head to another file")
    fit = fit_dead_end_head(args.checkpoint, args.data, args.out, per_task=args.states_per_task, seed=args.seed,
                            threshold=args.threshold, linear=args.linear, count=args.count,
                            progress=not args.quiet)
    print(f"fitted on {fit.dead_ends} dead ends and {fit.live_states} live states of {fit.tasks} tasks; "
          f"held out the {fit.held_out_tasks} largest ({fit.held_out_objects[0]}-{fit.held_out_objects[1]} "
          f"objects): {fit.held_out_recall:.3f} of their dead ends marked, {fit.held_out_false:.3f} of their "
          f"live states; validation tasks: {fit.validation_recall:.3f} and {fit.validation_false:.3f}")
    print(f"wrote {args.out} (export it with: symt export {args.out} MODEL.pt)")
    return 0


def cmd_retarget(args: argparse.Namespace) -> int:
    from ..export import retarget
    from ..models import resolve

    fixed = {}
    for pair in args.map:
        name, sep, to = pair.partition("=")
        if not sep or not name or not to:
            raise SymtError(f"--map {pair}: expected SOURCE=TARGET")
        fixed[name] = to
    check_output_file(args.output, "model file", "model.pt")  # before any work
    meta, changed = retarget(resolve(args.model), args.domain, args.output, args.source_domain, fixed)
    renamed = ", ".join(f"{a} -> {b}" for a, b in changed.items()) or "no name changes"
    print(f"wrote {args.output} for domain {meta['domain']} ({args.domain}): {renamed}; every action "
          f"of {meta['retargeted']['from_file']} matches one of {args.domain.name} under this renaming")
    return 0


def cmd_train_plans(args: argparse.Namespace) -> int:
    from ..plangen.train import PlanTrainConfig, PlanTrainer

    if args.out:
        check_output_folder(args.out)
    data = _dataset_dir(args.domain, args.data_seed, args.quiet)
    out = args.out or Path("runs") / f"{Path(data).name}-{args.kind}-{args.preset}-s{args.seed}"
    options = _config_options(PlanTrainConfig, args, data, out)
    options["model_overrides"] = {k: getattr(args, k) for k in ("d_model", "n_heads", "n_layers", "d_ff", "k",
                                                                "attention_bias", "attention_scale", "max_distance")
                                  if getattr(args, k) is not None}
    if args.untied_objects:
        options["model_overrides"]["tie_objects"] = False
    trainer = PlanTrainer(PlanTrainConfig(**options), resume=args.resume, progress=not args.quiet)
    print(f"model: {args.kind}, {trainer.model.num_parameters():,} parameters on {trainer.device}; "
          f"{len(trainer.sampler.tasks)} training tasks; output in {out}", file=sys.stderr)
    final = trainer.run()
    print(f"done: step {trainer.step}, validation loss {final.get('val_loss', float('nan')):.4f}, "
          f"accuracy {final.get('val_accuracy', float('nan')):.3f}, {trainer.config.coverage_decoding} coverage "
          f"{final.get('val_coverage', float('nan')):.2f}; best model {out / 'best.pt'} "
          "(a model file for `symt plan --model`)")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``upgrade``, ``learn``, ``train-wl``, ``train``, ``train-plans``, ``export`` and ``retarget``
    to ``sub``."""
    p = sub.add_parser("upgrade", help="rewrite a trusted model or checkpoint of an older symt as plain data",
                       description="symt loads models and checkpoints with torch.load(weights_only=True): "
                       "tensors and plain data only, so that a file from someone else runs no code. Files "
                       "an older symt wrote (plan generators with numpy numbers) ask for more; this loads "
                       "one as it asks, only when you pass --trust-file, and writes it as plain data.")
    p.add_argument("old", type=Path, help="the model or checkpoint file")
    p.add_argument("new", type=Path, help="the file to write")
    p.add_argument("--trust-file", action="store_true", help="you trust where the file came from")
    p.set_defaults(func=cmd_upgrade)

    p = sub.add_parser("learn", help="a domain and a handful of its problems -> a heuristic and a verdict on it",
                       description="Hold out the largest problems, make a dataset of the others (small "
                       "ones expanded, larger ones labelled by plans), train SymT-E with the recipe of "
                       "the shipped IPC models for --minutes, export it, train the WL baseline beside "
                       "it, and judge both on the held-out problems with Fast Downward (plain GBFS on "
                       "each and on h^FF, symt-first against lama-first): a verdict line says which to "
                       "use, and a warning says when the model is no better than chance.")
    p.add_argument("domain", type=Path, help="the PDDL domain file")
    p.add_argument("problems", type=Path, nargs="+", help="problem files or folders of them")
    p.add_argument("--out", type=Path, required=True, help="a new folder for the dataset, run, models and verdict")
    p.add_argument("--held-out", type=int_in(0), metavar="K",
                   help="the K largest problems are only for the verdict (default: a quarter, at least one)")
    p.add_argument("--minutes", type=float_in(0.0, low_open=True), default=15.0,
                   help="SymT-E's training time in minutes (15)")
    p.add_argument("--test-time", type=int_in(0), default=60, metavar="S",
                   help="seconds per Fast Downward run of the verdict (60; 0: no verdict)")
    p.add_argument("--max-states", type=int_in(1), default=1_000_000, metavar="N",
                   help="expand problems with at most N states (1,000,000); label larger ones by plans")
    p.add_argument("--plan-time", type=int_in(0), default=30, metavar="S",
                   help="seconds per Fast Downward search that labels a problem too large to expand (30)")
    p.add_argument("--processes", type=machine_count("processes"), default=2,
                   help="Fast Downward runs in parallel (2)")
    p.add_argument("--threads", type=int_in(0), default=0, help="torch threads for training (0: all cores)")
    p.add_argument("--seed", type=int_in(0), default=0)
    p.add_argument("--goal-subsets", type=int_in(0), default=0, metavar="K",
                   help="add K training problems per expanded one, with a random proper subset of its "
                   "goal (0: none; an experiment, see benchmarks/results/learn)")
    p.add_argument("--validate-on-plans", action=argparse.BooleanOptionalAction, default=True,
                   help="validate on the largest problems with optimal plans and train on every expandable one "
                   "(default); --no-validate-on-plans: the largest expandable problems validate")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=cmd_learn)

    p = sub.add_parser("train-wl", help="train the WL baseline (WL-GOOSE) on a domain's training tasks",
                       description="Train a linear model on Weisfeiler-Leman features of the instance "
                       "learning graph (WLPlan; WL-GOOSE) on the training split of DOMAIN (a paper domain, "
                       "generated on first use into data/DOMAIN, or a dataset folder with a manifest.json, "
                       "as for `symt train`). The model file runs in Fast Downward as wl(model=FILE).")
    p.add_argument("domain", help="blocksworld, gripper, logistics, visitall, or a dataset folder")
    p.add_argument("--out", type=Path, help="model file to write (default runs/<domain>-wl.json)")
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    p.add_argument("--learner", choices=["rank", "gpr", "svr"], default="rank",
                   help="rank: ranking SVM on good and other successors (GOOSE, default); gpr: Gaussian-"
                   "process regression on h* with a dot-product kernel; svr: linear SVR on h* (WL-GOOSE, ICAPS 2024)")
    p.add_argument("--iterations", type=int_in(0, 16), default=2, help="WL iterations (2, GOOSE's published models)")
    p.add_argument("--pruning", choices=["none", "a-m", "i-g", "i-m", "i-f", "i-mf"], default="none",
                   help="WLPlan's feature pruning (none; GOOSE's published models use i-mf except on Blocksworld)")
    p.add_argument("--states", choices=["sampled", "plans"], default="sampled",
                   help="states of exhaustively labelled tasks: sampled like SymT-E's (goal distance uniform "
                   "over the layers; default) or along random optimal plans from the initial state")
    p.add_argument("--states-per-task", type=int_in(1), default=2000,
                   help="sampled states (or optimal plans) per exhaustively labelled task (2000)")
    p.add_argument("--max-total-states", type=int_in(1),
                   help="at most this many sampled states over all tasks (--states-per-task shrinks; default: no bound)")
    p.add_argument("--c", type=float_in(0, low_open=True), default=1.0, help="SVM regularisation C (1)")
    p.add_argument("--seed", type=int_in(0), default=0, help="sampling and learner seed (0)")
    p.add_argument("--data-seed", type=int_in(0), default=0, help="dataset seed when generating (0)")
    p.add_argument("--max-states", type=int_in(1), default=2_000_000, help="expansion limit per task (2,000,000)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=cmd_train_wl)

    p = sub.add_parser("train", help="train SymT-E on a domain's training tasks",
                       description="Train SymT-E (regression to h* + contrastive loss) on the "
                       "training split of DOMAIN (a paper domain, generated on first use into "
                       "data/DOMAIN, or a dataset folder with a manifest.json). Checkpoints, log.csv "
                       "and curves.png go to --out.")
    add_training_options(p, out="runs/<domain>-<preset>-s<seed>", sample="states", lr="1e-3; paper preset 1e-4",
                         rename="rename-one", loss="MSE", ramp_steps=1000)
    p.add_argument("--min-lr", type=float_in(0), help="final learning rate of the cosine decay (1e-7)")
    p.add_argument("--weight-decay", type=float_in(0), help="AdamW weight decay (0.1)")
    p.add_argument("--w-pred", type=float_in(0), help="weight of the MSE (1)")
    p.add_argument("--w-rank", type=float_in(0), help="weight of the sibling ranking loss (0: off)")
    p.add_argument("--rank-loss", choices=["hinge", "logistic"],
                   help="ranking loss over sibling pairs: hinge with a one-step margin (default) or logistic")
    p.add_argument("--plan-weight", type=float_in(0, 1),
                   help="share of samples from plan-labelled tasks, where the dataset has them (0.25)")
    p.add_argument("--task-size-power", type=float_in(0), metavar="P",
                   help="draw a training task with probability proportional to its size (manifest "
                   "'size': blocks, balls, cells, packages) to the power P (0: uniformly, the paper's)")
    p.add_argument("--goal-phrasing", type=float_in(0, 1), metavar="P",
                   help="show a sampled state's task with probability P under another phrasing of its "
                   "goal with the same reachable goal states (implied atoms such as a tower base's "
                   "ontable left out or added; exact, so h* is unchanged: symt.phrasing) (0: as written)")
    p.add_argument("--dead-end-bound", action="store_true", default=None,
                   help="regress each dead-end sibling of the ranking to at least its task's largest "
                   "finite h* plus one (a lower bound: only predictions below it count) instead of "
                   "leaving it to the ranking alone (default: off)")
    p.add_argument("--dead-end-states", type=float_in(0, 1), metavar="Q",
                   help="draw a sampled state with probability Q among its task's dead ends (where it has "
                   "any), regressed to at least the task's largest finite h* plus one, so that the model "
                   "sees dead ends deeper than one step from a state that reaches the goal (0: the paper's)")
    p.add_argument("--dead-end-head", action="store_true", default=None,
                   help="give the model a second readout, a dead-end classifier trained with a binary "
                   "cross-entropy on the batches' dead ends (sampled ones with --dead-end-states, and "
                   "siblings); the exported model returns +inf where it fires, which Fast Downward then "
                   "prunes as a dead end (default: off)")
    p.add_argument("--w-dead-end", type=float_in(0), metavar="W",
                   help="weight of the dead-end head's cross-entropy (default 1)")
    p.add_argument("--dead-end-linear", action="store_true", default=None,
                   help="with --dead-end-head: the head is one linear layer on the pooled features, so "
                   "its logit is a sum of the atoms' shares (a weighed count that holds at any size) "
                   "(default: an MLP)")
    p.add_argument("--dead-end-count", action="store_true", default=None,
                   help="with --dead-end-head and --context-attention: the head is one linear layer without "
                   "a constant on the sum of the state's fluents, a pure weighed count of them, dead where "
                   "positive (the context's atoms, which grow with the task, take no part)")
    p.add_argument("--object-identity", choices=["table", "hashed"],
                   help="object tokens: a learned table of --vocab-size (table, the paper) or fixed "
                   "random codes without a size limit (hashed)")
    p.add_argument("--context-attention", nargs="?", const="all", choices=["all", "static"], default=None,
                   help="static, type and goal atoms (all) or static and type atoms only (static: the goal "
                   "atoms are read with each state and attend to it) attend only among themselves, so that "
                   "search computes them once per task (issue 15; default: every atom attends to every atom)")
    p.add_argument("--achieved-goals", action="store_true", default=None,
                   help="a state's atoms that are goal atoms read as their own predicate (an achieved "
                   "goal), as WL-GOOSE colours them, so that the model need not match each goal atom "
                   "against the state's atoms (default: the paper's tokens)")
    p.add_argument("--fold-types", action="store_true", default=None,
                   help="add the embedding of each of an object's types to the object's embedding "
                   "instead of reading its type:<t> atoms as tokens: fewer tokens in typed domains "
                   "(issue 15; default: type atoms are tokens)")
    p.add_argument("--teacher", help="a SymT-E training checkpoint (a run's best.pt) whose values the "
                   "model also learns, on every sampled state and its siblings: a smaller model for "
                   "search distilled from a larger one (issue 15)")
    p.add_argument("--w-teacher", type=float_in(0), help="weight of the MSE to the teacher's values (1)")
    p.add_argument("--init-from-teacher", action="store_true", default=None,
                   help="start from the teacher's weights (same width; --n-layers may differ, since "
                   "the layer's weights are shared)")
    p.add_argument("--init-from", metavar="CHECKPOINT",
                   help="start from the weights of this SymT-E training checkpoint (a fine-tune of it; "
                   "the model's options must give the same shapes; a dead-end head it lacks starts "
                   "fresh), while --teacher may name another model whose values it learns")
    p.add_argument("--max-states", type=int_in(1), help="expansion limit per task (2,000,000)")
    p.add_argument("--dropout", type=float_in(0, 1, high_open=True), help="override the preset's dropout")
    p.add_argument("--layer-norm", action="store_true", help="enable (pre-)layer norm")
    p.add_argument("--recall", action="store_true",
                   help="every application of the shared layer also reads the atom embeddings and its "
                   "output is layer-normalised, so that the layer may run any number of times (train "
                   "with --train-layers; run deeper with `symt export --layers`)")
    p.add_argument("--max-distance", type=int_in(1),
                   help="with --attention-bias object-distance: graph distances beyond this read as this (64)")
    p.add_argument("--directed-graph", action="store_true", default=None,
                   help="with --attention-bias object-distance: a graph atom links its objects one way, "
                   "from an earlier argument to a later one (Spanner's link), so that a distance says "
                   "which object lies ahead (default: both ways)")
    p.add_argument("--train-layers", type=int_in(1), nargs=2, metavar=("LOW", "HIGH"),
                   help="apply the shared layer a number of times drawn per step from LOW..HIGH "
                   "(validation and export use --n-layers)")
    p.add_argument("--readout", choices=["pooled", "atoms"],
                   help="pooled: the readout MLP reads the sum over atoms (the paper's, default); atoms: "
                   "it reads each atom and h is the sum of its outputs, additive over atoms as a linear "
                   "model over feature counts (WL-GOOSE) is")
    p.add_argument("--d-embed", type=int_in(1),
                   help="override the preset's width of predicate and object embeddings (small: 32): "
                   "hashed object codes this wide tell objects apart by their dot products")
    p.add_argument("--attention-scale", choices=["fixed", "log-length"],
                   help="fixed: attention logits q.k/sqrt(d) (the paper's, default); log-length: also times "
                   "a learned factor per head and ln of the number of atoms the query sees (scalable "
                   "softmax), so that attention to one matching atom does not fade on larger tasks")
    p.add_argument("--attention-bias", choices=list(ATTENTION_BIASES),
                   help="none: attention reads the atoms' embeddings only (the paper's, default); "
                   "shared-object: each head adds a learned b_h * ln(n) to the logits of atoms that share "
                   "an object with the query, so that relations through a shared object (a vehicle and "
                   "what is at its place) hold on tasks of any size; object-slots: also a learned "
                   "c_h,ij * ln(n) per pair of argument slots (i of the query, j of the key) holding the "
                   "same object, so that on(a b) and on(b a) differ in the bias too; object-distance: "
                   "shared-object plus learned terms of the distance between the atoms' objects in the "
                   "graph of the task's static relations (connected cells), so one layer sees any distance")
    p.add_argument("--context-keys", choices=list(CONTEXT_KEYS),
                   help="with --context-attention: the cached context atoms a state's atom attends to; all "
                   "(default), or shared-object: only those sharing an object with it, so that a state's pass "
                   "costs the pairs with an object in common instead of every pair (issue 65); object-means: one key per "
                   "object of the context, the mean of the keys of the context atoms that name it, so that a "
                   "state's pass costs its atoms against its atoms and the task's objects")
    p.add_argument("--attention", choices=["full", "objects"],
                   help="full: every atom attends to every atom (the paper's, default; a state costs the "
                   "square of its atoms); objects: atoms exchange information only through one token per "
                   "object and a few global tokens, a cost linear in the atoms (with --context-attention "
                   "the task's fixed atoms are encoded once per task)")
    p.add_argument("--global-tokens", type=int_in(0), help="with --attention objects: global tokens (4; 0: a "
                   "local model, each token reads only what lies within n_layers hops of it)")
    p.add_argument("--object-links", action="store_true",
                   help="with --attention objects --context-attention: a state's objects also attend to "
                   "each other where they share a context atom (a static relation or a goal), so that "
                   "information moves along the task's static graph among the state's objects")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("train-plans", help="train a plan generator (SymT-ED or the PlanGPT baseline)",
                       description="Train SymT-ED or PlanGPT on random optimal plans from sampled states of "
                       "DOMAIN's training tasks (cross-entropy + contrastive loss, Rename-Both). best.pt is "
                       "a model file for `symt plan --model`.")
    add_training_options(p, out="runs/<domain>-<kind>-<preset>-s<seed>", sample="samples", lr="1e-3",
                         rename="rename-both", loss="cross-entropy", ramp_steps=500)
    p.add_argument("--kind", choices=["symt-ed", "plangpt"], default="symt-ed")
    p.add_argument("--max-positions", type=int_in(1), help="PlanGPT's learned positions (2048)")
    p.add_argument("--k", type=int_in(1), help="contrastive hidden dimensions per layer (32, the paper's)")
    p.add_argument("--plan-prefix", type=int_in(0), metavar="M",
                   help="train on the first M actions of each optimal plan (0: whole plans, the paper's); "
                   "such a model plans by regrounding only (--coverage-decoding regrounding or "
                   "regrounding-unvisited)")
    p.add_argument("--plan-targets", choices=["sampled", "all-optimal"],
                   help="sampled: each token's target is the drawn optimal plan's (the paper's, default); "
                   "all-optimal: any token that continues some optimal plan from there, the loss -log of "
                   "their summed probability, so that the model need not split its mass over equally "
                   "good actions")
    p.add_argument("--attention-bias", choices=list(ATTENTION_BIASES),
                   help="SymT-ED's encoder: attend more to atoms that share an object, or also by their "
                   "objects' distance in the task's static graph (as `symt train`); none, the paper's, by default")
    p.add_argument("--max-distance", type=int_in(1),
                   help="with --attention-bias object-distance: graph distances beyond this read as this (64)")
    p.add_argument("--attention-scale", choices=["fixed", "log-length"],
                   help="SymT-ED: log-length multiplies the encoder's queries and the decoder's "
                   "cross-attention queries by a learned factor per head and ln of the atoms they attend "
                   "to (as `symt train`), for tasks larger than the training tasks; fixed, the paper's, "
                   "by default")
    p.add_argument("--achieved-goals", action="store_true", default=None,
                   help="SymT-ED: fluent atoms that are goal atoms read as their own predicates (as `symt train`)")
    p.add_argument("--init-encoder", metavar="CHECKPOINT",
                   help="SymT-ED: start the encoder from a SymT-E training checkpoint of the same domain "
                   "(best.pt or last.pt of `symt train` with the same preset and sizes)")
    p.add_argument("--coverage-decoding", choices=["greedy", "applicable", "regrounding", "regrounding-unvisited"],
                   help="the decoding whose validation coverage chooses best.pt (greedy, the paper's)")
    p.add_argument("--untied-objects", action="store_true",
                   help="SymT-ED: separate object embeddings for input atoms, decoder input and output "
                   "(the paper's variant; default: tied)")
    p.set_defaults(func=cmd_train_plans)

    p = sub.add_parser("export", help="write a checkpoint as a TorchScript model for Fast Downward",
                       description="Script the model of CHECKPOINT and write it with its metadata "
                       "(symt.json: format version, predicates, vocabulary) to OUTPUT.")
    p.add_argument("checkpoint", type=Path, help="best.pt or last.pt of a training run")
    p.add_argument("output", type=Path, help="the model file to write (e.g. gripper.pt)")
    p.add_argument("--layers", type=int_in(1), metavar="L",
                   help="apply the shared layer L times at inference (default: as trained)")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("dead-end-head", help="fit a dead-end head to a trained SymT-E model's frozen features",
                       description="Give the model of CHECKPOINT a dead-end head (its h unchanged), fitted on "
                       "dead ends and live states of DATA's expanded training tasks, and write it as a "
                       "checkpoint to --out; the exported model returns +inf where the head fires, which "
                       "Fast Downward prunes as a dead end. Prints how the head does on the largest "
                       "training tasks when fitted without them, and on the validation tasks.")
    p.add_argument("checkpoint", type=Path, help="best.pt or last.pt of a SymT-E training run")
    p.add_argument("data", type=Path, help="the dataset folder the model was trained on")
    p.add_argument("--out", type=Path, required=True, help="the checkpoint to write (e.g. runs/x/head.pt)")
    p.add_argument("--states-per-task", type=int_in(1), default=100, metavar="N",
                   help="at most N dead ends and at most N live states per task (default 100)")
    p.add_argument("--threshold", type=float_in(0, 1), default=0.5, metavar="P",
                   help="the probability above which a state counts as a dead end (default 0.5)")
    p.add_argument("--linear", action="store_true",
                   help="one linear layer instead of an MLP: a logit that is a sum of the atoms' shares "
                   "(default: an MLP)")
    p.add_argument("--count", action="store_true",
                   help="one linear layer without a constant on the sum of the state's fluents: a pure "
                   "weighed count (a model with context attention)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_dead_end_head)

    p = sub.add_parser("retarget", help="rewrite a heuristic model for a domain that differs only in names",
                       description="Write MODEL for DOMAIN, a PDDL domain that is the model's training "
                       "domain up to the names of predicates and types (IPC 2023 Blocksworld's on-table and "
                       "arm-empty for the paper's ontable and handempty). The renaming is found and checked: "
                       "every action must match one of the other domain's (parameter types, preconditions, "
                       "effects). Only names change, not weights.")
    p.add_argument("model", help="a shipped heuristic's name (see `symt models`) or an exported model file")
    p.add_argument("domain", type=Path, help="the PDDL domain to write the model for")
    p.add_argument("output", type=Path, help="the model file to write")
    p.add_argument("--source-domain", type=Path, metavar="FILE",
                   help="the domain the model was trained on (default: the shipped paper domain with its predicates)")
    p.add_argument("--map", action="append", default=[], metavar="SOURCE=TARGET",
                   help="pin a predicate or type name (repeatable) where the domains match in several ways")
    p.set_defaults(func=cmd_retarget)
