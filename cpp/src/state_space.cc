// Explicit state-space expansion: see state_space.hpp for the conventions.
#include "symt/state_space.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mix64.hpp"

namespace symt {

namespace {

constexpr uint32_t kEmptySlot = 0xFFFFFFFFu;
constexpr int64_t kMaxStateIds = (int64_t{1} << 31) - 2;  // ids are int32, kEmptySlot is reserved

// "5000000" -> "5,000,000".
std::string with_commas(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string out;
  const std::size_t n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(digits[i]);
    const std::size_t rest = n - 1 - i;
    if (rest > 0 && rest % 3 == 0) out.push_back(',');
  }
  return value < 0 ? "-" + out : out;
}

std::string mib(int64_t bytes) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(0);
  os << static_cast<double>(bytes) / (1024.0 * 1024.0) << " MiB";
  return os.str();
}

inline uint64_t hash_words(const uint64_t* words, int32_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(n + 1);
  for (int32_t i = 0; i < n; ++i) h = mix64(h ^ words[i]) + 0x9E3779B97F4A7C15ULL;
  return mix64(h);
}

// A fact set as (word, mask) pairs, one per word touched.
struct WordMask {
  int32_t word;
  uint64_t mask;
};

void append_masks(const int32_t* facts, int64_t count, std::vector<WordMask>& out) {
  std::vector<WordMask> local;
  for (int64_t i = 0; i < count; ++i) {
    const int32_t f = facts[i];
    const int32_t w = f >> 6;
    const uint64_t bit = uint64_t{1} << (f & 63);
    auto it = std::find_if(local.begin(), local.end(), [w](const WordMask& m) { return m.word == w; });
    if (it == local.end()) {
      local.push_back({w, bit});
    } else {
      it->mask |= bit;
    }
  }
  std::sort(local.begin(), local.end(),
            [](const WordMask& a, const WordMask& b) { return a.word < b.word; });
  out.insert(out.end(), local.begin(), local.end());
}

// A fact-list family (pre_pos, pre_neg, add, del) compiled to word masks in CSR form.
struct MaskLists {
  std::vector<int64_t> offsets{0};
  std::vector<WordMask> masks;
  void add(const int32_t* facts, int64_t count) {
    append_masks(facts, count, masks);
    offsets.push_back(static_cast<int64_t>(masks.size()));
  }
  const WordMask* begin(std::size_t i) const { return masks.data() + offsets[i]; }
  const WordMask* end(std::size_t i) const { return masks.data() + offsets[i + 1]; }
};

inline bool all_set(const uint64_t* s, const WordMask* b, const WordMask* e) {
  for (; b != e; ++b) {
    if ((s[b->word] & b->mask) != b->mask) return false;
  }
  return true;
}

inline bool none_set(const uint64_t* s, const WordMask* b, const WordMask* e) {
  for (; b != e; ++b) {
    if (s[b->word] & b->mask) return false;
  }
  return true;
}

// The compiled task: masks per action plus a one-level successor generator. Every action with a
// positive precondition is filed under one "key" precondition fact (the one that occurs in the
// fewest positive preconditions, so buckets stay small); expanding a state only looks at the
// buckets of its true facts, plus the actions with no positive precondition.
struct CompiledTask {
  int32_t words = 1;
  std::size_t num_actions = 0;
  MaskLists pre_pos, pre_neg, add, del;
  std::vector<WordMask> goal_pos, goal_neg;
  bool goal_possible = true;
  std::vector<int64_t> bucket_offsets;  // per fluent
  std::vector<int32_t> bucket_actions;
  std::vector<int32_t> unkeyed_actions;

