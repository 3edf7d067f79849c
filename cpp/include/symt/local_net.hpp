// A local objects model's state pass in plain C++17 (no libtorch): what the exported module's
// `layer_terms` computes (python/symt/model_routed.py, RoutedSymTE.run without global tokens),
// for one state at a time.
//
// Why: a successor's pass from its parent's layers reads 20-70 atoms. At that size TorchScript's
// interpreter spends most of a pass dispatching its ~1,000 operators (2.4 ms at 21 atoms, a fifth
// of it in matrix products); here the same arithmetic runs as loops over a few kilobytes. And a
// token that keeps its parent's states after a layer is not computed at that layer at all, so a
// pass costs the tokens the change reaches at each layer, not the pass's tokens times the layers.
//
// The weights come from the model file (its `local_weights` method); the tokens' states before the
// first layer (`atom_starts`, `object_starts`) and the task's context cache (`encode_context`)
// from the model too: this file holds only the layers and the readout's atom terms.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace symt {

// A weight as the model file holds it: its shape and its float32 values, row-major.
struct WeightView {
  std::vector<int64_t> shape;
  const float* data = nullptr;
};

// y = W x + b, W stored transposed ([in][out]) so that the loop over outputs is contiguous.
struct DenseLayer {
  int64_t in = 0, out = 0;
  std::vector<float> weight_t, bias;
  void apply(const float* x, float* y) const;
  // y[t] = W x[t] + b for t < n (four rows at a time: the weights loaded once for the four).
  void apply_rows(int64_t n, const float* const* x, float* const* y) const;
};

// One state's pass. Objects are indexed 0..objects-1 (the pass's order), atoms 0..atoms-1.
struct LocalPass {
  int64_t atoms = 0, objects = 0;
  std::vector<const float*> atom_start, object_start;  // d floats each (before the first layer)
  std::vector<int32_t> slots;        // [atoms * max_arity]: the object in each argument slot, -1 none
  std::vector<int32_t> context_row;  // [objects]: the object's row in the context cache, -1 none
  std::vector<int32_t> links;        // 3 per link: receiving object, sending object, link type
  // How many layers (from the first) each token keeps its parent's states, and where they are:
  // the state after layer l is parent.first + l * parent.second. Both empty: no parent.
  std::vector<int32_t> atom_keep, object_keep;
  std::vector<std::pair<const float*, int64_t>> atom_parent, object_parent;
  // Empties every list and keeps its memory (a caller making one pass after another).
  void clear();
};

class LocalNet {
 public:
  // `weights`: the RoutedSymTE's parameters by their names (layer.atom_qkv.weight, ...) and the
  // pass's shape as 0-d weights (n_heads, n_layers, k, atom_readout, log_length): the model file's
  // `local_weights`. Throws std::invalid_argument naming the first missing or misshapen one.
  explicit LocalNet(const std::map<std::string, WeightView>& weights);

  // The task's context cache: keys and values of each context object at every layer
  // ([n_layers, 2, rows, d], float32), as `encode_context` returns them (copied).
  void set_context(const float* data, int64_t rows);

  int64_t d() const { return d_; }
  int64_t n_layers() const { return n_layers_; }
  int64_t max_arity() const { return max_arity_; }
  int64_t num_link_types() const { return num_link_types_; }
  int64_t term_width() const { return atom_readout_ ? 1 : k_; }

  // Whether a pass writes token i's states (keep: the pass's atom_keep or object_keep): not where
  // the token keeps its parent's states after every layer, for they are the parent's token's (a
  // quarter of a pass from the parent's on Visitall: read, never computed, no copy needed).
  bool writes(const std::vector<int32_t>& keep, size_t i) const { return keep.empty() || keep[i] < n_layers_; }
  // Each of n tokens' column in the pass's output (-1 where it is not written) into `column`;
  // returns how many are written.
  int64_t columns(const std::vector<int32_t>& keep, size_t n, std::vector<int32_t>& column) const;
  // The pass: the written tokens' states after every layer (atom_layers [n_layers, written atoms,
  // d], object_layers [n_layers, written objects, d], each in the pass's order) and every atom's
  // readout term (terms [atoms, term_width]). Throws std::invalid_argument on an inconsistent pass
  // (an index out of range, a kept token without its parent's states). Not reentrant: one pass at
  // a time per LocalNet.
  void run(const LocalPass& pass, float* atom_layers, float* object_layers, float* terms) const;
  // h of a state whose atoms' terms sum to total[term_width] (float64), with the context's
  // share[term_width] of the sum: the readout as `value_of_terms` computes it (in float32).
  // Only where the weights have target_scale (files exported since the fifty-third session).
  bool has_value() const { return has_target_scale_; }
  double value(const double* total, const float* share) const;

  // The number of tokens the last run computed, over all layers (a measure of its work).
  int64_t last_tokens_computed() const { return last_computed_; }

  // A key of one token's attention: keys and values (d floats each) plus optional offsets.
  struct Key {
    const float* key;
    const float* key_offset;
    const float* value;
    const float* value_offset;
  };

 private:
  int64_t d_ = 0, n_heads_ = 0, head_dim_ = 0, n_layers_ = 0, k_ = 0, max_arity_ = 0, d_ff_ = 0;
  int64_t num_link_types_ = 0, readout_hidden_ = 0;
  bool atom_readout_ = false, log_length_ = false, has_target_scale_ = false;
  float target_scale_ = 1.0f;
  float scale_ = 1.0f;
  DenseLayer atom_qkv_, object_qkv_, atom_out_, object_out_, atom_up_, atom_down_, object_up_, object_down_;
  DenseLayer readout_first_, readout_last_;
  std::vector<float> slot_in_, slot_out_, link_offsets_;  // [2, n, d]: key offsets, then value offsets
  std::vector<float> object_length_scale_;               // [n_heads] (log_length)
  std::vector<float> context_;
  int64_t context_rows_ = 0;
  mutable int64_t last_computed_ = 0;
  // A pass's buffers, kept between runs (so one LocalNet runs one pass at a time): a search runs
  // hundreds of thousands of passes, and fresh buffers for each fragment the heap that the
  // stored layers share (malloc was a fifth of a search's time).
  struct Scratch {
    std::vector<float> atom_qkv, object_qkv, mixed, scores, delta, hidden, head_scale, object_scale;
    std::vector<const float*> atom_at, object_at, next_atom_at, next_object_at;  // tokens' current states
    std::vector<int32_t> atom_column, object_column;                              // in the output, -1 none
    std::vector<char> atom_fresh, object_fresh;
    std::vector<int32_t> edge_start, edges, link_start, received, fill;
    std::vector<int32_t> todo, atom_queue, object_queue;  // a layer's computed tokens; qkv rows to compute
    std::vector<const float*> in_rows;
    std::vector<float*> out_rows, state_rows;
    std::vector<Key> keys;
  };
  mutable Scratch scratch_;

  void check_pass(const LocalPass& pass) const;
  // n tokens' updates: state += out(mixed, their attention's mix, rows of d); state += ff(state).
  void finish_rows(const DenseLayer& out, const DenseLayer& up, const DenseLayer& down, int64_t n,
                   const float* mixed, float* const* states) const;
};

}  // namespace symt
