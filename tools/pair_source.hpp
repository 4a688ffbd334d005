#pragma once
// The pairs file as a run's input: opened and checked before anything is
// spawned (a directory, a missing file, --strict's whole-file check), then
// read line by line into batches for the run session, with each rejected
// line echoed on stderr (the first 100) and sent on to be audited.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "tools/pair_reader.hpp"
#include "actors/run_client.hpp"

namespace ij {

class pair_source {
public:
  /// Pairs per batch sent to the session.
  static constexpr std::size_t batch_pairs = 128;
  /// Rejections echoed on stderr; beyond this they are only in the audit.
  static constexpr std::uint64_t max_rejections_shown = 100;

  /// Opens `path` ("-" is standard input). On failure returns nullptr with
  /// `error` naming the file.
  static std::unique_ptr<pair_source> open(const std::string& path,
                                           std::string& error);

  ~pair_source();
  pair_source(const pair_source&) = delete;
  pair_source& operator=(const pair_source&) = delete;

  /// The name shown in messages ("<stdin>" for "-").
  const std::string& name() const {
    return name_;
  }

  /// Reads the whole input and reports every bad line on stderr, then
  /// rewinds. False (with `bad` > 0, or `error` set) when it is not all
  /// good; `pairs` counts the good lines.
  bool check_all(std::uint64_t& bad, std::uint64_t& pairs, std::string& error);

  /// Non-blank lines of a regular file up to 256 MiB (for a progress total).
  std::optional<std::uint64_t> count_lines() const;

  /// The next batch (input_source's contract).
  input_state next(input_batch& batch, std::string& why);

  /// Called before a rejection is echoed (to clear a progress line).
  void on_echo(std::function<void()> f) {
    before_echo_ = std::move(f);
  }

private:
  pair_source(std::string path, std::string name, std::FILE* in, bool owned);

  std::string path_;
  std::string name_;
  std::FILE* in_;
  bool owned_;
  std::unique_ptr<pair_reader> reader_;
  std::uint64_t rejected_ = 0;
  std::function<void()> before_echo_;
};

} // namespace ij
