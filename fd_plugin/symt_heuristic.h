#ifndef SYMT_HEURISTIC_H
#define SYMT_HEURISTIC_H

/*
  symt(): a learned heuristic (an exported SymT model, TorchScript) evaluated through libtorch.
  This file pair (with symt_context.*, the task context it reads) is compiled into
  libsymt_heuristic.so, which the plugin registered in symt_plugin.cc loads on first use (so
  that configurations without symt() never load libtorch); its options are declared there.
  Batching: batched_heuristic.h.

  Model file (format versions 1 to 3, written by `symt export`): a TorchScript archive whose
  forward(pred int64[B,N], args int64[B,N,m], mask bool[B,N]) returns float32[B], with an extra
  file symt.json (read by Python). Version 3 modules also carry typed attributes (symt_format,
  symt_format_version, symt_domain, symt_predicate_names, symt_predicate_arities,
  symt_max_arity, symt_vocab_size; symt.formats.module_attributes), which this plugin checks
  against the task context; versions 1 and 2 have only symt.json, whose content the wrapper
  copies into the context. For "hashed" models vocab_size (2^20) only bounds the objects.
  Version 4 adds symt_context_cache: where it is 1, the fixed atoms attend only among
  themselves, so this plugin runs encode_context on them once and then, for every batch,
  forward_states on the states' fluent atoms alone against that cache (symt.export). Where it
  is 2, only the static and type atoms are cached: each state sends its fluent atoms and the
  task's goal atoms (predicate ids P..2P-1), which attend to the state.

  Task context (a line-based text file written by the fast-downward wrapper,
  symt.formats.write_task_context): the model's signature, the task's objects (object i has
  token i), and the "fixed" atoms of the task -- every static atom and every goal atom, already
  tokenized -- which Fast Downward's translator drops or keeps apart. The fluent atoms of a state
  come from Fast Downward's facts "Atom p(a, b)".

  Fast Downward 19.06 lower-cases the whole --search string and cannot take `,()[]=` or spaces in
  an option value, so the wrapper rewrites symt(model=<name or path>) to symt(model=m<i>) and
  passes the real paths in the environment: SYMT_MODEL_M<i> (model) and SYMT_CONTEXT_M<i> (task
  context). Used directly (without the wrapper), model=<path> is taken as the model file and the
  context must be given in SYMT_CONTEXT.
*/

#include "batched_heuristic.h"
#include "plugin_support.h"
#include "per_state_information.h"
#include "symt_local.h"

#include "symt/local_net.hpp"

#include <torch/script.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

class GlobalState;