  explicit CompiledTask(const TaskArrays& t) {
    words = std::max<int32_t>(1, (t.num_fluents + 63) / 64);
    num_actions = t.num_actions();
    std::vector<int64_t> occurrences(static_cast<std::size_t>(t.num_fluents), 0);
    for (int32_t f : t.pre_pos) ++occurrences[static_cast<std::size_t>(f)];
    std::vector<int32_t> key(num_actions, -1);
    for (std::size_t a = 0; a < num_actions; ++a) {
      pre_pos.add(t.pre_pos.data() + t.pre_pos_offsets[a],
                  t.pre_pos_offsets[a + 1] - t.pre_pos_offsets[a]);
      pre_neg.add(t.pre_neg.data() + t.pre_neg_offsets[a],
                  t.pre_neg_offsets[a + 1] - t.pre_neg_offsets[a]);
      add.add(t.add.data() + t.add_offsets[a], t.add_offsets[a + 1] - t.add_offsets[a]);
      del.add(t.del.data() + t.del_offsets[a], t.del_offsets[a + 1] - t.del_offsets[a]);
      for (int64_t i = t.pre_pos_offsets[a]; i < t.pre_pos_offsets[a + 1]; ++i) {
        const int32_t f = t.pre_pos[static_cast<std::size_t>(i)];
        if (key[a] < 0 || occurrences[static_cast<std::size_t>(f)] <
                              occurrences[static_cast<std::size_t>(key[a])]) {
          key[a] = f;
        }
      }
    }
    bucket_offsets.assign(static_cast<std::size_t>(t.num_fluents) + 1, 0);
    for (std::size_t a = 0; a < num_actions; ++a) {
      if (key[a] >= 0) {
        ++bucket_offsets[static_cast<std::size_t>(key[a]) + 1];
      } else {
        unkeyed_actions.push_back(static_cast<int32_t>(a));
      }
    }
    for (std::size_t f = 0; f < static_cast<std::size_t>(t.num_fluents); ++f) {
      bucket_offsets[f + 1] += bucket_offsets[f];
    }
    bucket_actions.resize(static_cast<std::size_t>(bucket_offsets.back()));
    std::vector<int64_t> fill(bucket_offsets.begin(), bucket_offsets.end() - 1);
    for (std::size_t a = 0; a < num_actions; ++a) {  // increasing a: buckets stay sorted
      if (key[a] >= 0) {
        bucket_actions[static_cast<std::size_t>(fill[static_cast<std::size_t>(key[a])]++)] =
            static_cast<int32_t>(a);
      }
    }
    append_masks(t.goal_pos.data(), static_cast<int64_t>(t.goal_pos.size()), goal_pos);
    append_masks(t.goal_neg.data(), static_cast<int64_t>(t.goal_neg.size()), goal_neg);
    goal_possible = t.goal_possible;
  }

  bool applicable(std::size_t a, const uint64_t* s) const {
    return all_set(s, pre_pos.begin(a), pre_pos.end(a)) &&
           none_set(s, pre_neg.begin(a), pre_neg.end(a));
  }

  bool is_goal(const uint64_t* s) const {
    return goal_possible && all_set(s, goal_pos.data(), goal_pos.data() + goal_pos.size()) &&
           none_set(s, goal_neg.data(), goal_neg.data() + goal_neg.size());
  }

  // Appends the applicable actions of s to out, in increasing action id.
  void applicable_actions(const uint64_t* s, std::vector<int32_t>& out) const {
    out.clear();
    for (int32_t w = 0; w < words; ++w) {
      uint64_t bits = s[w];
      while (bits) {
        const int bit = __builtin_ctzll(bits);
        bits &= bits - 1;
        const std::size_t f = static_cast<std::size_t>(w) * 64 + static_cast<std::size_t>(bit);
        for (int64_t i = bucket_offsets[f]; i < bucket_offsets[f + 1]; ++i) {
          const int32_t a = bucket_actions[static_cast<std::size_t>(i)];
          if (applicable(static_cast<std::size_t>(a), s)) out.push_back(a);
        }
      }
    }
    for (int32_t a : unkeyed_actions) {
      if (applicable(static_cast<std::size_t>(a), s)) out.push_back(a);
    }
    std::sort(out.begin(), out.end());
  }

  // STRIPS successor: delete first, then add.
  void apply(std::size_t a, const uint64_t* s, uint64_t* out) const {
    std::memcpy(out, s, static_cast<std::size_t>(words) * sizeof(uint64_t));
    for (const WordMask* m = del.begin(a); m != del.end(a); ++m) out[m->word] &= ~m->mask;
    for (const WordMask* m = add.begin(a); m != add.end(a); ++m) out[m->word] |= m->mask;
  }
};

// Growable storage with explicit capacity control, so every allocation is checked against the
// memory bound before it happens.
class MemoryGuard {
 public:
  explicit MemoryGuard(int64_t max_bytes) : max_bytes_(max_bytes) {}

