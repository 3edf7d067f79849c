// A local objects model's state pass in plain C++ (see symt/local_net.hpp; its arithmetic in
// local_kernels.cc). The reference is RoutedLayer.gather_objects / gather_atoms and
// RoutedSymTE.run in python/symt/model_routed.py; tests/test_model_local.py and the plugin's
// local tests (tests/test_fast_downward.py) check this against it.
#include "symt/local_net.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "local_kernels.hpp"

namespace symt {

using kernels::attend;
using kernels::dense;
using kernels::dense2;
using kernels::dense4;
using kernels::gelu;

void LocalPass::clear() {
  atoms = objects = 0;
  for (auto* list : {&atom_start, &object_start}) list->clear();
  for (auto* list : {&slots, &context_row, &links, &atom_keep, &object_keep}) list->clear();
  for (auto* list : {&atom_parent, &object_parent}) list->clear();
}

namespace {

const WeightView& weight(const std::map<std::string, WeightView>& weights, const std::string& name,
                         const std::vector<int64_t>& shape) {
  auto found = weights.find(name);
  if (found == weights.end() || !found->second.data)
    throw std::invalid_argument("the model's local weights have no " + name);
  if (found->second.shape != shape) {
    std::string want, have;
    for (int64_t s : shape) want += (want.empty() ? "" : "x") + std::to_string(s);
    for (int64_t s : found->second.shape) have += (have.empty() ? "" : "x") + std::to_string(s);
    throw std::invalid_argument("the model's local weight " + name + " is " + have + ", not " + want);
  }
  return found->second;
}

std::vector<int64_t> shape_of(const std::map<std::string, WeightView>& weights, const std::string& name) {
  auto found = weights.find(name);
  if (found == weights.end()) throw std::invalid_argument("the model's local weights have no " + name);
  return found->second.shape;
}

DenseLayer dense_layer(const std::map<std::string, WeightView>& weights, const std::string& name, int64_t in,
                       int64_t out) {
  const WeightView& w = weight(weights, name + ".weight", {out, in});
  const WeightView& b = weight(weights, name + ".bias", {out});
  DenseLayer layer;
  layer.in = in;
  layer.out = out;
  layer.weight_t.resize(static_cast<size_t>(in * out));
  for (int64_t o = 0; o < out; ++o)
    for (int64_t i = 0; i < in; ++i) layer.weight_t[static_cast<size_t>(i * out + o)] = w.data[o * in + i];
  layer.bias.assign(b.data, b.data + out);
  return layer;
}

// A whole number the weights hold as a 0-d weight (the pass's shape).
int64_t count(const std::map<std::string, WeightView>& weights, const std::string& name) {
  const float value = *weight(weights, name, {}).data;
  if (!(value >= 0.0f && value <= 1e6f) || value != std::floor(value))
    throw std::invalid_argument("the model's local weight " + name + " is not a whole number");
  return static_cast<int64_t>(value);
}

std::vector<float> values_of(const WeightView& view) {
  int64_t n = 1;
  for (int64_t s : view.shape) n *= s;
  return std::vector<float>(view.data, view.data + n);
}

}  // namespace

void DenseLayer::apply(const float* x, float* y) const { dense(in, out, weight_t.data(), bias.data(), x, y); }

void DenseLayer::apply_rows(int64_t n, const float* const* x, float* const* y) const {
  int64_t t = 0;
  for (; t + 4 <= n; t += 4) dense4(in, out, weight_t.data(), bias.data(), x + t, y + t);
  if (t + 2 <= n) {
    dense2(in, out, weight_t.data(), bias.data(), x + t, y + t);
    t += 2;
  }
  for (; t < n; ++t) dense(in, out, weight_t.data(), bias.data(), x[t], y[t]);
}

LocalNet::LocalNet(const std::map<std::string, WeightView>& weights)
    : n_heads_(count(weights, "n_heads")), n_layers_(count(weights, "n_layers")), k_(count(weights, "k")),
      atom_readout_(count(weights, "atom_readout") != 0), log_length_(count(weights, "log_length") != 0) {
  const int64_t n_heads = n_heads_, n_layers = n_layers_, k = k_;
  std::vector<int64_t> qkv = shape_of(weights, "layer.atom_qkv.weight");
  std::vector<int64_t> slots = shape_of(weights, "layer.slot_in");
  std::vector<int64_t> up = shape_of(weights, "layer.atom_ff.up.weight");
  std::vector<int64_t> links = shape_of(weights, "layer.link_offsets");
  if (qkv.size() != 2 || slots.size() != 3 || up.size() != 2 || links.size() != 3 || n_heads < 1 ||
      n_layers < 1 || qkv[1] % n_heads != 0 || k < 1 || k > qkv[1])
    throw std::invalid_argument("the model's local weights do not describe a routed layer");
  d_ = qkv[1];
  head_dim_ = d_ / n_heads;
  max_arity_ = slots[1];
  d_ff_ = up[0];
  num_link_types_ = links[1];
  scale_ = 1.0f / std::sqrt(static_cast<float>(head_dim_));
  atom_qkv_ = dense_layer(weights, "layer.atom_qkv", d_, 3 * d_);
  object_qkv_ = dense_layer(weights, "layer.object_qkv", d_, 3 * d_);
  atom_out_ = dense_layer(weights, "layer.atom_out", d_, d_);
  object_out_ = dense_layer(weights, "layer.object_out", d_, d_);
  atom_up_ = dense_layer(weights, "layer.atom_ff.up", d_, d_ff_);
  atom_down_ = dense_layer(weights, "layer.atom_ff.down", d_ff_, d_);
  object_up_ = dense_layer(weights, "layer.object_ff.up", d_, d_ff_);
  object_down_ = dense_layer(weights, "layer.object_ff.down", d_ff_, d_);
  slot_in_ = values_of(weight(weights, "layer.slot_in", {2, max_arity_, d_}));
  slot_out_ = values_of(weight(weights, "layer.slot_out", {2, max_arity_, d_}));
  link_offsets_ = values_of(weight(weights, "layer.link_offsets", {2, num_link_types_, d_}));
  if (log_length_)
    object_length_scale_ = values_of(weight(weights, "layer.object_length_scale", {n_heads_}));
  readout_hidden_ = shape_of(weights, "readout.0.weight")[0];
  readout_first_ = dense_layer(weights, "readout.0", k_, readout_hidden_);
  readout_last_ = dense_layer(weights, "readout.2", readout_hidden_, 1);
  if (weights.count("target_scale")) {
    target_scale_ = *weight(weights, "target_scale", {}).data;
    has_target_scale_ = true;
  }
}

double LocalNet::value(const double* total, const float* share) const {
  if (!has_target_scale_) throw std::logic_error("the model's local weights have no target_scale");
  if (atom_readout_) return static_cast<double>((static_cast<float>(total[0]) + share[0]) * target_scale_);
  Scratch& s = scratch_;
  s.mixed.resize(static_cast<size_t>(k_));
  s.hidden.resize(static_cast<size_t>(std::max(d_ff_, readout_hidden_)));
  for (int64_t j = 0; j < k_; ++j) s.mixed[static_cast<size_t>(j)] = static_cast<float>(total[j]) + share[j];
  readout_first_.apply(s.mixed.data(), s.hidden.data());
  gelu(s.hidden.data(), readout_hidden_);
  float h = 0.0f;
  readout_last_.apply(s.hidden.data(), &h);
  return static_cast<double>(h * target_scale_);
}

void LocalNet::set_context(const float* data, int64_t rows) {
  context_rows_ = rows;
  context_.assign(data, data + n_layers_ * 2 * rows * d_);
}

void LocalNet::check_pass(const LocalPass& p) const {
  auto bad = [](const std::string& what) { throw std::invalid_argument("a local pass with " + what); };
  const size_t atoms = static_cast<size_t>(p.atoms), objects = static_cast<size_t>(p.objects);
  if (p.atom_start.size() != atoms || p.object_start.size() != objects ||
      p.slots.size() != atoms * static_cast<size_t>(max_arity_) || p.context_row.size() != objects ||
      p.links.size() % 3 != 0)
    bad("arrays of the wrong length");
  for (int32_t o : p.slots)
    if (o < -1 || o >= p.objects) bad("an argument slot naming no object of the pass");
  for (int32_t row : p.context_row)
    if (row < -1 || row >= context_rows_) bad("a context row out of range");
  for (size_t i = 0; i < p.links.size(); i += 3)
    if (p.links[i] < 0 || p.links[i] >= p.objects || p.links[i + 1] < 0 || p.links[i + 1] >= p.objects ||
        p.links[i + 2] < 0 || p.links[i + 2] >= num_link_types_)
      bad("a link out of range");
  const bool parent = !p.atom_keep.empty() || !p.object_keep.empty();
  if (parent && (p.atom_keep.size() != atoms || p.object_keep.size() != objects ||
                 p.atom_parent.size() != atoms || p.object_parent.size() != objects))
    bad("a parent's arrays of the wrong length");
  for (size_t i = 0; i < p.atom_keep.size(); ++i)
    if (p.atom_keep[i] > 0 && !p.atom_parent[i].first) bad("a kept atom without its parent's states");
  for (size_t i = 0; i < p.object_keep.size(); ++i)
    if (p.object_keep[i] > 0 && !p.object_parent[i].first) bad("a kept object without its parent's states");
}

void LocalNet::finish_rows(const DenseLayer& out, const DenseLayer& up, const DenseLayer& down, int64_t n,
                           const float* mixed, float* const* states) const {
  Scratch& s = scratch_;
  const size_t rows = static_cast<size_t>(n), sd = static_cast<size_t>(d_), sff = static_cast<size_t>(d_ff_);
  s.delta.resize(rows * sd);
  s.hidden.resize(rows * std::max(sff, static_cast<size_t>(readout_hidden_)));
  s.in_rows.resize(rows);
  s.out_rows.resize(rows);
  auto add_delta = [&]() {
    for (size_t t = 0; t < rows; ++t)
      for (size_t j = 0; j < sd; ++j) states[t][j] += s.delta[t * sd + j];
  };
  for (size_t t = 0; t < rows; ++t) {
    s.in_rows[t] = mixed + t * sd;
    s.out_rows[t] = &s.delta[t * sd];
  }
  out.apply_rows(n, s.in_rows.data(), s.out_rows.data());
  add_delta();
  for (size_t t = 0; t < rows; ++t) s.out_rows[t] = &s.hidden[t * sff];
  up.apply_rows(n, states, s.out_rows.data());
  gelu(s.hidden.data(), n * d_ff_);
  for (size_t t = 0; t < rows; ++t) {
    s.in_rows[t] = &s.hidden[t * sff];
    s.out_rows[t] = &s.delta[t * sd];
  }
  down.apply_rows(n, s.in_rows.data(), s.out_rows.data());
  add_delta();
}

int64_t LocalNet::columns(const std::vector<int32_t>& keep, size_t n, std::vector<int32_t>& column) const {
  column.resize(n);
  int32_t written = 0;
  for (size_t i = 0; i < n; ++i) column[i] = writes(keep, i) ? written++ : -1;
  return written;
}

void LocalNet::run(const LocalPass& p, float* atom_layers, float* object_layers, float* terms) const {
  check_pass(p);
  const int64_t d = d_, m = max_arity_, n_atoms = p.atoms, n_objects = p.objects;
  const size_t sd = static_cast<size_t>(d), atoms = static_cast<size_t>(n_atoms),
               objects = static_cast<size_t>(n_objects);
  Scratch& s = scratch_;
  // Where each token's current state is (its start, its parent's states or this pass's output):
  // a token's states are read in place, never copied into a buffer of the pass's own.
  s.atom_at.assign(p.atom_start.begin(), p.atom_start.end());
  s.object_at.assign(p.object_start.begin(), p.object_start.end());
  s.next_atom_at.resize(atoms);
  s.next_object_at.resize(objects);
  const int64_t written_atoms = columns(p.atom_keep, atoms, s.atom_column);
  const int64_t written_objects = columns(p.object_keep, objects, s.object_column);
  // Token i's row in the output after `layer` (null where it is not written).
  auto output = [&](float* layers, int64_t written, const std::vector<int32_t>& column, size_t i, int64_t layer) {
    return column[i] < 0 ? nullptr : layers + (layer * written + column[i]) * d;
  };
  // Queries, keys and values of each token's current state, computed for the tokens that a
  // computed token reads (a token far from the change is read by none), four at a time.
  s.atom_qkv.resize(atoms * 3 * sd);
  s.object_qkv.resize(objects * 3 * sd);
  s.atom_fresh.assign(atoms, 0);
  s.object_fresh.assign(objects, 0);
  // Token i of one kind needs its qkv rows (queued once per layer).
  auto need = [&](std::vector<char>& fresh, std::vector<int32_t>& queue, int64_t i) {
    if (!fresh[static_cast<size_t>(i)]) {
      fresh[static_cast<size_t>(i)] = 1;
      queue.push_back(static_cast<int32_t>(i));
    }
  };
  // The queued tokens' qkv rows from their current states.
  auto project = [&](const DenseLayer& projection, const std::vector<const float*>& at, std::vector<float>& qkv,
                     std::vector<int32_t>& queue) {
    s.in_rows.resize(queue.size());
    s.out_rows.resize(queue.size());
    for (size_t t = 0; t < queue.size(); ++t) {
      s.in_rows[t] = at[static_cast<size_t>(queue[t])];
      s.out_rows[t] = &qkv[static_cast<size_t>(queue[t]) * 3 * sd];
    }
    projection.apply_rows(static_cast<int64_t>(queue.size()), s.in_rows.data(), s.out_rows.data());
    queue.clear();
  };
  // Whether token i keeps its parent's states after this layer; if so, its next state is there
  // (copied into `out`, its output row, where it is written).
  auto kept = [&](const std::vector<int32_t>& keep, const std::vector<std::pair<const float*, int64_t>>& parents,
                  int64_t i, int64_t layer, const float*& next, float* out) {
    if (keep.empty() || keep[static_cast<size_t>(i)] <= layer) return false;
    const auto& parent = parents[static_cast<size_t>(i)];
    next = parent.first + layer * parent.second;
    if (out) std::copy_n(next, d, out);
    return true;
  };
  // The computed tokens' updates from their attention's mix (one row each in s.mixed, in the
  // order of s.todo), into their output rows, starting from their current states.
  auto finish = [&](const DenseLayer& out, const DenseLayer& up, const DenseLayer& down,
                    const std::vector<const float*>& at, std::vector<const float*>& next, float* layers,
                    int64_t written, const std::vector<int32_t>& column, int64_t layer) {
    s.state_rows.resize(s.todo.size());
    for (size_t t = 0; t < s.todo.size(); ++t) {
      const size_t i = static_cast<size_t>(s.todo[t]);
      float* row = output(layers, written, column, i, layer);  // a computed token is written
      std::copy_n(at[i], d, row);
      s.state_rows[t] = row;
      next[i] = row;
    }
    finish_rows(out, up, down, static_cast<int64_t>(s.todo.size()), s.mixed.data(), s.state_rows.data());
  };
  // Each object's edges (atom * m + slot) and received links (index into p.links / 3), by
  // counting sort: object o's are [start[o], start[o + 1]).
  auto group = [&](std::vector<int32_t>& start, std::vector<int32_t>& list, size_t n, auto object_of) {
    start.assign(objects + 1, 0);
    for (size_t i = 0; i < n; ++i)
      if (int32_t o = object_of(i); o >= 0) ++start[static_cast<size_t>(o) + 1];
    for (size_t o = 0; o < objects; ++o) start[o + 1] += start[o];
    list.resize(static_cast<size_t>(start[objects]));
    s.fill.assign(start.begin(), start.end() - 1);
    for (size_t i = 0; i < n; ++i)
      if (int32_t o = object_of(i); o >= 0) list[static_cast<size_t>(s.fill[static_cast<size_t>(o)]++)] = static_cast<int32_t>(i);
  };
  group(s.edge_start, s.edges, atoms * static_cast<size_t>(m), [&](size_t i) { return p.slots[i]; });
  group(s.link_start, s.received, p.links.size() / 3, [&](size_t i) { return p.links[3 * i]; });
  s.head_scale.assign(static_cast<size_t>(n_heads_), scale_);
  s.object_scale.resize(static_cast<size_t>(n_heads_));
  int64_t computed = 0;
  for (int64_t layer = 0; layer < n_layers_; ++layer) {
    const float* context = context_.data() + layer * 2 * context_rows_ * d;
    // Objects: which are computed, the qkv rows they read, then each one's attention and the
    // products for all of them.
    s.todo.clear();
    for (int64_t o = 0; o < n_objects; ++o)
      if (!kept(p.object_keep, p.object_parent, o, layer, s.next_object_at[static_cast<size_t>(o)],
                output(object_layers, written_objects, s.object_column, static_cast<size_t>(o), layer)))
        s.todo.push_back(static_cast<int32_t>(o));
    for (int32_t o : s.todo) {
      need(s.object_fresh, s.object_queue, o);
      for (int32_t e = s.edge_start[static_cast<size_t>(o)]; e < s.edge_start[static_cast<size_t>(o) + 1]; ++e)
        need(s.atom_fresh, s.atom_queue, s.edges[static_cast<size_t>(e)] / m);
      for (int32_t e = s.link_start[static_cast<size_t>(o)]; e < s.link_start[static_cast<size_t>(o) + 1]; ++e)
        need(s.object_fresh, s.object_queue, p.links[3 * static_cast<size_t>(s.received[static_cast<size_t>(e)]) + 1]);
    }
    project(atom_qkv_, s.atom_at, s.atom_qkv, s.atom_queue);
    project(object_qkv_, s.object_at, s.object_qkv, s.object_queue);
    s.mixed.resize(s.todo.size() * sd);
    for (size_t t = 0; t < s.todo.size(); ++t) {
      const int64_t o = s.todo[t];
      s.keys.clear();
      for (int32_t e = s.edge_start[static_cast<size_t>(o)]; e < s.edge_start[static_cast<size_t>(o) + 1]; ++e) {
        const int64_t edge = s.edges[static_cast<size_t>(e)], slot = edge % m;
        const float* kv = &s.atom_qkv[static_cast<size_t>(edge / m) * 3 * sd];
        s.keys.push_back({kv + d, &slot_in_[slot * sd], kv + 2 * d, &slot_in_[(m + slot) * sd]});
      }
      for (int32_t e = s.link_start[static_cast<size_t>(o)]; e < s.link_start[static_cast<size_t>(o) + 1]; ++e) {
        const size_t link = 3 * static_cast<size_t>(s.received[static_cast<size_t>(e)]);
        const int64_t type = p.links[link + 2];
        const float* kv = &s.object_qkv[static_cast<size_t>(p.links[link + 1]) * 3 * sd];
        s.keys.push_back({kv + d, &link_offsets_[type * sd], kv + 2 * d,
                          &link_offsets_[(num_link_types_ + type) * sd]});
      }
      if (int32_t row = p.context_row[static_cast<size_t>(o)]; row >= 0)
        s.keys.push_back({context + row * d, nullptr, context + (context_rows_ + row) * d, nullptr});
      for (size_t h = 0; h < static_cast<size_t>(n_heads_); ++h)
        s.object_scale[h] = log_length_ ? object_length_scale_[h] * std::log(static_cast<float>(s.keys.size())) * scale_
                                        : scale_;
      attend(&s.object_qkv[static_cast<size_t>(o) * 3 * sd], s.object_scale.data(), s.keys, n_heads_, head_dim_,
             s.scores, &s.mixed[t * sd]);
    }
    finish(object_out_, object_up_, object_down_, s.object_at, s.next_object_at, object_layers, written_objects,
           s.object_column, layer);
    computed += static_cast<int64_t>(s.todo.size());
    s.object_at.swap(s.next_object_at);
    std::fill(s.object_fresh.begin(), s.object_fresh.end(), 0);
    // Atoms alike, reading the objects' new states.
    s.todo.clear();
    for (int64_t a = 0; a < n_atoms; ++a)
      if (!kept(p.atom_keep, p.atom_parent, a, layer, s.next_atom_at[static_cast<size_t>(a)],
                output(atom_layers, written_atoms, s.atom_column, static_cast<size_t>(a), layer)))
        s.todo.push_back(static_cast<int32_t>(a));
    for (int32_t a : s.todo) {
      need(s.atom_fresh, s.atom_queue, a);
      for (int64_t slot = 0; slot < m; ++slot)
        if (int32_t o = p.slots[static_cast<size_t>(a * m + slot)]; o >= 0) need(s.object_fresh, s.object_queue, o);
    }
    project(atom_qkv_, s.atom_at, s.atom_qkv, s.atom_queue);
    project(object_qkv_, s.object_at, s.object_qkv, s.object_queue);
    s.mixed.resize(s.todo.size() * sd);
    for (size_t t = 0; t < s.todo.size(); ++t) {
      const int64_t a = s.todo[t];
      s.keys.clear();
      const float* self = &s.atom_qkv[static_cast<size_t>(a) * 3 * sd];
      for (int64_t slot = 0; slot < m; ++slot)
        if (int32_t o = p.slots[static_cast<size_t>(a * m + slot)]; o >= 0) {
          const float* kv = &s.object_qkv[static_cast<size_t>(o) * 3 * sd];
          s.keys.push_back({kv + d, &slot_out_[slot * sd], kv + 2 * d, &slot_out_[(m + slot) * sd]});
        }
      s.keys.push_back({self + d, nullptr, self + 2 * d, nullptr});
      attend(self, s.head_scale.data(), s.keys, n_heads_, head_dim_, s.scores, &s.mixed[t * sd]);
    }
    finish(atom_out_, atom_up_, atom_down_, s.atom_at, s.next_atom_at, atom_layers, written_atoms, s.atom_column,
           layer);
    computed += static_cast<int64_t>(s.todo.size());
    s.atom_at.swap(s.next_atom_at);
    std::fill(s.atom_fresh.begin(), s.atom_fresh.end(), 0);
  }
  last_computed_ = computed;
  s.hidden.resize(static_cast<size_t>(std::max(d_ff_, readout_hidden_)));
  for (size_t a = 0; a < atoms; ++a) {
    if (atom_readout_) {
      readout_first_.apply(s.atom_at[a], s.hidden.data());
      gelu(s.hidden.data(), readout_hidden_);
      readout_last_.apply(s.hidden.data(), terms + a);
    } else {
      std::copy_n(s.atom_at[a], k_, terms + a * static_cast<size_t>(k_));
    }
  }
}

}  // namespace symt
