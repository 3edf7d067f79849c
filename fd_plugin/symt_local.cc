#include "symt_local.h"

#include "symt_context.h"
#include "symt_heuristic.h"

#include "global_state.h"

#include <ATen/autocast_mode.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>

using namespace std;

namespace symt {
size_t RowsHash::operator()(const vector<int> &rows) const {
    // FNV-1a over the row ids: states of one task differ in few rows, and this mixes every one.
    uint64_t hash = 1469598103934665603ULL;
    for (int row : rows) {
        hash ^= static_cast<uint64_t>(static_cast<uint32_t>(row));
        hash *= 1099511628211ULL;
    }
    return static_cast<size_t>(hash);
}

LocalStates::LocalStates(int64_t hops, int64_t width, int64_t pad_token, const vector<int64_t> &table,
                         const at::Tensor &links, int64_t term_width, size_t budget_bytes)
    : hops(hops), width(width), pad_token(pad_token), table(table), budget_bytes(budget_bytes),
      term_width(term_width) {
    at::Tensor pairs = links.to(torch::kInt64).contiguous();
    int64_t count = pairs.dim() == 2 ? pairs.size(1) : 0;
    const int64_t *data = pairs.data_ptr<int64_t>();
    for (int64_t i = 0; i < count; ++i)
        linked[data[i]].push_back(data[count + i]);
}

void LocalStates::objects_of(int row, vector<int64_t> &objects) const {
    objects.clear();
    const int64_t *tokens = &table[static_cast<size_t>(row) * width];
    for (int64_t slot = 1; slot < width; ++slot)
        if (tokens[slot] < pad_token)
            objects.push_back(tokens[slot]);
}

void LocalStates::note_transition(vector<int> parent, vector<int> child) {
    pending[move(child)] = move(parent);
}

void LocalStates::clear_transitions() {
    pending.clear();
}

const LocalEntry *LocalStates::parent_of(const vector<int> &child) const {
    auto announced = pending.find(child);
    if (announced == pending.end())
        return nullptr;
    auto entry = entries.find(announced->second);
    return entry == entries.end() ? nullptr : &entry->second;
}

LocalPlan LocalStates::plan(const LocalEntry &parent, const vector<int> &child) const {
    const vector<int> &before = parent.rows;
    vector<int> changed, all;
    set_symmetric_difference(before.begin(), before.end(), child.begin(), child.end(), back_inserter(changed));
    set_union(before.begin(), before.end(), child.begin(), child.end(), back_inserter(all));
    // The object graph of both states together: which rows name each object.
    unordered_map<int64_t, vector<int>> named;
    vector<int64_t> objects, others;
    for (int row : all) {
        objects_of(row, objects);
        for (int64_t object : objects)
            named[object].push_back(row);
    }
    // Steps from the changed rows' objects, up to the border (2 hops).
    unordered_map<int64_t, int64_t> distance;
    deque<int64_t> queue;
    for (int row : changed) {
        objects_of(row, objects);
        for (int64_t object : objects)
            if (distance.emplace(object, 0).second)
                queue.push_back(object);
    }
    while (!queue.empty()) {
        int64_t object = queue.front();
        queue.pop_front();
        int64_t next = distance[object] + 1;
        if (next > 2 * hops)
            continue;
        auto visit = [&](int64_t other) {
            if (distance.emplace(other, next).second)
                queue.push_back(other);
        };
        for (int row : named[object]) {
            objects_of(row, others);
            for (int64_t other : others)
                visit(other);
        }
        auto links = linked.find(object);
        if (links != linked.end())
            for (int64_t other : links->second)
                if (named.count(other))
                    visit(other);
    }
    auto near = [&](int row) {
        if (binary_search(changed.begin(), changed.end(), row))
            return true;
        objects_of(row, objects);
        for (int64_t object : objects) {
            auto found = distance.find(object);
            if (found != distance.end() && found->second <= hops)
                return true;
        }
        return false;
    };
    auto in_border = [&](int row) {
        objects_of(row, objects);
        for (int64_t object : objects)
            if (distance.count(object))
                return true;
        return false;
    };
    LocalPlan plan;
    for (int row : child) {
        bool is_near = near(row);
        if (is_near || in_border(row)) {
            plan.read.push_back(row);
            plan.read_near.push_back(is_near);
        }
    }
    for (size_t i = 0; i < before.size(); ++i)
        if (near(before[i]))
            plan.parent_near.push_back(i);
    return plan;
}

LocalEntry LocalStates::combine(const LocalEntry *parent, const vector<int> &child, const LocalPlan &plan,
                                const float *read_terms) const {
    size_t t = static_cast<size_t>(term_width);
    LocalEntry entry;
    entry.rows = child;
    entry.terms.resize(child.size() * t);
    entry.total.assign(t, 0.0);
    if (parent) {
        entry.total = parent->total;
        for (size_t i : plan.parent_near)
            for (size_t j = 0; j < t; ++j)
                entry.total[j] -= parent->terms[i * t + j];
    }
    size_t p = 0, r = 0;
    for (size_t c = 0; c < child.size(); ++c) {
        int row = child[c];
        while (r < plan.read.size() && plan.read[r] < row)
            ++r;
        const float *term;
        if (r < plan.read.size() && plan.read[r] == row && plan.read_near[r]) {
            term = read_terms + r * t;
            for (size_t j = 0; j < t; ++j)
                entry.total[j] += term[j];
        } else {
            // Not near the change: the parent has the row, with the same term.
            while (p < parent->rows.size() && parent->rows[p] < row)
                ++p;
            if (p == parent->rows.size() || parent->rows[p] != row)
                throw logic_error("a row far from the change is not the parent's");
            term = &parent->terms[p * t];
        }
        copy(term, term + t, entry.terms.begin() + c * t);
    }
    return entry;
}

void LocalStates::store(LocalEntry entry) {
    size_t bytes = entry.rows.size() * 2 * sizeof(int) + entry.terms.size() * sizeof(float) +
        entry.total.size() * sizeof(double);
    auto known = entries.find(entry.rows);
    if (known != entries.end()) {
        known->second = move(entry);   // the same state evaluated again: same size, same place
        return;
    }
    vector<int> key = entry.rows;
    order.push_back(key);
    entries.emplace(move(key), move(entry));
    stored_bytes += bytes;
    while (stored_bytes > budget_bytes && order.size() > 1) {
        auto oldest = entries.find(order.front());
        stored_bytes -= oldest->second.rows.size() * 2 * sizeof(int) +
            oldest->second.terms.size() * sizeof(float) + oldest->second.total.size() * sizeof(double);
        entries.erase(oldest);
        order.pop_front();
    }
}

/*
  SymtHeuristic's path for a local model: the search's transitions noted, states valued from their
  parents' (declared in symt_heuristic.h; the rest of the class is in symt_heuristic.cc).
*/
void SymtHeuristic::get_path_dependent_evaluators(set<Evaluator *> &evals) {
    if (local)
        evals.insert(this);
}

void SymtHeuristic::notify_state_transition(const GlobalState &parent_state, OperatorID,
                                            const GlobalState &state) {
    announce_transition(parent_state, state);
}

void SymtHeuristic::announce_transition(const GlobalState &parent, const GlobalState &state) {
    if (local)
        local->note_transition(state_rows(variable_values(convert_global_state(parent))),
                               state_rows(variable_values(convert_global_state(state))));
}

vector<int> SymtHeuristic::state_rows(const vector<int> &values) const {
    vector<int> rows;
    for (size_t var = 0; var < values.size(); ++var) {
        int row = fact_rows[var][values[var]];
        if (row >= 0)
            rows.push_back(row);
    }
    int fluent = static_cast<int>(fluent_rows.size() / width);
    for (int64_t i = 0; i < num_state_fixed; ++i)
        rows.push_back(fluent + static_cast<int>(i));
    sort(rows.begin(), rows.end());
    return rows;
}

vector<int> SymtHeuristic::evaluate_local(const vector<vector<int>> &states) {
    size_t count = states.size();
    vector<vector<int>> rows(count);
    vector<const LocalEntry *> parents(count);
    vector<LocalPlan> plans(count);
    vector<int64_t> atoms(count);
    for (size_t i = 0; i < count; ++i) {
        rows[i] = state_rows(states[i]);
        parents[i] = local->parent_of(rows[i]);
        if (parents[i]) {
            plans[i] = local->plan(*parents[i], rows[i]);
            ++num_states_updated;
        } else {
            plans[i].read = rows[i];
            plans[i].read_near.assign(rows[i].size(), 1);
        }
        atoms[i] = max<int64_t>(1, static_cast<int64_t>(plans[i].read.size()));
        num_atoms_evaluated += static_cast<int64_t>(plans[i].read.size());
    }
    vector<vector<float>> terms(count);
    // A local model's work is linear in its atoms (objects attention): the atom budget bounds a pass.
    run_passes(atoms, [&](size_t begin, size_t end, int64_t n) { return terms_pass(plans, begin, end, n, terms); });
    // Every child's entry before any is stored: storing may drop an old entry, a parent here.
    int64_t t = local->term_width;
    vector<LocalEntry> children(count);
    at::Tensor totals = torch::zeros({static_cast<int64_t>(count), t}, torch::kFloat32);
    float *total_data = totals.data_ptr<float>();
    for (size_t i = 0; i < count; ++i) {
        try {
            children[i] = local->combine(parents[i], rows[i], plans[i], terms[i].data());
        } catch (const logic_error &error) {
            fail(string("valuing a state from its parent's failed: ") + error.what() +
                 " (symt(incremental=false) passes states whole)", utils::ExitCode::SEARCH_CRITICAL_ERROR);
        }
        for (int64_t j = 0; j < t; ++j)
            total_data[i * t + j] = static_cast<float>(children[i].total[j]);
    }
    vector<int> result;
    try {
        c10::InferenceMode guard;
        double start = process_cpu_seconds();
        at::Tensor out = run_model("value_of_terms", {totals, context_cache[3]});
        out = out.to(torch::kFloat64).contiguous().reshape({-1});
        model_seconds += process_cpu_seconds() - start;
        if (out.numel() != static_cast<int64_t>(count))
            fail("the model returned " + to_string(out.numel()) + " values for " + to_string(count) +
                 " states", utils::ExitCode::SEARCH_CRITICAL_ERROR);
        const double *values = out.data_ptr<double>();
        for (size_t i = 0; i < count; ++i)
            result.push_back(to_heuristic_value(values[i]));
        if (trace)
            write_trace(states, 0, count, values);
    } catch (const std::exception &error) {
        fail("evaluating " + model_path + " failed: " + first_sentence(error.what()),
             utils::ExitCode::SEARCH_CRITICAL_ERROR);
    }
    for (LocalEntry &child : children)
        local->store(move(child));
    local->clear_transitions();
    num_states_evaluated += static_cast<int64_t>(count);
    report_statistics();
    return result;
}

bool SymtHeuristic::terms_pass(const vector<LocalPlan> &plans, size_t begin, size_t end, int64_t n,
                               vector<vector<float>> &terms) {
    int64_t batch = static_cast<int64_t>(end - begin);
    reset_buffers(batch, n);
    for (int64_t b = 0; b < batch; ++b) {
        const vector<int> &read = plans[begin + b].read;
        for (size_t a = 0; a < read.size(); ++a)
            put_row(&local_table[static_cast<size_t>(read[a]) * width], static_cast<size_t>(b * n) + a);
    }
    try {
        c10::InferenceMode guard;
        double start = process_cpu_seconds();
        auto [pred, args, mask] = buffer_inputs(batch, n);
        at::Tensor out = run_model("atom_terms", {context_cache[0], context_cache[1], context_cache[2],
                                                  context_cache[4], pred, args, mask});
        out = out.to(torch::kFloat32).contiguous();
        model_seconds += process_cpu_seconds() - start;
        if (out.dim() != 3 || out.size(0) != batch || out.size(1) != n)
            fail("the model returned atom terms of an unexpected shape", utils::ExitCode::SEARCH_CRITICAL_ERROR);
        local->term_width = out.size(2);
        const float *data = out.data_ptr<float>();
        for (int64_t b = 0; b < batch; ++b) {
            size_t used = plans[begin + b].read.size() * static_cast<size_t>(out.size(2));
            const float *first = data + static_cast<size_t>(b * n * out.size(2));
            terms[begin + b].assign(first, first + used);
        }
    } catch (const std::exception &error) {
        string message = error.what();
        if (is_out_of_memory(message)) {
            at::autocast::set_autocast_enabled(at::kCPU, false);
            return false;
        }
        fail("evaluating " + model_path + " failed: " + first_sentence(message),
             utils::ExitCode::SEARCH_CRITICAL_ERROR);
    }
    ++num_forward_calls;
    return true;
}

}
