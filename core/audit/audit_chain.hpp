#pragma once
// Verifies an audit trail (SPEC §11) written as described in
// core/audit/audit_record.hpp: used by `invjudge audit verify`. Pure: reads
// lines, writes nothing.
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

namespace ij {

enum class audit_status {
  /// Complete: manifest first, run_end last, chain intact.
  ok,
  /// Complete and intact, but the run_end record says the run was
  /// interrupted (pairs may be missing).
  interrupted,
  /// A line was changed, inserted or removed: `bad_line` names it.
  edited,
  /// Intact as far as it goes, but the run did not finish: no run_end
  /// record, or the last line is partial (no newline).
  unfinished,
  /// The file could not be opened or read to its end (a directory, an I/O
  /// error): nothing can be said about it.
  unreadable,
};

/// "ok", "interrupted", "edited", "unfinished", "unreadable".
std::string_view to_string(audit_status s);

struct audit_verification {
  audit_status status = audit_status::ok;
  /// Complete lines read (a partial last line not included).
  std::uint64_t lines = 0;
  /// 1-based line number of the first bad line (edited, or the partial
  /// line of an unfinished file); 0 when none.
  std::uint64_t bad_line = 0;
  /// What is wrong, in plain words; empty when ok.
  std::string reason;
  /// The SHA-256 (hex) of the last complete line: the chain's final hash,
  /// which a user keeps elsewhere to show later that the file was neither
  /// rewritten nor cut (64 zeros when there is no line). Empty when the file
  /// is edited or unreadable.
  std::string final_hash;
};

/// Reads the whole stream line by line: checks the chain, that the manifest
/// comes first and run_end last, and that run_end's totals agree with the
/// records before it (core/audit/audit_recount.hpp).
audit_verification verify_audit(std::istream& in);

/// Opens `path`; a file that cannot be opened or read is unreadable, with
/// the reason.
audit_verification verify_audit_file(const std::string& path);

/// True for ok and interrupted: the file is whole and unedited.
inline bool intact(const audit_verification& v) {
  return v.status == audit_status::ok || v.status == audit_status::interrupted;
}

} // namespace ij
