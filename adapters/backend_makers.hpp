#pragma once
// The adapter half of the backend table: each kind of core/config/backend_kinds
// paired with the function that builds its adapter. The factory
// (adapters/adapter_factory) dispatches by these two tables alone: a new
// kind is a row there (what it supports) and a maker here (how it calls).
#include <functional>
#include <string>

#include <caf/error.hpp>
#include <caf/expected.hpp>

#include "adapters/judge_adapter.hpp"
#include "core/config/judge_spec.hpp"

namespace ij {

/// Builds the adapter of one judge of its kind. For an HTTP kind, the bare
/// adapter: the factory puts the circuit breaker and the batch API in front.
using adapter_maker =
  std::function<caf::expected<judge_adapter_ptr>(const judge_spec&)>;

/// The maker of kind `name`; empty for a kind without one.
adapter_maker maker_of(const std::string& name);

/// Adds the maker of a kind added to core/config/backend_kinds (a test's fake
/// backend). bad_config if the name is empty, taken or `make` empty.
caf::error add_adapter_maker(std::string name, adapter_maker make);

} // namespace ij
