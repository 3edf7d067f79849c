#include "symt_local.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <stdexcept>

using namespace std;

namespace symt {
size_t LayerStates::bytes() const {
    return rows.size() * sizeof(int) + objects.size() * sizeof(int64_t) + terms.size() * sizeof(float) +
        static_cast<size_t>(atoms.numel() + object_states.numel()) * sizeof(float);
}

LayerStates::~LayerStates() {
    if (live)
        *live -= bytes();
}

pair<const at::Tensor *, int64_t> LayerStates::find_row(int row) const {
    for (const LayerStates *states = this; states; states = states->base.get()) {
        auto it = lower_bound(states->rows.begin(), states->rows.end(), row);
        if (it != states->rows.end() && *it == row)
            return {&states->atoms, it - states->rows.begin()};
    }
    return {nullptr, -1};
}

const float *LayerStates::find_term(int row, size_t width) const {
    for (const LayerStates *states = this; states; states = states->base.get()) {
        auto it = lower_bound(states->rows.begin(), states->rows.end(), row);
        if (it != states->rows.end() && *it == row)
            return states->terms.data() + static_cast<size_t>(it - states->rows.begin()) * width;
    }
    return nullptr;
}

pair<const at::Tensor *, int64_t> LayerStates::find_object(int64_t object) const {
    for (const LayerStates *states = this; states; states = states->base.get()) {
        auto it = lower_bound(states->objects.begin(), states->objects.end(), object);
        if (it != states->objects.end() && *it == object)
            return {&states->object_states, it - states->objects.begin()};
    }
    return {nullptr, -1};
}

LocalStates::LocalStates(int64_t hops, int64_t width, int64_t pad_token, const vector<int64_t> &table,
                         const at::Tensor &links, int64_t term_width, size_t budget_bytes,
                         size_t layer_budget_bytes)
    : hops(hops), width(width), pad_token(pad_token), table(table), budget_bytes(budget_bytes),
      layer_budget_bytes(layer_budget_bytes),
      steps_table(static_cast<size_t>(pad_token) + 1, ObjectSteps::NONE), term_width(term_width) {
    at::Tensor pairs = links.to(torch::kInt64).contiguous();
    int64_t count = pairs.dim() == 2 && pairs.size(0) >= 2 ? pairs.size(1) : 0;
    const int64_t *data = pairs.data_ptr<int64_t>();
    // The links come from the model file's code: an object outside the vocabulary would index
    // outside the steps table.
    for (int64_t i = 0; i < 2 * count; ++i)
        if (data[i] < 0 || data[i] >= pad_token)
            throw invalid_argument("its context links name object " + to_string(data[i]) +
                                   ", outside its vocabulary of " + to_string(pad_token));
    for (int64_t i = 0; i < count; ++i)
        linked[data[i]].push_back(data[count + i]);
    vector<int64_t> objects;
    int rows = static_cast<int>(table.size() / static_cast<size_t>(width));
    for (int row = 0; row < rows; ++row) {
        objects_of(row, objects);
        for (int64_t object : objects)
            naming[object].push_back(row);
    }
}

void LocalStates::objects_of(int row, vector<int64_t> &objects) const {
    objects.clear();
    const int64_t *tokens = &table[static_cast<size_t>(row) * width];
    for (int64_t slot = 1; slot < width; ++slot)
        if (tokens[slot] < pad_token)
            objects.push_back(tokens[slot]);
}

void LocalStates::note_transition(StateKey parent, StateKey child, const function<vector<int>()> &parent_rows) {
    pending[child] = parent;
    last_parent = parent;
    if (!pending_rows.count(parent) && entries.count(parent))
        pending_rows.emplace(parent, parent_rows());
}

void LocalStates::clear_transitions() {
    pending.clear();
    // The last parent's rows stay (a state's rows never change): eager_greedy announces one
    // successor at a time and evaluates it before it announces the next of the same parent.
    for (auto it = pending_rows.begin(); it != pending_rows.end();)
        it = it->first == last_parent ? next(it) : pending_rows.erase(it);
}

pair<const LocalEntry *, const vector<int> *> LocalStates::parent_of(StateKey child) const {
    auto announced = pending.find(child);
    if (announced == pending.end())
        return {nullptr, nullptr};
    auto entry = entries.find(announced->second);
    auto rows = pending_rows.find(announced->second);
    if (entry == entries.end() || rows == pending_rows.end())
        return {nullptr, nullptr};
    return {&entry->second, &rows->second};
}

ObjectSteps LocalStates::distances(const vector<int> &before, const vector<int> &after,
                                   const vector<int> &changed, int64_t limit, bool earlier) const {
    // The object graph of both states together, read where the search reaches: an object's rows
    // of either state from the table's index, which costs the change's surroundings, not the
    // state. An object that many table rows name (a Logistics city's location: every package
    // could be there) is looked up in a map of both states' rows, built once when first needed.
    auto in = [](const vector<int> &rows, int row) { return binary_search(rows.begin(), rows.end(), row); };
    unique_ptr<unordered_map<int64_t, vector<int>>> named;
    vector<int> found_rows;
    auto present_rows = [&](int64_t object) -> const vector<int> & {
        found_rows.clear();
        auto index = naming.find(object);
        if (index == naming.end())
            return found_rows;
        if (index->second.size() <= MANY_ROWS) {
            for (int row : index->second)
                if (in(before, row) || in(after, row))
                    found_rows.push_back(row);
            return found_rows;
        }
        if (!named) {
            named = make_unique<unordered_map<int64_t, vector<int>>>();
            vector<int> all;
            set_union(before.begin(), before.end(), after.begin(), after.end(), back_inserter(all));
            vector<int64_t> tokens;
            for (int row : all) {
                objects_of(row, tokens);
                for (int64_t token : tokens)
                    (*named)[token].push_back(row);
            }
        }
        auto rows = named->find(object);
        return rows == named->end() ? found_rows : rows->second;
    };
    auto named_in = [&](int64_t object, const vector<int> &rows) {
        for (int row : present_rows(object))
            if (in(rows, row))
                return true;
        return false;
    };
    ObjectSteps distance(steps_table);
    deque<int64_t> queue;
    vector<int64_t> objects, others;
    if (earlier) {
        // Objects named in one state only (only a changed row can make one): their linked
        // objects read them at the first layer.
        for (int row : changed) {
            objects_of(row, objects);
            for (int64_t object : objects)
                if (named_in(object, before) != named_in(object, after) && distance.add(object, -1))
                    queue.push_back(object);
        }
    }
    for (int row : changed) {
        objects_of(row, objects);
        for (int64_t object : objects)
            if (distance.add(object, 0))
                queue.push_back(object);
    }
    vector<int> rows;
    while (!queue.empty()) {
        int64_t object = queue.front();
        queue.pop_front();
        int64_t next = distance.at(object) + 1;
        if (next > limit)
            continue;
        auto visit = [&](int64_t other) {
            if (distance.add(other, next))
                queue.push_back(other);
        };
        rows = present_rows(object);
        for (int row : rows) {
            objects_of(row, others);
            for (int64_t other : others)
                visit(other);
        }
        auto links = linked.find(object);
        if (links != linked.end())
            for (int64_t other : links->second)
                if (!present_rows(other).empty())
                    visit(other);
    }
    return distance;
}

int64_t LocalStates::row_distance(int row, const ObjectSteps &distance, int64_t far) const {
    const int64_t *tokens = &table[static_cast<size_t>(row) * width];
    int64_t least = far;
    for (int64_t slot = 1; slot < width; ++slot)
        if (tokens[slot] < pad_token && distance.has(tokens[slot]))
            least = min(least, distance.at(tokens[slot]));
    return least;
}

vector<int64_t> LocalStates::objects_of_rows(const vector<int> &rows) const {
    vector<int64_t> all, objects;
    for (int row : rows) {
        objects_of(row, objects);
        all.insert(all.end(), objects.begin(), objects.end());
    }
    sort(all.begin(), all.end());
    all.erase(unique(all.begin(), all.end()), all.end());
    return all;
}

LocalPlan LocalStates::plan(const vector<int> &before, const vector<int> &child) const {
    vector<int> changed;
    set_symmetric_difference(before.begin(), before.end(), child.begin(), child.end(), back_inserter(changed));
    // Steps from the changed rows' objects, up to the border (2 hops).
    ObjectSteps distance = distances(before, child, changed, 2 * hops, false);
    auto is_changed = [&](int row) { return binary_search(changed.begin(), changed.end(), row); };
    auto near = [&](int row) { return is_changed(row) || row_distance(row, distance, 2 * hops + 1) <= hops; };
    LocalPlan plan;
    for (int row : child) {
        bool is_near = near(row);
        if (is_near || row_distance(row, distance, 2 * hops + 1) <= 2 * hops) {
            plan.read.push_back(row);
            plan.read_near.push_back(is_near);
        }
    }
    for (size_t i = 0; i < before.size(); ++i)
        if (near(before[i]))
            plan.parent_near.push_back(i);
    return plan;
}

LocalPlan LocalStates::plan_layers(const LocalEntry *parent, const vector<int> *parent_rows,
                                   const vector<int> &child) const {
    LocalPlan plan;
    if (!parent) {
        // The whole child, every token computed at every layer.
        plan.read = child;
        plan.read_near.assign(child.size(), 1);
        plan.read_distance.assign(child.size(), -1);
        plan.objects = objects_of_rows(child);
        plan.object_distance.assign(plan.objects.size(), -1);
        return plan;
    }
    const vector<int> &before = *parent_rows;
    vector<int> changed;
    set_symmetric_difference(before.begin(), before.end(), child.begin(), child.end(), back_inserter(changed));
    if (changed.empty())
        return plan;
    ObjectSteps distance = distances(before, child, changed, hops, true);
    int64_t far = hops + 1;
    auto is_changed = [&](int row) { return binary_search(changed.begin(), changed.end(), row); };
    // The rows to look at: the changed ones and those naming an object within reach (from the
    // table's index), of either state; sorted, so that the plan lists them in the states' order.
    vector<int> near_rows(changed);
    bool many = false;   // an object many rows name: the states' rows are scanned instead
    for (int64_t object : distance.reached()) {
        auto found = naming.find(object);
        if (found != naming.end() && found->second.size() > MANY_ROWS)
            many = true;
        else if (found != naming.end())
            near_rows.insert(near_rows.end(), found->second.begin(), found->second.end());
    }
    if (many) {
        vector<int64_t> objects;
        for (const vector<int> *rows : {&before, &child})
            for (int row : *rows) {
                objects_of(row, objects);
                if (any_of(objects.begin(), objects.end(), [&](int64_t o) { return distance.has(o); }))
                    near_rows.push_back(row);
            }
    }
    sort(near_rows.begin(), near_rows.end());
    near_rows.erase(unique(near_rows.begin(), near_rows.end()), near_rows.end());
    for (int row : near_rows) {
        int64_t d = row_distance(row, distance, far);
        bool is_new = is_changed(row);
        // A term differs from the parent's only where the last layer was computed (distance < hops).
        auto in_before = lower_bound(before.begin(), before.end(), row);
        if (in_before != before.end() && *in_before == row && (is_new || d < hops))
            plan.parent_near.push_back(static_cast<size_t>(in_before - before.begin()));
        if (!binary_search(child.begin(), child.end(), row) || (!is_new && d > hops))
            continue;
        plan.read.push_back(row);
        plan.read_near.push_back(is_new || d < hops);
        plan.read_distance.push_back(is_new ? -1 : d);
    }
    plan.objects = objects_of_rows(plan.read);
    for (int64_t object : plan.objects) {
        plan.object_distance.push_back(distance.has(object) ? distance.at(object) : far);
    }
    return plan;
}

shared_ptr<LayerStates> LocalStates::child_layers(const LocalEntry *parent, const vector<int> &child,
                                                  vector<int> rows, vector<int64_t> objects, const at::Tensor &atoms,
                                                  const at::Tensor &object_states, vector<float> terms) {
    size_t t = static_cast<size_t>(term_width);
    if (terms.size() != rows.size() * t || atoms.size(1) != static_cast<int64_t>(rows.size()) ||
        object_states.size(1) != static_cast<int64_t>(objects.size()))
        throw logic_error("a pass's layers do not match its tokens");
    auto layers = make_shared<LayerStates>();
    const LayerStates *base = parent ? parent->layers.get() : nullptr;
    int64_t tokens = static_cast<int64_t>(rows.size() + objects.size());
    layers->rows = move(rows);
    layers->atoms = atoms;
    layers->terms = move(terms);
    layers->objects = move(objects);
    layers->object_states = object_states;
    if (base) {
        // A difference: what the pass computed, the rest through the parent's. Where the
        // differences since the last complete states reach that one's tokens (or the
        // MAX_GENERATIONS-th), the state is made complete, but only if the search expands it
        // (complete_parent): most evaluated states never are, and a copy is the state's size.
        layers->base = parent->layers;
        layers->generation = base->generation + 1;
        layers->since_complete = base->since_complete + tokens;
        layers->complete_tokens = base->complete_tokens;
        layers->complete_pending = layers->generation + 1 >= LayerStates::MAX_GENERATIONS ||
            layers->since_complete >= layers->complete_tokens;
    } else {
        // A whole pass: complete as it is (the pass read every row of the child).
        if (layers->rows != child)
            throw logic_error("a state passed whole did not read all its rows");
        layers->complete_tokens = tokens;
    }
    layers->live = &layer_bytes;
    layer_bytes += layers->bytes();
    return layers;
}

void LocalStates::complete_parent(const LocalEntry &parent, const vector<int> &rows) {
    LayerStates &layers = *parent.layers;
    if (!layers.complete_pending)
        return;
    // Every token of the state, each from the newest states that hold it: walking the chain once,
    // newest first, each holder's rows looked up among the state's (a lookup per token through the
    // chain cost the chain's length for every one of thousands of tokens).
    vector<int64_t> objects = objects_of_rows(rows);
    int64_t depth = layers.atoms.size(0), d = layers.atoms.size(2);
    size_t t = static_cast<size_t>(term_width);
    at::Tensor atoms = torch::empty({depth, static_cast<int64_t>(rows.size()), d}, torch::kFloat32);
    at::Tensor object_states = torch::empty({depth, static_cast<int64_t>(objects.size()), d}, torch::kFloat32);
    vector<float> terms(rows.size() * t);
    vector<char> row_done(rows.size(), 0), object_done(objects.size(), 0);
    size_t rows_left = rows.size(), objects_left = objects.size();
    auto copy_layers = [&](const at::Tensor &from, int64_t index, at::Tensor &into, size_t position) {
        const float *in = from.data_ptr<float>();
        float *out = into.data_ptr<float>();
        int64_t columns = from.size(1), count = into.size(1);
        for (int64_t l = 0; l < depth; ++l)
            copy_n(in + (l * columns + index) * d, d, out + (l * count + static_cast<int64_t>(position)) * d);
    };
    // The tokens of one kind a holder has (`held`, sorted) that the state has (`wanted`, sorted)
    // and no newer holder gave: take(k, position) copies the k-th to its place.
    auto take_from = [](const auto &held, const auto &wanted, vector<char> &done, size_t &left, auto &&take) {
        for (size_t k = 0; k < held.size() && left; ++k) {
            auto it = lower_bound(wanted.begin(), wanted.end(), held[k]);
            size_t position = static_cast<size_t>(it - wanted.begin());
            if (it == wanted.end() || *it != held[k] || done[position])
                continue;
            take(k, position);
            done[position] = 1;
            --left;
        }
    };
    for (const LayerStates *holder = &layers; holder && (rows_left || objects_left); holder = holder->base.get()) {
        take_from(holder->rows, rows, row_done, rows_left, [&](size_t k, size_t position) {
            copy_layers(holder->atoms, static_cast<int64_t>(k), atoms, position);
            copy_n(holder->terms.data() + k * t, t, terms.data() + position * t);
        });
        take_from(holder->objects, objects, object_done, objects_left, [&](size_t k, size_t position) {
            copy_layers(holder->object_states, static_cast<int64_t>(k), object_states, position);
        });
    }
    if (rows_left || objects_left)
        throw logic_error("a token of an evaluated state is in none of its layers");
    // The same states, complete: the chain it read may go (other states may still hold it).
    *layers.live -= layers.bytes();
    layers.base.reset();
    layers.generation = layers.since_complete = 0;
    layers.complete_tokens = static_cast<int64_t>(rows.size() + objects.size());
    layers.complete_pending = false;
    layers.rows = rows;
    layers.atoms = move(atoms);
    layers.terms = move(terms);
    layers.objects = move(objects);
    layers.object_states = move(object_states);
    *layers.live += layers.bytes();
}

LocalEntry LocalStates::combine(const LocalEntry *parent, const vector<int> *before, const vector<int> &child,
                                const LocalPlan &plan, const float *read_terms, bool layers) const {
    size_t t = static_cast<size_t>(term_width);
    LocalEntry entry;
    if (layers) {
        // The sum from the parent's by the differences; every term in the layers.
        entry.total.assign(t, 0.0);
        if (parent) {
            if (!parent->layers)
                throw logic_error("a parent without its layers");
            entry.total = parent->total;
            for (size_t i : plan.parent_near) {
                const float *term = parent->layers->find_term((*before)[i], t);
                if (!term)
                    throw logic_error("a row of the parent is not in its layers");
                for (size_t j = 0; j < t; ++j)
                    entry.total[j] -= term[j];
            }
        }
        for (size_t r = 0; r < plan.read.size(); ++r)
            if (plan.read_near[r])
                for (size_t j = 0; j < t; ++j)
                    entry.total[j] += read_terms[r * t + j];
        return entry;
    }
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
            while (p < before->size() && (*before)[p] < row)
                ++p;
            if (p == before->size() || (*before)[p] != row)
                throw logic_error("a row far from the change is not the parent's");
            term = &parent->terms[p * t];
        }
        copy(term, term + t, entry.terms.begin() + c * t);
    }
    return entry;
}

