#include "symt_heuristic.h"

#include "symt_context.h"

#include "global_state.h"
#include "option_parser.h"

#include "task_utils/task_properties.h"
#include "utils/system.h"

#include <ATen/Parallel.h>
#include <ATen/autocast_mode.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <iostream>
#include <limits>

using namespace std;

namespace symt {
// The metadata file inside a model archive; format-1 and -2 models carry their metadata only there.
static const char *const META_FILE = "symt.json";
// Heuristic values are stored in 31 bits by Fast Downward's cache.
static const int MAX_H = 1 << 29;


static string env_or_empty(const string &name) {
    const char *value = getenv(name.c_str());
    return value ? string(value) : string();
}

static string env_key(const string &option_value) {
    string key;
    for (char c : option_value)
        key += isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(toupper(c)) : '_';
    return key;
}


SymtHeuristic::SymtHeuristic(const Options &opts)
    : BatchedHeuristic(opts),
      scale(opts.get<double>("scale")),
      max_batch_atoms(opts.get<int>("max_batch_atoms")),
      incremental(opts.get<bool>("incremental")),
      use_native(opts.get<bool>("native")),
      state_keys(-1) {
    load(opts.get<string>("model"), opts.get<int>("threads"),
         static_cast<Precision>(opts.get<int>("precision")));
    // A first evaluation (the initial state) checks the model end to end before search starts.
    State initial_state = task_proxy.get_initial_state();
    int h = evaluate({variable_values(initial_state)}, {})[0];
    // The statistics printed at the end cover the search only (not this check and its warm-up).
    num_forward_calls = num_states_evaluated = num_atoms_evaluated = num_states_updated = num_dead_ends = 0;
    next_statistics_report = FIRST_STATISTICS_REPORT;
    model_seconds = 0.0;
    cout << "symt: model " << model_path << " loaded; " << fluent_rows.size() / width
         << " fluent atoms, " << num_fixed << " static and goal atoms";
    if (cache_context)
        cout << " (" << num_context << " of them cached once: the model's context)";
    if (local)
        cout << "; a local model: successors' values from their parents'";
    cout << "; precision "
         << (use_bf16 ? "bf16" : "fp32") << "; h(initial state) = "
         << (h == DEAD_END ? string("a dead end (the model's dead-end head)") : to_string(h)) << endl;
}

SymtHeuristic::~SymtHeuristic() {
    print_statistics();
}

void SymtHeuristic::print_statistics() const {
    if (num_forward_calls > 0)
        cout << "symt: " << num_states_evaluated << " states in " << num_forward_calls
             << " forward passes, " << model_seconds << " s in the model (CPU time, "
             << states_per_second(num_states_evaluated, model_seconds) << "), "
             << static_cast<double>(num_atoms_evaluated) / num_states_evaluated
             << " atoms per state";
    if (num_forward_calls > 0 && local)
        cout << " (" << num_states_updated << " states from their parent's"
             << (native ? "; symt's own pass" : "") << "; " << (local->layer_memory() >> 20)
             << " MiB of layers and " << (local->entry_memory() >> 20) << " MiB of states kept)";
    if (num_forward_calls > 0 && dead_ends)
        cout << "; " << num_dead_ends << " judged dead ends by its dead-end head";
    if (num_forward_calls > 0)
        cout << endl;
}

void SymtHeuristic::load(const string &model_option, int threads, Precision precision) {
    string key = env_key(model_option);
    string context_path;
    model_path = env_or_empty("SYMT_MODEL_" + key);
    if (!model_path.empty()) {
        context_path = env_or_empty("SYMT_CONTEXT_" + key);
    } else {
        model_path = model_option;
        context_path = env_or_empty("SYMT_CONTEXT");
    }
    if (context_path.empty())
        input_error("no task context for symt(model=" + model_option +
                    "): run the planner through the `fast-downward` command, which writes it "
                    "(or set SYMT_CONTEXT to a file written by symt.tokens.write_task_context)");
    {
        ifstream probe(model_path, ios::binary);
        if (!probe)
            input_error("model file not found or not readable: " + model_path);
    }

    at::set_num_threads(threads);
    bool hardware_bf16 = cpu_has_bf16();
    use_bf16 = precision == Precision::BF16 || (precision == Precision::AUTO && hardware_bf16);
    if (precision == Precision::BF16 && !hardware_bf16)
        cout << "symt: precision=bf16 on a CPU without bf16 instructions: libtorch emulates "
             << "bf16, which is slower than fp32 here" << endl;
    torch::jit::ExtraFilesMap extra_files{{META_FILE, ""}};
    try {
        module = torch::jit::load(model_path, torch::kCPU, extra_files);
        module.eval();
    } catch (const std::exception &error) {
        input_error(model_path + ": not a readable TorchScript model (" +
                    first_sentence(error.what()) + ")");
    }
    if (!module.hasattr("symt_format_version") && extra_files[META_FILE].empty())
        input_error(model_path + ": TorchScript file without symt metadata (" + META_FILE +
                    "); export it with `symt export`");
    SymtContext context = read_context(context_path);
    check_model_against_context(module, context, model_path, context_path);
    // The model counts steps; where every action costs c, a step costs c.
    scale *= context.cost_scale;
    if (static_cast<int64_t>(context.objects.size()) > context.vocab_size)
        input_error("the task has " + to_string(context.objects.size()) +
                    " objects but the model's vocabulary has only " +
                    to_string(context.vocab_size) + " tokens");
    width = 1 + context.max_arity;
    pad_token = context.vocab_size;
    num_fixed = context.num_fixed;
    map_facts(context);
    ModelAttributes attributes = read_model_attributes(module, model_path);
    int64_t num_predicates = static_cast<int64_t>(context.predicate_names.size());
    if (attributes.achieved_goals)
        mark_achieved_goals(num_predicates);
    linear_cost = attributes.linear_cost;
    dead_ends = attributes.dead_ends;
    split_fixed_rows(context.fixed_rows, attributes.cache_mode, num_predicates);
    if (attributes.cache_mode != 0)
        encode_context();
    int64_t hops = attributes.local_hops;
    if (incremental && hops > 0 && cache_context && context_cache.size() == 5) {
        local_table = fluent_rows;
        local_table.insert(local_table.end(), state_fixed_rows.begin(), state_fixed_rows.end());
        // The term width is known after the first pass.
        try {
            local = make_unique<LocalStates>(hops, width, pad_token, local_table, context_cache[4].toTensor(), 0,
                                             LOCAL_BUDGET_BYTES, LOCAL_LAYER_BUDGET_BYTES);
        } catch (const invalid_argument &error) {
            input_error(model_path + ": " + error.what());
        }
        local_layers = module.find_method("layer_terms").has_value();
        if (local_layers && use_native && module.find_method("local_weights").has_value())
            load_native();
#ifdef __GLIBC__
        // Kept layers are blocks of up to megabytes, made and freed all search long. glibc's
        // default raises its mmap threshold to the largest block freed, after which such blocks
        // come from the heap and its holes are never returned: on a 3,600-cell Visitall grid
        // the process grew to 4.3 GB with 0.8 GB of layers live. A fixed threshold returns them.
        if (local_layers)
            mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    }
    string trace_path = env_or_empty("SYMT_TRACE");
    if (!trace_path.empty()) {
        trace = make_unique<ofstream>(trace_path, ios::app);
        if (!*trace)
            input_error("cannot write SYMT_TRACE file " + trace_path);
        *trace << setprecision(9);
    }
}

/* Maps every fact "Atom p(a, b)" of the task to its token row. */
void SymtHeuristic::map_facts(const SymtContext &context) {
    VariablesProxy variables = task_proxy.get_variables();
    fact_rows.assign(variables.size(), vector<int>());
    for (VariableProxy var : variables) {
        vector<int> &rows = fact_rows[var.get_id()];
        rows.assign(var.get_domain_size(), -1);
        // Derived variables (the translator's "new-axiom@N" for a goal such as "(and)", a
        // domain's derived predicates) are no atoms of the state the model reads.
        if (var.is_derived())
            continue;
        for (int value = 0; value < var.get_domain_size(); ++value) {
            string name = var.get_fact(value).get_name();
            string atom, predicate;
            vector<string> args;
            if (!read_fact_name(name, atom, predicate, args))
                continue;
            auto map_it = context.fact_map.find(predicate);
            if (map_it == context.fact_map.end())
                input_error("predicate '" + predicate + "' of the task is unknown to the model " +
                            "(trained for domain '" + context.domain + "')");
            const SymtContext::FactMapping &mapping = map_it->second;
            if (mapping.predicate < 0)
                continue;  // a guard the task makes redundant: no atom of the model's domain
            int64_t pred_id = mapping.predicate;
            int64_t arity = context.predicate_arity[pred_id];
            if (static_cast<int64_t>(args.size()) != arity)
                input_error("predicate '" + predicate + "' has arity " + to_string(args.size()) +
                            " in the task but " + to_string(arity) + " in the model");
            vector<string> ordered;
            for (int64_t j = 0; j < arity; ++j)
                ordered.push_back(args[mapping.arguments[j]]);
            rows[value] = static_cast<int>(fluent_rows.size() / width);
            fluent_names.push_back(atom);
            fluent_rows.push_back(pred_id);
            for (const string &object : ordered) {
                auto obj_it = context.objects.find(object);
                if (obj_it == context.objects.end())
                    input_error("object '" + object + "' of fact '" + name +
                                "' is missing from the task context");
                fluent_rows.push_back(obj_it->second);
            }
            for (int64_t i = 1 + static_cast<int64_t>(args.size()); i < width; ++i)
                fluent_rows.push_back(pad_token);
        }
    }
}

/*
  A fact that is a goal of the task reads as an achieved goal (predicate id 2P + p) wherever a state
  holds it, as symt.tokens.encode_task marks the fluent atoms that are goal atoms.
*/
void SymtHeuristic::mark_achieved_goals(int64_t num_predicates) {
    for (FactProxy goal : task_proxy.get_goals()) {
        int row = fact_rows[goal.get_variable().get_id()][goal.get_value()];
        if (row >= 0)
            fluent_rows[static_cast<size_t>(row) * width] += 2 * num_predicates;
    }
}

void SymtHeuristic::split_fixed_rows(const vector<int64_t> &fixed_rows, int64_t cache_mode,
                                     int64_t num_predicates) {
    for (int64_t i = 0; i < num_fixed; ++i) {
        auto row = fixed_rows.begin() + i * width;
        // Goal atoms have the predicate ids P..2P-1 (symt.tokens).
        bool cached = cache_mode == 1 || (cache_mode == 2 && row[0] < num_predicates);
        vector<int64_t> &target = cached ? context_rows : state_fixed_rows;
        target.insert(target.end(), row, row + width);
        ++(cached ? num_context : num_state_fixed);
    }
}

void SymtHeuristic::encode_context() {
    int64_t m = width - 1;
    vector<int64_t> pred(num_context), args(num_context * m);
    for (int64_t i = 0; i < num_context; ++i) {
        pred[i] = context_rows[i * width];
        copy(context_rows.begin() + i * width + 1, context_rows.begin() + (i + 1) * width,
             args.begin() + i * m);
    }
    try {
        c10::InferenceMode guard;
        at::Tensor pred_tensor = torch::from_blob(pred.data(), {num_context}, torch::kInt64);
        at::Tensor args_tensor = torch::from_blob(args.data(), {num_context, m}, torch::kInt64);
        // The same precision as every later pass, so that cached and fresh keys match in type.
        at::autocast::set_autocast_enabled(at::kCPU, use_bf16);
        if (use_bf16)
            at::autocast::set_autocast_dtype(at::kCPU, at::kBFloat16);
#ifdef __GLIBC__
        // The pass over thousands of context atoms makes and frees blocks of tens of megabytes
        // for every chunk of its queries (their attention bias). Above glibc's mmap threshold
        // each is mapped afresh and its pages faulted in again: on IPC Rovers medium p16 (11,354
        // cached atoms) the search started at 17 s, at 11 s with the blocks kept in the heap.
        // So the heap keeps them for the pass; afterwards the thresholds are glibc's dynamic
        // maximum (mmap above 32 MiB, trim above twice that) and the heap is trimmed.
        mallopt(M_MMAP_THRESHOLD, 1 << 30);
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
        auto cache = module.get_method("encode_context")({pred_tensor, args_tensor}).toTuple();
#ifdef __GLIBC__
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_TRIM_THRESHOLD, 64 << 20);
        malloc_trim(0);
#endif
        at::autocast::set_autocast_enabled(at::kCPU, false);
        at::autocast::clear_cache();
        // Copies: the tensors must outlive the input buffers and the inference-mode guard.
        for (const torch::jit::IValue &part : cache->elements())
            context_cache.push_back(part.toTensor().clone());
    } catch (const std::exception &error) {
        string message = error.what();
        // Name the cause (the TorchScript error's first sentence says only that an operation
        // failed) and exit as out of memory.
        if (is_out_of_memory(message))
            fail(model_path + ": out of memory while encoding the task's " +
                 to_string(num_context) + " cached atoms (raise the memory limit)",
                 utils::ExitCode::SEARCH_OUT_OF_MEMORY);
        input_error(model_path + ": encoding the task's cached atoms failed (" +
                    first_sentence(message) + ")");
    }
    cache_context = true;
}

