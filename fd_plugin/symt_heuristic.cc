#include "symt_heuristic.h"

#include "symt_json.h"

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
#include <iostream>
#include <sstream>
#include <time.h>
#include <unordered_map>

using namespace std;

namespace symt {
// Model format 2 only adds metadata (object_identity): the inputs are those of version 1.
static const int MIN_FORMAT_VERSION = 1;
static const int MAX_FORMAT_VERSION = 2;
static const int CONTEXT_VERSION = 1;
static const char *const FORMAT_NAME = "symt-heuristic";
static const char *const META_FILE = "symt.json";
// Heuristic values are stored in 31 bits by Fast Downward's cache.
static const int MAX_H = 1 << 29;

// The first line (and sentence) of a libtorch error message.
static string first_sentence(const string &message) {
    string line = message.substr(0, message.find('\n'));
    size_t stop = line.find(". ");
    return stop == string::npos ? line : line.substr(0, stop);
}

[[noreturn]] static void input_error(const string &message) {
    fail(message, utils::ExitCode::SEARCH_INPUT_ERROR);
}

// CPU time of the process, all threads: what Fast Downward's timers and time limits count.
static double process_cpu_seconds() {
    timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

/*
  True where the CPU multiplies bf16 in hardware (x86: avx512_bf16 or amx_bf16; Arm: bf16).
  Elsewhere libtorch emulates bf16 and is several times slower than fp32.
*/
static bool cpu_has_bf16() {
    ifstream cpuinfo("/proc/cpuinfo");
    string line;
    while (getline(cpuinfo, line)) {
        if (line.compare(0, 5, "flags") != 0 && line.compare(0, 8, "Features") != 0)
            continue;
        istringstream words(line.substr(line.find(':') + 1));
        string word;
        while (words >> word)
            if (word == "avx512_bf16" || word == "amx_bf16" || word == "bf16")
                return true;
        return false;
    }
    return false;
}

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

static string read_file(const string &path, const string &what) {
    ifstream in(path, ios::binary);
    if (!in)
        input_error(what + " not found or not readable: " + path);
    ostringstream contents;
    contents << in.rdbuf();
    return contents.str();
}

/* The task context of the model and the task (see symt_heuristic.h). */
class SymtContext {
public:
    unordered_map<string, int64_t> objects;
    unordered_map<string, int64_t> predicate_ids;
    vector<int64_t> predicate_arity;   // by state predicate id
    vector<int64_t> fixed_rows;        // flattened [S, 1 + max_arity]
    int64_t num_fixed = 0;
    int64_t max_arity = 0;
    int64_t vocab_size = 0;
    string domain;
};

static SymtContext read_context(
    const symt_json::Value &meta, const string &model_path, const string &context_path) {
    SymtContext context;
    try {
        // The model's own metadata.
        if (!meta.contains("format") || !meta.at("format").is_string() ||
            meta.at("format").as_string("format") != FORMAT_NAME)
            input_error(model_path + ": not a symt heuristic model (symt.json has no format '" +
                        FORMAT_NAME + "')");
        int64_t version = meta.at("format_version").as_int("format_version", 0, 1 << 30);
        if (version < MIN_FORMAT_VERSION || version > MAX_FORMAT_VERSION)
            input_error(model_path + ": model format version " + to_string(version) +
                        " is not supported (this plugin reads versions " +
                        to_string(MIN_FORMAT_VERSION) + " to " + to_string(MAX_FORMAT_VERSION) +
                        "); re-export it with `symt export`");
        context.domain = meta.at("domain").as_string("domain");
        context.max_arity = meta.at("max_arity").as_int("max_arity", 0, 64);
        context.vocab_size = meta.at("vocab_size").as_int("vocab_size", 1, 1 << 30);
        const vector<symt_json::Value> &predicates = meta.at("predicates").as_array("predicates");
        vector<string> predicate_names;
        for (const symt_json::Value &predicate : predicates) {
            int64_t arity = predicate.at("arity").as_int("predicate arity", 0, context.max_arity);
            context.predicate_arity.push_back(arity);
            predicate_names.push_back(predicate.at("name").as_string("predicate name"));
        }
        int64_t num_predicates = static_cast<int64_t>(predicates.size());

        // The task context.
        symt_json::Value task = symt_json::Value::parse(read_file(context_path, "task context"));
        int64_t task_version = task.at("format_version").as_int("context format_version", 0, 1 << 30);
        if (task_version != CONTEXT_VERSION)
            input_error(context_path + ": task context format version " + to_string(task_version) +
                        " is not supported (expected " + to_string(CONTEXT_VERSION) + ")");
        if (task.contains("domain") && task.at("domain").as_string("context domain") != context.domain)
            input_error(context_path + ": task context was written for a model of domain '" +
                        task.at("domain").as_string("domain") + "', but " + model_path +
                        " is a model of domain '" + context.domain + "'");
        if (task.at("max_arity").as_int("context max_arity", 0, 64) != context.max_arity ||
            task.at("pad_token").as_int("context pad_token", 0, 1 << 30) != context.vocab_size)
            input_error(context_path + ": task context was written for another model than " +
                        model_path);
        for (const auto &entry : task.at("objects").as_object("objects")) {
            int64_t token = entry.second.as_int("object token", 0, 1 << 30);
            if (token >= context.vocab_size)
                input_error("the task has more objects than the model's vocabulary of " +
                            to_string(context.vocab_size) + " tokens (object '" + entry.first +
                            "' has token " + to_string(token) + ")");
            string name = entry.first;
            transform(name.begin(), name.end(), name.begin(), ::tolower);
            context.objects[name] = token;
        }
        if (static_cast<int64_t>(context.objects.size()) > context.vocab_size)
            input_error("the task has " + to_string(context.objects.size()) +
                        " objects but the model's vocabulary has only " +
                        to_string(context.vocab_size) + " tokens");
        for (const auto &entry : task.at("predicate_ids").as_object("predicate_ids")) {
            int64_t id = entry.second.as_int("predicate id", 0, 1 << 30);
            if (id >= num_predicates || predicate_names[id] != entry.first)
                input_error(context_path + ": task context was written for another model than " +
                            model_path + " (predicate '" + entry.first + "')");
            string name = entry.first;
            transform(name.begin(), name.end(), name.begin(), ::tolower);
            context.predicate_ids[name] = id;
        }
        int64_t width = 1 + context.max_arity;
        for (const symt_json::Value &row : task.at("fixed_atoms").as_array("fixed_atoms")) {
            const vector<symt_json::Value> &values = row.as_array("fixed atom");
            if (static_cast<int64_t>(values.size()) != width)
                input_error(context_path + ": a fixed atom has " + to_string(values.size()) +
                            " entries, expected " + to_string(width));
            context.fixed_rows.push_back(
                values[0].as_int("fixed atom predicate", 0, 2 * num_predicates - 1));
            for (int64_t i = 1; i < width; ++i)
                context.fixed_rows.push_back(
                    values[i].as_int("fixed atom argument", 0, context.vocab_size));
            ++context.num_fixed;
        }
    } catch (const symt_json::Error &error) {
        input_error("bad model metadata or task context (" + model_path + ", " + context_path +
                    "): " + error.what());
    }
    return context;
}

SymtHeuristic::SymtHeuristic(const Options &opts)
    : Heuristic(opts),
      scale(opts.get<double>("scale")) {
    load(opts.get<string>("model"), opts.get<int>("threads"),
         static_cast<Precision>(opts.get<int>("precision")));
    // A first evaluation (the initial state) checks the model end to end before search starts.
    State initial_state = task_proxy.get_initial_state();
    vector<vector<int>> states(1, vector<int>(initial_state.size()));
    for (size_t var = 0; var < initial_state.size(); ++var)
        states[0][var] = initial_state[var].get_value();
    int h = evaluate(states)[0];
    // The statistics printed at the end cover the search only (not this check and its warm-up).
    num_forward_calls = num_states_evaluated = num_atoms_evaluated = 0;
    model_seconds = 0.0;
    cout << "symt: model " << model_path << " loaded; " << fluent_rows.size() / width
         << " fluent atoms, " << num_fixed << " static and goal atoms; precision "
         << (use_bf16 ? "bf16" : "fp32") << "; h(initial state) = " << h << endl;
}

SymtHeuristic::~SymtHeuristic() {
    if (num_forward_calls > 0)
        cout << "symt: " << num_states_evaluated << " states in " << num_forward_calls
             << " forward passes, " << model_seconds << " s in the model (CPU time, "
             << static_cast<int64_t>(num_states_evaluated / max(model_seconds, 1e-9))
             << " states/s), " << static_cast<double>(num_atoms_evaluated) / num_states_evaluated
             << " atoms per state" << endl;
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
    if (extra_files[META_FILE].empty())
        input_error(model_path + ": TorchScript file without symt metadata (" + META_FILE +
                    "); export it with `symt export`");
    symt_json::Value meta;
    try {
        meta = symt_json::Value::parse(extra_files[META_FILE]);
    } catch (const symt_json::Error &error) {
        input_error(model_path + ": unreadable " + META_FILE + " (" + error.what() + ")");
    }
    SymtContext context = read_context(meta, model_path, context_path);
    width = 1 + context.max_arity;
    pad_token = context.vocab_size;
    fixed_rows = move(context.fixed_rows);
    num_fixed = context.num_fixed;
    map_facts(context);
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
        for (int value = 0; value < var.get_domain_size(); ++value) {
            string name = var.get_fact(value).get_name();
            const string prefix = "Atom ";
            if (name.compare(0, prefix.size(), prefix) != 0)
                continue;  // "NegatedAtom ..." and "<none of those>" are not atoms of the state
            string atom = name.substr(prefix.size());
            size_t open = atom.find('(');
            size_t close = atom.rfind(')');
            if (open == string::npos || close == string::npos || close < open)
                input_error("cannot read Fast Downward fact '" + name + "'");
            string predicate = atom.substr(0, open);
            transform(predicate.begin(), predicate.end(), predicate.begin(), ::tolower);
            vector<string> args;
            string inner = atom.substr(open + 1, close - open - 1);
            stringstream split(inner);
            string arg;
            while (getline(split, arg, ',')) {
                arg.erase(0, arg.find_first_not_of(' '));
                arg.erase(arg.find_last_not_of(' ') + 1);
                transform(arg.begin(), arg.end(), arg.begin(), ::tolower);
                if (!arg.empty())
                    args.push_back(arg);
            }
            auto pred_it = context.predicate_ids.find(predicate);
            if (pred_it == context.predicate_ids.end())
                input_error("predicate '" + predicate + "' of the task is unknown to the model " +
                            "(trained for domain '" + context.domain + "')");
            int64_t pred_id = pred_it->second;
            if (static_cast<int64_t>(args.size()) != context.predicate_arity[pred_id])
                input_error("predicate '" + predicate + "' has arity " + to_string(args.size()) +
                            " in the task but " + to_string(context.predicate_arity[pred_id]) +
                            " in the model");
            rows[value] = static_cast<int>(fluent_rows.size() / width);
            fluent_names.push_back(atom);
            fluent_rows.push_back(pred_id);
            for (const string &object : args) {
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

int64_t SymtHeuristic::count_atoms(const vector<int> &values) const {
    int64_t n = num_fixed;
    for (size_t var = 0; var < values.size(); ++var)
        n += fact_rows[var][values[var]] >= 0;
    return n;
}

void SymtHeuristic::fill_state(const vector<int> &values, int64_t b, int64_t n) {
    int64_t m = width - 1;
    int64_t slot = b * n;
    auto put = [&](const int64_t *row) {
        pred_buffer[slot] = row[0];
        copy(row + 1, row + width, args_buffer.begin() + slot * m);
        mask_buffer[slot] = 1;
        ++slot;
    };
    for (size_t var = 0; var < values.size(); ++var) {
        int row = fact_rows[var][values[var]];
        if (row >= 0)
            put(&fluent_rows[static_cast<size_t>(row) * width]);
    }
    for (int64_t i = 0; i < num_fixed; ++i)
        put(&fixed_rows[i * width]);
}

int SymtHeuristic::to_heuristic_value(double raw) const {
    if (!std::isfinite(raw))
        fail("the model returned a non-finite value (" + to_string(raw) + ") for " + model_path,
             utils::ExitCode::SEARCH_CRITICAL_ERROR);
    double value = std::round(raw * scale);
    if (value <= 0.0)
        return 0;
    return value >= MAX_H ? MAX_H : static_cast<int>(value);
}

vector<int> SymtHeuristic::evaluate(const vector<vector<int>> &states) {
    int64_t batch = static_cast<int64_t>(states.size());
    int64_t n = 1;
    for (const vector<int> &values : states) {
        int64_t atoms = count_atoms(values);
        num_atoms_evaluated += atoms;
        n = max(n, atoms);
    }
    int64_t m = width - 1;
    size_t slots = static_cast<size_t>(batch * n);
    // Padding: predicate 0, arguments V, mask false.
    pred_buffer.assign(slots, 0);
    args_buffer.assign(slots * m, pad_token);
    mask_buffer.assign(slots, 0);
    for (int64_t b = 0; b < batch; ++b)
        fill_state(states[b], b, n);

    vector<int> result(states.size());
    try {
        c10::InferenceMode guard;
        double start = process_cpu_seconds();
        // Autocast runs the matrix products in bf16 and keeps softmax and reductions in fp32,
        // as torch.autocast does in Python (symt.inference), so both give the same values.
        at::autocast::set_autocast_enabled(at::kCPU, use_bf16);
        if (use_bf16)
            at::autocast::set_autocast_dtype(at::kCPU, at::kBFloat16);
        at::Tensor pred = torch::from_blob(pred_buffer.data(), {batch, n}, torch::kInt64);
        at::Tensor args = torch::from_blob(args_buffer.data(), {batch, n, m}, torch::kInt64);
        at::Tensor mask = torch::from_blob(mask_buffer.data(), {batch, n}, torch::kBool);
        at::Tensor out = module.forward({pred, args, mask}).toTensor();
        if (use_bf16) {
            at::autocast::set_autocast_enabled(at::kCPU, false);
            at::autocast::clear_cache();
        }
        out = out.to(torch::kFloat64).contiguous().reshape({-1});
        model_seconds += process_cpu_seconds() - start;
        if (out.numel() != batch)
            fail("the model returned " + to_string(out.numel()) + " values for " +
                 to_string(batch) + " states", utils::ExitCode::SEARCH_CRITICAL_ERROR);
        const double *values = out.data_ptr<double>();
        for (int64_t b = 0; b < batch; ++b)
            result[b] = to_heuristic_value(values[b]);
        if (trace)
            write_trace(states, values);
    } catch (const std::exception &error) {
        string message = error.what();
        // Under a memory limit libtorch's allocator throws instead of calling the new-handler.
        if (message.find("can't allocate memory") != string::npos ||
            message.find("bad_alloc") != string::npos)
            fail("out of memory in the forward pass of " + model_path +
                 " (raise the memory limit)", utils::ExitCode::SEARCH_OUT_OF_MEMORY);
        fail("evaluating " + model_path + " failed: " + first_sentence(message),
             utils::ExitCode::SEARCH_CRITICAL_ERROR);
    }
    ++num_forward_calls;
    num_states_evaluated += batch;
    return result;
}

void SymtHeuristic::write_trace(const vector<vector<int>> &states, const double *values) {
    for (size_t b = 0; b < states.size(); ++b) {
        *trace << values[b] << '\t';
        bool first = true;
        for (size_t var = 0; var < states[b].size(); ++var) {
            int row = fact_rows[var][states[b][var]];
            if (row >= 0) {
                *trace << (first ? "" : ";") << fluent_names[row];
                first = false;
            }
        }
        *trace << '\n';
    }
    trace->flush();
}

int SymtHeuristic::compute_heuristic(const GlobalState &global_state) {
    StateID id = global_state.get_id();
    if (next_pending < pending_ids.size()) {
        // Batched values are consumed in the order they were computed, almost always.
        size_t i = next_pending;
        if (pending_ids[i] != id)
            for (i = 0; i < pending_ids.size() && pending_ids[i] != id; ++i) {
            }
        if (i < pending_ids.size()) {
            if (i == next_pending)
                ++next_pending;
            return pending_values[i];
        }
    }
    State state = convert_global_state(global_state);
    if (task_properties::is_goal_state(task_proxy, state))
        return 0;
    vector<vector<int>> states(1, vector<int>(state.size()));
    for (size_t var = 0; var < state.size(); ++var)
        states[0][var] = state[var].get_value();
    return evaluate(states)[0];
}

void SymtHeuristic::evaluate_batch(const vector<GlobalState> &states) {
    pending_ids.clear();
    pending_values.clear();
    next_pending = 0;
    vector<vector<int>> to_model;
    vector<size_t> model_index;
    for (const GlobalState &global_state : states) {
        State state = convert_global_state(global_state);
        pending_ids.push_back(global_state.get_id());
        if (task_properties::is_goal_state(task_proxy, state)) {
            pending_values.push_back(0);
            continue;
        }
        vector<int> values(state.size());
        for (size_t var = 0; var < state.size(); ++var)
            values[var] = state[var].get_value();
        model_index.push_back(pending_values.size());
        pending_values.push_back(0);
        to_model.push_back(move(values));
    }
    if (!to_model.empty()) {
        vector<int> h = evaluate(to_model);
        for (size_t i = 0; i < h.size(); ++i)
            pending_values[model_index[i]] = h[i];
    }
}

}

// The factory that symt_evaluator.cc looks up with dlsym.
extern "C" Heuristic *symt_create_heuristic(const options::Options &opts) {
    return new symt::SymtHeuristic(opts);
}
