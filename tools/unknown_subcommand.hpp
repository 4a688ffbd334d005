#pragma once
// CLI11 answers `invjudge frobnicate` with "A subcommand is required": the
// word the user typed is not named. This finds it.
#include <string>

#include <CLI/CLI.hpp>

namespace ij {

/// When the words of `argv` lead, subcommand by subcommand, to a word that
/// is not a subcommand where one is expected, the message naming it:
/// "unknown subcommand 'frobnicate' (expected run, selftest, audit or
/// report)" or
/// "unknown subcommand 'x' of audit (expected verify)". Empty otherwise
/// (an option first, or every word known). Hidden subcommands count as
/// known but are not listed.
std::string unknown_subcommand(CLI::App& app, int argc,
                               const char* const* argv);

} // namespace ij
