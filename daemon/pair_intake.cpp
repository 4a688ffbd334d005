#include "daemon/pair_intake.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "messages/error.hpp"
#include "runio/pair_reader.hpp"

namespace ij {

namespace {

const std::string pairs_file = "pairs.jsonl";

caf::error too_long() {
  return make_error(errc::bad_input,
                    "line longer than "
                      + std::to_string(pair_reader::max_line_bytes)
                      + " bytes (the limit)");
}

// The text cut to at most n bytes, not inside a UTF-8 sequence, with any
// byte that is not valid UTF-8 or a control character replaced by '?': the
// record stays valid JSON whatever the line held.
std::string printable_prefix(std::string_view text, std::size_t n) {
  if (text.size() > n) {
    text = text.substr(0, n);
    while (!text.empty()
           && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80)
      text.remove_suffix(1);
    if (!text.empty() && static_cast<unsigned char>(text.back()) >= 0xC0)
      text.remove_suffix(1);
  }
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = c < 0x80             ? 1
                      : (c & 0xE0) == 0xC0 ? 2
                      : (c & 0xF0) == 0xE0 ? 3
                      : (c & 0xF8) == 0xF0 ? 4
                                           : 0;
    bool ok = len > 0 && i + len <= text.size();
    for (std::size_t k = 1; ok && k < len; ++k)
      ok = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    if (!ok || (len == 1 && c < 0x20)) {
      out += '?';
      ++i;
      continue;
    }
    out.append(text.data() + i, len);
    i += len;
  }
  return out;
}

} // namespace

caf::expected<std::optional<answer_pair>>
pair_intake::take(std::string_view line) {
  ++lines_;
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos)
    return std::optional<answer_pair>{};
  if (line.size() > pair_reader::max_line_bytes)
    return too_long();
  auto pair = parse_pair_line(line);
  if (!pair)
    return std::move(pair.error());
  if (!ids_.insert(pair->id))
    return make_error(
      errc::bad_input,
      "duplicate id \""
        + (pair->id.size() > 80 ? pair->id.substr(0, 80) + "..." : pair->id)
        + "\"");
  return std::optional<answer_pair>{std::move(*pair)};
}

caf::error pair_intake::take_oversized() {
  ++lines_;
  return too_long();
}

pair_intake::kind pair_intake::take_stored(std::string_view line,
                                           answer_pair& pair,
                                           rejected_line& rejected) {
  if (line.compare(0, 12, "{\"rejected\":") == 0) {
    rapidjson::Document d;
    d.Parse(line.data(), line.size());
    if (d.IsObject() && d.MemberCount() == 1 && d["rejected"].IsObject()) {
      auto& r = d["rejected"];
      auto line_no = r.FindMember("line");
      auto why = r.FindMember("reason");
      if (line_no != r.MemberEnd() && line_no->value.IsUint64()
          && why != r.MemberEnd() && why->value.IsString()) {
        ++lines_;
        rejected = {pairs_file, line_no->value.GetUint64(),
                    why->value.GetString()};
        return kind::rejected;
      }
    }
  }
  auto taken = take(line);
  if (!taken) {
    rejected = {pairs_file, lines_, context_of(taken.error())};
    return kind::rejected;
  }
  if (!*taken)
    return kind::blank;
  pair = std::move(**taken);
  return kind::pair;
}

std::string pair_intake::rejection_record(std::uint64_t line,
                                          const std::string& reason,
                                          std::string_view text) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  w.StartObject();
  w.Key("rejected");
  w.StartObject();
  w.Key("line");
  w.Uint64(line);
  w.Key("reason");
  w.String(printable_prefix(reason, 4 * prefix_bytes));
  w.Key("prefix");
  w.String(printable_prefix(text, prefix_bytes));
  w.EndObject();
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

} // namespace ij
