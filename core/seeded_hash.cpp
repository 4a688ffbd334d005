#include "core/seeded_hash.hpp"

namespace ij {

namespace {

constexpr std::uint64_t golden_gamma = 0x9e3779b97f4a7c15ULL;

} // namespace

std::uint64_t splitmix64(std::uint64_t x) {
  x += golden_gamma;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t splitmix_next(std::uint64_t& state) {
  auto out = splitmix64(state);
  state += golden_gamma;
  return out;
}

double unit_draw(std::uint64_t& state) {
  return static_cast<double>(splitmix_next(state) >> 11) * 0x1.0p-53;
}

std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text)
    h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

} // namespace ij
