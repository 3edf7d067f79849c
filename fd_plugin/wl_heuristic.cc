#include "wl_heuristic.h"

#include "global_state.h"
#include "option_parser.h"

#include "task_utils/task_properties.h"

#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdlib>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <limits>

using namespace std;
namespace py = pybind11;

#ifndef SYMT_DEFAULT_PYTHON
#define SYMT_DEFAULT_PYTHON "python3"
#endif

namespace symt {
static const int MAX_H = 1 << 29;

[[noreturn]] static void input_error(const string &message) {
    fail(message, utils::ExitCode::SEARCH_INPUT_ERROR);
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

static double cpu_seconds() {
    return static_cast<double>(clock()) / CLOCKS_PER_SEC;
}

/*
  One interpreter per process, never finalized: heuristics hold Python objects until the process
  ends, and Fast Downward ends it with exit().
*/
static void start_python() {
    if (Py_IsInitialized())
        return;
    string python = env_or_empty("SYMT_PYTHON");
    if (python.empty())
        python = SYMT_DEFAULT_PYTHON;
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    // Fast Downward handles SIGINT, SIGTERM and SIGXCPU itself (it prints and exits with its
    // codes); Python's handlers would swallow them until the next bytecode.
    config.install_signal_handlers = 0;
    config.parse_argv = 0;
    // The executable decides sys.prefix: a virtual environment's python finds its pyvenv.cfg
    // and site-packages (WLPlan, symt).
    PyStatus status = PyConfig_SetBytesString(&config, &config.program_name, python.c_str());
    if (PyStatus_Exception(status)) {
        PyConfig_Clear(&config);
        fail("wl(): cannot set the Python executable " + python, utils::ExitCode::SEARCH_CRITICAL_ERROR);
    }
    try {
        py::initialize_interpreter(&config, 0, nullptr, false);
    } catch (const exception &error) {
        fail(string("wl(): cannot start Python (") + python + "): " + error.what(),
             utils::ExitCode::SEARCH_CRITICAL_ERROR);
    }
}

/*
  A Python exception as one error line: symt's own errors (bad model file, a task of another
  domain) are input errors; anything else is reported with its type.
*/
[[noreturn]] static void python_error(const py::error_already_set &error, const string &what) {
    bool symt_error = false;
    try {
        symt_error = error.matches(py::module_::import("symt.errors").attr("SymtError"));
    } catch (const py::error_already_set &) {
    }
    if (symt_error)
        input_error(string(py::str(error.value())));
    fail("wl(): " + what + ": " + error.what(), utils::ExitCode::SEARCH_CRITICAL_ERROR);
}

struct WlHeuristic::Python {
    py::object evaluator;
    py::object evaluate;
};

WlHeuristic::WlHeuristic(const Options &opts)
    : BatchedHeuristic(opts),
      python(make_unique<Python>()) {
    load(opts.get<string>("model"), opts.get<double>("scale"));
    State initial_state = task_proxy.get_initial_state();
    int h = evaluate({variable_values(initial_state)}, {})[0];
    // The statistics printed at the end cover the search only.
    num_calls = num_states_evaluated = 0;
    python_seconds = 0.0;
    string model_description;
    try {
        model_description = python->evaluator.attr("describe")().cast<string>();
    } catch (const py::error_already_set &error) {
        python_error(error, "describe the model");
    }
    cout << "wl: " << model_description << " loaded from " << model_path << "; h = round(" << scale << " * value) + "
         << offset << "; h(initial state) = " << h << endl;
}

WlHeuristic::~WlHeuristic() {
    if (num_calls > 0)
        cout << "wl: " << num_states_evaluated << " states in " << num_calls << " calls, "
             << python_seconds << " s in WLPlan (CPU time, "
             << states_per_second(num_states_evaluated, python_seconds) << ")" << endl;
}

void WlHeuristic::load(const string &model_option, double scale_option) {
    string key = env_key(model_option);
    model_path = env_or_empty("SYMT_WL_MODEL_" + key);
    if (model_path.empty())
        model_path = model_option;
    string domain_path = env_or_empty("SYMT_WL_DOMAIN");
    string problem_path = env_or_empty("SYMT_WL_PROBLEM");
    if (domain_path.empty() || problem_path.empty())
        input_error("wl(model=" + model_option + ") needs the PDDL files: run the planner through "
                    "the `fast-downward` command, which passes them (or set SYMT_WL_DOMAIN and "
                    "SYMT_WL_PROBLEM)");
    {
        ifstream probe(model_path);
        if (!probe)
            input_error("WL model file not found or not readable: " + model_path);
    }
    cout << flush;  // symt.wl silences WLPlan's own prints on file descriptor 1 while loading
    start_python();
    VariablesProxy variables = task_proxy.get_variables();
    for (VariableProxy var : variables) {
        fact_offsets.push_back(static_cast<int>(fact_names.size()));
        // Derived variables ("new-axiom@N" and the like) are no atoms of the state: no name.
        for (int value = 0; value < var.get_domain_size(); ++value)
            fact_names.push_back(var.is_derived() ? string() : var.get_fact(value).get_name());
    }
    try {
        py::object wl_class = py::module_::import("symt.wl").attr("FastDownwardWL");
        python->evaluator = wl_class(model_path, domain_path, problem_path);
        python->evaluator.attr("set_facts")(fact_names);
        python->evaluate = python->evaluator.attr("evaluate");
        scale = scale_option > 0.0 ? scale_option
                                   : python->evaluator.attr("fd_scale").cast<double>();
        offset = python->evaluator.attr("fd_offset").cast<int>();
    } catch (const py::error_already_set &error) {
        python_error(error, "load " + model_path);
    }
    string trace_path = env_or_empty("SYMT_WL_TRACE");
    if (!trace_path.empty()) {
        trace = make_unique<ofstream>(trace_path);
        if (!*trace)
            input_error("cannot write the trace file " + trace_path);
        *trace << setprecision(17);
    }
}

int WlHeuristic::to_heuristic_value(double raw) const {
    if (!std::isfinite(raw))
        fail("the WL model returned a non-finite value (" + to_string(raw) + ") for " + model_path,
             utils::ExitCode::SEARCH_CRITICAL_ERROR);
    double value = std::round(raw * scale) + offset;
    if (value <= 0.0)
        return 0;
    return value >= MAX_H ? MAX_H : static_cast<int>(value);
}

vector<int> WlHeuristic::evaluate(const vector<vector<int>> &states, const vector<GlobalState> &) {
    vector<vector<int>> facts(states.size());
    for (size_t i = 0; i < states.size(); ++i) {
        facts[i].reserve(states[i].size());
        for (size_t var = 0; var < states[i].size(); ++var)
            facts[i].push_back(fact_offsets[var] + states[i][var]);
    }
    double start = cpu_seconds();
    vector<double> raw;
    try {
        raw = python->evaluate(facts).cast<vector<double>>();
    } catch (const py::error_already_set &error) {
        python_error(error, "evaluate states");
    }
    python_seconds += cpu_seconds() - start;
    ++num_calls;
    num_states_evaluated += states.size();
    vector<int> h(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
        h[i] = to_heuristic_value(raw[i]);
        if (trace) {
            bool first = true;
            for (int fact : facts[i]) {
                const string &name = fact_names[fact];
                if (name.compare(0, 5, "Atom ") != 0)
                    continue;
                *trace << (first ? "" : ";") << name.substr(5);
                first = false;
            }
            *trace << "\t" << raw[i] << "\n";
        }
    }
    if (trace)
        trace->flush();
    return h;
}
}

// The factory that wl_plugin.cc looks up with dlsym.
extern "C" __attribute__((visibility("default"))) Heuristic *symt_create_wl_heuristic(const options::Options &opts) {
    return new symt::WlHeuristic(opts);
}
