#pragma once
// `invjudge audit verify AUDIT.jsonl [--expect-hash HEX]`.
#include <string>

namespace ij {

/// Verifies the hash chain and the run-end record (its totals against the
/// records before it) and prints the outcome and the chain's final hash:
/// "ok: N records, run complete" (exit 0); an edited line, named, or a final
/// hash other than `expect_hash` when one is given (exit 1); an intact audit
/// of a run that did not finish or was interrupted (exit 4); a file that
/// cannot be opened or read, or an `expect_hash` that is not 64 hex digits
/// (exit 2).
int audit_verify_command(const std::string& path,
                         const std::string& expect_hash = {});

} // namespace ij
