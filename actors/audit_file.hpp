#pragma once
// Creating a run's audit file so that two runs never write one file: it is
// created exclusively (or taken only when it exists and is empty) and held
// under an exclusive lock (flock(2)) for as long as its descriptor is open;
// the audit logger owns that descriptor and closes it after run_end.
#include <ctime>
#include <string>

#include <caf/expected.hpp>

#include "core/audit/audit_resume.hpp"
#include "messages/error.hpp"

namespace ij {

/// Opens `path` for a new run's audit: creates it, or takes an existing
/// empty regular file, and locks it. Returns the descriptor (write-only,
/// append, close-on-exec), or audit_failed with a context in plain words
/// naming the path: in use by another run (locked), already holding
/// records, not a regular file, or the system's reason it cannot be created.
caf::expected<int> open_audit_file(const std::string& path);

/// An audit trail opened to continue its run: locked like a new one, its
/// chain verified (an edited file is refused), and cut after its last
/// committed record (core/audit/audit_resume.hpp says what is cut and why).
struct resumable_audit {
  int fd = -1; // write-only, append, close-on-exec, locked
  resume_point point;
};

/// Opens `path` for `run --resume` and the daemon's restart; audit_failed
/// naming the path when it is in use, missing, edited, finished, or cannot
/// be cut.
caf::expected<resumable_audit> open_audit_for_resume(const std::string& path);

/// "invjudge-audit-<UTC time>", e.g. "invjudge-audit-20261202T140000Z",
/// the stem of the default audit file name for a run started at `t`.
std::string default_audit_stem(std::time_t t);

/// Creates the first of `<stem>.jsonl`, `<stem>-2.jsonl`, `<stem>-3.jsonl`,
/// ... that does not exist yet, exclusively (O_EXCL: two runs started in the
/// same second get two files), empty, and returns its name; audit_failed
/// when none can be created. open_audit_file then takes it.
caf::expected<std::string> create_fresh_audit_file(const std::string& stem);

} // namespace ij