void LocalStates::store(StateKey key, LocalEntry entry) {
    auto entry_bytes = [](const LocalEntry &e) {
        return sizeof(LocalEntry) + e.terms.size() * sizeof(float) + e.total.size() * sizeof(double);
    };
    auto known = entries.find(key);
    if (known != entries.end()) {
        // The same state evaluated again: same size, same place; its layers (counted in
        // layer_bytes or dropped) kept as they were.
        entry.layers = known->second.layers;
        known->second = move(entry);
        return;
    }
    order.push_back(key);
    if (entry.layers)
        layered.push_back(key);
    stored_bytes += entry_bytes(entry);
    entries.emplace(key, move(entry));
    // The layers are many times a state's terms: the oldest states lose theirs first (a
    // successor of such a state is passed whole; dropping the highest heuristic values first
    // instead passed 8 times as many states whole on a 3,600-cell Visitall grid: the h^FF
    // queues of symt-first-lazy expand those too). A state's layers free their memory once no
    // newer state's differences read them, so the newest states keep theirs whatever the count.
    while (layer_bytes > layer_budget_bytes && layered.size() > KEEP_NEWEST_LAYERS) {
        auto oldest = entries.find(layered.front());
        if (oldest != entries.end())
            oldest->second.layers.reset();
        layered.pop_front();
    }
    while (stored_bytes > budget_bytes && order.size() > 1) {
        auto oldest = entries.find(order.front());
        stored_bytes -= entry_bytes(oldest->second);
        entries.erase(oldest);
        order.pop_front();
    }
}

}