  // Ensures v can hold `needed` elements; grows geometrically up to `cap_limit` elements.
  template <typename T>
  void reserve_for(std::vector<T>& v, std::size_t needed, std::size_t cap_limit,
                   int64_t bytes_in_use) const {
    if (needed <= v.capacity()) return;
    std::size_t cap = std::max<std::size_t>(v.capacity() * 2, 1024);
    cap = std::max(std::min(cap, cap_limit), needed);
    check(bytes_in_use + static_cast<int64_t>(cap * sizeof(T)));
    v.reserve(cap);
  }

  void check(int64_t bytes) const {
    if (max_bytes_ > 0 && bytes > max_bytes_) {
      throw LimitExceeded("state space needs more than " + mib(max_bytes_) +
                          " of memory (the memory limit; it needed " + mib(bytes) + ")");
    }
  }

 private:
  int64_t max_bytes_;
};

template <typename T>
int64_t capacity_bytes(const std::vector<T>& v) {
  return static_cast<int64_t>(v.capacity() * sizeof(T));
}

}  // namespace

void TaskArrays::validate() const {
  if (num_fluents < 0) throw std::invalid_argument("num_fluents must be non-negative");
  const std::size_t n = num_actions();
  const std::pair<const std::vector<int64_t>*, const std::vector<int32_t>*> lists[] = {
      {&pre_pos_offsets, &pre_pos}, {&pre_neg_offsets, &pre_neg}, {&add_offsets, &add},
      {&del_offsets, &del}};
  const char* names[] = {"pre_pos", "pre_neg", "add", "del"};
  for (int k = 0; k < 4; ++k) {
    const auto& offsets = *lists[k].first;
    const auto& values = *lists[k].second;
    if (offsets.size() != n + 1 && !(n == 0 && offsets.empty())) {
      throw std::invalid_argument(std::string(names[k]) + " offsets have the wrong length");
    }
    if (!offsets.empty() &&
        (offsets.front() != 0 || offsets.back() != static_cast<int64_t>(values.size()))) {
      throw std::invalid_argument(std::string(names[k]) + " offsets do not span the values");
    }
    for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
      if (offsets[i] > offsets[i + 1]) {
        throw std::invalid_argument(std::string(names[k]) + " offsets are not monotone");
      }
    }
    for (int32_t f : values) {
      if (f < 0 || f >= num_fluents) {
        throw std::invalid_argument(std::string(names[k]) + " has a fluent index out of range");
      }
    }
  }
  for (const auto* v : {&init, &goal_pos, &goal_neg}) {
    for (int32_t f : *v) {
      if (f < 0 || f >= num_fluents) {
        throw std::invalid_argument("init/goal has a fluent index out of range");
      }
    }
  }
  if (!costs.empty() && costs.size() != n) {
    throw std::invalid_argument("costs must have one entry per action (or none)");
  }
  for (int32_t c : costs) {
    if (c < 0) throw std::invalid_argument("action costs must be non-negative");
  }
}

