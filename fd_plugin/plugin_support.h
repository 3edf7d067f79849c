#ifndef SYMT_PLUGIN_SUPPORT_H
#define SYMT_PLUGIN_SUPPORT_H

/*
  What symt()'s and wl()'s registrations (symt_plugin.cc, wl_plugin.cc, compiled into the
  `downward` binary) and their heuristics (libsymt_heuristic.so, libsymt_wl.so) share.

  Linking libtorch or libpython into `downward` would make every configuration -- ff(),
  lama-first -- map hundreds of MiB of shared libraries at start-up and fail below that memory
  limit. So each plugin's registration and options live in the binary, and its heuristic is a
  shared library next to the binary that the parse function loads with dlopen the first time a
  search really uses it. Configurations without symt() or wl() never load either.
*/

#include "utils/system.h"

#include <functional>
#include <string>

class Heuristic;

namespace options {
class Options;
}

namespace symt {
// The factory a heuristic library exports (extern "C", so that dlsym finds it by name).
using CreateHeuristicFunction = Heuristic *(*)(const options::Options &opts);

/*
  One `symt: error: ...` line on stderr and Fast Downward's exit code `code` (utils::exit_with
  would add a second, generic line such as "Usage error occurred."). Defined in the binary and
  used by the heuristic libraries too.
*/
[[noreturn]] void fail(const std::string &message, utils::ExitCode code);

// The folder of the running `downward` binary, where the plugin libraries are built.
std::string binary_folder();

/*
  The factory `symbol` of the heuristic library named by the environment variable `env` or else
  `name` next to the binary, loaded with dlopen(`flags`) once per process (the library stays
  loaded: the heuristics it creates live as long). `what` names the library in the error lines
  ("the libtorch part of symt()"); where dlopen fails, `explain` may first end the run with a
  line more to the point than dlerror's reason.
*/
CreateHeuristicFunction load_heuristic_factory(
    const char *env, const char *name, int flags, const char *symbol, const std::string &what,
    const std::function<void(const std::string &reason)> &explain = nullptr);

/*
  "N states/s" for the statistics lines of symt() and wl(), or "too short for a rate" below 10 ms:
  the process CPU clock ticks in milliseconds or coarser, so a rate from less means nothing.
*/
std::string states_per_second(double states, double cpu_seconds);

// CPU time of the process, all threads: what Fast Downward's timers and time limits count.
double process_cpu_seconds();

// Whether a libtorch error says an allocation failed: under a memory limit its allocator throws
// ("can't allocate memory", std::bad_alloc) instead of calling the new-handler.
bool is_out_of_memory(const std::string &message);

// True where the CPU multiplies bf16 in hardware (x86: avx512_bf16 or amx_bf16; Arm: bf16).
// Elsewhere libtorch emulates bf16 and is several times slower than fp32.
bool cpu_has_bf16();

}

#endif
