#pragma once
// Where an interrupted or killed run stands, read back from its audit trail
// (SPEC §11), so that `invjudge run --resume` and the daemon can continue it
// without repeating a judge call whose record is committed. Pure: reads a
// stream, writes nothing.
//
// What counts as committed: a pair's records are written together (its judge
// calls, its vote, its verdict), so a pair is decided once its verdict line
// is in the file. Lines after the last verdict, item verdict, rejected line,
// manifest, run end or resume record — judge calls of a pair whose verdict
// never reached the file, and a torn last line — are not: they are cut (the
// resume record says how many bytes, lines and their SHA-256) and their pair
// is judged again.
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <caf/expected.hpp>

#include "core/audit/batch_record.hpp"
#include "core/budgets/judge_budget.hpp"
#include "messages/error.hpp"
#include "messages/run_summary.hpp"
#include "messages/verdict.hpp"

namespace ij {

struct resume_point {
  std::string run_id;
  /// The manifest's configuration (canonical JSON, as the run was given it).
  std::string config_json;
  /// The last line kept: its seq and the SHA-256 of its bytes (the next
  /// line's prev).
  std::uint64_t seq = 0;
  std::string last_hash;
  /// The file's length up to and including the last kept line's newline.
  std::uint64_t keep_bytes = 0;
  /// What is cut after it: bytes, complete lines among them (an uncommitted
  /// pair's judge calls), whether the last of them was torn (no newline),
  /// and the SHA-256 of the bytes cut (empty when nothing is cut).
  std::uint64_t cut_bytes = 0;
  std::uint64_t cut_lines = 0;
  bool torn = false;
  std::string cut_sha256;
  /// The last kept record is a run_end marked interrupted (Ctrl-C, cancel),
  /// rather than a run killed before its end.
  bool after_run_end = false;
  /// Resume records already in the file.
  std::uint32_t resumes = 0;

  /// Pairs with a verdict record, by id: the verdict as it was released
  /// (read back from the pair's vote and verdict records), so that a resumed
  /// run can hand it to its client again.
  std::unordered_map<std::string, single_verdict> pairs;
  /// The answers each decided pair had (by id; answers_fingerprint of its
  /// vote record's A and B): a pair given again with other answers is not
  /// the pair the audit decided.
  std::unordered_map<std::string, std::uint64_t> answers;
  /// Canaries with a canary record (by id): a resumed run does not send
  /// them again.
  std::unordered_set<std::string> canaries;
  /// Items with an item_verdict record.
  std::unordered_set<std::string> closed_items;
  /// Input lines already recorded as rejected (by line number).
  std::unordered_set<std::uint64_t> rejected_lines;
  /// The totals of the kept records (pairs, rejected, items, by_rule,
  /// judge_calls, calls_skipped, faults, faults_by_kind, usage per judge
  /// name, canaries): a resumed run's run_end counts every record of the file.
  run_summary totals;
  /// What each judge (by name) spent before: its judge records but those
  /// refused at a budget, and their tokens. A resumed run's budgets go on
  /// from there, so that a budget is never spent twice.
  std::unordered_map<std::string, judge_spending> spent;
  /// Every `batch` record kept, in file order (open_batches() tells which
  /// a resumed run adopts: polled, never submitted again).
  std::vector<batch_record> batches;
};

/// A and B as one number, to tell a pair given again from one with the
/// same id and other answers.
std::uint64_t answers_fingerprint(std::string_view a, std::string_view b);

/// Reads an audit trail that `verify_audit` found intact but unfinished or
/// interrupted (check that first). errc::bad_input saying why when it
/// cannot be resumed: no manifest, a finished run, a record it cannot read.
caf::expected<resume_point> read_resume_point(std::istream& in);

/// The body of the `resumed` record a resumed run writes first: where it
/// resumed (seq, hash), what was cut, how many pairs were already decided.
std::string resumed_body(const resume_point& p, std::int64_t now_ms);

} // namespace ij