namespace symt {
// Precision of the forward pass (symt(precision=...)); AUTO resolves when the model is loaded.
enum class Precision {FP32 = 0, BF16 = 1, AUTO = 2};

class SymtHeuristic : public BatchedHeuristic {
    torch::jit::Module module;
    std::string model_path;
    int64_t width = 1;          // 1 + max_arity: one token row per atom
    int64_t pad_token = 0;      // V: pads unused argument slots and padded atoms
    double scale = 1.0;
    // At most this many (padded) atoms in one forward pass, and at most ATTENTION_PER_ATOM times
    // as many attention scores per head; halved whenever a pass runs out of memory.
    int64_t max_batch_atoms = 1;
    static constexpr int64_t ATTENTION_PER_ATOM = 128;
    // A model whose work and memory per state are linear in its atoms (symt_linear_cost = 1,
    // objects attention): only the atom budget bounds a pass, not the attention scores.
    bool linear_cost = false;
    // A model with a dead-end head (symt_dead_ends = 1): its +inf is a dead end, not an error.
    // Fast Downward treats a heuristic's dead ends as reliable and prunes the state, as a
    // learned classifier's verdict asks; num_dead_ends counts them for the statistics.
    bool dead_ends = false;
    int64_t num_dead_ends = 0;
    bool use_bf16 = false;      // forward pass under bf16 autocast (symt(precision=...))
    // A local model (symt_local_hops > 0) with symt(incremental=true): states' values from their
    // parents' (symt_local.h), the evaluated states kept within LOCAL_BUDGET_BYTES.
    bool incremental = true;
    std::unique_ptr<LocalStates> local;
    std::vector<int64_t> local_table;   // fluent_rows, then state_fixed_rows: [F + S - C, width]
    static constexpr size_t LOCAL_BUDGET_BYTES = size_t(512) << 20;
    // A model file with layer_terms: every layer's token states kept for the newest states,
    // within LOCAL_LAYER_BUDGET_BYTES, so that their successors' passes read half the border.
    bool local_layers = false;
    static constexpr size_t LOCAL_LAYER_BUDGET_BYTES = size_t(1280) << 20;
    // symt(native=true) with a file that has local_weights: those passes by the plugin's own C++
    // pass (cpp/src/local_net.cc; fp32) instead of TorchScript's layer_terms, whose ~1,000
    // operators cost more than their arithmetic at the 20-70 atoms such a pass reads. The
    // tokens' states before the first layer are computed once per task, by table row and token.
    bool use_native = true;
    std::unique_ptr<LocalNet> native;
    std::vector<float> native_atom_starts;     // [local_table rows, d]
    std::vector<int64_t> native_tokens;        // the task's object tokens, sorted
    std::vector<float> native_object_starts;   // [native_tokens, d]
    std::vector<int64_t> context_tokens;       // context_cache[0]: the context's objects, sorted
    std::vector<int64_t> context_links;        // context_cache[4] [3, L]: receiving, sending, type
    std::vector<float> context_share;          // context_cache[3]: the context's share of the readout
    // What a pass looks up by object token, in one table indexed by token (binary searches over
    // the lists above were a twentieth of a search's time on a 4,096-cell grid): the token's
    // index in native_tokens and in context_tokens (-1: none), its links' range in context_links
    // (receiving sorted), and its index among the current pass's objects (-1 outside a pass).
    struct NativeToken {
        int32_t start = -1, context = -1, links_begin = 0, links_end = 0, in_pass = -1;
    };
    std::vector<NativeToken> native_token;     // [pad_token + 1]
    LocalPass native_scratch;                  // native_pass's lists, kept between passes
    std::vector<int32_t> native_columns[2];    // its atoms' and objects' output columns (LocalNet::columns)
    // Each registered state's key in `local` (-1: none yet), given when first met.
    PerStateInformation<StateKey> state_keys;
    StateKey next_state_key = 0;
    StateKey key_of(const GlobalState &state);
    int64_t num_states_updated = 0;

    // Format-4 context-attention models: the cached atoms' keys and values at every layer and
    // their share of the readout, computed once; states then carry their fluent atoms and the
    // fixed atoms that are not cached (the goal atoms, for symt_context_cache 2).
    bool cache_context = false;
    std::vector<torch::jit::IValue> context_cache;

    // fact_rows[var][value]: index of the atom's token row in fluent_rows, or -1 (skipped).
    std::vector<std::vector<int>> fact_rows;
    std::vector<int64_t> fluent_rows;   // flattened [F, width]
    // The task's fixed atoms (static, type and goal), split into those cached once
    // (context_rows) and those every state sends with its fluent atoms (state_fixed_rows).
    int64_t num_fixed = 0;
    std::vector<int64_t> context_rows;       // flattened [C, width]
    int64_t num_context = 0;
    std::vector<int64_t> state_fixed_rows;   // flattened [S - C, width]
    int64_t num_state_fixed = 0;

    // Input buffers, reused between calls (torch::from_blob views them without copying).
    std::vector<int64_t> pred_buffer;
    std::vector<int64_t> args_buffer;
    std::vector<uint8_t> mask_buffer;
    std::vector<int> state_values;

    // SYMT_TRACE=<file>: every evaluated state's fluent atoms and raw model output, one line
    // each (for tests and debugging).
    std::unique_ptr<std::ofstream> trace;
    std::vector<std::string> fluent_names;   // by fluent row

    int64_t num_forward_calls = 0;
    int64_t num_states_evaluated = 0;
    int64_t num_atoms_evaluated = 0;
    double model_seconds = 0.0;
    // The statistics line is printed at the end and whenever the count of states reaches this
    // (then twice as many).
    static const int64_t FIRST_STATISTICS_REPORT = 1024;
    int64_t next_statistics_report = FIRST_STATISTICS_REPORT;
    void print_statistics() const;
    void report_statistics();   // print_statistics whenever the count of states has doubled

