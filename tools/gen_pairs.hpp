#pragma once
// Synthetic pairs for load tests and the memory demonstration
// (`invjudge gen-pairs N`, a hidden subcommand): deterministic, varied
// surface forms, grouped into items.
#include <cstdint>
#include <cstdio>
#include <string>

namespace ij {

/// The `index`-th synthetic pair as one JSON line (no newline): item
/// "item-<index / per_item>", answers in assorted forms, a label, and now
/// and then a different or absent answer.
std::string synthetic_pair_line(std::uint64_t index, std::uint32_t per_item);

/// Writes `n` lines to `out`; false on a write error.
bool write_synthetic_pairs(std::FILE* out, std::uint64_t n,
                           std::uint32_t per_item);

} // namespace ij
