#pragma once
// A record a vote coordinator hands its run session for the audit trail:
// a vote moved to another worker, a late reply dropped, a host connected or
// lost. The session writes it in order with the pairs' records and counts it
// per host in the run-end totals.
#include <string>

#include <caf/meta/type_name.hpp>

#include "messages/audit_type.hpp"

namespace ij {

struct run_note {
  /// The audit record type: vote_moved, late_reply or host.
  audit_type type = audit_type::host;
  /// The host it concerns ("ADDR:PORT", "local").
  std::string host;
  /// For a host record, its event ("lost", ...); empty otherwise.
  std::string event;
  /// The record's own fields as one JSON object text.
  std::string body;
};

inline bool operator==(const run_note& x, const run_note& y) {
  return x.type == y.type && x.host == y.host && x.event == y.event
         && x.body == y.body;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, run_note& x) {
  return f(caf::meta::type_name("ij.run_note"), x.type, x.host, x.event,
           x.body);
}

} // namespace ij
