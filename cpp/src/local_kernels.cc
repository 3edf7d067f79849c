// The arithmetic of a local objects model's pass (see local_kernels.hpp).
#include "local_kernels.hpp"

#include <algorithm>
#include <cmath>

namespace symt::kernels {

// The products are most of a pass's arithmetic: compiled for AVX-512 and AVX2 besides the
// baseline, the loader picks the best the CPU has (no assumption about the machine).
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define SYMT_CLONES __attribute__((target_clones("avx512f", "fma", "default")))
#else
#define SYMT_CLONES
#endif

// y = W x + b over blocks of 64 outputs held in registers through the whole sum (the plain loop
// reloads and stores y for every input: load-bound at a third of the speed).
SYMT_CLONES void dense(int64_t in, int64_t out, const float* __restrict weight_t, const float* __restrict bias,
                       const float* __restrict x, float* __restrict y) {
  constexpr int64_t block = 64;
  int64_t first = 0;
  for (; first + block <= out; first += block) {
    float sum[block];
    for (int64_t j = 0; j < block; ++j) sum[j] = bias[first + j];
    for (int64_t i = 0; i < in; ++i) {
      const float xi = x[i];
      const float* row = weight_t + i * out + first;
      for (int64_t j = 0; j < block; ++j) sum[j] += xi * row[j];
    }
    for (int64_t j = 0; j < block; ++j) y[first + j] = sum[j];
  }
  for (int64_t j = first; j < out; ++j) {
    float sum = bias[j];
    for (int64_t i = 0; i < in; ++i) sum += x[i] * weight_t[i * out + j];
    y[j] = sum;
  }
}

// The same for R rows at once (x[t], y[t]): each weight row loaded once for the R, so the loop
// is bound by its multiply-adds instead of its loads (four rows: twice dense's rate at d = 64).
// Each row's sums run in dense's order: the results are dense's, bit for bit. Inlined into each
// row count's clones below, so that each is compiled for every target.
template <int64_t R>
inline __attribute__((always_inline)) void dense_rows(int64_t in, int64_t out, const float* __restrict weight_t,
                                                      const float* __restrict bias, const float* const* x,
                                                      float* const* y) {
  constexpr int64_t block = 64;
  const float* xs[R];
  for (int64_t t = 0; t < R; ++t) xs[t] = x[t];
  int64_t first = 0;
  for (; first + block <= out; first += block) {
    float sum[R][block];
    for (int64_t t = 0; t < R; ++t)
      for (int64_t j = 0; j < block; ++j) sum[t][j] = bias[first + j];
    for (int64_t i = 0; i < in; ++i) {
      const float* row = weight_t + i * out + first;
      float a[R];
      for (int64_t t = 0; t < R; ++t) a[t] = xs[t][i];
      for (int64_t j = 0; j < block; ++j)
        for (int64_t t = 0; t < R; ++t) sum[t][j] += a[t] * row[j];
    }
    for (int64_t t = 0; t < R; ++t)
      for (int64_t j = 0; j < block; ++j) y[t][first + j] = sum[t][j];
  }
  for (int64_t t = 0; t < R; ++t)
    for (int64_t j = first; j < out; ++j) {
      float sum = bias[j];
      for (int64_t i = 0; i < in; ++i) sum += x[t][i] * weight_t[i * out + j];
      y[t][j] = sum;
    }
}

SYMT_CLONES void dense4(int64_t in, int64_t out, const float* __restrict weight_t, const float* __restrict bias,
                        const float* const* x, float* const* y) {
  dense_rows<4>(in, out, weight_t, bias, x, y);
}

SYMT_CLONES void dense2(int64_t in, int64_t out, const float* __restrict weight_t, const float* __restrict bias,
                        const float* const* x, float* const* y) {
  dense_rows<2>(in, out, weight_t, bias, x, y);
}

// GELU (erf form, as torch's default) over v[0..n): erf by Abramowitz and Stegun 7.1.28,
// 1 - (1 + a1 t + ... + a6 t^6)^-16 for t = |x| / sqrt(2) (absolute error below 3e-7, float32's
// rounding at 1), which the compiler vectorizes; libm's erff per element was a tenth of a pass.
SYMT_CLONES void gelu(float* __restrict v, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float x = v[i], t = std::fabs(x) * 0.70710678118654752f;
    float p = 1.0f + t * (0.0705230784f + t * (0.0422820123f + t * (0.0092705272f +
              t * (0.0001520143f + t * (0.0002765672f + t * 0.0000430638f)))));
    p *= p;  // p^2
    p *= p;  // p^4
    p *= p;  // p^8
    p *= p;  // p^16
    const float erf_abs = 1.0f - 1.0f / p;
    v[i] = 0.5f * x * (1.0f + (x < 0.0f ? -erf_abs : erf_abs));
  }
}

// Per head: the softmax of q . key over `keys`, then the weighted values, into mixed [d]. The
// maximum is subtracted before exp, as the reference does.
void attend(const float* q, const float* head_scale, const std::vector<LocalNet::Key>& keys, int64_t n_heads,
            int64_t head_dim, std::vector<float>& scores, float* mixed) {
  const int64_t n = static_cast<int64_t>(keys.size());
  scores.resize(static_cast<size_t>(n));
  for (int64_t h = 0; h < n_heads; ++h) {
    const int64_t first = h * head_dim;
    float top = -INFINITY;
    for (int64_t i = 0; i < n; ++i) {
      const LocalNet::Key& key = keys[static_cast<size_t>(i)];
      float s = 0.0f;
      for (int64_t j = first; j < first + head_dim; ++j)
        s += q[j] * (key.key[j] + (key.key_offset ? key.key_offset[j] : 0.0f));
      s *= head_scale[h];
      scores[static_cast<size_t>(i)] = s;
      top = std::max(top, s);
    }
    float total = 0.0f;
    float* out = mixed + first;
    std::fill(out, out + head_dim, 0.0f);
    for (int64_t i = 0; i < n; ++i) {
      const LocalNet::Key& key = keys[static_cast<size_t>(i)];
      const float w = std::exp(scores[static_cast<size_t>(i)] - top);
      total += w;
      for (int64_t j = 0; j < head_dim; ++j)
        out[j] += w * (key.value[first + j] + (key.value_offset ? key.value_offset[first + j] : 0.0f));
    }
    for (int64_t j = 0; j < head_dim; ++j) out[j] /= total;
  }
}

}  // namespace symt::kernels