at::Tensor SymtHeuristic::run_model(const string &method, vector<torch::jit::IValue> inputs) {
    return run_method(method, move(inputs)).toTensor();
}

torch::jit::IValue SymtHeuristic::run_method(const string &method, vector<torch::jit::IValue> inputs) {
    // Autocast runs the matrix products in bf16 and keeps softmax and reductions in fp32,
    // as torch.autocast does in Python (symt.inference), so both give the same values.
    at::autocast::set_autocast_enabled(at::kCPU, use_bf16);
    if (use_bf16)
        at::autocast::set_autocast_dtype(at::kCPU, at::kBFloat16);
    torch::jit::IValue out = method == "forward" ? module.forward(move(inputs))
                                                 : module.get_method(method)(move(inputs));
    if (use_bf16) {
        at::autocast::set_autocast_enabled(at::kCPU, false);
        at::autocast::clear_cache();
    }
    return out;
}

int64_t SymtHeuristic::count_atoms(const vector<int> &values) const {
    int64_t n = num_state_fixed;
    for (size_t var = 0; var < values.size(); ++var)
        n += fact_rows[var][values[var]] >= 0;
    return n;
}

void SymtHeuristic::fill_state(const vector<int> &values, int64_t b, int64_t n) {
    size_t slot = static_cast<size_t>(b * n);
    for (size_t var = 0; var < values.size(); ++var) {
        int row = fact_rows[var][values[var]];
        if (row >= 0)
            put_row(&fluent_rows[static_cast<size_t>(row) * width], slot++);
    }
    for (int64_t i = 0; i < num_state_fixed; ++i)
        put_row(&state_fixed_rows[i * width], slot++);
}

