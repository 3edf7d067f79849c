#include "symt_context.h"
#include "symt_heuristic.h"

#include "global_state.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

using namespace std;

namespace symt {
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
        local->note_transition(key_of(parent), key_of(state), [&]() {
            return state_rows(variable_values(convert_global_state(parent)));
        });
}

StateKey SymtHeuristic::key_of(const GlobalState &state) {
    StateKey &key = state_keys[state];
    if (key < 0)
        key = next_state_key++;
    return key;
}

vector<int> SymtHeuristic::state_rows(const vector<int> &values) {
    vector<int> rows = vector_pool.take();
    rows.reserve(values.size() + static_cast<size_t>(num_state_fixed));
    for (size_t var = 0; var < values.size(); ++var) {
        int row = fact_rows[var][values[var]];
        if (row >= 0)
            rows.push_back(row);
    }
    int fluent = static_cast<int>(fluent_rows.size() / width);
    for (int64_t i = 0; i < num_state_fixed; ++i)
        rows.push_back(fluent + static_cast<int>(i));
    // The table lists fluent atoms by variable where the translator's order allows: then the
    // rows come sorted, and checking costs less than sorting.
    if (!is_sorted(rows.begin(), rows.end()))
        sort(rows.begin(), rows.end());
    return rows;
}

vector<int> SymtHeuristic::evaluate_local(const vector<vector<int>> &states, const vector<GlobalState> &registered) {
    size_t count = states.size();
    vector<vector<int>> rows(count);
    vector<const LocalEntry *> parents(count);
    vector<const vector<int> *> parent_rows(count, nullptr);
    vector<LocalPlan> plans(count);
    vector<int64_t> atoms(count);
    // A state the search did not register (the constructor's check) is passed whole, not kept.
    vector<StateKey> keys(count, -1);
    for (size_t i = 0; i < count; ++i) {
        rows[i] = state_rows(states[i]);
        if (!registered.empty())
            keys[i] = key_of(registered[i]);
        if (keys[i] >= 0)
            tie(parents[i], parent_rows[i]) = local->parent_of(keys[i]);
        if (local_layers) {
            // A parent whose layers were dropped (the memory budget) is as none: the child is
            // passed whole, and its own layers are kept for its successors.
            if (parents[i] && !parents[i]->layers)
                parents[i] = nullptr;
            if (parents[i])
                local->complete_parent(*parents[i], *parent_rows[i]);
            plans[i] = local->plan_layers(parents[i], parent_rows[i], rows[i]);
            num_states_updated += parents[i] != nullptr;
        } else if (parents[i]) {
            plans[i] = local->plan(*parent_rows[i], rows[i]);
            ++num_states_updated;
        } else {
            plans[i].read = rows[i];
            plans[i].read_near.assign(rows[i].size(), 1);
        }
        atoms[i] = max<int64_t>(1, static_cast<int64_t>(plans[i].read.size()));
        num_atoms_evaluated += static_cast<int64_t>(plans[i].read.size());
    }
    vector<vector<float>> terms(count);
    vector<shared_ptr<LayerStates>> layers(count);
    // A local model's work is linear in its atoms (objects attention): the atom budget bounds a pass.
    run_passes(atoms, [&](size_t begin, size_t end, int64_t n) {
        if (native)
            return native_pass(plans, parents, rows, begin, end, terms, layers);
        return local_layers ? layers_pass(plans, parents, rows, begin, end, n, terms, layers)
                            : terms_pass(plans, begin, end, n, terms);
    });
    // Every child's entry before any is stored: storing may drop an old entry, a parent here.
    vector<LocalEntry> children(count);
    for (size_t i = 0; i < count; ++i) {
        try {
            children[i] = local->combine(parents[i], parent_rows[i], rows[i], plans[i], terms[i].data(),
                                         local_layers);
            children[i].layers = move(layers[i]);
        } catch (const logic_error &error) {
            fail(string("valuing a state from its parent's failed: ") + error.what() +
                 " (symt(incremental=false) passes states whole)", utils::ExitCode::SEARCH_CRITICAL_ERROR);
        }
    }
    vector<double> values(count);
    double start = process_cpu_seconds();
    if (native && native->has_value()) {
        // The readout in C++ too: no TorchScript call per evaluation.
        for (size_t i = 0; i < count; ++i)
            values[i] = native->value(children[i].total.data(), context_share.data());
    } else try {
        int64_t t = local->term_width;
        at::Tensor totals = torch::empty({static_cast<int64_t>(count), t}, torch::kFloat32);
        float *total_data = totals.data_ptr<float>();
        for (size_t i = 0; i < count; ++i)
            for (int64_t j = 0; j < t; ++j)
                total_data[i * t + j] = static_cast<float>(children[i].total[j]);
        c10::InferenceMode guard;
        at::Tensor out = run_model("value_of_terms", {totals, context_cache[3]});
        out = out.to(torch::kFloat64).contiguous().reshape({-1});
        if (out.numel() != static_cast<int64_t>(count))
            fail("the model returned " + to_string(out.numel()) + " values for " + to_string(count) +
                 " states", utils::ExitCode::SEARCH_CRITICAL_ERROR);
        copy_n(out.data_ptr<double>(), count, values.begin());
    } catch (const std::exception &error) {
        fail("evaluating " + model_path + " failed: " + first_sentence(error.what()),
             utils::ExitCode::SEARCH_CRITICAL_ERROR);
    }
    model_seconds += process_cpu_seconds() - start;
    vector<int> result;
    for (double value : values)
        result.push_back(to_heuristic_value(value));
    if (trace)
        write_trace(states, 0, count, values.data());
    for (size_t i = 0; i < count; ++i)
        if (keys[i] >= 0)
            local->store(keys[i], move(children[i]));
    local->clear_transitions();
    vector_pool.give_all(rows);
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
        return pass_failed(error);
    }
    ++num_forward_calls;
    return true;
}

