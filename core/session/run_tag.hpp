#pragma once
// A run's tag: the first 12 hex digits of SHA-256 of its run id. A batched
// judge's custom_ids start with it ("<tag>-p<seq>-v<vote>", adapters/
// batch_judge), so it must be the same after a resume (the run id is) and
// within the providers' custom_id syntax ([a-z0-9], short).
#include <string>
#include <string_view>

#include "core/sha256.hpp"

namespace ij {

inline std::string run_tag_of(std::string_view run_id) {
  return sha256_hex(run_id).substr(0, 12);
}

} // namespace ij
