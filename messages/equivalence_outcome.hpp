#pragma once
// What a comparator says about one pair (SPEC §2): equivalent true, false or
// null ("neither": the comparator does not know). Confidence is recorded,
// never used to decide.
#include <optional>
#include <string>

#include <caf/error.hpp>
#include <caf/meta/load_callback.hpp>
#include <caf/meta/type_name.hpp>

#include "messages/tri_bool.hpp"

namespace ij {

struct equivalence_outcome {
  std::optional<bool> equivalent;
  double confidence = 0.0;
  /// Why: "absent", "EQUIVALENT", "ABSTAIN", "no agreement", an error text...
  std::string detail;
  /// True when the outcome rests on a failure (adapter error, timeout, host
  /// lost); the verdict table turns it into I2 rather than I3.
  bool fault = false;
  /// The calibrated probability that the answers are equivalent (issue 16),
  /// with a calibration map; negative when there is none. Recorded, never
  /// used by the I1–I5 table.
  double probability = -1.0;

  bool has_probability() const { return probability >= 0.0; }
};

inline bool operator==(const equivalence_outcome& x,
                       const equivalence_outcome& y) {
  return x.equivalent == y.equivalent && x.confidence == y.confidence
         && x.detail == y.detail && x.fault == y.fault
         && x.probability == y.probability;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, equivalence_outcome& x) {
  auto eq = encode_tri(x.equivalent);
  return f(caf::meta::type_name("ij.equivalence_outcome"), eq, x.confidence,
           x.detail, x.fault, x.probability,
           caf::meta::load_callback([&]() -> caf::error {
             x.equivalent = decode_tri(eq);
             return caf::none;
           }));
}

} // namespace ij
