// Goal distances of an expanded state space: h* (steps or cost) by a backward search from the
// goal states, the states grouped in layers by their steps to the goal, and the relative number
// of optimal plans through each state (what the sampler draws plans by). See state_space.hpp.
#include "symt/state_space.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <tuple>
#include <vector>

namespace symt {

void StateSpace::compute_hstar() {
  const std::size_t n = static_cast<std::size_t>(num_states_);
  hstar_.assign(n, kHstarInfinity);
  if (!costs_.empty()) steps_.assign(n, kHstarInfinity);
  max_hstar_ = -1;
  if (!goals_.empty()) {
    // Reverse CSR (sources of the transitions into each state) by counting sort.
    std::vector<int64_t> rev_offsets(n + 1, 0);
    for (int32_t t : targets_) ++rev_offsets[static_cast<std::size_t>(t) + 1];
    for (std::size_t i = 0; i < n; ++i) rev_offsets[i + 1] += rev_offsets[i];
    std::vector<int32_t> rev_sources(targets_.size());
    std::vector<int32_t> rev_actions(costs_.empty() ? 0 : targets_.size());
    {
      std::vector<int64_t> fill(rev_offsets.begin(), rev_offsets.end() - 1);
      for (std::size_t s = 0; s < n; ++s) {
        for (int64_t i = offsets_[s]; i < offsets_[s + 1]; ++i) {
          const std::size_t t = static_cast<std::size_t>(targets_[static_cast<std::size_t>(i)]);
          const std::size_t k = static_cast<std::size_t>(fill[t]++);
          rev_sources[k] = static_cast<int32_t>(s);
          if (!costs_.empty()) rev_actions[k] = actions_[static_cast<std::size_t>(i)];
        }
      }
    }
    if (!costs_.empty()) {
      compute_cost_to_go(rev_offsets, rev_sources, rev_actions);
      compute_layers();
      return;
    }
    std::vector<int32_t> queue;
    queue.reserve(n);
    for (int32_t g : goals_) {
      hstar_[static_cast<std::size_t>(g)] = 0;
      queue.push_back(g);
    }
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::size_t t = static_cast<std::size_t>(queue[head]);
      const int32_t next = hstar_[t] + 1;
      for (int64_t i = rev_offsets[t]; i < rev_offsets[t + 1]; ++i) {
        const std::size_t s = static_cast<std::size_t>(rev_sources[static_cast<std::size_t>(i)]);
        if (hstar_[s] == kHstarInfinity) {
          hstar_[s] = next;
          queue.push_back(static_cast<int32_t>(s));
        }
      }
    }
    max_hstar_ = hstar_[static_cast<std::size_t>(queue.back())];
  }
  max_steps_ = max_hstar_;
  compute_layers();
}

void StateSpace::compute_cost_to_go(const std::vector<int64_t>& rev_offsets,
                                    const std::vector<int32_t>& rev_sources,
                                    const std::vector<int32_t>& rev_actions) {
  // Backward Dijkstra on (cost, steps), compared lexicographically: the cheapest cost to the
  // goal and, among the cheapest plans, the fewest steps. Stale heap entries are skipped.
  using Entry = std::tuple<int64_t, int32_t, int32_t>;  // cost, steps, state
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  for (int32_t g : goals_) {
    hstar_[static_cast<std::size_t>(g)] = 0;
    steps_[static_cast<std::size_t>(g)] = 0;
    heap.emplace(0, 0, g);
  }
  while (!heap.empty()) {
    const auto [cost, steps, state] = heap.top();
    heap.pop();
    const std::size_t t = static_cast<std::size_t>(state);
    if (cost != hstar_[t] || steps != steps_[t]) continue;
    max_hstar_ = std::max(max_hstar_, hstar_[t]);
    max_steps_ = std::max(max_steps_, steps_[t]);
    for (int64_t i = rev_offsets[t]; i < rev_offsets[t + 1]; ++i) {
      const std::size_t k = static_cast<std::size_t>(i);
      const std::size_t s = static_cast<std::size_t>(rev_sources[k]);
      const int64_t next_cost = cost + costs_[static_cast<std::size_t>(rev_actions[k])];
      const int32_t next_steps = steps + 1;
      if (next_cost >= kHstarInfinity) {
        throw LimitExceeded("a state's cheapest plan costs more than 2^31 - 2");
      }
      if (next_cost < hstar_[s] || (next_cost == hstar_[s] && next_steps < steps_[s])) {
        hstar_[s] = static_cast<int32_t>(next_cost);
        steps_[s] = next_steps;
        heap.emplace(next_cost, next_steps, static_cast<int32_t>(s));
      }
    }
  }
}

