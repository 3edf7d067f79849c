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

  A model file with layer_terms also returns every token's states after every layer. Keeping
  them for a state halves the border of its successors' passes (plan_layers; the Python
  reference is LocalValues.step): at layer l only the tokens within l - 1 steps of the change's
  objects can differ from the parent's (one step per layer; an object that appears or
  disappears counts from one step earlier, since its linked objects read it at the first
  layer), so the pass reads the atoms naming an object within `hops` steps and every token the
  change has not yet reached takes the parent's states after each layer.

  This class keeps the evaluated states (their rows, terms and sum, oldest dropped beyond a
  memory budget; their layers within a budget of their own) and the parents the search
  announced, and plans each update; the heuristic runs the passes (symt_local_pass.cc). A state
  is its sorted row ids into the heuristic's table of token rows (pred, args...), known by a key
  the heuristic gives each state the search registered (keys by rows cost a state's size in every
  lookup and copy: most of the bookkeeping's time at thousands of atoms).
*/

#include <torch/script.h>

#include <climits>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace symt {
using StateKey = int64_t;

// A state's token states after every layer, float32 [L, tokens, d], held as a difference: the
// rows (sorted) and objects (sorted) whose states this state's pass computed, and the parent's
// LayerStates for every other token. A state passed whole holds all its tokens, and so does a
// state whose differences since the last complete states (its own included) reach that one's
// tokens, or the MAX_GENERATIONS-th, once the search expands it (complete_pending until then;
// LocalStates::complete_parent): a complete copy then costs at most the differences it follows,
// whatever the state's size (a fixed period of 16 copied 10 MB every 16 states on a 3,600-cell
// Visitall grid, and the budget then kept a thousand states' layers), a lookup walks at most
// MAX_GENERATIONS states, and the states never expanded (half of those an eager search
// evaluates) are never copied.
// Live bytes of all of them are counted in *live (LocalStates' budget).
struct LayerStates {
    static constexpr int64_t MAX_GENERATIONS = 64;
    std::shared_ptr<const LayerStates> base;
    int64_t generation = 0;             // differences since the last complete states
    int64_t since_complete = 0;         // their tokens (rows and objects), this state's included
    int64_t complete_tokens = 0;        // the tokens of the last complete states
    bool complete_pending = false;      // to be made complete before its successors' passes
    std::vector<int> rows;
    at::Tensor atoms;
    std::vector<float> terms;           // [rows, term width]: each row's readout term
    std::vector<int64_t> objects;
    at::Tensor object_states;
    size_t *live = nullptr;
    size_t bytes() const;
    ~LayerStates();
    // The tensor holding a row's (an object's) states and its column there; {nullptr, -1} if
    // neither this state nor a base holds it.
    std::pair<const at::Tensor *, int64_t> find_row(int row) const;
    std::pair<const at::Tensor *, int64_t> find_object(int64_t object) const;
    // A row's readout term (term width floats), or null.
    const float *find_term(int row, size_t width) const;
};

// One evaluated state: its rows' terms' sum, and its layers where they are kept; each row's term
// [rows x term_width] where the layers do not hold them (the border path). Its rows are not
// kept: a parent's come with the search's announcement (note_transition), which costs a state's
// size once per announced parent instead of that much memory for every evaluated state.
struct LocalEntry {
    std::vector<float> terms;
    std::vector<double> total;
    std::shared_ptr<LayerStates> layers;
};

// Steps from a change to the objects within reach (LocalStates::distances), in a table by
// object token that every plan shares, so that a plan's lookups and insertions allocate nothing
// (a hash map's nodes were most of a plan's allocations); the objects it reached are cleared
// from the table when it goes. One at a time.
class ObjectSteps {
    std::vector<int32_t> *table;
    std::vector<int64_t> reached_;
public:
    static constexpr int32_t NONE = INT32_MIN;
    explicit ObjectSteps(std::vector<int32_t> &table) : table(&table) {}
    ObjectSteps(ObjectSteps &&other) noexcept : table(other.table), reached_(std::move(other.reached_)) {
        other.reached_.clear();
    }
    ObjectSteps(const ObjectSteps &) = delete;
    ObjectSteps &operator=(const ObjectSteps &) = delete;
    ObjectSteps &operator=(ObjectSteps &&) = delete;
    ~ObjectSteps() {
        for (int64_t object : reached_)
            (*table)[object] = NONE;
    }
    // Records `steps` for `object` unless it has some; true where it was new.
    bool add(int64_t object, int64_t steps) {
        int32_t &entry = (*table)[object];
        if (entry != NONE)
            return false;
        entry = static_cast<int32_t>(steps);
        reached_.push_back(object);
        return true;
    }
    bool has(int64_t object) const {return (*table)[object] != NONE;}
    // The steps of a reached object.
    int64_t at(int64_t object) const {return (*table)[object];}
    const std::vector<int64_t> &reached() const {return reached_;}
};

// What an update computes again: the child's rows one pass reads, whether each of them is near
// the change (its term is replaced), and which of the parent's rows are near (their terms leave
// the sum). A pass from the parent's layers also says, per row read, its distance from the
// change (the least of its objects'; -1 for a row new in the child or a state without a
// parent's layers: computed at every layer), and per object of the pass (sorted) the same; a
// token keeps the parent's states after layer l (0-based) where its distance exceeds l.
struct LocalPlan {
    std::vector<int> read;
    std::vector<char> read_near;
    std::vector<size_t> parent_near;   // indices into the parent's rows
    std::vector<int64_t> read_distance;
    std::vector<int64_t> objects, object_distance;
};

class LocalStates {
    int64_t hops;
    int64_t width;                           // 1 + max arity: one token row per atom
    int64_t pad_token;
    const std::vector<int64_t> &table;       // token rows [R, width]
    std::unordered_map<int64_t, std::vector<int64_t>> linked;   // object -> objects a context atom links
    // object -> the table's rows that name it: a plan explores the change's surroundings from
    // here, in time that grows with the surroundings, not with the state.
    std::unordered_map<int64_t, std::vector<int>> naming;
    static constexpr size_t MANY_ROWS = 8;   // (Visitall: 2 or 3; a Logistics location: every package)
    size_t layer_bytes = 0;                  // live LayerStates' (declared before the entries they count)
    std::unordered_map<StateKey, LocalEntry> entries;
    std::deque<StateKey> order;              // evaluated states, oldest first
    size_t stored_bytes = 0;
    size_t budget_bytes;
    // Child -> parent, as the search announced them since the last evaluation, and the
    // announced parents' rows.
    std::unordered_map<StateKey, StateKey> pending;
    std::unordered_map<StateKey, std::vector<int>> pending_rows;
    StateKey last_parent = -1;

    size_t layer_budget_bytes;
    static constexpr size_t KEEP_NEWEST_LAYERS = 64;
    std::deque<StateKey> layered;            // states whose layers are kept, oldest first

    void objects_of(int row, std::vector<int64_t> &objects) const;
    // Steps from the changed rows' objects (rows in one of `before`, `after` and not the other;
    // with `earlier`, objects named in only one of them start at -1) to every object within
    // `limit` steps in the object graph of both states together.
    ObjectSteps distances(const std::vector<int> &before, const std::vector<int> &after,
                          const std::vector<int> &changed, int64_t limit, bool earlier) const;
    mutable std::vector<int32_t> steps_table;   // ObjectSteps' table: [pad_token + 1]
    // The least distance of a row's objects (`far` where none is within reach).
    int64_t row_distance(int row, const ObjectSteps &distance, int64_t far) const;
    // The sorted objects of `rows`.
    std::vector<int64_t> objects_of_rows(const std::vector<int> &rows) const;

public:
    int64_t term_width;

    LocalStates(int64_t hops, int64_t width, int64_t pad_token, const std::vector<int64_t> &table,
                const at::Tensor &links, int64_t term_width, size_t budget_bytes, size_t layer_budget_bytes);

    // The search's transition parent -> child; `parent_rows` gives the parent's rows, called
    // once per parent until the transitions are cleared (the last parent's are kept).
    void note_transition(StateKey parent, StateKey child, const std::function<std::vector<int>()> &parent_rows);
    void clear_transitions();
    // The evaluated parent the search announced for `child` and its rows, or {null, null}.
    std::pair<const LocalEntry *, const std::vector<int> *> parent_of(StateKey child) const;
    // (`before`: the parent's rows.)
    LocalPlan plan(const std::vector<int> &before, const std::vector<int> &child) const;
    // A pass from the parent's layers (parent.layers set), or over the whole child (parent null).
    LocalPlan plan_layers(const LocalEntry *parent, const std::vector<int> *before, const std::vector<int> &child) const;
    // Makes the parent's layers complete where they wait for it (complete_pending); `rows` are the
    // parent's. Before its successors' passes: they then read its tokens from one LayerStates.
    void complete_parent(const LocalEntry &parent, const std::vector<int> &rows);
    // The child's layers: the pass's states (`atoms` [L, rows, d], `object_states` [L, objects, d])
    // and terms ([rows, term width]) for the tokens it wrote (`rows`, `objects`: sorted; a pass
    // from the parent's need not write a token it keeps after every layer), the parent's for the
    // others (as a difference; complete where the state was passed whole: then `rows` is `child`).
    std::shared_ptr<LayerStates> child_layers(const LocalEntry *parent, const std::vector<int> &child,
                                              std::vector<int> rows, std::vector<int64_t> objects,
                                              const at::Tensor &atoms, const at::Tensor &object_states,
                                              std::vector<float> terms);
    // The child's entry from the parent's (its rows `before`) and the terms of plan.read computed again. With
    // `layers` (plan_layers' plans) the parent's terms come from its layers and the entry keeps
    // none: the work is the change's, not the state's.
    LocalEntry combine(const LocalEntry *parent, const std::vector<int> *before, const std::vector<int> &child,
                       const LocalPlan &plan, const float *read_terms, bool layers) const;
    void store(StateKey key, LocalEntry entry);
    // Live bytes of the kept layers and of the entries (for the statistics line).
    size_t layer_memory() const {return layer_bytes;}
    size_t entry_memory() const {return stored_bytes;}
};
}

#endif