bool SymtHeuristic::layers_pass(const vector<LocalPlan> &plans, const vector<const LocalEntry *> &parents,
                                const vector<vector<int>> &rows, size_t begin, size_t end, int64_t n,
                                vector<vector<float>> &terms, vector<shared_ptr<LayerStates>> &layers) {
    int64_t batch = static_cast<int64_t>(end - begin);
    reset_buffers(batch, n);
    int64_t num_objects = 0, depth = 0, d = 0;
    for (int64_t b = 0; b < batch; ++b) {
        const LocalPlan &plan = plans[begin + b];
        for (size_t a = 0; a < plan.read.size(); ++a)
            put_row(&local_table[static_cast<size_t>(plan.read[a]) * width], static_cast<size_t>(b * n) + a);
        num_objects += static_cast<int64_t>(plan.objects.size());
        if (const LocalEntry *parent = parents[begin + b]) {
            depth = parent->layers->atoms.size(0);
            d = parent->layers->atoms.size(2);
        }
    }
    // The parents' states of the tokens each pass reads, and which keep them after each layer
    // (none without a parent's layers in the pass: L = 0). Objects in the pass's order: by state,
    // then token (Routes.object_key).
    at::Tensor parent_atoms = torch::zeros({depth, batch, n, d}, torch::kFloat32);
    at::Tensor keep_atoms = torch::zeros({depth, batch, n}, torch::kBool);
    at::Tensor parent_objects = torch::zeros({depth, num_objects, d}, torch::kFloat32);
    at::Tensor keep_objects = torch::zeros({depth, num_objects}, torch::kBool);
    vector<int64_t> expected_keys;
    // A token kept at some layer is not new: the parent's layers hold it.
    auto gather = [&](pair<const at::Tensor *, int64_t> from, float *into, bool *keep, int64_t distance,
                      int64_t stride, int64_t keep_stride) {
        if (distance >= 0 && !from.first)
            fail("valuing a state from its parent's layers failed: a token kept from the parent is not in "
                 "the parent's layers (symt(incremental=false) passes states whole)",
                 utils::ExitCode::SEARCH_CRITICAL_ERROR);
        const float *in = distance >= 0 ? from.first->data_ptr<float>() : nullptr;
        for (int64_t l = 0; l < depth; ++l) {
            keep[l * keep_stride] = distance > l;
            if (in)
                copy_n(in + (l * from.first->size(1) + from.second) * d, d, into + l * stride);
        }
    };
    float *atom_data = parent_atoms.data_ptr<float>(), *object_data = parent_objects.data_ptr<float>();
    bool *keep_atom_data = keep_atoms.data_ptr<bool>(), *keep_object_data = keep_objects.data_ptr<bool>();
    int64_t offset = 0;
    for (int64_t b = 0; b < batch; ++b) {
        const LocalPlan &plan = plans[begin + b];
        const LocalEntry *parent = parents[begin + b];
        for (size_t a = 0; a < plan.read.size() && parent; ++a)
            gather(parent->layers->find_row(plan.read[a]), atom_data + (b * n + static_cast<int64_t>(a)) * d,
                   keep_atom_data + b * n + static_cast<int64_t>(a), plan.read_distance[a], batch * n * d, batch * n);
        for (size_t o = 0; o < plan.objects.size(); ++o) {
            int64_t slot = offset + static_cast<int64_t>(o);
            if (parent)
                gather(parent->layers->find_object(plan.objects[o]), object_data + slot * d,
                       keep_object_data + slot, plan.object_distance[o], num_objects * d, num_objects);
            expected_keys.push_back(b * (pad_token + 1) + plan.objects[o]);
        }
        offset += static_cast<int64_t>(plan.objects.size());
    }
    try {
        c10::InferenceMode guard;
        double start = process_cpu_seconds();
        auto [pred, args, mask] = buffer_inputs(batch, n);
        auto out = run_method("layer_terms", {context_cache[0], context_cache[1], context_cache[2],
                                              context_cache[4], pred, args, mask, parent_atoms, keep_atoms,
                                              parent_objects, keep_objects}).toTuple();
        at::Tensor out_terms = out->elements()[0].toTensor().to(torch::kFloat32).contiguous();
        at::Tensor atom_layers = out->elements()[1].toTensor().to(torch::kFloat32);
        at::Tensor object_layers = out->elements()[2].toTensor().to(torch::kFloat32);
        at::Tensor keys = out->elements()[3].toTensor().to(torch::kInt64).contiguous();
        model_seconds += process_cpu_seconds() - start;
        if (out_terms.dim() != 3 || out_terms.size(0) != batch || out_terms.size(1) != n ||
            keys.numel() != num_objects ||
            !equal(expected_keys.begin(), expected_keys.end(), keys.data_ptr<int64_t>()))
            fail("the model's layer_terms returned an unexpected shape or object order",
                 utils::ExitCode::SEARCH_CRITICAL_ERROR);
        local->term_width = out_terms.size(2);
        const float *data = out_terms.data_ptr<float>();
        offset = 0;
        for (int64_t b = 0; b < batch; ++b) {
            const LocalPlan &plan = plans[begin + b];
            size_t used = plan.read.size() * static_cast<size_t>(out_terms.size(2));
            const float *first = data + static_cast<size_t>(b * n * out_terms.size(2));
            terms[begin + b].assign(first, first + used);
            int64_t read = static_cast<int64_t>(plan.read.size()), count = static_cast<int64_t>(plan.objects.size());
            layers[begin + b] = local->child_layers(
                parents[begin + b], rows[begin + b], plan.read, plan.objects,
                atom_layers.select(1, b).narrow(1, 0, read).contiguous(),
                object_layers.narrow(1, offset, count).contiguous(), terms[begin + b]);
            offset += count;
        }
    } catch (const logic_error &error) {
        fail(string("valuing a state from its parent's layers failed: ") + error.what() +
             " (symt(incremental=false) passes states whole)", utils::ExitCode::SEARCH_CRITICAL_ERROR);
    } catch (const std::exception &error) {
        return pass_failed(error);
    }
    ++num_forward_calls;
    return true;
}

