#pragma once
// Creating a run's audit file so that two runs never write one file: it is
// created exclusively (or taken only when it exists and is empty) and held
// under an exclusive lock (flock(2)) for as long as its descriptor is open;
// the audit logger owns that descriptor and closes it after run_end.
#include <ctime>
#include <optional>
#include <string>

#include "core/audit_resume.hpp"

namespace ij {

/// Opens `path` for a new run's audit: creates it, or takes an existing
/// empty regular file, and locks it. Returns the descriptor (write-only,
/// append, close-on-exec), or -1 with `error` in plain words naming the
/// path: in use by another run (locked), already holding records, not a
/// regular file, or the system's reason it cannot be created.
int open_audit_file(const std::string& path, std::string& error);

/// An audit trail opened to continue its run: locked like a new one, its
/// chain verified (an edited file is refused), and cut after its last
/// committed record (core/audit_resume.hpp says what is cut and why).
struct resumable_audit {
  int fd = -1; // write-only, append, close-on-exec, locked
  resume_point point;
};

/// Opens `path` for `run --resume` and the daemon's restart; nullopt with
/// `error` naming the path when it is in use, missing, edited, finished, or
/// cannot be cut.
std::optional<resumable_audit> open_audit_for_resume(const std::string& path,
                                                     std::string& error);

/// "invjudge-audit-<UTC time>", e.g. "invjudge-audit-20261202T140000Z",
/// the stem of the default audit file name for a run started at `t`.
std::string default_audit_stem(std::time_t t);

/// Creates the first of `<stem>.jsonl`, `<stem>-2.jsonl`, `<stem>-3.jsonl`,
/// ... that does not exist yet, exclusively (O_EXCL: two runs started in the
/// same second get two files), empty, and returns its name; nullopt with
/// `error` when none can be created. open_audit_file then takes it.
std::optional<std::string> create_fresh_audit_file(const std::string& stem,
                                                   std::string& error);

} // namespace ij
