#pragma once
// The final hash a user kept (`run` printed it) against the audit's: the one
// check that covers the audit's last line. The chain shows that no line was
// changed in place, each line by the hash its successor holds; the last line
// has no successor, so an edit of it (with its new hash) still verifies.
// Used by `audit verify --expect-hash` and `report --expect-hash`, which say
// the same about the last line in the same words.
#include <cstdint>
#include <optional>
#include <string>

#include <caf/expected.hpp>

namespace ij {

/// --expect-hash `given` as a SHA-256 in lower-case hex; nullopt when none
/// was given (empty); bad_input naming it when it is not 64 hex digits.
caf::expected<std::optional<std::string>>
parse_expected_hash(const std::string& given);

/// What the chain alone shows (no hash kept to compare): "chain intact
/// through line N; the last line is only as safe as the final hash you
/// kept: HASH".
std::string last_line_caveat(std::uint64_t lines,
                             const std::string& final_hash);

/// What a matching kept hash adds: "... and ends at the final hash you kept
/// (HASH): no line was changed, the last one included".
std::string last_line_checked(std::uint64_t lines,
                              const std::string& final_hash);

/// Why a file whose final hash is not the kept one is an edit.
std::string final_hash_mismatch_text(const std::string& expected,
                                     const std::string& final_hash);

} // namespace ij
