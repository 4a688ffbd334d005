#pragma once
// The one error vocabulary of invariance-judge: every error an actor replies
// with or a tool reports is an `ij::errc` with a context text naming what and
// where. Registered with CAF (category "ij") so that it crosses hosts and
// renders in plain words; render_error() also turns CAF's own errors into
// plain words, so no raw "error(1, system, ...)" text reaches a user.
#include <cstdint>
#include <string>
#include <string_view>

#include <caf/error.hpp>
#include <caf/make_message.hpp>

namespace ij {

enum class errc : std::uint8_t {
  // 0 is "no error" for CAF.
  /// A configuration (file, field or value) is invalid.
  bad_config = 1,
  /// Input (a pair, a line, a request body) is invalid.
  bad_input,
  /// The audit trail cannot be opened, written or synced.
  audit_failed,
  /// A request came before the run started.
  run_not_started,
  /// A request came after the run ended.
  run_ended,
  /// The run already has what it asked (started twice, input closed twice).
  run_state,
  /// No worker serves the judge a vote needs.
  no_worker,
  /// A worker or host could not be reached or was lost.
  unreachable,
  /// A peer serves another prompt, prompt id or message set.
  incompatible_peer,
  /// Something that should not happen; a bug to report.
  internal,
  /// A file, socket or database could not be read or written.
  io_failed,
  /// A backend or peer answered with something that cannot be read.
  bad_reply,
};

/// The plain words of a code, e.g. "the audit trail cannot be written".
std::string_view to_string(errc code);

/// An error of the project with its context (what and where).
caf::error make_error(errc code, std::string context);

/// "<plain words>: <context>" for the project's errors, and plain words for
/// CAF's own (a request timeout, a lost actor, ...). Never a secret: errors
/// never carry one.
std::string render_error(const caf::error& err);

/// The context text alone (what and where), without the code's words: for
/// messages that already say what kind of failure it is (the CLI's pinned
/// "cannot read config.json: line 3: ..." keep their wording this way).
std::string context_of(const caf::error& err);

} // namespace ij

CAF_ERROR_CODE_ENUM(ij::errc, "ij")