static vector<int64_t> int64_values(const at::Tensor &tensor) {
    at::Tensor values = tensor.to(torch::kInt64).contiguous();
    return vector<int64_t>(values.data_ptr<int64_t>(), values.data_ptr<int64_t>() + values.numel());
}

static vector<float> float_values(const at::Tensor &tensor) {
    at::Tensor values = tensor.to(torch::kFloat32).contiguous();
    return vector<float>(values.data_ptr<float>(), values.data_ptr<float>() + values.numel());
}

void SymtHeuristic::load_native() {
    try {
        // fp32 whatever symt(precision=...) says: the method is called without autocast.
        c10::InferenceMode guard;
        c10::Dict<c10::IValue, c10::IValue> weights = module.get_method("local_weights")({}).toGenericDict();
        vector<at::Tensor> held;
        map<string, WeightView> views;
        for (const auto &item : weights) {
            held.push_back(item.value().toTensor().to(torch::kFloat32).contiguous());
            views[item.key().toStringRef()] = {held.back().sizes().vec(), held.back().data_ptr<float>()};
        }
        native = make_unique<LocalNet>(views);
        int64_t d = native->d(), layers = native->n_layers();
        at::Tensor context = context_cache[1].toTensor().to(torch::kFloat32).contiguous();
        if (context.dim() != 5 || context.size(0) != layers || context.size(1) != 2 ||
            context.size(3) * context.size(4) != d)
            throw invalid_argument("its context cache does not match its local weights");
        native->set_context(context.data_ptr<float>(), context.size(2));
        context_tokens = int64_values(context_cache[0].toTensor());
        context_share = float_values(context_cache[3].toTensor());
        if (static_cast<int64_t>(context_share.size()) != native->term_width())
            throw invalid_argument("its context's share of the readout does not match its local weights");
        context_links = int64_values(context_cache[4].toTensor());
        // Every row's and every object's states before the first layer, in one call each.
        int64_t rows = static_cast<int64_t>(local_table.size()) / width;
        at::Tensor table = torch::tensor(local_table, torch::kInt64).reshape({rows, width});
        native_atom_starts = float_values(module.get_method("atom_starts")(
            {table.select(1, 0).contiguous(), table.narrow(1, 1, width - 1).contiguous()}).toTensor());
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t s = 1; s < width; ++s)
                if (local_table[r * width + s] != pad_token)
                    native_tokens.push_back(local_table[r * width + s]);
        sort(native_tokens.begin(), native_tokens.end());
        native_tokens.erase(unique(native_tokens.begin(), native_tokens.end()), native_tokens.end());
        native_object_starts = float_values(
            module.get_method("object_starts")({torch::tensor(native_tokens, torch::kInt64)}).toTensor());
        if (static_cast<int64_t>(native_atom_starts.size()) != rows * d ||
            static_cast<int64_t>(native_object_starts.size()) != static_cast<int64_t>(native_tokens.size()) * d ||
            context_links.size() % 3 != 0)
            throw invalid_argument("its start states or links have unexpected shapes");
        // The table by token; the tokens come from the model's code, so each is checked against
        // the vocabulary before it indexes the table.
        auto entry = [&](int64_t token) -> NativeToken & {
            if (token < 0 || token > pad_token)
                throw invalid_argument("its context names a token outside its vocabulary");
            return native_token[static_cast<size_t>(token)];
        };
        native_token.assign(static_cast<size_t>(pad_token) + 1, NativeToken());
        for (size_t i = 0; i < native_tokens.size(); ++i)
            entry(native_tokens[i]).start = static_cast<int32_t>(i);
        for (size_t i = 0; i < context_tokens.size(); ++i)
            entry(context_tokens[i]).context = static_cast<int32_t>(i);
        size_t links = context_links.size() / 3;
        if (!is_sorted(context_links.begin(), context_links.begin() + static_cast<ptrdiff_t>(links)))
            throw invalid_argument("its context links are not sorted by receiving object");
        for (size_t i = 0; i < links; ++i) {
            NativeToken &receiving = entry(context_links[i]);
            if (receiving.links_end == 0)
                receiving.links_begin = static_cast<int32_t>(i);
            receiving.links_end = static_cast<int32_t>(i + 1);
            entry(context_links[links + i]);
        }
    } catch (const std::exception &error) {
        input_error(model_path + ": cannot use its local weights (" + first_sentence(error.what()) +
                    "; symt(native=false) uses its layer_terms)");
    }
}

