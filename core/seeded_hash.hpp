#pragma once
// The project's seeded hashes, written once: seeded choices (canary
// positions, the noisy judge's draws, generated pairs) must not depend on
// the standard library's engines, whose streams differ between
// implementations, and must give the same value whatever the batching.
// Pure: no state but what the caller holds.
#include <cstdint>
#include <string_view>

namespace ij {

/// splitmix64 of a counter: a well-mixed 64-bit value for each input.
std::uint64_t splitmix64(std::uint64_t x);

/// The next value of a splitmix64 stream whose state is `state` (advanced).
std::uint64_t splitmix_next(std::uint64_t& state);

/// The next uniform draw in [0, 1) of that stream (53 bits).
double unit_draw(std::uint64_t& state);

/// FNV-1a, 64 bits: a cheap, stable hash of a text.
std::uint64_t fnv1a64(std::string_view text);

} // namespace ij
