// The 64-bit mixing function that the expander's state hash (state_space.cc) and the sampler's
// splitmix64 seeding (sampler.cc) both use: one definition for the two files.
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
