#include "batch_eager_search.h"

#include "batched_heuristic.h"

#include "evaluation_context.h"
#include "evaluator.h"
#include "open_list_factory.h"
#include "option_parser.h"
#include "plugin.h"
#include "pruning_method.h"

#include "algorithms/ordered_set.h"
#include "evaluators/g_evaluator.h"
#include "open_lists/alternation_open_list.h"
#include "open_lists/type_based_open_list.h"
#include "search_engines/search_common.h"
#include "task_utils/successor_generator.h"
#include "utils/rng_options.h"

#include <algorithm>
#include <cassert>
#include <iostream>
#include <optional.hh>
#include <set>

using namespace std;

namespace symt {
BatchEagerSearch::BatchEagerSearch(const Options &opts)
    : SearchEngine(opts),
      open_list(opts.get<shared_ptr<OpenListFactory>>("open")->create_state_open_list()),
      preferred_operator_evaluators(opts.get_list<shared_ptr<Evaluator>>("preferred")),
      pruning_method(opts.get<shared_ptr<PruningMethod>>("pruning")),
      expansions_per_batch(opts.get<int>("expansions_per_batch")) {
    for (const shared_ptr<Evaluator> &evaluator : opts.get_list<shared_ptr<Evaluator>>("evals")) {
        BatchEvaluator *symt = dynamic_cast<BatchEvaluator *>(evaluator.get());
        if (symt && find(batch_evaluators.begin(), batch_evaluators.end(), symt) ==
            batch_evaluators.end())
            batch_evaluators.push_back(symt);
    }
    if (batch_evaluators.empty())
        cout << "batch_eager_greedy: no symt() heuristic among the evaluators; "
             << "searching like eager_greedy without batching" << endl;
}

void BatchEagerSearch::initialize() {
    cout << "Conducting best first search without reopening closed nodes, "
         << "successors evaluated in batches, (real) bound = " << bound << endl;
    assert(open_list);

    set<Evaluator *> evals;
    open_list->get_path_dependent_evaluators(evals);
    for (const shared_ptr<Evaluator> &evaluator : preferred_operator_evaluators)
        evaluator->get_path_dependent_evaluators(evals);
    path_dependent_evaluators.assign(evals.begin(), evals.end());
    may_keep_preferred = !preferred_operator_evaluators.empty() &&
        none_of(preferred_operator_evaluators.begin(), preferred_operator_evaluators.end(),
                [&](const shared_ptr<Evaluator> &evaluator) {return evals.count(evaluator.get()) > 0;});

    const GlobalState &initial_state = state_registry.get_initial_state();
    for (Evaluator *evaluator : path_dependent_evaluators)
        evaluator->notify_initial_state(initial_state);

    // Note: we consider the initial state as reached by a preferred operator.
    EvaluationContext eval_context(initial_state, 0, true, &statistics);
    statistics.inc_evaluated_states();

    if (open_list->is_dead_end(eval_context)) {
        cout << "Initial state is a dead end." << endl;
    } else {
        if (search_progress.check_progress(eval_context))
            statistics.print_checkpoint_line(0);
        SearchNode node = search_space.get_node(initial_state);
        node.open_initial();
        open_list->insert(eval_context, initial_state.get_id());
    }
    print_initial_evaluator_values(eval_context);
    pruning_method->initialize(task);
}

void BatchEagerSearch::print_statistics() const {
    statistics.print_detailed_statistics();
    search_space.print_statistics();
    pruning_method->print_statistics();
}

tl::optional<SearchNode> BatchEagerSearch::pop_open_node() {
    while (!open_list->empty()) {
        StateID id = open_list->remove_min();
        GlobalState s = state_registry.lookup_state(id);
        SearchNode node = search_space.get_node(s);
        if (node.is_closed())
            continue;
        node.close();
        assert(!node.is_dead_end());
        statistics.inc_expanded();
        return node;
    }
    return tl::nullopt;
}

SearchStatus BatchEagerSearch::step() {
    /*
      Up to `expansions_per_batch` best open states are expanded together (K-best-first search,
      Felner, Kraus and Korf 2003): the first is the one eager_greedy would expand; the others
      are taken from the open list before the first one's successors are inserted. With 1 this
      is eager_greedy exactly.
    */
    vector<SearchNode> expanded;
    for (int i = 0; i < expansions_per_batch; ++i) {
        tl::optional<SearchNode> node = pop_open_node();
        if (!node)
            break;
        if (check_goal_and_set_plan(node->get_state()))
            return SOLVED;
        expanded.push_back(*node);
    }
    if (expanded.empty()) {
        cout << "Completely explored state space -- no solution!" << endl;
        return FAILED;
    }

    // The batch: every new successor of every expanded state (the evaluator sends a state
    // reached twice to the model once).
    struct Expansion {
        vector<OperatorID> ops;
        vector<GlobalState> successors;
        ordered_set::OrderedSet<OperatorID> preferred_operators;
    };
    vector<Expansion> expansions(expanded.size());
    vector<GlobalState> batch;
    for (size_t e = 0; e < expanded.size(); ++e) {
        const SearchNode &node = expanded[e];
        GlobalState s = node.get_state();
        vector<OperatorID> applicable_ops;
        successor_generator.generate_applicable_ops(s, applicable_ops);
        pruning_method->prune_operators(s, applicable_ops);

        KeptPreferred &kept = kept_preferred[s];
        if (kept.known) {
            for (OperatorID op_id : kept.operators)
                expansions[e].preferred_operators.insert(op_id);
            kept = KeptPreferred();
        } else {
            // This evaluates the expanded state (again) to get preferred ops.
            EvaluationContext eval_context(s, node.get_g(), false, &statistics, true);
            for (const shared_ptr<Evaluator> &preferred_operator_evaluator : preferred_operator_evaluators)
                collect_preferred_operators(eval_context, preferred_operator_evaluator.get(),
                                            expansions[e].preferred_operators);
        }
        for (OperatorID op_id : applicable_ops) {
            OperatorProxy op = task_proxy.get_operators()[op_id];
            if ((node.get_real_g() + op.get_cost()) >= bound)
                continue;
            GlobalState succ_state = state_registry.get_successor_state(s, op);
            expansions[e].ops.push_back(op_id);
            expansions[e].successors.push_back(succ_state);
            if (!batch_evaluators.empty() && search_space.get_node(succ_state).is_new()) {
                batch.push_back(succ_state);
                for (BatchEvaluator *evaluator : batch_evaluators)
                    evaluator->announce_transition(s, succ_state);
            }
        }
    }
    if (!batch.empty())
        for (BatchEvaluator *evaluator : batch_evaluators)
            evaluator->evaluate_batch(batch);

    // From here on as in eager_search.cc (reopen_closed=false, no lazy evaluator), per expansion.
    for (size_t e = 0; e < expanded.size(); ++e)
        insert_successors(expanded[e], expansions[e].ops, expansions[e].successors,
                          expansions[e].preferred_operators);
    return IN_PROGRESS;
}

void BatchEagerSearch::keep_preferred(EvaluationContext &eval_context, const GlobalState &state) {
    if (!may_keep_preferred)
        return;
    for (const shared_ptr<Evaluator> &evaluator : preferred_operator_evaluators) {
        bool evaluated = false;
        eval_context.get_cache().for_each_evaluator_result(
            [&](const Evaluator *eval, const EvaluationResult &result) {
                if (eval == evaluator.get() && !result.is_uninitialized())
                    evaluated = true;
            });
        if (!evaluated)
            return;
    }
    ordered_set::OrderedSet<OperatorID> operators;
    for (const shared_ptr<Evaluator> &evaluator : preferred_operator_evaluators)
        collect_preferred_operators(eval_context, evaluator.get(), operators);
    KeptPreferred &kept = kept_preferred[state];
    kept.known = true;
    kept.operators = operators.pop_as_vector();
}

void BatchEagerSearch::insert_successors(
    const SearchNode &node, const vector<OperatorID> &ops, const vector<GlobalState> &successors,
    const ordered_set::OrderedSet<OperatorID> &preferred_operators) {
    GlobalState s = node.get_state();
    for (size_t i = 0; i < ops.size(); ++i) {
        OperatorID op_id = ops[i];
        OperatorProxy op = task_proxy.get_operators()[op_id];
        const GlobalState &succ_state = successors[i];
        statistics.inc_generated();
        bool is_preferred = preferred_operators.contains(op_id);

        SearchNode succ_node = search_space.get_node(succ_state);

        for (Evaluator *evaluator : path_dependent_evaluators)
            evaluator->notify_state_transition(s, op_id, succ_state);

        // Previously encountered dead end. Don't re-evaluate.
        if (succ_node.is_dead_end())
            continue;

        if (succ_node.is_new()) {
            int succ_g = node.get_g() + get_adjusted_cost(op);
            EvaluationContext succ_eval_context(succ_state, succ_g, is_preferred, &statistics);
            statistics.inc_evaluated_states();

            if (open_list->is_dead_end(succ_eval_context)) {
                succ_node.mark_as_dead_end();
                statistics.inc_dead_ends();
                continue;
            }
            succ_node.open(node, op, get_adjusted_cost(op));

            open_list->insert(succ_eval_context, succ_state.get_id());
            keep_preferred(succ_eval_context, succ_state);
            if (search_progress.check_progress(succ_eval_context)) {
                statistics.print_checkpoint_line(succ_node.get_g());
                reward_progress();
            }
        } else if (succ_node.get_g() > node.get_g() + get_adjusted_cost(op)) {
            // A cheaper path to an open or closed state: update the parent pointers only
            // (eager_greedy does not reopen closed nodes).
            succ_node.update_parent(node, op, get_adjusted_cost(op));
        }
    }
}

void BatchEagerSearch::reward_progress() {
    open_list->boost_preferred();
}

/*
  eager_greedy's open list, plus, with type_based=true, a type-based exploration queue
  (Xie, Mueller and Holte, AAAI 2014) in the same alternation: it buckets open states by the
  values of the evaluators and g, and pops a random state of a random bucket, so that GBFS also
  expands states its heuristic ranks low and can leave plateaus. Whether that pays depends on the
  heuristic: benchmarks/results/explore/ measures it for h^FF and the shipped models. The
  alternation is flat, so that boosting still reaches the preferred queues. Equivalent to
  eager(alt([single(h1), ..., type_based([h1, ..., g()])])).
*/
static shared_ptr<OpenListFactory> create_open_list_factory(const Options &opts) {
    if (!opts.get<bool>("type_based"))
        return search_common::create_greedy_open_list_factory(opts);
    vector<shared_ptr<Evaluator>> evals = opts.get_list<shared_ptr<Evaluator>>("evals");
    bool use_preferred = !opts.get_list<shared_ptr<Evaluator>>("preferred").empty();
    vector<shared_ptr<OpenListFactory>> sublists;
    for (const shared_ptr<Evaluator> &evaluator : evals) {
        sublists.push_back(search_common::create_standard_scalar_open_list_factory(evaluator, false));
        if (use_preferred)
            sublists.push_back(search_common::create_standard_scalar_open_list_factory(evaluator, true));
    }
    Options type_based_options;
    evals.push_back(make_shared<g_evaluator::GEvaluator>());
    type_based_options.set("evaluators", evals);
    type_based_options.set("random_seed", opts.get<int>("random_seed"));
    sublists.push_back(make_shared<type_based_open_list::TypeBasedOpenListFactory>(type_based_options));
    Options alternation_options;
    alternation_options.set("sublists", sublists);
    alternation_options.set("boost", opts.get<int>("boost"));
    return make_shared<alternation_open_list::AlternationOpenListFactory>(alternation_options);
}

static shared_ptr<SearchEngine> _parse(OptionParser &parser) {
    parser.document_synopsis(
        "Greedy search (eager), successors evaluated in batches",
        "eager_greedy, except that the new successors of an expanded state are evaluated by "
        "each symt() heuristic among the evaluators in one forward pass. Same options and the "
        "same plans as eager_greedy.");
    parser.add_list_option<shared_ptr<Evaluator>>("evals", "evaluators");
    parser.add_list_option<shared_ptr<Evaluator>>(
        "preferred", "use preferred operators of these evaluators", "[]");
    parser.add_option<int>("boost", "boost value for preferred operator open lists", "0");
    parser.add_option<int>(
        "expansions_per_batch",
        "expand this many best open states together and evaluate all their new successors in "
        "one forward pass (K-best-first search); 1 is eager_greedy's expansion order",
        "1", Bounds("1", "infinity"));
    parser.add_option<bool>(
        "type_based",
        "alternate with a type-based exploration queue over the evaluators and g "
        "(Xie, Mueller and Holte 2014): eager(alt([single(h), type_based([h, g()])]))",
        "false");
    utils::add_rng_options(parser);
    SearchEngine::add_pruning_option(parser);
    SearchEngine::add_options_to_parser(parser);
    Options opts = parser.parse();
    opts.verify_list_non_empty<shared_ptr<Evaluator>>("evals");

    shared_ptr<BatchEagerSearch> engine;
    if (!parser.dry_run()) {
        opts.set("open", create_open_list_factory(opts));
        engine = make_shared<BatchEagerSearch>(opts);
    }
    return engine;
}

static Plugin<SearchEngine> _plugin("batch_eager_greedy", _parse);
}
