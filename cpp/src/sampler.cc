// Sampler: states uniformly over goal distances, then uniformly within a layer, and optimal plans
// uniformly over all optimal plans (xoshiro256**, seeded by splitmix64). See state_space.hpp.
#include "symt/state_space.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "mix64.hpp"

namespace symt {

Sampler::Sampler(const StateSpace& space, uint64_t seed) : space_(&space) {
  uint64_t x = seed;
  for (uint64_t& word : s_) {  // splitmix64
    x += 0x9E3779B97F4A7C15ULL;
    word = mix64(x);
  }
}

uint64_t Sampler::next_u64() {  // xoshiro256**
  auto rotl = [](uint64_t v, int k) { return (v << k) | (v >> (64 - k)); };
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

uint64_t Sampler::bounded(uint64_t n) {
  if (n == 0) throw std::invalid_argument("bounded(0)");
  // Reject the lowest (2^64 mod n) values so that every residue is equally likely.
  const uint64_t threshold = (0 - n) % n;
  while (true) {
    const uint64_t r = next_u64();
    if (r >= threshold) return r % n;
  }
}

double Sampler::uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

int32_t Sampler::sample_state() {
  const StateSpace& sp = *space_;
  if (sp.max_steps_ < 0) {
    throw std::runtime_error("cannot sample states: no goal state is reachable");
  }
  const std::size_t d = static_cast<std::size_t>(bounded(static_cast<uint64_t>(sp.max_steps_) + 1));
  const int64_t begin = sp.layer_offsets_[d];
  const int64_t size = sp.layer_offsets_[d + 1] - begin;
  const uint64_t k = bounded(static_cast<uint64_t>(size));
  return sp.layer_states_[static_cast<std::size_t>(begin + static_cast<int64_t>(k))];
}

std::vector<int32_t> Sampler::random_optimal_plan(int64_t state) {
  const StateSpace& sp = *space_;
  sp.check_state(state);
  std::size_t s = static_cast<std::size_t>(state);
  if (sp.steps()[s] == kHstarInfinity) {
    throw std::invalid_argument("state " + std::to_string(state) +
                                " is a dead end: no plan reaches the goal");
  }
  const std::vector<int32_t>& d_of = sp.steps();
  std::vector<int32_t> plan;
  plan.reserve(static_cast<std::size_t>(d_of[s]));
  while (d_of[s] > 0) {
    double total = 0.0;
    for (int64_t i = sp.offsets_[s]; i < sp.offsets_[s + 1]; ++i) {
      if (sp.optimal_transition(s, i)) {
        total += sp.plan_weight_[static_cast<std::size_t>(sp.targets_[static_cast<std::size_t>(i)])];
      }
    }
    const double r = uniform01() * total;
    double acc = 0.0;
    int64_t chosen = -1;
    for (int64_t i = sp.offsets_[s]; i < sp.offsets_[s + 1]; ++i) {
      if (!sp.optimal_transition(s, i)) continue;
      chosen = i;  // the last optimal transition absorbs rounding at the top end
      acc += sp.plan_weight_[static_cast<std::size_t>(sp.targets_[static_cast<std::size_t>(i)])];
      if (r < acc) break;
    }
    const std::size_t c = static_cast<std::size_t>(chosen);
    plan.push_back(sp.actions_[c]);
    s = static_cast<std::size_t>(sp.targets_[c]);
  }
  return plan;
}

}  // namespace symt
