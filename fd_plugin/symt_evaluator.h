#ifndef SYMT_EVALUATOR_H
#define SYMT_EVALUATOR_H

/*
  The part of symt() that is compiled into the `downward` binary, without libtorch.

  Linking libtorch into `downward` would make every configuration -- ff(), lama-first -- map
  about 400 MiB of shared libraries at start-up, and fail below that memory limit. So the
  plugin registration, its options and this interface live in the binary, and the heuristic
  itself (symt_heuristic.cc, linked against libtorch) is a shared library,
  libsymt_heuristic.so next to the binary, that symt()'s parse function loads with dlopen the
  first time a search really uses symt(). Configurations without symt() never load libtorch.
*/

#include "utils/system.h"

#include <string>
#include <vector>

class GlobalState;
class Heuristic;

namespace options {
class Options;
}

namespace symt {
/*
  Evaluates several states in one call and keeps the values for the compute_heuristic calls
  that follow. Implemented by the libtorch heuristic; batch_eager_greedy uses it through this
  interface, so that it needs no libtorch either.
*/
class BatchEvaluator {
public:
    virtual ~BatchEvaluator();
    virtual void evaluate_batch(const std::vector<GlobalState> &states) = 0;
};

// The factory that libsymt_heuristic.so exports (extern "C", so that dlsym finds it by name).
using CreateHeuristicFunction = Heuristic *(*)(const options::Options &opts);
extern const char *const CREATE_HEURISTIC_SYMBOL;

/*
  One `symt: error: ...` line on stderr and Fast Downward's exit code `code` (utils::exit_with
  would add a second, generic line such as "Usage error occurred."). Defined in the binary and
  used by libsymt_heuristic.so too.
*/
[[noreturn]] void fail(const std::string &message, utils::ExitCode code);

// The folder of the running `downward` binary, where the plugin libraries are built.
std::string binary_folder();

/*
  "N states/s" for the statistics lines of symt() and wl(), or "too short for a rate" below 10 ms:
  the process CPU clock ticks in milliseconds or coarser, so a rate from less means nothing.
*/
std::string states_per_second(double states, double cpu_seconds);

// Precision of the forward pass (symt(precision=...)); AUTO resolves when the model is loaded.
enum class Precision {FP32 = 0, BF16 = 1, AUTO = 2};

/*
  The address space (MiB) below which symt() refuses to start, with one line that names it:
  libtorch and a shipped model needed 440 MiB on Gripper-12 (torch 2.13 CPU), and larger tasks
  need more; between 400 and 440 MiB the run failed in the allocator or in libtorch.
*/
extern const int MIN_ADDRESS_SPACE_MIB;
}

#endif
