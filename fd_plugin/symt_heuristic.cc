#include "symt_heuristic.h"

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
// Model formats 2 and 3 only add metadata: the inputs are those of version 1. From version 3 the
// metadata the plugin needs are typed attributes of the module; versions 1 and 2 keep them only in
// symt.json, which the wrapper reads and copies into the task context. Version 4 says whether the
// model caches the task's fixed atoms (symt_context_cache). Version 5's encode_context returns one
// more tensor (the folded type table), which forward_states takes next: the cache is passed whole.
// Version 6 (symt_achieved_goals = 1): a state's atoms that are goal atoms take the ids 2P..3P-1.
static const int MIN_FORMAT_VERSION = 1;
static const int MAX_FORMAT_VERSION = 6;
static const int ATTRIBUTES_SINCE = 3;
static const int CONTEXT_CACHE_SINCE = 4;
static const int ACHIEVED_GOALS_SINCE = 6;
static const int CONTEXT_VERSION = 3;
static const char *const CONTEXT_HEADER = "symt-task-context";
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

/* The task context of the model and the task (see symt_heuristic.h). */
class SymtContext {
public:
    int64_t model_format_version = 0;
    string domain;
    int64_t max_arity = 0;
    int64_t vocab_size = 0;
    vector<string> predicate_names;    // by state predicate id
    vector<int64_t> predicate_arity;   // by state predicate id
    unordered_map<string, int64_t> predicate_ids;  // lower-cased name -> id
    unordered_map<string, int64_t> objects;        // lower-cased name -> token
    vector<int64_t> fixed_rows;        // flattened [S, 1 + max_arity]
    int64_t num_fixed = 0;
    // The task's predicates (as Fast Downward names its facts) -> the model predicate id and,
    // for each model argument, the fact argument it takes; id -1: no atom of the model (a
    // guard the task makes redundant). The task may spell the model's domain another way
    // (symt.pddl.canonical), so names alone do not say this.
    struct FactMapping {
        int64_t predicate = -1;
        vector<int64_t> arguments;
    };
    unordered_map<string, FactMapping> fact_map;
    // What one step costs where the task's action costs are uniform (the model counts steps).
    double cost_scale = 1.0;
};

static string lower_case(string text) {
    transform(text.begin(), text.end(), text.begin(), ::tolower);
    return text;
}

/*
  Reads the line-based task context (symt.formats.write_task_context), in the manner of Fast
  Downward's own translator output: one item per line, words separated by white space (PDDL
  names contain none). Every error names the file and the line.
*/
class ContextReader {
    ifstream in;
    string path;
    int line_number = 0;

public:
    explicit ContextReader(const string &path_) : in(path_), path(path_) {
        if (!in)
            input_error("task context not found or not readable: " + path);
    }

    [[noreturn]] void error(const string &message) const {
        input_error(path + ":" + to_string(line_number) + ": " + message);
    }

    // The next line's words; `count` of them, or any number when count < 0.
    vector<string> words(const string &what, int count) {
        string line;
        if (!getline(in, line)) {
            ++line_number;
            error("the file ends where " + what + " was expected (cut off?)");
        }
        ++line_number;
        istringstream split(line);
        vector<string> result;
        string word;
        while (split >> word)
            result.push_back(word);
        if (count >= 0 && static_cast<int>(result.size()) != count)
            error("expected " + what + " (" + to_string(count) + " word" + (count == 1 ? "" : "s") +
                  "), found '" + line + "'");
        return result;
    }

    int64_t to_int(const string &word, const string &what, int64_t min, int64_t max) const {
        size_t used = 0;
        long long value = 0;
        try {
            value = stoll(word, &used);
        } catch (const exception &) {
            used = 0;
        }
        if (used == 0 || used != word.size())
            error(what + " must be an integer, found '" + word + "'");
        if (value < min || value > max)
            error(what + " " + word + " is out of range [" + to_string(min) + ", " +
                  to_string(max) + "]");
        return value;
    }

    // A line "<key> <value>".
    string value(const string &key) {
        vector<string> line = words("'" + key + " <value>'", 2);
        if (line[0] != key)
            error("expected '" + key + " <value>', found '" + line[0] + "'");
        return line[1];
    }

    int64_t int_value(const string &key, int64_t min, int64_t max) {
        return to_int(value(key), key, min, max);
    }
};

