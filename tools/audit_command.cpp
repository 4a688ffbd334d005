#include "tools/audit_command.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <sys/stat.h>

#include "core/audit/audit_chain.hpp"
#include "messages/error.hpp"
#include "tools/exit_codes.hpp"
#include "tools/final_hash_check.hpp"

namespace ij {

int audit_verify_command(const std::string& path,
                         const std::string& expect_hash) {
  auto given = parse_expected_hash(expect_hash);
  if (!given) {
    std::fprintf(stderr, "invjudge: %s\n", context_of(given.error()).c_str());
    return exit_code::bad_input;
  }
  auto& expected = *given;
  // A directory opens and fails only at the first read: name it first.
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    std::fprintf(stderr, "invjudge: %s: is a directory, not an audit file\n",
                 path.c_str());
    return exit_code::bad_input;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "invjudge: %s: cannot open: %s\n", path.c_str(),
                 std::strerror(errno));
    return exit_code::bad_input;
  }
  auto v = verify_audit(in);
  auto records = static_cast<unsigned long long>(v.lines);
  int code = exit_code::failed_check;
  switch (v.status) {
    case audit_status::ok:
      std::printf("ok: %llu records, run complete\n", records);
      code = exit_code::ok;
      break;
    case audit_status::interrupted:
      std::printf("interrupted: %llu records, chain intact; the run was "
                  "interrupted (its run_end record says so)\n",
                  records);
      code = exit_code::incomplete;
      break;
    case audit_status::edited:
      std::printf("EDITED: %s: line %llu: %s\n", path.c_str(),
                  static_cast<unsigned long long>(v.bad_line),
                  v.reason.c_str());
      return exit_code::failed_check;
    case audit_status::unfinished:
      std::printf("did not finish: %llu records, chain intact so far; %s\n",
                  records, v.reason.c_str());
      code = exit_code::incomplete;
      break;
    case audit_status::unreadable:
      std::fprintf(stderr, "invjudge: %s: cannot read: %s\n", path.c_str(),
                   v.reason.c_str());
      return exit_code::bad_input;
  }
  std::printf("final hash: %s\n", v.final_hash.c_str());
  if (!expected) {
    // The chain cannot vouch for its own last line (the run_end record):
    // say so, with what would.
    std::printf("%s (--expect-hash checks it)\n",
                last_line_caveat(v.lines, v.final_hash).c_str());
    return code;
  }
  if (*expected != v.final_hash) {
    // The chain holds, but not up to the hash the user kept: the file was
    // rewritten (every hash recomputed) or cut.
    std::printf("EDITED: %s: %s\n", path.c_str(),
                final_hash_mismatch_text(*expected, v.final_hash).c_str());
    return exit_code::failed_check;
  }
  std::printf("%s\n", last_line_checked(v.lines, v.final_hash).c_str());
  return code;
}

} // namespace ij
