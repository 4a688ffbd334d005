#pragma once
// The exit codes of invjudge, stable for scripts (README "Exit codes").

namespace ij::exit_code {

/// The run completed; `audit verify`: the chain holds and the run finished.
inline constexpr int ok = 0;
/// `audit verify`: a line was edited (the chain breaks there);
/// `selftest`: the judge missed a negative control.
inline constexpr int failed_check = 1;
/// Bad input: the pairs file is missing or unreadable, a line is bad under
/// --strict, or the command line is wrong.
inline constexpr int bad_input = 2;
/// Bad configuration: schema or semantic error, a judge that cannot be built,
/// an audit file that cannot be opened. Nothing was judged.
inline constexpr int bad_config = 3;
/// Incomplete: the run was interrupted (SIGINT/SIGTERM, closed output) or
/// failed; `audit verify`: the audit is intact but the run did not finish or
/// was interrupted.
inline constexpr int incomplete = 4;
/// The bias alarm stopped the run (canaries "on_alarm": "stop-run"): a
/// judge failed its canaries; the audit says which, with the evidence.
inline constexpr int bias_alarm = 5;

} // namespace ij::exit_code