static SymtContext read_context(const string &context_path) {
    SymtContext context;
    ContextReader reader(context_path);
    vector<string> header = reader.words("the header '" + string(CONTEXT_HEADER) + " <version>'", -1);
    if (header.size() != 2 || header[0] != CONTEXT_HEADER)
        reader.error("not a symt task context (the first line is not '" + string(CONTEXT_HEADER) +
                     " <version>'; a version-1 JSON context? the wrapper writes the current one)");
    int64_t version = reader.to_int(header[1], "task context version", 0, 1 << 30);
    if (version != CONTEXT_VERSION)
        reader.error("task context version " + to_string(version) + " is not supported (expected " +
                     to_string(CONTEXT_VERSION) + ")");
    context.model_format_version = reader.int_value("model_format_version", 0, 1 << 30);
    context.domain = reader.value("domain");
    context.max_arity = reader.int_value("max_arity", 0, 64);
    context.vocab_size = reader.int_value("vocab_size", 1, 1 << 30);
    int64_t num_predicates = reader.int_value("predicates", 1, 1 << 20);
    for (int64_t id = 0; id < num_predicates; ++id) {
        vector<string> line = reader.words("a predicate '<name> <arity>'", 2);
        context.predicate_names.push_back(line[0]);
        context.predicate_arity.push_back(
            reader.to_int(line[1], "predicate arity", 0, context.max_arity));
        context.predicate_ids[lower_case(line[0])] = id;
    }
    int64_t num_objects = reader.int_value("objects", 0, 1 << 30);
    for (int64_t token = 0; token < num_objects; ++token)
        context.objects[lower_case(reader.words("an object name", 1)[0])] = token;
    int64_t width = 1 + context.max_arity;
    context.num_fixed = reader.int_value("fixed_atoms", 0, 1 << 30);
    for (int64_t i = 0; i < context.num_fixed; ++i) {
        vector<string> row = reader.words("a fixed atom of " + to_string(width) + " integers",
                                          static_cast<int>(width));
        context.fixed_rows.push_back(
            reader.to_int(row[0], "fixed atom predicate", 0, 2 * num_predicates - 1));
        for (int64_t j = 1; j < width; ++j)
            context.fixed_rows.push_back(
                reader.to_int(row[j], "fixed atom argument", 0, context.vocab_size));
    }
    int64_t num_mapped = reader.int_value("fact_map", 0, 1 << 20);
    for (int64_t i = 0; i < num_mapped; ++i) {
        vector<string> line = reader.words("a fact mapping '<predicate> <model id> <arguments>'", -1);
        if (line.size() < 2)
            reader.error("expected '<predicate> <model id> <arguments>'");
        SymtContext::FactMapping mapping;
        mapping.predicate = reader.to_int(line[1], "model predicate id", -1, num_predicates - 1);
        if (mapping.predicate >= 0) {
            int64_t arity = context.predicate_arity[mapping.predicate];
            if (static_cast<int64_t>(line.size()) != 2 + arity)
                reader.error("the mapping of '" + line[0] + "' gives " + to_string(line.size() - 2) +
                             " arguments for a model predicate of arity " + to_string(arity));
            for (int64_t j = 0; j < arity; ++j)
                mapping.arguments.push_back(reader.to_int(line[2 + j], "fact argument", 0, arity - 1));
        }
        context.fact_map[lower_case(line[0])] = mapping;
    }
    string scale_word = reader.value("cost_scale");
    try {
        context.cost_scale = stod(scale_word);
    } catch (const exception &) {
        reader.error("cost_scale must be a number, found '" + scale_word + "'");
    }
    if (!(context.cost_scale >= 0.0))
        reader.error("cost_scale must be >= 0, found '" + scale_word + "'");
    return context;
}

/*
  Checks a format-3 model's own attributes against the task context, so that a context written
  for another model is refused. Older models have no attributes: their symt.json, which only the
  wrapper reads, is what the context was written from.
*/
static void check_model_against_context(
    const torch::jit::Module &module, const SymtContext &context, const string &model_path,
    const string &context_path) {
    if (!module.hasattr("symt_format_version")) {
        if (context.model_format_version >= ATTRIBUTES_SINCE)
            input_error(context_path + ": task context was written for a format-" +
                        to_string(context.model_format_version) + " model, but " + model_path +
                        " carries no symt attributes (a format-1 or -2 model)");
        return;
    }
    try {
        if (module.attr("symt_format").toStringRef() != FORMAT_NAME)
            input_error(model_path + ": not a symt heuristic model (format '" +
                        module.attr("symt_format").toStringRef() + "')");
        int64_t version = module.attr("symt_format_version").toInt();
        if (version < MIN_FORMAT_VERSION || version > MAX_FORMAT_VERSION)
            input_error(model_path + ": model format version " + to_string(version) +
                        " is not supported (this plugin reads versions " +
                        to_string(MIN_FORMAT_VERSION) + " to " + to_string(MAX_FORMAT_VERSION) +
                        "); re-export it with `symt export`");
        string domain = module.attr("symt_domain").toStringRef();
        if (domain != context.domain)
            input_error(context_path + ": task context was written for a model of domain '" +
                        context.domain + "', but " + model_path + " is a model of domain '" +
                        domain + "'");
        c10::List<c10::IValue> names = module.attr("symt_predicate_names").toList();
        c10::List<int64_t> arities = module.attr("symt_predicate_arities").toIntList();
        bool same = version == context.model_format_version &&
            module.attr("symt_max_arity").toInt() == context.max_arity &&
            module.attr("symt_vocab_size").toInt() == context.vocab_size &&
            names.size() == context.predicate_names.size() && arities.size() == names.size();
        for (size_t i = 0; same && i < names.size(); ++i)
            same = names.get(i).toStringRef() == context.predicate_names[i] &&
                arities.get(i) == context.predicate_arity[i];
        if (!same)
            input_error(context_path + ": task context was written for another model than " +
                        model_path);
    } catch (const c10::Error &error) {
        input_error(model_path + ": unreadable symt attributes (" + first_sentence(error.what()) +
                    "); re-export it with `symt export`");
    }
}

