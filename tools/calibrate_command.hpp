#pragma once
// `invjudge calibrate AUDIT.jsonl [AUDIT.jsonl ...] --out MAP.json` (issue
// 16): per judge id in the audits, a calibration map fitted on the labelled
// pairs (core/calibration/calibration), with ECE, Brier score and log loss
// before and after (cross-validated) and their bootstrap intervals, written as
// one map file that a run names in "calibration".
#include <cstdint>
#include <string>
#include <vector>

#include "core/calibration/calibration.hpp"

namespace ij {

struct calibrate_options {
  std::vector<std::string> audits;
  std::string out;
  /// Replace an existing --out file with content.
  bool force = false;
  fit_options fit;
};

/// The map's file is claimed first (tools/output_file: never an audit
/// given, an existing file only with force; exit 2). Each audit is verified
/// (an edited one: exit 1) and read; a pair is counted once by run id and
/// pair id however often it is given (a repeated run or pair is named on
/// stderr). Exit 2 when an audit cannot be read, holds no labelled vote, or a
/// judge has fewer labelled pairs than fit.min_pairs (named, with the count;
/// nothing is written), or the map cannot be written. 0 when it is written; a
/// table of each judge's figures goes to stderr.
int calibrate_command(const calibrate_options& opts);

} // namespace ij
