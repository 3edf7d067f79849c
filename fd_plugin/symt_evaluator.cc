#include "symt_evaluator.h"

#include "global_state.h"
#include "heuristic.h"
#include "option_parser.h"
#include "plugin.h"

#include "task_utils/task_properties.h"
#include "utils/system.h"

#include <dlfcn.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>

using namespace std;

namespace symt {
const char *const CREATE_HEURISTIC_SYMBOL = "symt_create_heuristic";
const int MIN_ADDRESS_SPACE_MIB = 512;
static const char *const LIBRARY_NAME = "libsymt_heuristic.so";
static const char *const LIBRARY_ENV = "SYMT_HEURISTIC_LIBRARY";

BatchEvaluator::~BatchEvaluator() {
}

void fail(const string &message, utils::ExitCode code) {
    cout << flush;
    cerr << "symt: error: " << message << endl;
    exit(static_cast<int>(code));
}

// The folder of the running binary: libsymt_heuristic.so is built next to `downward`.
string states_per_second(double states, double cpu_seconds) {
    if (cpu_seconds < 0.01)
        return "too short for a rate";
    return to_string(static_cast<int64_t>(states / cpu_seconds)) + " states/s";
}

string binary_folder() {
    char buffer[4096];
    ssize_t length = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
    if (length <= 0)
        return ".";
    string path(buffer, static_cast<size_t>(length));
    size_t slash = path.rfind('/');
    return slash == string::npos ? "." : path.substr(0, slash);
}

// The address-space limit in MiB, or -1 when there is none.
static long address_space_limit_mib() {
    rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return -1;
    return static_cast<long>(limit.rlim_cur / (1024 * 1024));
}

static CreateHeuristicFunction load_heuristic_library() {
    static CreateHeuristicFunction create = nullptr;
    if (create)
        return create;
    /*
      Below the minimum, loading libtorch or the first forward passes fail somewhere between
      dlopen and the allocator; one line that names the minimum is more useful than that.
    */
    long limit = address_space_limit_mib();
    if (limit >= 0 && limit < MIN_ADDRESS_SPACE_MIB)
        fail("symt() needs at least " + to_string(MIN_ADDRESS_SPACE_MIB) +
             " MiB of address space (libtorch and the model), but the memory limit is " +
             to_string(limit) + " MiB: raise --search-memory-limit or --overall-memory-limit",
             utils::ExitCode::SEARCH_OUT_OF_MEMORY);
    const char *override_path = getenv(LIBRARY_ENV);
    string path = override_path && *override_path ? string(override_path)
                                                  : binary_folder() + "/" + LIBRARY_NAME;
    // The library stays loaded until the process ends: heuristics it created live that long.
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        string reason = dlerror();
        if (limit >= 0 && reason.find("map") != string::npos)
            fail("cannot load libtorch under the memory limit of " + to_string(limit) +
                 " MiB (" + reason + "): raise --search-memory-limit or --overall-memory-limit",
                 utils::ExitCode::SEARCH_OUT_OF_MEMORY);
        fail("cannot load " + path + " (the libtorch part of symt()): " + reason +
             "; rebuild with `bash scripts/build_fd.sh`", utils::ExitCode::SEARCH_CRITICAL_ERROR);
    }
    create = reinterpret_cast<CreateHeuristicFunction>(dlsym(handle, CREATE_HEURISTIC_SYMBOL));
    if (!create)
        fail(path + " has no " + CREATE_HEURISTIC_SYMBOL + ": not symt's heuristic library",
             utils::ExitCode::SEARCH_CRITICAL_ERROR);
    return create;
}

/*
  symt() on a task without operators. Fast Downward's translator writes such a task (a single
  `dummy` variable and an unreachable goal) when it proves the input unsolvable; the model knows
  no `dummy` predicate, and needs none: no state but a goal state can reach the goal, so every
  other state is a dead end and the search reports "no solution" as it does with ff().
*/
class NoOperatorsHeuristic : public Heuristic {
protected:
    virtual int compute_heuristic(const GlobalState &global_state) override {
        State state = convert_global_state(global_state);
        return task_properties::is_goal_state(task_proxy, state) ? 0 : DEAD_END;
    }

public:
    explicit NoOperatorsHeuristic(const options::Options &opts)
        : Heuristic(opts) {
        cout << "symt: the task has no operators (the translator proved it unsolvable, or it is "
             << "trivial): goal states get 0, every other state is a dead end; the model is "
             << "not loaded" << endl;
    }
};

static shared_ptr<Heuristic> _parse(OptionParser &parser) {
    parser.document_synopsis(
        "symt learned heuristic",
        "A SymT model exported to TorchScript by `symt export`, evaluated with libtorch "
        "(loaded from libsymt_heuristic.so the first time symt() is used). Use it through the "
        "`fast-downward` command, which resolves model names and paths (Fast Downward "
        "lower-cases the search string), picks the shipped model for the task's domain when "
        "no model is given, and writes the task context (static atoms, goal atoms, object "
        "tokens) that the model needs.");
    parser.document_property("admissible", "no");
    parser.document_property("consistent", "no");
    parser.document_property("safe", "no");
    parser.document_property("preferred operators", "no");
    parser.add_option<string>(
        "model", "model key set by the fast-downward wrapper, or a path to the model file");
    parser.add_option<int>(
        "threads", "intra-op threads for libtorch (Fast Downward's time limits count all threads)",
        "1", Bounds("1", "infinity"));
    parser.add_option<double>(
        "scale", "multiply the model's estimate by this factor before rounding to an integer",
        "1.0", Bounds("0.0", "infinity"));
    parser.add_enum_option(
        "precision", {"FP32", "BF16", "AUTO"},
        "arithmetic of the forward pass", "FP32",
        {"32-bit floats (the values the model was trained and validated with)",
         "bfloat16 matrix products (torch autocast): fast on CPUs with bf16 instructions, "
         "emulated and slow elsewhere",
         "BF16 where the CPU has bf16 instructions (avx512_bf16 or amx_bf16), FP32 otherwise"});
    parser.add_option<int>(
        "max_batch_atoms",
        "at most this many atoms (padded) in one forward pass; batches of states beyond it are "
        "split, and halved again whenever a pass runs out of memory. The values do not depend "
        "on it; the memory and speed of batched evaluation do",
        "32768", Bounds("1", "infinity"));
    Heuristic::add_options_to_parser(parser);
    Options opts = parser.parse();
    if (parser.dry_run())
        return nullptr;
    TaskProxy task_proxy(*opts.get<shared_ptr<AbstractTask>>("transform"));
    if (task_proxy.get_operators().empty())
        return make_shared<NoOperatorsHeuristic>(opts);
    CreateHeuristicFunction create = load_heuristic_library();
    return shared_ptr<Heuristic>(create(opts));
}

static Plugin<Evaluator> _plugin("symt", _parse);
}
