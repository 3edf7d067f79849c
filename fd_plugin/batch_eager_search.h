#ifndef SYMT_BATCH_EAGER_SEARCH_H
#define SYMT_BATCH_EAGER_SEARCH_H

/*
  batch_eager_greedy: Fast Downward 19.06's eager greedy best-first search (eager_greedy) with
  one change -- before the successors of an expanded state are inserted into the open list, all
  of them that are new are evaluated by every symt() heuristic among the search's evaluators in
  a single forward pass. The insertion loop itself is eager_search.cc's, unchanged, so the
  open list sees the same values in the same order: the same plans as eager_greedy with the same
  evaluators (up to floating-point differences between batched and single evaluations, which
  rounding to integers absorbs).

  Also unlike eager_greedy, a state's preferred operators are kept from the evaluation that put
  it into the open list (where every preferred-operator evaluator was evaluated there and none
  is path-dependent, as h^FF in symt-first), instead of evaluated again when it is expanded: the
  same operators (such a heuristic's are a function of the state), one h^FF computation less per
  expansion.

  expansions_per_batch=K > 1 expands the K best open states together and evaluates all their new
  successors in one pass (K-best-first search): larger batches for the model, at the price of a
  different expansion order (up to K-1 states expanded that eager_greedy would not have).

  Adapted from Fast Downward 19.06 (search_engines/eager_search.{h,cc}, GPL-3.0-or-later), without
  the parts eager_greedy does not use (f-evaluator, lazy evaluator, reopening).
*/

#include "open_list.h"
#include "per_state_information.h"
#include "search_engine.h"

#include "algorithms/ordered_set.h"

#include <optional.hh>
#include <memory>
#include <vector>

class Evaluator;
class PruningMethod;

namespace symt {
class BatchEvaluator;

class BatchEagerSearch : public SearchEngine {
    std::unique_ptr<StateOpenList> open_list;
    std::vector<Evaluator *> path_dependent_evaluators;
    std::vector<std::shared_ptr<Evaluator>> preferred_operator_evaluators;
    // The evaluators that are symt() heuristics (kept alive by the open list's shared pointers).
    std::vector<BatchEvaluator *> batch_evaluators;
    std::shared_ptr<PruningMethod> pruning_method;
    int expansions_per_batch;
    // A state's preferred operators as its insertion's evaluation gave them (`known`), until it
    // is expanded.
    struct KeptPreferred {
        bool known = false;
        std::vector<OperatorID> operators;
    };
    PerStateInformation<KeptPreferred> kept_preferred;
    // Whether any may be kept: there are preferred-operator evaluators and none is path-dependent
    // (lmcount may see a state otherwise by its expansion). Set by initialize().
    bool may_keep_preferred = false;

    void reward_progress();
    // The best open state not yet closed, closed now and counted as expanded; none if the open
    // list runs empty.
    tl::optional<SearchNode> pop_open_node();
    // Keeps the preferred operators of a state just inserted, if they may be kept
    // (may_keep_preferred) and every preferred-operator evaluator was evaluated for it (a value
    // the open list asked for: nothing computed here).
    void keep_preferred(EvaluationContext &eval_context, const GlobalState &state);
    void insert_successors(const SearchNode &node, const std::vector<OperatorID> &ops,
                           const std::vector<GlobalState> &successors,
                           const ordered_set::OrderedSet<OperatorID> &preferred_operators);

protected:
    virtual void initialize() override;
    virtual SearchStatus step() override;

public:
    explicit BatchEagerSearch(const options::Options &opts);
    virtual ~BatchEagerSearch() override = default;

    virtual void print_statistics() const override;
};
}

#endif
