#include "daemon/pair_intake.hpp"

#include "tools/pair_reader.hpp"

namespace ij {

pair_intake::kind pair_intake::take(std::string_view line, answer_pair& pair,
                                    std::string& reason) {
  ++lines_;
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos)
    return kind::blank;
  if (line.size() > pair_reader::max_line_bytes) {
    reason = "line longer than " + std::to_string(pair_reader::max_line_bytes)
             + " bytes (the limit)";
    return kind::rejected;
  }
  if (!parse_pair_line(line, pair, reason))
    return kind::rejected;
  if (!ids_.insert(pair.id)) {
    reason = "duplicate id \""
             + (pair.id.size() > 80 ? pair.id.substr(0, 80) + "..." : pair.id)
             + "\"";
    return kind::rejected;
  }
  return kind::pair;
}

} // namespace ij
