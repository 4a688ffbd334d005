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

/// `invjudge gen-pairs N [--per-item K] [--out FILE [--force]]`: the pairs
/// to standard output, or to `out_path` under the output rule
/// (tools/output_file: an existing file with content only with `force`).
/// The exit code: 0, or 2 (refused, or a write error, said on stderr).
int gen_pairs_command(std::uint64_t n, std::uint32_t per_item,
                      const std::string& out_path, bool force);

} // namespace ij