void SymtHeuristic::reset_buffers(int64_t batch, int64_t n) {
    size_t slots = static_cast<size_t>(batch * n);
    pred_buffer.assign(slots, 0);
    args_buffer.assign(slots * (width - 1), pad_token);
    mask_buffer.assign(slots, 0);
}

void SymtHeuristic::put_row(const int64_t *row, size_t slot) {
    pred_buffer[slot] = row[0];
    copy(row + 1, row + width, args_buffer.begin() + slot * (width - 1));
    mask_buffer[slot] = 1;
}

array<at::Tensor, 3> SymtHeuristic::buffer_inputs(int64_t batch, int64_t n) {
    return {torch::from_blob(pred_buffer.data(), {batch, n}, torch::kInt64),
            torch::from_blob(args_buffer.data(), {batch, n, width - 1}, torch::kInt64),
            torch::from_blob(mask_buffer.data(), {batch, n}, torch::kBool)};
}

int SymtHeuristic::to_heuristic_value(double raw) {
    if (dead_ends && raw == numeric_limits<double>::infinity()) {
        // The model's dead-end head fired (symt.model_config.ModelConfig.dead_end_head).
        ++num_dead_ends;
        return DEAD_END;
    }
    if (!std::isfinite(raw))
        fail("the model returned a non-finite value (" + to_string(raw) + ") for " + model_path,
             utils::ExitCode::SEARCH_CRITICAL_ERROR);
    double value = std::round(raw * scale);
    if (value <= 0.0)
        return 0;
    return value >= MAX_H ? MAX_H : static_cast<int>(value);
}

