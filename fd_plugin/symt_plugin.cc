/*
  symt(): its registration and options, compiled into the `downward` binary without libtorch
  (plugin_support.h says why). The heuristic itself (symt_heuristic.cc) is
  libsymt_heuristic.so, loaded by the parse function below the first time a search uses symt().
*/

#include "plugin_support.h"

#include "global_state.h"
#include "heuristic.h"
#include "option_parser.h"
#include "plugin.h"

#include "task_utils/task_properties.h"
#include "utils/system.h"

#include <dlfcn.h>
#include <sys/resource.h>

#include <iostream>
#include <memory>

using namespace std;

namespace symt {
/*
  The address space (MiB) below which symt() refuses to start, with one line that names it:
  libtorch and a shipped model needed 440 MiB on Gripper-12 (torch 2.13 CPU), and larger tasks
  need more; between 400 and 440 MiB the run failed in the allocator or in libtorch.
*/
static const int MIN_ADDRESS_SPACE_MIB = 512;

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
    create = load_heuristic_factory(
        "SYMT_HEURISTIC_LIBRARY", "libsymt_heuristic.so", RTLD_NOW | RTLD_LOCAL,
        "symt_create_heuristic", "the libtorch part of symt()", [limit](const string &reason) {
            if (limit >= 0 && reason.find("map") != string::npos)
                fail("cannot load libtorch under the memory limit of " + to_string(limit) +
                     " MiB (" + reason + "): raise --search-memory-limit or --overall-memory-limit",
                     utils::ExitCode::SEARCH_OUT_OF_MEMORY);
        });
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
    parser.add_option<bool>(
        "incremental",
        "with a local model (trained with --global-tokens 0; its file says symt_local_hops), "
        "compute a successor's value from its parent's, passing only the atoms near the change "
        "through the model (the same values; false: every state whole)",
        "true");
    parser.add_option<bool>(
        "native",
        "with a local model whose file has local_weights, pass a successor from its parent's "
        "layers by symt's own C++ pass (fp32) instead of the file's TorchScript layer_terms "
        "(the same values up to float rounding, several times faster at the few dozen atoms "
        "such a pass reads)",
        "true");
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
