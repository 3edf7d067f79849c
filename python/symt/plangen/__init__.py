"""Plan generation (paper, "Plan Generation" and Appendix D): SymT-ED, the PlanGPT baseline and
the decoding strategies greedy, applicability-filtered and regrounding."""
