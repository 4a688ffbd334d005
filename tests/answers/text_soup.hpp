#pragma once
// Random texts assembled from the pieces a reader cares about (delimiters,
// commands, digits, broken UTF-8), for tests that any text gives a reply.
#include <random>
#include <string>
#include <vector>

namespace ij::test {

/// Up to `max_pieces - 1` pieces drawn from `pieces`, concatenated.
inline std::string text_soup(std::mt19937& rng,
                             const std::vector<std::string>& pieces,
                             unsigned max_pieces) {
  std::string out;
  for (auto k = rng() % max_pieces; k > 0; --k)
    out += pieces[rng() % pieces.size()];
  return out;
}

} // namespace ij::test
