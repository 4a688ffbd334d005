#pragma once
// The statistical parameters as one JSON object, the same in the run
// manifest, the item verdict records and the canonical configuration, so
// that a reader can compare them key for key.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/json_fields.hpp"
#include "messages/verdict.hpp"

namespace ij {

/// Writes `{"tau", "alpha", "max_absent_rate", "max_fault_rate",
/// "max_undecided_rate", "min_decided"}` (the value after a Key()).
inline void
write_statistical_params(rapidjson::Writer<rapidjson::StringBuffer>& w,
                         const statistical_params& p) {
  w.StartObject();
  json::number(w, "tau", p.tau);
  json::number(w, "alpha", p.alpha);
  json::number(w, "max_absent_rate", p.max_absent_rate);
  json::number(w, "max_fault_rate", p.max_fault_rate);
  json::number(w, "max_undecided_rate", p.max_undecided_rate);
  json::uint(w, "min_decided", p.min_decided);
  w.EndObject();
}

} // namespace ij
