#include "tools/audit_command.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "core/audit_chain.hpp"
#include "tools/exit_codes.hpp"

namespace ij {

int audit_verify_command(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "invjudge: %s: cannot open: %s\n", path.c_str(),
                 std::strerror(errno));
    return exit_code::bad_input;
  }
  auto v = verify_audit(in);
  auto records = static_cast<unsigned long long>(v.lines);
  switch (v.status) {
    case audit_status::ok:
      std::printf("ok: %llu records, run complete\n", records);
      return exit_code::ok;
    case audit_status::interrupted:
      std::printf("interrupted: %llu records, chain intact; the run was "
                  "interrupted (its run_end record says so)\n",
                  records);
      return exit_code::incomplete;
    case audit_status::edited:
      std::printf("EDITED: %s: line %llu: %s\n", path.c_str(),
                  static_cast<unsigned long long>(v.bad_line),
                  v.reason.c_str());
      return exit_code::failed_check;
    case audit_status::unfinished:
      std::printf("did not finish: %llu records, chain intact so far; %s\n",
                  records, v.reason.c_str());
      return exit_code::incomplete;
  }
  return exit_code::failed_check;
}

} // namespace ij
