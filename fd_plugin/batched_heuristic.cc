#include "batched_heuristic.h"

#include "global_state.h"

#include "task_utils/task_properties.h"

using namespace std;

namespace symt {
BatchEvaluator::~BatchEvaluator() {
}

void BatchEvaluator::announce_transition(const GlobalState &, const GlobalState &) {
}

BatchedHeuristic::BatchedHeuristic(const options::Options &opts)
    : Heuristic(opts),
      batch_values(NO_BATCH_VALUE) {
}

BatchedHeuristic::~BatchedHeuristic() {
}

vector<int> IntVectorPool::take() {
    if (free_.empty())
        return {};
    vector<int> v = move(free_.back());
    free_.pop_back();
    v.clear();
    return v;
}

void IntVectorPool::give_all(vector<vector<int>> &vectors) {
    for (vector<int> &v : vectors)
        free_.push_back(move(v));
    vectors.clear();
}

vector<int> BatchedHeuristic::variable_values(const State &state) {
    vector<int> values = vector_pool.take();
    const vector<int> &all = state.get_values();
    values.assign(all.begin(), all.end());
    return values;
}

int BatchedHeuristic::compute_heuristic(const GlobalState &global_state) {
    int batch_value = batch_values[global_state];
    if (batch_value != NO_BATCH_VALUE)
        return batch_value;
    State state = convert_global_state(global_state);
    if (task_properties::is_goal_state(task_proxy, state))
        return 0;
    return evaluate({variable_values(state)}, {global_state})[0];
}

void BatchedHeuristic::evaluate_batch(const vector<GlobalState> &states) {
    vector<vector<int>> to_model;
    vector<GlobalState> model_states;
    for (const GlobalState &global_state : states) {
        if (batch_values[global_state] != NO_BATCH_VALUE)
            continue;
        State state = convert_global_state(global_state);
        if (task_properties::is_goal_state(task_proxy, state)) {
            batch_values[global_state] = 0;
            continue;
        }
        // A placeholder until the pass below, so that a state listed twice is sent once.
        batch_values[global_state] = 0;
        model_states.push_back(global_state);
        to_model.push_back(variable_values(state));
    }
    if (!to_model.empty()) {
        vector<int> h = evaluate(to_model, model_states);
        for (size_t i = 0; i < h.size(); ++i)
            batch_values[model_states[i]] = h[i];
        vector_pool.give_all(to_model);
    }
}
}