    void load(const std::string &model_option, int threads, Precision precision);
    // Splits the fixed atoms by the model's symt_context_cache (0, 1 or 2).
    void split_fixed_rows(const std::vector<int64_t> &fixed_rows, int64_t cache_mode,
                          int64_t num_predicates);
    void encode_context();
    // Calls `method` of the module under the chosen precision and returns its tensor.
    at::Tensor run_model(const std::string &method, std::vector<torch::jit::IValue> inputs);
    torch::jit::IValue run_method(const std::string &method, std::vector<torch::jit::IValue> inputs);
    void map_facts(const class SymtContext &context);
    void mark_achieved_goals(int64_t num_predicates);
    // Appends the token rows of `state` to the input buffers at batch position `b`.
    int64_t count_atoms(const std::vector<int> &values) const;
    void fill_state(const std::vector<int> &values, int64_t b, int64_t n);
    // The input buffers for `batch` states of `n` atoms, all padding (predicate 0, arguments V,
    // mask false); put_row writes a token row into a slot; buffer_inputs views them as the model's
    // pred [B,N], args [B,N,m] and mask [B,N] (no copy).
    void reset_buffers(int64_t batch, int64_t n);
    void put_row(const int64_t *row, size_t slot);
    std::array<at::Tensor, 3> buffer_inputs(int64_t batch, int64_t n);
    // Calls pass(begin, end, n) on consecutive runs of states (atoms[i] atoms each, padded to n),
    // each run as long as the budget allows (one state at least); where a pass runs out of memory
    // (pass returns false), halves the budget and retries the run.
    void run_passes(const std::vector<int64_t> &atoms,
                    const std::function<bool(size_t, size_t, int64_t)> &pass);
    // What a pass does with libtorch's error: false where it ran out of memory (autocast off,
    // the caller retries in smaller passes); any other error ends the search.
    bool pass_failed(const std::exception &error);
    // Runs the model on `states` (their variable values); returns the rounded h values.
    virtual std::vector<int> evaluate(const std::vector<std::vector<int>> &states,
                                      const std::vector<GlobalState> &registered) override;
    // One forward pass over states[begin, end) padded to `n` atoms; appends their h values to
    // `result`. False when libtorch could not allocate the pass's memory (nothing appended).
    bool forward_pass(const std::vector<std::vector<int>> &states, size_t begin, size_t end, int64_t n,
                      std::vector<int> &result);
    int to_heuristic_value(double raw);
    // A local model's path: the sorted rows of a state in local_table, and the evaluation of
    // states from their announced parents' (a whole pass where there is none).
    std::vector<int> state_rows(const std::vector<int> &values);
    std::vector<int> evaluate_local(const std::vector<std::vector<int>> &states,
                                    const std::vector<GlobalState> &registered);
    // One atom_terms pass over plans[begin, end)'s rows padded to `n`; fills their terms. False
    // when libtorch could not allocate the pass's memory.
    bool terms_pass(const std::vector<LocalPlan> &plans, size_t begin, size_t end, int64_t n,
                    std::vector<std::vector<float>> &terms);
    // The same with a model's layer_terms: the tokens a plan does not compute take their
    // parent's states after each layer; also fills the states' layers. (symt_local_pass.cc)
    bool layers_pass(const std::vector<LocalPlan> &plans, const std::vector<const LocalEntry *> &parents,
                     const std::vector<std::vector<int>> &rows, size_t begin, size_t end, int64_t n,
                     std::vector<std::vector<float>> &terms, std::vector<std::shared_ptr<LayerStates>> &layers);
    // The same by the plugin's own pass (symt_local_pass.cc); load_native sets it up.
    void load_native();
    bool native_pass(const std::vector<LocalPlan> &plans, const std::vector<const LocalEntry *> &parents,
                     const std::vector<std::vector<int>> &rows, size_t begin, size_t end,
                     std::vector<std::vector<float>> &terms, std::vector<std::shared_ptr<LayerStates>> &layers);
    void write_trace(const std::vector<std::vector<int>> &states, size_t begin, size_t end,
                     const double *values);

public:
    explicit SymtHeuristic(const options::Options &opts);
    virtual ~SymtHeuristic() override;

    // A local model hears of every transition the search makes, so that a successor's value can
    // come from its parent's.
    virtual void get_path_dependent_evaluators(std::set<Evaluator *> &evals) override;
    virtual void notify_state_transition(const GlobalState &parent_state, OperatorID op_id,
                                         const GlobalState &state) override;
    virtual void announce_transition(const GlobalState &parent, const GlobalState &state) override;
};
}

#endif