StateSpace StateSpace::expand(const TaskArrays& task, const Limits& limits) {
  const auto start = std::chrono::steady_clock::now();
  task.validate();
  if (limits.max_states < 1) throw std::invalid_argument("max_states must be at least 1");
  if (limits.max_transitions < 0) throw std::invalid_argument("max_transitions must be >= 0");
  if (task.num_actions() > static_cast<std::size_t>(kMaxStateIds)) {
    throw std::invalid_argument("too many actions for int32 action ids");
  }
  const int64_t max_states = std::min(limits.max_states, kMaxStateIds);
  const CompiledTask ct(task);
  const MemoryGuard guard(limits.max_memory_bytes);

  StateSpace sp;
  sp.num_fluents_ = task.num_fluents;
  sp.num_actions_ = static_cast<int32_t>(task.num_actions());
  // Costs all 1 are no costs: the breadth-first search and steps == h* hold.
  if (std::any_of(task.costs.begin(), task.costs.end(), [](int32_t c) { return c != 1; })) {
    sp.costs_ = task.costs;
  }
  sp.words_ = ct.words;
  const int32_t W = ct.words;
  const std::size_t uW = static_cast<std::size_t>(W);

  // Dedup table: open addressing with linear probing over uint32 slots, load factor <= 0.7.
  // A slot holds the state id in its low id_bits bits and the top bits of the state's hash as a
  // tag in the others, so probes that meet a different state rarely touch the state storage.
  // Ids are below max_states < 2^id_bits, so an occupied slot never equals kEmptySlot.
  int id_bits = 1;
  while (id_bits < 31 && (int64_t{1} << id_bits) <= max_states) ++id_bits;
  const int tag_bits = 32 - id_bits;  // >= 1
  const uint32_t id_mask = static_cast<uint32_t>((uint64_t{1} << id_bits) - 1);
  auto tag_of = [&](uint64_t h) {
    return static_cast<uint32_t>(h >> (64 - tag_bits)) << id_bits;
  };
  std::vector<uint32_t> slots(1024, kEmptySlot);
  uint64_t slot_mask = slots.size() - 1;

  auto bytes_in_use = [&]() {
    return capacity_bytes(sp.states_) + capacity_bytes(slots) + capacity_bytes(sp.offsets_) +
           capacity_bytes(sp.actions_) + capacity_bytes(sp.targets_);
  };
  auto equal_words = [uW](const uint64_t* a, const uint64_t* b) {
    for (std::size_t k = 0; k < uW; ++k) {
      if (a[k] != b[k]) return false;
    }
    return true;
  };

  // Finds the id of the packed state `s` with hash `h`, inserting it when new.
  auto find_or_insert = [&](const uint64_t* s, uint64_t h) -> int32_t {
    const uint32_t tag = tag_of(h);
    uint64_t i = h & slot_mask;
    while (true) {
      const uint32_t slot = slots[i];
      if (slot == kEmptySlot) break;
      if ((slot & ~id_mask) == tag) {
        const uint32_t id = slot & id_mask;
        if (equal_words(sp.states_.data() + static_cast<std::size_t>(id) * uW, s)) {
          return static_cast<int32_t>(id);
        }
      }
      i = (i + 1) & slot_mask;
    }
    if (sp.num_states_ >= max_states) {
      throw LimitExceeded("state space exceeds the limit of " + with_commas(max_states) +
                          " states (raise --max-states)");
    }
    const int64_t id = sp.num_states_;
    guard.reserve_for(sp.states_, static_cast<std::size_t>(id + 1) * uW,
                      static_cast<std::size_t>(max_states) * uW, bytes_in_use());
    sp.states_.insert(sp.states_.end(), s, s + W);
    slots[i] = tag | static_cast<uint32_t>(id);
    ++sp.num_states_;
    // Keep the load factor at most 0.7: double the table and reinsert.
    if (static_cast<uint64_t>(sp.num_states_) * 10 > slots.size() * 7) {
      const std::size_t new_size = slots.size() * 2;
      guard.check(bytes_in_use() + static_cast<int64_t>(new_size * sizeof(uint32_t)));
      std::vector<uint32_t>(new_size, kEmptySlot).swap(slots);
      slot_mask = new_size - 1;
      for (int64_t k = 0; k < sp.num_states_; ++k) {
        const uint64_t hk = hash_words(sp.states_.data() + static_cast<std::size_t>(k) * uW, W);
        uint64_t j = hk & slot_mask;
        while (slots[j] != kEmptySlot) j = (j + 1) & slot_mask;
        slots[j] = tag_of(hk) | static_cast<uint32_t>(k);
      }
    }
    return static_cast<int32_t>(id);
  };

  std::vector<uint64_t> buffer(uW, 0);
  for (int32_t f : task.init) buffer[static_cast<std::size_t>(f >> 6)] |= uint64_t{1} << (f & 63);
  find_or_insert(buffer.data(), hash_words(buffer.data(), W));

  std::vector<int32_t> applicable;
  std::vector<int32_t> succ_actions;
  std::vector<uint64_t> succ_words;  // the successors of one state, W words each
  std::vector<uint64_t> succ_hashes;
  std::vector<uint64_t> current(uW);
  sp.offsets_.push_back(0);
  for (int64_t s = 0; s < sp.num_states_; ++s) {  // the BFS queue is the id order itself
    std::memcpy(current.data(), sp.state_words(s), uW * sizeof(uint64_t));
    if (ct.is_goal(current.data())) sp.goals_.push_back(static_cast<int32_t>(s));
    ct.applicable_actions(current.data(), applicable);
    // Generate all successors first and prefetch their hash slots, so the cache misses of the
    // lookups overlap instead of being paid one after another.
    succ_words.resize(applicable.size() * uW);
    succ_hashes.clear();
    succ_actions.clear();
    for (int32_t a : applicable) {
      uint64_t* out = succ_words.data() + succ_actions.size() * uW;
      ct.apply(static_cast<std::size_t>(a), current.data(), out);
      if (equal_words(out, current.data())) continue;  // self-loop
      const uint64_t h = hash_words(out, W);
      __builtin_prefetch(slots.data() + (h & slot_mask));
      succ_actions.push_back(a);
      succ_hashes.push_back(h);
    }
    for (std::size_t k = 0; k < succ_actions.size(); ++k) {
      const int32_t t = find_or_insert(succ_words.data() + k * uW, succ_hashes[k]);
      const std::size_t n = sp.targets_.size();
      if (static_cast<int64_t>(n) >= limits.max_transitions) {
        throw LimitExceeded("transition graph exceeds the limit of " +
                            with_commas(limits.max_transitions) + " transitions (after " +
                            with_commas(s) + " expanded states)");
      }
      const std::size_t cap_limit = static_cast<std::size_t>(limits.max_transitions);
      if (n == sp.targets_.capacity()) {
        // Both arrays grow together; check their joint growth.
        const std::size_t cap = std::max(std::min(std::max<std::size_t>(n * 2, 4096), cap_limit),
                                         n + 1);
        guard.check(bytes_in_use() + static_cast<int64_t>(cap * 2 * sizeof(int32_t)));
        sp.actions_.reserve(cap);
        sp.targets_.reserve(cap);
      }
      sp.actions_.push_back(succ_actions[k]);
      sp.targets_.push_back(t);
    }
    guard.reserve_for(sp.offsets_, static_cast<std::size_t>(s) + 2,
                      static_cast<std::size_t>(max_states) + 1, bytes_in_use());
    sp.offsets_.push_back(static_cast<int64_t>(sp.targets_.size()));
  }

  sp.hash_table_bytes_ = capacity_bytes(slots);
  std::vector<uint32_t>().swap(slots);
  sp.states_.shrink_to_fit();
  sp.offsets_.shrink_to_fit();
  sp.actions_.shrink_to_fit();
  sp.targets_.shrink_to_fit();
  sp.state_storage_bytes_ = capacity_bytes(sp.states_) + sp.hash_table_bytes_;

  // The backward search needs a reverse graph: 4 bytes per transition + 8 per state.
  guard.check(sp.memory_bytes() + sp.num_transitions() * 4 + (sp.num_states_ + 1) * 8 +
              sp.num_states_ * 4);
  sp.compute_hstar();
  sp.compute_plan_counts();
  sp.seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return sp;
}

