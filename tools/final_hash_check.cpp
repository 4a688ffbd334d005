#include "tools/final_hash_check.hpp"

#include <algorithm>
#include <cctype>

#include "messages/error.hpp"

namespace ij {

caf::expected<std::optional<std::string>>
parse_expected_hash(const std::string& given) {
  if (given.empty())
    return std::optional<std::string>{};
  if (given.size() != 64
      || !std::all_of(given.begin(), given.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c)) != 0;
         }))
    return make_error(errc::bad_input,
                      "--expect-hash " + given
                        + ": not a SHA-256 (64 hex digits, as `run` and "
                          "`audit verify` print it)");
  std::string out = given;
  for (auto& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return std::optional<std::string>{std::move(out)};
}

std::string last_line_caveat(std::uint64_t lines,
                             const std::string& final_hash) {
  return "chain intact through line " + std::to_string(lines)
         + "; the last line is only as safe as the final hash you kept: "
         + final_hash;
}

std::string last_line_checked(std::uint64_t lines,
                              const std::string& final_hash) {
  return "chain intact through line " + std::to_string(lines)
         + " and it ends at the final hash you kept (" + final_hash
         + "): no line was changed, the last one included";
}

std::string final_hash_mismatch_text(const std::string& expected,
                                     const std::string& final_hash) {
  return "the final hash is not the expected " + expected
         + " (the file ends at " + final_hash
         + "): the file was rewritten or cut since that hash was "
           "taken";
}

} // namespace ij