vector<int> SymtHeuristic::evaluate(const vector<vector<int>> &states, const vector<GlobalState> &registered) {
    if (local)
        return evaluate_local(states, registered);
    vector<int64_t> atoms(states.size());
    for (size_t i = 0; i < states.size(); ++i) {
        atoms[i] = max<int64_t>(1, count_atoms(states[i]));
        num_atoms_evaluated += atoms[i];
    }
    vector<int> result;
    result.reserve(states.size());
    run_passes(atoms, [&](size_t begin, size_t end, int64_t n) {
        return forward_pass(states, begin, end, n, result);
    });
    report_statistics();
    return result;
}

bool SymtHeuristic::pass_failed(const exception &error) {
    string message = error.what();
    // Out of memory: the caller retries with smaller passes.
    if (is_out_of_memory(message)) {
        at::autocast::set_autocast_enabled(at::kCPU, false);
        return false;
    }
    fail("evaluating " + model_path + " failed: " + first_sentence(message),
         utils::ExitCode::SEARCH_CRITICAL_ERROR);
}

void SymtHeuristic::run_passes(const vector<int64_t> &atoms, const function<bool(size_t, size_t, int64_t)> &pass) {
    // With a cached context every state token also attends to the context's atoms.
    int64_t context_atoms = num_context;
    size_t begin = 0;
    while (begin < atoms.size()) {
        // The next pass: as many states as fit the budget (one at least). A pass's memory grows
        // with its padded atoms and with their attention scores; one pass over all successors
        // of a state with thousands of them (Childsnack, IPC medium) needed more than 4 GiB.
        size_t end = begin;
        int64_t n = 1;
        while (end < atoms.size()) {
            int64_t padded = max(n, atoms[end]);
            int64_t count = static_cast<int64_t>(end - begin) + 1;
            if (end > begin && (count * padded > max_batch_atoms ||
                                (!linear_cost && count * padded * (padded + context_atoms) >
                                                     ATTENTION_PER_ATOM * max_batch_atoms)))
                break;
            n = padded;
            ++end;
        }
        if (!pass(begin, end, n)) {
            if (end - begin == 1)
                fail("out of memory in the forward pass of " + model_path +
                     " on one state of " + to_string(n) + " atoms (raise the memory limit)",
                     utils::ExitCode::SEARCH_OUT_OF_MEMORY);
            // Smaller passes from here on; the allocation that failed has been released.
            max_batch_atoms = max<int64_t>(1, max_batch_atoms / 2);
            cout << "symt: a forward pass of " << end - begin << " states ran out of memory; "
                 << "passes of at most " << max_batch_atoms << " atoms from now on" << endl;
            continue;
        }
        begin = end;
    }
}