void StateSpace::compute_layers() {
  // Layers by steps (counting sort keeps increasing ids inside each layer).
  const std::vector<int32_t>& d_of = steps();
  const std::size_t n = static_cast<std::size_t>(num_states_);
  const std::size_t layers = static_cast<std::size_t>(max_steps_ + 1);
  layer_offsets_.assign(layers + 1, 0);
  for (int32_t d : d_of) {
    if (d != kHstarInfinity) ++layer_offsets_[static_cast<std::size_t>(d) + 1];
  }
  for (std::size_t d = 0; d < layers; ++d) layer_offsets_[d + 1] += layer_offsets_[d];
  layer_states_.resize(static_cast<std::size_t>(layer_offsets_.back()));
  std::vector<int64_t> fill(layer_offsets_.begin(), layer_offsets_.end() - 1);
  for (std::size_t s = 0; s < n; ++s) {
    const int32_t d = d_of[s];
    if (d != kHstarInfinity) {
      layer_states_[static_cast<std::size_t>(fill[static_cast<std::size_t>(d)]++)] =
          static_cast<int32_t>(s);
    }
  }
}

bool StateSpace::optimal_transition(std::size_t s, int64_t i) const {
  const std::size_t k = static_cast<std::size_t>(i);
  const std::size_t t = static_cast<std::size_t>(targets_[k]);
  const std::vector<int32_t>& d_of = steps();
  if (d_of[s] == kHstarInfinity || d_of[t] != d_of[s] - 1) return false;
  return costs_.empty() ||
         int64_t{hstar_[t]} + costs_[static_cast<std::size_t>(actions_[k])] == hstar_[s];
}

void StateSpace::compute_plan_counts() {
  plan_weight_.assign(static_cast<std::size_t>(num_states_), 0.0);
  layer_log_scale_.assign(static_cast<std::size_t>(max_steps_ + 1), 0.0);
  for (int32_t d = 0; d <= max_steps_; ++d) {
    const std::size_t ud = static_cast<std::size_t>(d);
    double layer_max = 0.0;
    for (int64_t k = layer_offsets_[ud]; k < layer_offsets_[ud + 1]; ++k) {
      const std::size_t s = static_cast<std::size_t>(layer_states_[static_cast<std::size_t>(k)]);
      double w = 0.0;
      if (d == 0) {
        w = 1.0;
      } else {
        for (int64_t i = offsets_[s]; i < offsets_[s + 1]; ++i) {
          if (optimal_transition(s, i)) {
            w += plan_weight_[static_cast<std::size_t>(targets_[static_cast<std::size_t>(i)])];
          }
        }
      }
      plan_weight_[s] = w;
      layer_max = std::max(layer_max, w);
    }
    if (layer_max > 0.0) {
      for (int64_t k = layer_offsets_[ud]; k < layer_offsets_[ud + 1]; ++k) {
        plan_weight_[static_cast<std::size_t>(layer_states_[static_cast<std::size_t>(k)])] /=
            layer_max;
      }
    }
    layer_log_scale_[ud] = (d == 0 ? 0.0 : layer_log_scale_[ud - 1]) + std::log(layer_max);
  }
}
}  // namespace symt
