"""The trainers: what a training run does, apart from the network (:mod:`symt.model`) it trains.

* :mod:`.config`: :class:`~symt.training.config.TrainConfig`, the options of a SymT-E run;
* :mod:`.base`: what every trainer shares (run folder, checkpoints, resume, optimiser, schedule,
  log, Ctrl-C; :class:`~symt.training.base.TrainerBase`);
* :mod:`.trainer`: SymT-E's trainer (:class:`~symt.training.trainer.Trainer`: batches, the
  paper's loss, validation, checkpoint choice);
* :mod:`.losses`: the paper's contrastive terms and the sibling-ranking loss;
* :mod:`.wl`: the WL baseline's training (WLPlan features, a linear model).

The plan generators' trainer (:mod:`symt.plangen.train`) builds on :mod:`.base` and :mod:`.config`.
"""
