#include "adapters/batch_faults.hpp"

#include <caf/atom.hpp>

#include "adapters/api_error.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

/// An Anthropic errored result names its error type, not a status.
fault_kind fault_of_type(const std::string& type) {
  if (type == "rate_limit_error" || type == "overloaded_error")
    return fault_kind::rate_limited;
  if (type == "authentication_error" || type == "permission_error")
    return fault_kind::auth;
  if (type == "invalid_request_error" || type == "not_found_error"
      || type == "request_too_large")
    return fault_kind::bad_request;
  return fault_kind::server_error;
}

} // namespace

fault_kind fault_of_result(const batch_result& r) {
  switch (r.kind) {
    case result_kind::succeeded: return fault_kind::none;
    case result_kind::expired: return fault_kind::timeout;
    case result_kind::canceled: return fault_kind::unavailable;
    case result_kind::errored: break;
  }
  return r.status ? fault_of_status(r.status) : fault_of_type(r.error_type);
}

fault_kind fault_of_error(const caf::error& err) {
  if (err.category() != caf::atom("ij"))
    return fault_kind::connection;
  switch (static_cast<errc>(err.code())) {
    case errc::bad_config: return fault_kind::auth;
    case errc::bad_input: return fault_kind::bad_request;
    case errc::bad_reply: return fault_kind::unreadable_reply;
    default: return fault_kind::connection;
  }
}

bool is_unreachable(const caf::error& err) {
  return err.category() == caf::atom("ij")
         && static_cast<errc>(err.code()) == errc::unreachable;
}

} // namespace ij