SymtHeuristic::SymtHeuristic(const Options &opts)
    : BatchedHeuristic(opts),
      scale(opts.get<double>("scale")),
      max_batch_atoms(opts.get<int>("max_batch_atoms")) {
    load(opts.get<string>("model"), opts.get<int>("threads"),
         static_cast<Precision>(opts.get<int>("precision")));
    // A first evaluation (the initial state) checks the model end to end before search starts.
    State initial_state = task_proxy.get_initial_state();
    int h = evaluate({variable_values(initial_state)})[0];
    // The statistics printed at the end cover the search only (not this check and its warm-up).
    num_forward_calls = num_states_evaluated = num_atoms_evaluated = 0;
    next_statistics_report = FIRST_STATISTICS_REPORT;
    model_seconds = 0.0;
    cout << "symt: model " << model_path << " loaded; " << fluent_rows.size() / width
         << " fluent atoms, " << num_fixed << " static and goal atoms";
    if (cache_context)
        cout << " (" << num_context << " of them cached once: the model's context)";
    cout << "; precision "
         << (use_bf16 ? "bf16" : "fp32") << "; h(initial state) = " << h << endl;
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
    int64_t cache_mode = 0;
    if (module.hasattr("symt_format_version") &&
        module.attr("symt_format_version").toInt() >= CONTEXT_CACHE_SINCE) {
        if (!module.hasattr("symt_context_cache") || !module.attr("symt_context_cache").isInt())
            input_error(model_path + ": a format-" + to_string(CONTEXT_CACHE_SINCE) +
                        " model without the integer attribute symt_context_cache; re-export it "
                        "with `symt export`");
        cache_mode = module.attr("symt_context_cache").toInt();
        if (cache_mode < 0 || cache_mode > 2)
            input_error(model_path + ": symt_context_cache " + to_string(cache_mode) +
                        " is unknown to this plugin (it knows 0, 1 and 2); rebuild it with "
                        "scripts/setup.sh");
    }
    if (module.hasattr("symt_format_version") &&
        module.attr("symt_format_version").toInt() >= ACHIEVED_GOALS_SINCE) {
        if (!module.hasattr("symt_achieved_goals") || !module.attr("symt_achieved_goals").isInt())
            input_error(model_path + ": a format-" + to_string(ACHIEVED_GOALS_SINCE) +
                        " model without the integer attribute symt_achieved_goals; re-export it "
                        "with `symt export`");
        int64_t achieved_goals = module.attr("symt_achieved_goals").toInt();
        if (achieved_goals < 0 || achieved_goals > 1)
            input_error(model_path + ": symt_achieved_goals " + to_string(achieved_goals) +
                        " is unknown to this plugin (it knows 0 and 1); rebuild it with "
                        "scripts/setup.sh");
        if (achieved_goals == 1)
            mark_achieved_goals(static_cast<int64_t>(context.predicate_names.size()));
    }
    // Optional (absent from models that predate it, which all attend over all atoms).
    if (module.hasattr("symt_linear_cost") && module.attr("symt_linear_cost").isInt())
        linear_cost = module.attr("symt_linear_cost").toInt() == 1;
    split_fixed_rows(context.fixed_rows, cache_mode,
                     static_cast<int64_t>(context.predicate_names.size()));
    if (cache_mode != 0)
        encode_context();
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
        auto cache = module.get_method("encode_context")({pred_tensor, args_tensor}).toTuple();
        at::autocast::set_autocast_enabled(at::kCPU, false);
        at::autocast::clear_cache();
        // Copies: the tensors must outlive the input buffers and the inference-mode guard.
        for (const torch::jit::IValue &part : cache->elements())
            context_cache.push_back(part.toTensor().clone());
    } catch (const std::exception &error) {
        string message = error.what();
        // libtorch's allocator throws under a memory limit (a TorchScript error whose first
        // sentence says only that an operation failed): name the cause and exit as out of memory.
        if (message.find("can't allocate memory") != string::npos ||
            message.find("bad_alloc") != string::npos)
            fail(model_path + ": out of memory while encoding the task's " +
                 to_string(num_context) + " cached atoms (raise the memory limit)",
                 utils::ExitCode::SEARCH_OUT_OF_MEMORY);
        input_error(model_path + ": encoding the task's cached atoms failed (" +
                    first_sentence(message) + ")");
    }
    cache_context = true;
}

