#include "symt_local.h"

#include <algorithm>
#include <iterator>

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
            while (parent->rows[p] < row)
                ++p;
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
}
