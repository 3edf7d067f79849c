/*
  wl(): the WL baseline (WL-GOOSE: a linear model on Weisfeiler-Leman features of the instance
  learning graph, trained by `symt train-wl`), registered in the `downward` binary.

  WLPlan, which computes the features, is a Python library with a compiled core and no C++
  source on the registry. So the heuristic (wl_heuristic.cc) embeds a Python interpreter and
  calls WLPlan through symt.wl.FastDownwardWL -- the way GOOSE's own Fast Downward evaluator
  did. It lives in libsymt_wl.so, which wl()'s parse function loads the first time a search uses
  wl(): `downward` does not link libpython, and configurations without wl() never load it.
*/

#include "plugin_support.h"

#include "heuristic.h"
#include "option_parser.h"
#include "plugin.h"

#include <dlfcn.h>

#include <memory>

using namespace std;

namespace symt {
static CreateHeuristicFunction load_wl_library() {
    static CreateHeuristicFunction create = nullptr;
    if (!create)
        /*
          RTLD_GLOBAL: the library brings libpython, whose symbols the extension modules that
          Python imports later (WLPlan's core, NumPy) expect to find in the process's global
          namespace.
        */
        create = load_heuristic_factory("SYMT_WL_LIBRARY", "libsymt_wl.so", RTLD_NOW | RTLD_GLOBAL,
                                        "symt_create_wl_heuristic",
                                        "the embedded-Python part of wl()");
    return create;
}

static shared_ptr<Heuristic> _parse(OptionParser &parser) {
    parser.document_synopsis(
        "WL baseline (WL-GOOSE)",
        "A linear model on Weisfeiler-Leman features of the instance learning graph, trained by "
        "`symt train-wl` and evaluated by WLPlan in a Python interpreter embedded in the search "
        "(loaded from libsymt_wl.so the first time wl() is used). Use it through the "
        "`fast-downward` command, which resolves the model name or path (Fast Downward "
        "lower-cases the search string) and tells the evaluator the PDDL files, whose static "
        "and goal atoms the features need. Goal states get 0 without a model call.");
    parser.document_property("admissible", "no");
    parser.document_property("consistent", "no");
    parser.document_property("safe", "no");
    parser.document_property("preferred operators", "no");
    parser.add_option<string>(
        "model", "model key set by the fast-downward wrapper, or a path to the model file");
    parser.add_option<double>(
        "scale",
        "multiply the model's value by this factor before rounding to an integer (0: the model "
        "file's own, 100 for ranking models and 1 for regression on h*); a ranking model's "
        "values are then shifted up by the file's offset (negative values are no dead ends)",
        "0.0", Bounds("0.0", "infinity"));
    Heuristic::add_options_to_parser(parser);
    Options opts = parser.parse();
    if (parser.dry_run())
        return nullptr;
    CreateHeuristicFunction create = load_wl_library();
    return shared_ptr<Heuristic>(create(opts));
}

static Plugin<Evaluator> _plugin("wl", _parse);
}
