#pragma once
// What a batch's outcomes mean for the votes in it (issue 17): a request's
// result, or an error of the whole batch (rejected, unreadable), as the fault
// kind its judge record gets; and which errors are worth asking again.
#include <caf/error.hpp>

#include "adapters/batch_protocol.hpp"
#include "messages/fault_kind.hpp"

namespace ij {

/// A request's result: none when it succeeded, timeout when it expired,
/// unavailable when cancelled; an errored one by its HTTP status (OpenAI) or
/// its error type (Anthropic).
fault_kind fault_of_result(const batch_result& r);

/// A client error (a batch rejected whole, a batch that cannot be read) as
/// the fault its votes get.
fault_kind fault_of_error(const caf::error& err);

/// Worth trying later (429, 5xx, no answer): the batch is polled again.
bool is_unreachable(const caf::error& err);

} // namespace ij
