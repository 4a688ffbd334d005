#pragma once
// `invjudge audit verify AUDIT.jsonl`.
#include <string>

namespace ij {

/// Verifies the hash chain and the run-end record and prints the outcome:
/// "ok: N records, run complete" (exit 0); an edited line, named (exit 1);
/// an intact audit of a run that did not finish or was interrupted (exit 4);
/// a file that cannot be read (exit 2).
int audit_verify_command(const std::string& path);

} // namespace ij
