#pragma once
// The statistical parameters as one JSON object, the same in the run
// manifest, the item verdict records and the canonical configuration, so
// that a reader can compare them key for key.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "messages/verdict.hpp"

namespace ij {

/// Writes `{"tau", "alpha", "max_absent_rate", "max_fault_rate",
/// "max_undecided_rate", "min_decided"}` (the value after a Key()).
inline void
write_statistical_params(rapidjson::Writer<rapidjson::StringBuffer>& w,
                         const statistical_params& p) {
  w.StartObject();
  w.Key("tau");
  w.Double(p.tau);
  w.Key("alpha");
  w.Double(p.alpha);
  w.Key("max_absent_rate");
  w.Double(p.max_absent_rate);
  w.Key("max_fault_rate");
  w.Double(p.max_fault_rate);
  w.Key("max_undecided_rate");
  w.Double(p.max_undecided_rate);
  w.Key("min_decided");
  w.Uint(p.min_decided);
  w.EndObject();
}

} // namespace ij
