#ifndef SYMT_BATCHED_HEURISTIC_H
#define SYMT_BATCHED_HEURISTIC_H

/*
  The batching that symt() and wl() share, compiled into the `downward` binary (no libtorch, no
  libpython): batch_eager_greedy hands a heuristic all new successors of an expansion at once
  (BatchEvaluator), and the heuristic keeps their values for the compute_heuristic calls that
  follow. A learned model pays per call far more than per state, so one call per expansion
  instead of one per successor is most of its speed in search.
*/

#include "heuristic.h"
#include "per_state_information.h"

#include <vector>

class GlobalState;
class State;

namespace symt {
/*
  Evaluates several states in one call and keeps the values for the compute_heuristic calls that
  follow. batch_eager_greedy finds it with dynamic_cast among its evaluators.
*/
class BatchEvaluator {
public:
    virtual ~BatchEvaluator();
    // batch_eager_greedy announces each new successor's parent before the batch is evaluated
    // (Fast Downward's notify_state_transition comes only after): a local model computes a
    // successor's value from its parent's (symt_local.h).
    virtual void announce_transition(const GlobalState &parent, const GlobalState &state);
    virtual void evaluate_batch(const std::vector<GlobalState> &states) = 0;
};

/*
  A heuristic whose values come from a model, many states per call. Goal states get 0 without a
  model call; each state is sent once, even if listed twice in a batch; a state evaluated in a
  batch is not sent again. Subclasses implement evaluate().
*/
// Int vectors handed out and taken back with their buffers: a state's values or atom rows are
// thousands of ints on large tasks, and a fresh vector for every state evaluated was much of a
// search's time in malloc (a 4,096-cell Visitall grid). One thread.
class IntVectorPool {
    std::vector<std::vector<int>> free_;
public:
    // An empty vector, with the capacity of one given back if there is one.
    std::vector<int> take();
    // Gives every vector of `vectors` back and empties it.
    void give_all(std::vector<std::vector<int>> &vectors);
};

class BatchedHeuristic : public Heuristic, public BatchEvaluator {
    // Values computed by evaluate_batch for compute_heuristic (NO_BATCH_VALUE: none yet).
    // Below DEAD_END (-1), which a batch may hold.
    static const int NO_BATCH_VALUE = -2;
    PerStateInformation<int> batch_values;

protected:
    IntVectorPool vector_pool;
    // The heuristic values of `states`, each given as its variables' values (no goal states);
    // `registered` holds the same states as the search registered them, or is empty (a state
    // before search, as the constructor's check).
    virtual std::vector<int> evaluate(const std::vector<std::vector<int>> &states,
                                      const std::vector<GlobalState> &registered) = 0;
    // The variables' values of `state`, as evaluate() takes them (in a vector from the pool).
    std::vector<int> variable_values(const State &state);

    virtual int compute_heuristic(const GlobalState &global_state) override final;

public:
    explicit BatchedHeuristic(const options::Options &opts);
    virtual ~BatchedHeuristic() override;

    virtual void evaluate_batch(const std::vector<GlobalState> &states) override final;
};
}

#endif
