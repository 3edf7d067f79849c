// The arithmetic of a local objects model's pass (cpp/src/local_net.cc): the matrix products,
// GELU and one token's attention, each compiled for the CPU's best instructions. Internal to
// symt's C++ (the pass and the plugin that links it), not part of the public header.
#pragma once

#include <cstdint>
#include <vector>

#include "symt/local_net.hpp"

namespace symt::kernels {

// y = W x + b, W stored transposed ([in][out]) so that the loop over outputs is contiguous.
void dense(int64_t in, int64_t out, const float* weight_t, const float* bias, const float* x, float* y);
// The same for four (two) rows x[t], y[t] at once, each row's sums in dense's order (the same
// results bit for bit).
void dense4(int64_t in, int64_t out, const float* weight_t, const float* bias, const float* const* x,
            float* const* y);
void dense2(int64_t in, int64_t out, const float* weight_t, const float* bias, const float* const* x,
            float* const* y);
// GELU (erf form, as torch's default) over v[0..n), in place.
void gelu(float* v, int64_t n);
// Per head: the softmax of q . key over `keys`, then the weighted values, into mixed [d].
void attend(const float* q, const float* head_scale, const std::vector<LocalNet::Key>& keys, int64_t n_heads,
            int64_t head_dim, std::vector<float>& scores, float* mixed);

}  // namespace symt::kernels