void StateSpace::check_state(int64_t s) const {
  if (s < 0 || s >= num_states_) {
    throw std::out_of_range("state id " + std::to_string(s) + " out of range [0, " +
                            std::to_string(num_states_) + ")");
  }
}

std::vector<int32_t> StateSpace::state_facts(int64_t s) const {
  check_state(s);
  std::vector<int32_t> facts;
  const uint64_t* w = state_words(s);
  for (int32_t i = 0; i < words_; ++i) {
    uint64_t bits = w[i];
    while (bits) {
      facts.push_back(i * 64 + __builtin_ctzll(bits));
      bits &= bits - 1;
    }
  }
  return facts;
}

double StateSpace::log_num_optimal_plans(int64_t s) const {
  check_state(s);
  const int32_t d = steps()[static_cast<std::size_t>(s)];
  if (d == kHstarInfinity) return -std::numeric_limits<double>::infinity();
  return std::log(plan_weight_[static_cast<std::size_t>(s)]) +
         layer_log_scale_[static_cast<std::size_t>(d)];
}

int64_t StateSpace::memory_bytes() const {
  return capacity_bytes(states_) + hash_table_bytes_ + capacity_bytes(offsets_) +
         capacity_bytes(actions_) + capacity_bytes(targets_) + capacity_bytes(hstar_) +
         capacity_bytes(steps_) + capacity_bytes(costs_) +
         capacity_bytes(goals_) + capacity_bytes(layer_offsets_) + capacity_bytes(layer_states_) +
         capacity_bytes(plan_weight_) + capacity_bytes(layer_log_scale_);
}

}  // namespace symt
