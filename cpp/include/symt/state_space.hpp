// Explicit state-space expansion of grounded STRIPS tasks (pure C++17, no Python).
//
// The expander runs a forward breadth-first search from the initial state, stores every reachable
// state as a packed bitset, records the transition graph in CSR form, and computes the perfect
// heuristic h* by a backward breadth-first search from all goal states (with action costs, a
// backward Dijkstra search). A Sampler draws training states (uniform over goal distances, then
// uniform within the distance layer) and uniformly random optimal plans.
//
// Conventions
// - States are numbered in forward BFS order; state 0 is the initial state.
// - Transitions s --a--> t with t == s (self-loops) are skipped: they never lie on an optimal plan
//   and only inflate the graph. Parallel transitions (different actions leading to the same target)
//   are all kept, because they are different plans.
// - The successors of a state are listed in increasing action id.
// - h* of a dead end (no goal state reachable) is kHstarInfinity.
// - With action costs, h* is the cheapest cost to the goal, and a state's *steps* the fewest actions
//   among its cheapest plans (a lexicographic Dijkstra search on (cost, steps)). An optimal plan is a
//   cheapest plan with the fewest steps: every transition on it lowers the steps by one, so
//   zero-cost actions (whose cycles would make the cheapest plans infinitely many) cannot repeat,
//   and the distance layers, plan counts and sampling work on steps exactly as on h* without
//   costs (where steps == h*).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace symt {

// A grounded STRIPS task as flat arrays. The four per-action fact lists are CSR encoded: the facts
// of action a are values[offsets[a] .. offsets[a + 1]). Offsets have num_actions + 1 entries.
struct TaskArrays {
  int32_t num_fluents = 0;
  std::vector<int64_t> pre_pos_offsets, pre_neg_offsets, add_offsets, del_offsets;
  std::vector<int32_t> pre_pos, pre_neg, add, del;
  std::vector<int32_t> init;
  std::vector<int32_t> goal_pos, goal_neg;
  // False when the goal can never hold (e.g. a static goal atom is false): no state is a goal.
  bool goal_possible = true;
  // The cost of each action (whole numbers >= 0); empty: every action costs 1.
  std::vector<int32_t> costs;

  std::size_t num_actions() const {
    return pre_pos_offsets.empty() ? 0 : pre_pos_offsets.size() - 1;
  }
  // Throws std::invalid_argument when the arrays are inconsistent or indices are out of range.
  void validate() const;
};

struct Limits {
  // Largest number of reachable states accepted (at most 2^31 - 2; ids are int32).
  int64_t max_states = 5'000'000;
  // Largest number of (non-self-loop) transitions accepted (at most 2^62).
  int64_t max_transitions = 500'000'000;
  // Bound on the memory (bytes) of states, hash table, and transition graph together; checked
  // before every allocation that grows them, so a too-large task fails cleanly instead of being
  // killed. 0 means no bound.
  int64_t max_memory_bytes = 0;
};

// Thrown when a Limits bound is exceeded. The message is one user-facing line.
class LimitExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int32_t kHstarInfinity = std::numeric_limits<int32_t>::max();

class StateSpace {
 public:
  // Expands the task. Throws LimitExceeded or std::invalid_argument.
  static StateSpace expand(const TaskArrays& task, const Limits& limits);

  int64_t num_states() const { return num_states_; }
  int64_t num_transitions() const { return static_cast<int64_t>(targets_.size()); }
  int32_t num_fluents() const { return num_fluents_; }
  int32_t num_actions() const { return num_actions_; }
  int32_t words_per_state() const { return words_; }

  // Packed states: state s occupies words [s * words_per_state(), (s + 1) * words_per_state()).
  // Fluent f is bit (f % 64) of word (f / 64).
  const std::vector<uint64_t>& packed_states() const { return states_; }
  const uint64_t* state_words(int64_t s) const { return states_.data() + s * words_; }
  bool holds(int64_t s, int32_t fluent) const {
    return (state_words(s)[fluent >> 6] >> (fluent & 63)) & 1U;
  }
  std::vector<int32_t> state_facts(int64_t s) const;  // sorted fluent indices

  // Transition graph in CSR form: the transitions of s are [offsets[s], offsets[s + 1]).
  const std::vector<int64_t>& transition_offsets() const { return offsets_; }
  const std::vector<int32_t>& transition_actions() const { return actions_; }
  const std::vector<int32_t>& transition_targets() const { return targets_; }

