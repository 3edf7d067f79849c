#ifndef SYMT_WL_HEURISTIC_H
#define SYMT_WL_HEURISTIC_H

/*
  wl(): the WL baseline's heuristic, compiled into libsymt_wl.so (loaded by wl_plugin.cc on
  first use; its options are declared there). Batching: batched_heuristic.h.

  It starts a Python interpreter inside the search process -- the virtual environment's, named by
  SYMT_PYTHON (set by the fast-downward wrapper) or else the one the plugin was built with --
  without Python's signal handlers, so that Fast Downward's own stay in charge, and hands every
  state to symt.wl.FastDownwardWL, which builds WLPlan's state and returns the model's value.
  Fast Downward's fact names ("Atom on(a, b)") are sent once; a state is then the list of its
  fact numbers. batch_eager_greedy sends all new successors of an expansion in one call.

  Like symt(), Fast Downward lower-cases the search string, so the wrapper rewrites
  wl(model=<name or path>) to wl(model=w<i>) and passes SYMT_WL_MODEL_W<i> (the model file) and
  SYMT_WL_DOMAIN / SYMT_WL_PROBLEM (the PDDL files). Used directly, model=<path> is the model file
  and the two PDDL variables must be set by hand.

  SYMT_WL_TRACE=<file>: every state sent to the model, its atoms and the model's raw value, one
  line each (the test that compares with WLPlan through Python reads it).
*/

#include "batched_heuristic.h"
#include "plugin_support.h"

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

class GlobalState;

namespace symt {
class WlHeuristic : public BatchedHeuristic {
    // The Python objects (a symt.wl.FastDownwardWL and its bound evaluate method), kept out of
    // this header so that it needs no Python headers.
    struct Python;
    std::unique_ptr<Python> python;
    std::string model_path;
    double scale = 1.0;
    int offset = 0;             // added after rounding (the model file's fd_offset)

    // fact_offsets[var] + value: the number of a fact in the list of names sent to Python.
    std::vector<int> fact_offsets;
    std::vector<std::string> fact_names;

    std::unique_ptr<std::ofstream> trace;

    int64_t num_calls = 0;
    int64_t num_states_evaluated = 0;
    double python_seconds = 0.0;

    void load(const std::string &model_option, double scale_option);
    // The model's values of `states` (their variable values), rounded to heuristic values.
    virtual std::vector<int> evaluate(const std::vector<std::vector<int>> &states,
                                      const std::vector<GlobalState> &registered) override;
    int to_heuristic_value(double raw) const;

public:
    explicit WlHeuristic(const options::Options &opts);
    virtual ~WlHeuristic() override;
};
}

#endif
