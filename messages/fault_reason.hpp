#pragma once
// Why a judge's calls failed, in words (issue 20): per judge and fault
// kind, the first failed call's message and how many calls failed that way.
// Part of the run summary, so that the client says the reason of a run of
// faults (the driver prints each once on stderr) instead of only a count.
// The message is the record's, which the adapter already redacted (no key).
#include <cstdint>
#include <string>

#include <caf/meta/type_name.hpp>

#include "messages/fault_kind.hpp"

namespace ij {

struct fault_reason {
  /// The judge's name (as in the usage table).
  std::string judge;
  fault_kind kind = fault_kind::none;
  /// The first such record's transport error.
  std::string first_message;
  /// Records of this judge with this fault kind.
  std::uint64_t count = 0;
};

inline bool operator==(const fault_reason& x, const fault_reason& y) {
  return x.judge == y.judge && x.kind == y.kind
         && x.first_message == y.first_message && x.count == y.count;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, fault_reason& x) {
  return f(caf::meta::type_name("ij.fault_reason"), x.judge, x.kind,
           x.first_message, x.count);
}

} // namespace ij
