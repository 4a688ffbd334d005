#pragma once
// The one rule for every file a command writes (run --out, run's audit and
// cache, calibrate --out, report --html, submit --out, gen-pairs --out, and
// any command added later): no output may be one of the command's inputs
// (the command would destroy what it reads), and no existing file with
// content is replaced unless asked (--force). "The same file" is the same
// device and inode, whatever path names it: the same spelling, another
// spelling (./p.jsonl), a symbolic link or a hard link. Refusals are
// errc::bad_input (exit 2) naming both files.
//
// A claimed output is created at once (so that a second path naming it is
// recognised) and truncated only when the command writes it, so a command
// that fails before writing leaves an existing file as it was and removes a
// file it created. Devices and pipes (/dev/null, /dev/stdout) are written
// as they are.
#include <cstdio>
#include <string>
#include <vector>

#include <caf/error.hpp>
#include <caf/expected.hpp>

namespace ij {

/// An input of the command: a file its outputs must not be.
struct kept_file {
  /// How messages name it: "the pairs file", "the audit file".
  std::string role;
  /// Compared with stat(2) (it may not exist yet: then it is compared once
  /// the output exists); empty: not compared by path.
  std::string path;
  /// When >= 0, compared with fstat(2) of this descriptor instead (e.g.
  /// standard input).
  int fd = -1;
};

/// One output file, claimed: checked, open, and not yet truncated.
class output_file {
public:
  output_file() = default;
  ~output_file();
  output_file(output_file&& other) noexcept;
  output_file& operator=(output_file&& other) noexcept;
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;

  /// The stream to write, the file truncated now (once) if it had content;
  /// the file is the command's from here on (kept whatever happens).
  std::FILE* stream();

  /// Writes `text` as the whole file and closes it; io_failed naming the
  /// option and path otherwise.
  caf::error write_whole(const std::string& text);

  /// "--out v.jsonl": how messages name it.
  std::string name() const { return option_ + " " + path_; }

private:
  friend caf::expected<output_file> claim_output(const std::string&,
                                                 const std::string&, bool,
                                                 const std::vector<kept_file>&);
  void release();

  std::string option_;
  std::string path_;
  int fd_ = -1;
  std::FILE* file_ = nullptr;
  bool created_ = false;
  bool regular_ = false;
  bool written_ = false;
};

/// Claims `path`, named `option` in messages ("--out", "--html"). Refused
/// (errc::bad_input) when it is one of `inputs`, or an existing regular
/// file with content and not `force`; io_failed when it cannot be opened
/// for writing. Nothing is truncated here.
caf::expected<output_file> claim_output(const std::string& option,
                                        const std::string& path, bool force,
                                        const std::vector<kept_file>& inputs);

/// The same-file half of the rule for an output another part opens (run's
/// audit, its response cache): errc::bad_input naming both when `path`
/// exists and is one of `inputs`.
caf::error refuse_input_as_output(const std::string& option,
                                  const std::string& path,
                                  const std::vector<kept_file>& inputs);

/// Standard output, when it is a regular file, must not be an input either
/// (`invjudge run --pairs p.jsonl >> p.jsonl`): errc::bad_input naming both.
caf::error refuse_input_as_stdout(const std::vector<kept_file>& inputs);

} // namespace ij
