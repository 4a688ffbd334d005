#include "tools/strict_check.hpp"

#include "runio/pair_reader.hpp"
#include "tools/interrupt.hpp"

namespace ij {

strict_check_result check_every_line(std::FILE* in, const std::string& name,
                                     std::FILE* report) {
  strict_check_result r;
  pair_reader reader{in, name};
  pair_line line;
  while (reader.next(line)) {
    if (interrupt_requested()) {
      r.interrupted = true;
      return r;
    }
    if (line.what == pair_line::kind::pair) {
      ++r.pairs;
      continue;
    }
    // A read error comes as a bad line too (pair_reader reports it so).
    ++r.bad;
    std::fprintf(report, "%s:%llu: %s\n", name.c_str(),
                 static_cast<unsigned long long>(line.line),
                 line.reason.c_str());
  }
  return r;
}

} // namespace ij
