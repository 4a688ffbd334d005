#pragma once
// The reasons of a run's faults (issue 20): per judge and fault kind, the
// first failed call's words and the count, in order of first occurrence, so
// that "39 faults" comes with "connecting to 127.0.0.1:1: Connection
// refused". Pure; the run session feeds it every record, a resumed run's
// audit reader every judge_call line.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "messages/fault_kind.hpp"
#include "messages/fault_reason.hpp"

namespace ij {

class fault_reason_tally {
public:
  /// One failed call of `judge`: its kind and its words. Calls that did not
  /// fail (kind none) are not counted.
  void add(const std::string& judge, fault_kind kind,
           const std::string& message);

  /// Per judge and kind, in order of first occurrence.
  const std::vector<fault_reason>& reasons() const { return reasons_; }

private:
  std::vector<fault_reason> reasons_;
  std::map<std::pair<std::string, fault_kind>, std::size_t> index_;
};

/// The driver's line for one: "judge J: KIND: MESSAGE (first of N such
/// faults)" ("(1 such fault)" for one).
std::string fault_reason_line(const fault_reason& r);

} // namespace ij
