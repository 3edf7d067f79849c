// The one 64-bit mixing function of the expander's hash table and the sampler's seeding, in one
// place so that a seed means the same stream wherever it is used.
#pragma once

#include <cstdint>

namespace symt {

inline uint64_t mix64(uint64_t x) {  // the splitmix64 / murmur3 finalizer
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return x;
}

}  // namespace symt