bool SymtHeuristic::native_pass(const vector<LocalPlan> &plans, const vector<const LocalEntry *> &parents,
                                const vector<vector<int>> &rows, size_t begin, size_t end,
                                vector<vector<float>> &terms, vector<shared_ptr<LayerStates>> &layers) {
    double start = process_cpu_seconds();
    int64_t d = native->d(), depth = native->n_layers(), m = width - 1;
    size_t links = context_links.size() / 3;
    const int64_t *sending = context_links.data() + links, *types = sending + links;
    // A token's parent states (find_row/find_object) as the pass reads them; a token kept for
    // `distance` layers must have them.
    auto parent_states = [&](pair<const at::Tensor *, int64_t> from, int64_t distance) {
        if (distance > 0 && !from.first)
            throw logic_error("a token kept from the parent is not in the parent's layers");
        if (!from.first)
            return pair<const float *, int64_t>(nullptr, 0);
        return pair<const float *, int64_t>(from.first->data_ptr<float>() + from.second * d, from.first->size(1) * d);
    };
    // The pass's objects marked in the token table while it is built (and unmarked however it ends).
    struct Marks {
        vector<NativeToken> &table;
        const vector<int64_t> *objects = nullptr;
        void set(const vector<int64_t> &list) {
            objects = &list;
            for (size_t o = 0; o < list.size(); ++o)
                table[static_cast<size_t>(list[o])].in_pass = static_cast<int32_t>(o);
        }
        void clear() {
            if (objects)
                for (int64_t token : *objects)
                    table[static_cast<size_t>(token)].in_pass = -1;
            objects = nullptr;
        }
        ~Marks() {clear();}
    } marks{native_token};
    local->term_width = native->term_width();
    try {
        for (size_t i = begin; i < end; ++i) {
            const LocalPlan &plan = plans[i];
            const LocalEntry *parent = parents[i];
            LocalPass &pass = native_scratch;
            pass.clear();
            pass.atoms = static_cast<int64_t>(plan.read.size());
            pass.objects = static_cast<int64_t>(plan.objects.size());
            marks.set(plan.objects);
            for (size_t a = 0; a < plan.read.size(); ++a) {
                int64_t row = plan.read[a];
                pass.atom_start.push_back(&native_atom_starts[row * d]);
                for (int64_t s = 1; s <= m; ++s) {
                    int64_t token = local_table[row * width + s];
                    pass.slots.push_back(token == pad_token ? -1 : native_token[static_cast<size_t>(token)].in_pass);
                }
                if (parent) {
                    int64_t distance = clamp<int64_t>(plan.read_distance[a], 0, depth);
                    pass.atom_keep.push_back(static_cast<int32_t>(distance));
                    pass.atom_parent.push_back(parent_states(parent->layers->find_row(plan.read[a]), distance));
                }
            }
            for (size_t o = 0; o < plan.objects.size(); ++o) {
                int64_t token = plan.objects[o];
                const NativeToken &known = native_token[static_cast<size_t>(token)];
                if (known.start < 0)
                    throw logic_error("an object of the pass is not in the task's atoms");
                pass.object_start.push_back(&native_object_starts[static_cast<size_t>(known.start) * d]);
                pass.context_row.push_back(known.context);
                for (int32_t link = known.links_begin; link < known.links_end; ++link) {
                    int32_t sender = native_token[static_cast<size_t>(sending[link])].in_pass;
                    if (sender >= 0)
                        pass.links.insert(pass.links.end(), {static_cast<int32_t>(o), sender,
                                                             static_cast<int32_t>(types[link])});
                }
                if (parent) {
                    int64_t distance = clamp<int64_t>(plan.object_distance[o], 0, depth);
                    pass.object_keep.push_back(static_cast<int32_t>(distance));
                    pass.object_parent.push_back(parent_states(parent->layers->find_object(token), distance));
                }
            }
            marks.clear();
            // The pass writes the tokens it does not keep from the parent after every layer; the
            // others are the parent's, found through it.
            size_t t = static_cast<size_t>(native->term_width());
            vector<int32_t> &atom_column = native_columns[0], &object_column = native_columns[1];
            vector<int> written_rows;
            vector<int64_t> written_objects;
            written_rows.reserve(static_cast<size_t>(native->columns(pass.atom_keep, plan.read.size(), atom_column)));
            written_objects.reserve(
                static_cast<size_t>(native->columns(pass.object_keep, plan.objects.size(), object_column)));
            for (size_t a = 0; a < plan.read.size(); ++a)
                if (atom_column[a] >= 0)
                    written_rows.push_back(plan.read[a]);
            for (size_t o = 0; o < plan.objects.size(); ++o)
                if (object_column[o] >= 0)
                    written_objects.push_back(plan.objects[o]);
            at::Tensor atom_layers = torch::empty({depth, static_cast<int64_t>(written_rows.size()), d}, torch::kFloat32);
            at::Tensor object_layers =
                torch::empty({depth, static_cast<int64_t>(written_objects.size()), d}, torch::kFloat32);
            terms[i].resize(plan.read.size() * t);
            native->run(pass, atom_layers.data_ptr<float>(), object_layers.data_ptr<float>(), terms[i].data());
            vector<float> written_terms;
            written_terms.reserve(written_rows.size() * t);
            for (size_t a = 0; a < plan.read.size(); ++a)
                if (atom_column[a] >= 0)
                    written_terms.insert(written_terms.end(), &terms[i][a * t], &terms[i][a * t] + t);
            layers[i] = local->child_layers(parent, rows[i], move(written_rows), move(written_objects), atom_layers,
                                            object_layers, move(written_terms));
        }
    } catch (const exception &error) {
        fail(string("valuing a state from its parent's layers failed: ") + error.what() +
             " (symt(incremental=false) passes states whole)", utils::ExitCode::SEARCH_CRITICAL_ERROR);
    }
    model_seconds += process_cpu_seconds() - start;
    ++num_forward_calls;
    return true;
}
}
