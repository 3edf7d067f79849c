#ifndef SYMT_LOCAL_H
#define SYMT_LOCAL_H

/*
  A local model's values from its parents' (symt_local_hops > 0: objects attention without global
  tokens; python/symt/model_local.py is the reference this follows). Each token of such a model
  reads only what lies within `hops` steps of it in a state's object graph (two objects are
  neighbours where one of the state's atoms names both or a context atom links them), and a
  state's value is the readout of a sum of its atoms' terms. So a successor's value needs new
  terms only for the atoms near the atoms it does not share with its parent: the atoms that
  changed or name an object within `hops` steps of a changed atom's objects, computed by one
  pass over the child's atoms that name an object within 2 `hops` steps (a border wide enough
  that the atoms recomputed see all they would see in the whole state). Every other atom keeps
  its parent's term, and the sum changes by the difference.

  This class keeps the evaluated states (their rows, terms and sum, oldest dropped beyond a
  memory budget) and the parents the search announced, and plans each update; the heuristic
  runs the passes (symt_heuristic.cc). A state is its sorted row ids into the heuristic's table
  of token rows (pred, args...).
*/

#include <torch/script.h>

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace symt {
struct RowsHash {
    size_t operator()(const std::vector<int> &rows) const;
};

// One evaluated state: its rows (sorted), each row's term [rows x term_width], their sum.
struct LocalEntry {
    std::vector<int> rows;
    std::vector<float> terms;
    std::vector<double> total;
};

// What an update computes again: the child's rows one pass reads, whether each of them is near
// the change (its term is replaced), and which of the parent's rows are near (their terms leave
// the sum).
struct LocalPlan {
    std::vector<int> read;
    std::vector<char> read_near;
    std::vector<size_t> parent_near;   // indices into the parent's rows
};

class LocalStates {
    int64_t hops;
    int64_t width;                           // 1 + max arity: one token row per atom
    int64_t pad_token;
    const std::vector<int64_t> &table;       // token rows [R, width]
    std::unordered_map<int64_t, std::vector<int64_t>> linked;   // object -> objects a context atom links
    std::unordered_map<std::vector<int>, LocalEntry, RowsHash> entries;
    std::deque<std::vector<int>> order;      // evaluated states, oldest first
    size_t stored_bytes = 0;
    size_t budget_bytes;
    // Child -> parent, as the search announced them since the last evaluation.
    std::unordered_map<std::vector<int>, std::vector<int>, RowsHash> pending;

    void objects_of(int row, std::vector<int64_t> &objects) const;

public:
    int64_t term_width;

    LocalStates(int64_t hops, int64_t width, int64_t pad_token, const std::vector<int64_t> &table,
                const at::Tensor &links, int64_t term_width, size_t budget_bytes);

    void note_transition(std::vector<int> parent, std::vector<int> child);
    void clear_transitions();
    // The evaluated parent the search announced for `child`, or null.
    const LocalEntry *parent_of(const std::vector<int> &child) const;
    LocalPlan plan(const LocalEntry &parent, const std::vector<int> &child) const;
    // The child's entry from the parent's and the terms of plan.read computed again.
    LocalEntry combine(const LocalEntry *parent, const std::vector<int> &child, const LocalPlan &plan,
                       const float *read_terms) const;
    void store(LocalEntry entry);
};
}

#endif
