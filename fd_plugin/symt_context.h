#ifndef SYMT_CONTEXT_H
#define SYMT_CONTEXT_H

/*
  The task context that the fast-downward wrapper writes for symt() (symt.formats.write_task_context;
  its layout: symt_heuristic.h), read and checked against the model it was written for. Part of
  libsymt_heuristic.so. Every error ends the run with one line naming the file (and the line) and
  Fast Downward's input-error exit code.
*/

#include <torch/script.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace symt {
// Model formats 2 and 3 only add metadata: the inputs are those of version 1. From version 3 the
// metadata the plugin needs are typed attributes of the module; versions 1 and 2 keep them only in
// symt.json, which the wrapper reads and copies into the task context. Version 4 says whether the
// model caches the task's fixed atoms (symt_context_cache). Version 5's encode_context returns one
// more tensor (the folded type table), which forward_states takes next: the cache is passed whole.
// Version 6 (symt_achieved_goals = 1): a state's atoms that are goal atoms take the ids 2P..3P-1.
constexpr int MIN_FORMAT_VERSION = 1;
constexpr int MAX_FORMAT_VERSION = 6;
constexpr int ATTRIBUTES_SINCE = 3;
constexpr int CONTEXT_CACHE_SINCE = 4;
constexpr int ACHIEVED_GOALS_SINCE = 6;

/* The task context of the model and the task (see symt_heuristic.h), as read_context reads it. */
class SymtContext {
public:
    int64_t model_format_version = 0;
    std::string domain;
    int64_t max_arity = 0;
    int64_t vocab_size = 0;
    std::vector<std::string> predicate_names;  // by state predicate id
    std::vector<int64_t> predicate_arity;      // by state predicate id
    std::unordered_map<std::string, int64_t> predicate_ids;  // lower-cased name -> id
    std::unordered_map<std::string, int64_t> objects;        // lower-cased name -> token
    std::vector<int64_t> fixed_rows;           // flattened [S, 1 + max_arity]
    int64_t num_fixed = 0;
    // The task's predicates (as Fast Downward names its facts) -> the model predicate id and,
    // for each model argument, the fact argument it takes; id -1: no atom of the model (a
    // guard the task makes redundant). The task may spell the model's domain another way
    // (symt.pddl.canonical), so names alone do not say this.
    struct FactMapping {
        int64_t predicate = -1;
        std::vector<int64_t> arguments;
    };
    std::unordered_map<std::string, FactMapping> fact_map;
    // What one step costs where the task's action costs are uniform (the model counts steps).
    double cost_scale = 1.0;
};

// Reads the task context file at `context_path`.
SymtContext read_context(const std::string &context_path);

/*
  Checks a format-3 model's own attributes against the task context, so that a context written
  for another model is refused. Older models have no attributes: their symt.json, which only the
  wrapper reads, is what the context was written from.
*/
void check_model_against_context(const torch::jit::Module &module, const SymtContext &context,
                                 const std::string &model_path, const std::string &context_path);

/*
  What a model file's typed attributes say about its pass, checked: which of the task's fixed
  atoms it caches (symt_context_cache, from format 4: 0 none, 1 all, 2 the static atoms, the goal
  atoms going with each state), whether it marks achieved goals (symt_achieved_goals, from format
  6), whether its cost is linear in the atoms (symt_linear_cost) and how far a local model's
  tokens read (symt_local_hops). The last two are optional: files that predate them attend over
  all atoms and are not local.
*/
struct ModelAttributes {
    int64_t cache_mode = 0;
    bool achieved_goals = false;
    bool linear_cost = false;
    int64_t local_hops = 0;
    // symt_dead_ends = 1: a model with a dead-end head returns +inf for the states it judges dead.
    bool dead_ends = false;
};
ModelAttributes read_model_attributes(const torch::jit::Module &module, const std::string &model_path);

/*
  Reads Fast Downward's name of a fact, "Atom p(a, b)", into the atom "p(a, b)", its lower-cased
  predicate and arguments; false for a fact that is no atom of the state ("NegatedAtom ...",
  "<none of those>").
*/
bool read_fact_name(const std::string &name, std::string &atom, std::string &predicate,
                    std::vector<std::string> &args);

// The first line (and sentence) of a libtorch error message.
std::string first_sentence(const std::string &message);

// Ends the run with `message` and Fast Downward's exit code for bad input.
[[noreturn]] void input_error(const std::string &message);
}

#endif
