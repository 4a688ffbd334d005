#pragma once
// The --out file of `invjudge run`. Verdict lines must never land on the
// input or the audit (the run would destroy what it reads or the record it
// keeps), nor silently replace an earlier run's verdicts: the same file is
// recognised by device and inode, whatever path names it, and an existing
// file with content is replaced only when asked (--force). It is written in
// place (not renamed at the end) so that a follower sees verdicts as they
// come.
#include <cstdio>
#include <string>
#include <vector>

#include <caf/expected.hpp>

namespace ij {

/// A file the output must not be.
struct kept_file {
  /// How messages name it: "the pairs file", "the audit file".
  std::string role;
  /// Compared with stat(2) once the output is open (it may not exist
  /// before); empty: not compared.
  std::string path;
  /// When >= 0, compared with fstat(2) of this descriptor instead (e.g.
  /// standard input).
  int fd = -1;
};

/// Opens `path` for writing verdict lines. A regular file that is one of
/// `kept` is refused; so is an existing regular file with content unless
/// `force` (it is then truncated, only after every check passed). Devices
/// and pipes (/dev/null, /dev/stdout) are written as they are. Returns the
/// stream, owned by the caller; io_failed (cannot write) or bad_input (a
/// refused path) naming the path and the reason otherwise. A file created
/// here is removed again when refused.
caf::expected<std::FILE*> open_output_file(const std::string& path, bool force,
                                           const std::vector<kept_file>& kept);

} // namespace ij
