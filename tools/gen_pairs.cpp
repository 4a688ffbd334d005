#include "tools/gen_pairs.hpp"

#include <cerrno>
#include <cstring>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/seeded_hash.hpp"
#include "messages/error.hpp"
#include "tools/exit_codes.hpp"
#include "tools/output_file.hpp"

namespace ij {

namespace {

// The pairs' values and surfaces are seeded mixes of the index
// (core/seeded_hash), the same stream on every machine.
std::string surface(std::uint64_t value, std::uint64_t form) {
  auto v = std::to_string(value);
  switch (form % 6) {
    case 0: return v;
    case 1: return "The answer is " + v + ".";
    case 2: return "\\boxed{" + v + "}";
    case 3: return "So we get " + v + ".0 in the end.";
    case 4: return "Answer: " + v;
    default: return "After simplifying, x = " + v;
  }
}

} // namespace

std::string synthetic_pair_line(std::uint64_t index, std::uint32_t per_item) {
  auto item_no = index / (per_item == 0 ? 1 : per_item);
  auto r = splitmix64(index);
  auto value = splitmix64(item_no) % 100000;
  std::string a = surface(value, r);
  std::string b;
  bool label = true;
  switch ((r >> 8) % 20) {
    case 0: // a different final answer
      b = surface(value + 1 + (r >> 16) % 9, r >> 3);
      label = false;
      break;
    case 1: // the transformed run produced nothing
      b = "";
      label = false;
      break;
    default: b = surface(value, r >> 3);
  }
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  w.StartObject();
  w.Key("id");
  w.String("p" + std::to_string(index));
  w.Key("item");
  w.String("item-" + std::to_string(item_no));
  w.Key("a");
  w.String(a);
  w.Key("b");
  w.String(b);
  w.Key("label");
  w.Bool(label);
  w.Key("transform");
  w.String("synthetic");
  w.EndObject();
  return sb.GetString();
}

bool write_synthetic_pairs(std::FILE* out, std::uint64_t n,
                           std::uint32_t per_item) {
  for (std::uint64_t i = 0; i < n; ++i) {
    auto line = synthetic_pair_line(i, per_item);
    line += '\n';
    if (std::fwrite(line.data(), 1, line.size(), out) != line.size())
      return false;
  }
  return std::fflush(out) == 0;
}

int gen_pairs_command(std::uint64_t n, std::uint32_t per_item,
                      const std::string& out_path, bool force) {
  auto fail = [](const std::string& why) {
    std::fprintf(stderr, "invjudge: %s\n", why.c_str());
    return exit_code::bad_input;
  };
  if (out_path.empty())
    return write_synthetic_pairs(stdout, n, per_item)
             ? exit_code::ok
             : fail("cannot write the pairs to standard output");
  auto out = claim_output("--out", out_path, force, {});
  if (!out)
    return fail(context_of(out.error()));
  auto* stream = out->stream();
  if (!stream || !write_synthetic_pairs(stream, n, per_item))
    return fail(out->name() + ": cannot write: " + std::strerror(errno));
  return exit_code::ok;
}

} // namespace ij
