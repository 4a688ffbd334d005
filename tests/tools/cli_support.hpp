#pragma once
// Running the built invjudge binary from tests: a fresh temporary directory
// per test, the command's exit code, stdout and stderr, and small file
// helpers.
#include <string>
#include <vector>

namespace ij::test {

/// A temporary directory, removed with its contents on destruction.
class temp_dir {
public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  const std::string& path() const {
    return path_;
  }
  /// path() + "/" + name
  std::string file(const std::string& name) const;

private:
  std::string path_;
};

struct cli_result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs `invjudge <args>` (args are passed to the shell as written) with
/// `dir` as the working directory and `stdin_path` (relative to `dir`) as
/// standard input.
cli_result invjudge(const temp_dir& dir, const std::string& args,
                    const std::string& stdin_path = "/dev/null");

/// The path of the binary under test.
std::string invjudge_path();

/// The source tree (examples/, configs/).
std::string source_dir();

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& content);
std::vector<std::string> lines_of(const std::string& text);

/// Files in `dir` whose names start with `prefix`.
std::vector<std::string> files_starting_with(const temp_dir& dir,
                                             const std::string& prefix);

/// Single-quotes `s` for the shell.
std::string shell_quote(const std::string& s);

} // namespace ij::test
