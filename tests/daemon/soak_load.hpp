#pragma once
// The daemon's soak load (issue 26): clients at once, each creating a run,
// uploading its pairs, closing it and following its verdicts to its end,
// again and again; the daemon's resident memory (VmRSS) and open files
// (/proc/PID/fd) sampled every N finished runs, with no run under way
// then (the clients wait at each sample, and the sample is read a moment
// after the last run ended), so that it shows what the finished runs left
// behind. Shared by bench/daemon_soak
// (1,000 runs of 2,000 pairs) and the suite's shorter test.
#include <chrono>
#include <string>
#include <vector>

namespace ij::test {

struct soak_options {
  std::string url;
  /// The daemon's process (its /proc entries are read).
  int pid = 0;
  /// A run's configuration (JSON) and its pairs (JSON Lines).
  std::string config = "{}";
  std::string pairs;
  int runs = 200;
  int clients = 4;
  int sample_every = 50;
  /// A sample is read this long after the last run of its window ended.
  std::chrono::milliseconds settle{250};
};

struct soak_sample {
  int runs = 0;       // finished so far
  double rss_mib = 0; // VmRSS
  int open_files = 0;
  double seconds = 0; // since the start
};

struct soak_result {
  std::vector<soak_sample> samples;
  /// What went wrong (a run not done, a failed request), at most 20.
  std::vector<std::string> failures;
  int done = 0;
};

/// Runs the load until opts.runs runs have finished.
soak_result run_soak(const soak_options& opts);

/// The sample taken after `runs` finished runs (nullptr when none was).
const soak_sample* sample_at(const soak_result& r, int runs);

/// VmRSS of process `pid` in MiB, and its open file descriptors.
double rss_mib(int pid);
int open_files(int pid);

} // namespace ij::test