void SymtHeuristic::report_statistics() {
    // The same line as at the end, whenever the count doubles: a run that Fast Downward's time
    // limit kills (no destructor runs) still shows its evaluations per second.
    if (num_states_evaluated >= next_statistics_report) {
        print_statistics();
        next_statistics_report = 2 * num_states_evaluated;
    }
}

bool SymtHeuristic::forward_pass(const vector<vector<int>> &states, size_t begin, size_t end,
                                 int64_t n, vector<int> &result) {
    int64_t batch = static_cast<int64_t>(end - begin);
    reset_buffers(batch, n);
    for (int64_t b = 0; b < batch; ++b)
        fill_state(states[begin + b], b, n);

    try {
        c10::InferenceMode guard;
        double start = process_cpu_seconds();
        auto [pred, args, mask] = buffer_inputs(batch, n);
        at::Tensor out;
        if (cache_context) {
            vector<torch::jit::IValue> inputs(context_cache.begin(), context_cache.end());
            inputs.insert(inputs.end(), {pred, args, mask});
            out = run_model("forward_states", move(inputs));
        } else {
            out = run_model("forward", {pred, args, mask});
        }
        out = out.to(torch::kFloat64).contiguous().reshape({-1});
        model_seconds += process_cpu_seconds() - start;
        if (out.numel() != batch)
            fail("the model returned " + to_string(out.numel()) + " values for " +
                 to_string(batch) + " states", utils::ExitCode::SEARCH_CRITICAL_ERROR);
        const double *values = out.data_ptr<double>();
        for (int64_t b = 0; b < batch; ++b)
            result.push_back(to_heuristic_value(values[b]));
        if (trace)
            write_trace(states, begin, end, values);
    } catch (const std::exception &error) {
        return pass_failed(error);
    }
    ++num_forward_calls;
    num_states_evaluated += batch;
    return true;
}

void SymtHeuristic::write_trace(const vector<vector<int>> &states, size_t begin, size_t end,
                                const double *values) {
    for (size_t i = begin; i < end; ++i) {
        *trace << values[i - begin] << '\t';
        bool first = true;
        for (size_t var = 0; var < states[i].size(); ++var) {
            int row = fact_rows[var][states[i][var]];
            if (row >= 0) {
                *trace << (first ? "" : ";") << fluent_names[row];
                first = false;
            }
        }
        *trace << '\n';
    }
    trace->flush();
}
}

// The factory that symt_plugin.cc looks up with dlsym.
extern "C" Heuristic *symt_create_heuristic(const options::Options &opts) {
    return new symt::SymtHeuristic(opts);
}
