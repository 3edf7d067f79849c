#include "symt_context.h"

#include "plugin_support.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <fstream>
#include <sstream>

using namespace std;

namespace symt {
// Private to this file; the format constants shared with the heuristic are in symt_context.h.
// Both sides must agree with symt.formats (tests/test_model.py reads them).
static constexpr int CONTEXT_VERSION = 3;
static constexpr const char *CONTEXT_HEADER = "symt-task-context";
static constexpr const char *FORMAT_NAME = "symt-heuristic";

string first_sentence(const string &message) {
    string line = message.substr(0, message.find('\n'));
    size_t stop = line.find(". ");
    return stop == string::npos ? line : line.substr(0, stop);
}

void input_error(const string &message) {
    fail(message, utils::ExitCode::SEARCH_INPUT_ERROR);
}

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

SymtContext read_context(const string &context_path) {
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

void check_model_against_context(
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

// A model's integer attribute `name` in 0..max_value, required from format `since` on (0 below it).
static int64_t format_attribute(const torch::jit::Module &module, const string &model_path,
                                const string &name, int since, int64_t max_value) {
    if (!module.hasattr("symt_format_version") || module.attr("symt_format_version").toInt() < since)
        return 0;
    if (!module.hasattr(name) || !module.attr(name).isInt())
        input_error(model_path + ": a format-" + to_string(since) + " model without the integer attribute " +
                    name + "; re-export it with `symt export`");
    int64_t value = module.attr(name).toInt();
    if (value < 0 || value > max_value)
        input_error(model_path + ": " + name + " " + to_string(value) + " is unknown to this plugin (it knows 0 to " +
                    to_string(max_value) + "); rebuild it with scripts/setup.sh");
    return value;
}

// An optional integer attribute (absent from the files that predate it): `absent` then.
static int64_t optional_attribute(const torch::jit::Module &module, const string &name, int64_t absent) {
    return module.hasattr(name) && module.attr(name).isInt() ? module.attr(name).toInt() : absent;
}

ModelAttributes read_model_attributes(const torch::jit::Module &module, const string &model_path) {
    ModelAttributes attributes;
    attributes.cache_mode = format_attribute(module, model_path, "symt_context_cache", CONTEXT_CACHE_SINCE, 2);
    attributes.achieved_goals =
        format_attribute(module, model_path, "symt_achieved_goals", ACHIEVED_GOALS_SINCE, 1) == 1;
    attributes.linear_cost = optional_attribute(module, "symt_linear_cost", 0) == 1;
    attributes.local_hops = optional_attribute(module, "symt_local_hops", 0);
    attributes.dead_ends = optional_attribute(module, "symt_dead_ends", 0) == 1;
    return attributes;
}

bool read_fact_name(const string &name, string &atom, string &predicate, vector<string> &args) {
    const string prefix = "Atom ";
    if (name.compare(0, prefix.size(), prefix) != 0)
        return false;
    atom = name.substr(prefix.size());
    size_t open = atom.find('(');
    size_t close = atom.rfind(')');
    if (open == string::npos || close == string::npos || close < open)
        input_error("cannot read Fast Downward fact '" + name + "'");
    predicate = lower_case(atom.substr(0, open));
    args.clear();
    stringstream split(atom.substr(open + 1, close - open - 1));
    string arg;
    while (getline(split, arg, ',')) {
        arg.erase(0, arg.find_first_not_of(' '));
        arg.erase(arg.find_last_not_of(' ') + 1);
        if (!arg.empty())
            args.push_back(lower_case(arg));
    }
    return true;
}
}