  const std::vector<int32_t>& hstar() const { return hstar_; }  // kHstarInfinity: dead end
  // The fewest steps among the cheapest plans (kHstarInfinity: dead end); h* without costs.
  const std::vector<int32_t>& steps() const { return costs_.empty() ? hstar_ : steps_; }
  // The cost of each action (empty: every action costs 1).
  const std::vector<int32_t>& action_costs() const { return costs_; }
  const std::vector<int32_t>& goal_states() const { return goals_; }
  // Not h* == 0: with zero-cost actions a state may reach the goal for free without being one.
  bool is_goal(int64_t s) const { return steps()[static_cast<std::size_t>(s)] == 0; }
  int32_t max_finite_hstar() const { return max_hstar_; }  // -1 when no goal is reachable
  int32_t max_finite_steps() const { return max_steps_; }  // -1 when no goal is reachable

  // States grouped by steps (h* without costs): the states d steps from the goal are
  // layer_states[layer_offsets[d] .. layer_offsets[d + 1]) in increasing id, for d = 0 ..
  // max_finite_steps().
  const std::vector<int64_t>& layer_offsets() const { return layer_offsets_; }
  const std::vector<int32_t>& layer_states() const { return layer_states_; }

  // Number of optimal plans from s, as a natural logarithm (-inf for dead ends, 0 for goals).
  double log_num_optimal_plans(int64_t s) const;

  // Memory of the packed states plus the dedup hash table (as it was when expansion finished).
  int64_t state_storage_bytes() const { return state_storage_bytes_; }
  // Everything the object holds: states, transitions, h*, layers, plan counts, plus the peak
  // hash table size.
  int64_t memory_bytes() const;
  double seconds() const { return seconds_; }  // expansion wall time (forward + backward + counts)

  void check_state(int64_t s) const;  // throws std::out_of_range

 private:
  friend class Sampler;
  int64_t num_states_ = 0;
  int32_t num_fluents_ = 0;
  int32_t num_actions_ = 0;
  int32_t words_ = 1;
  std::vector<uint64_t> states_;
  std::vector<int64_t> offsets_;
  std::vector<int32_t> actions_;
  std::vector<int32_t> targets_;
  std::vector<int32_t> hstar_;
  std::vector<int32_t> steps_;  // empty without costs (steps == h*)
  std::vector<int32_t> costs_;  // empty without costs
  std::vector<int32_t> goals_;
  int32_t max_hstar_ = -1;
  int32_t max_steps_ = -1;
  std::vector<int64_t> layer_offsets_;
  std::vector<int32_t> layer_states_;
  // Plan counts scaled per layer: N(s) = plan_weight_[s] * exp(layer_log_scale_[steps(s)]), with
  // the largest weight in every layer equal to 1, so the doubles can neither overflow nor lose
  // the ratios that sampling needs (successors of a state all lie in one layer).
  std::vector<double> plan_weight_;
  std::vector<double> layer_log_scale_;
  int64_t state_storage_bytes_ = 0;
  int64_t hash_table_bytes_ = 0;
  double seconds_ = 0.0;

  void compute_hstar();
  void compute_cost_to_go(const std::vector<int64_t>& rev_offsets, const std::vector<int32_t>& rev_sources,
                          const std::vector<int32_t>& rev_actions);
  void compute_layers();
  void compute_plan_counts();
  // Whether transition i (of state s) lies on an optimal plan: one step closer, and, with costs,
  // exactly its action's cost cheaper.
  bool optimal_transition(std::size_t s, int64_t i) const;
};

// Deterministic random sampling over a StateSpace (which must outlive the sampler). Uses
// xoshiro256** seeded through splitmix64 and unbiased bounded integers (Lemire's method with
// rejection), so results depend only on the seed, never on the standard library.
class Sampler {
 public:
  Sampler(const StateSpace& space, uint64_t seed);

  // A state whose goal distance is uniform over the finite h* values that occur, and uniform among
  // the states at that distance. Throws std::runtime_error when no goal state is reachable.
  int32_t sample_state();
  // A uniformly random optimal plan from s (action ids; empty for goal states). Throws
  // std::invalid_argument for dead ends and std::out_of_range for bad ids.
  std::vector<int32_t> random_optimal_plan(int64_t s);

  uint64_t next_u64();
  uint64_t bounded(uint64_t n);  // uniform in [0, n), n > 0
  double uniform01();            // uniform in [0, 1) with 53 random bits

 private:
  const StateSpace* space_;
  uint64_t s_[4];
};

}  // namespace symt