at::Tensor SymtHeuristic::run_model(const string &method, vector<torch::jit::IValue> inputs) {
    // Autocast runs the matrix products in bf16 and keeps softmax and reductions in fp32,
    // as torch.autocast does in Python (symt.inference), so both give the same values.
    at::autocast::set_autocast_enabled(at::kCPU, use_bf16);
    if (use_bf16)
        at::autocast::set_autocast_dtype(at::kCPU, at::kBFloat16);
    at::Tensor out = method == "forward" ? module.forward(move(inputs)).toTensor()
                                         : module.get_method(method)(move(inputs)).toTensor();
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
    for (int64_t i = 0; i < num_state_fixed; ++i)
        put(&state_fixed_rows[i * width]);
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
    vector<int64_t> atoms(states.size());
    for (size_t i = 0; i < states.size(); ++i) {
        atoms[i] = max<int64_t>(1, count_atoms(states[i]));
        num_atoms_evaluated += atoms[i];
    }
    // With a cached context every state token also attends to the context's atoms.
    int64_t context_atoms = num_context;
    vector<int> result;
    result.reserve(states.size());
    size_t begin = 0;
    while (begin < states.size()) {
        // The next pass: as many states as fit the budget (one at least). A pass's memory grows
        // with its padded atoms and with their attention scores; one pass over all successors
        // of a state with thousands of them (Childsnack, IPC medium) needed more than 4 GiB.
        size_t end = begin;
        int64_t n = 1;
        while (end < states.size()) {
            int64_t padded = max(n, atoms[end]);
            int64_t count = static_cast<int64_t>(end - begin) + 1;
            if (end > begin && (count * padded > max_batch_atoms ||
                                (!linear_cost && count * padded * (padded + context_atoms) >
                                                     ATTENTION_PER_ATOM * max_batch_atoms)))
                break;
            n = padded;
            ++end;
        }
        if (!forward_pass(states, begin, end, n, result)) {
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
    // The same line as at the end, whenever the count doubles: a run that Fast Downward's time
    // limit kills (no destructor runs) still shows its evaluations per second.
    if (num_states_evaluated >= next_statistics_report) {
        print_statistics();
        next_statistics_report = 2 * num_states_evaluated;
    }
    return result;
}

bool SymtHeuristic::forward_pass(const vector<vector<int>> &states, size_t begin, size_t end,
                                 int64_t n, vector<int> &result) {
    int64_t batch = static_cast<int64_t>(end - begin);
    int64_t m = width - 1;
    size_t slots = static_cast<size_t>(batch * n);
    // Padding: predicate 0, arguments V, mask false.
    pred_buffer.assign(slots, 0);
    args_buffer.assign(slots * m, pad_token);
    mask_buffer.assign(slots, 0);
    for (int64_t b = 0; b < batch; ++b)
        fill_state(states[begin + b], b, n);

    try {
        c10::InferenceMode guard;
        double start = process_cpu_seconds();
        at::Tensor pred = torch::from_blob(pred_buffer.data(), {batch, n}, torch::kInt64);
        at::Tensor args = torch::from_blob(args_buffer.data(), {batch, n, m}, torch::kInt64);
        at::Tensor mask = torch::from_blob(mask_buffer.data(), {batch, n}, torch::kBool);
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
        string message = error.what();
        // Under a memory limit libtorch's allocator throws instead of calling the new-handler;
        // the caller retries with smaller passes.
        if (message.find("can't allocate memory") != string::npos ||
            message.find("bad_alloc") != string::npos) {
            at::autocast::set_autocast_enabled(at::kCPU, false);
            return false;
        }
        fail("evaluating " + model_path + " failed: " + first_sentence(message),
             utils::ExitCode::SEARCH_CRITICAL_ERROR);
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
