#include "core/audit/audit_chain.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>

#include <rapidjson/document.h>

#include "core/audit/audit_record.hpp"
#include "core/audit/audit_recount.hpp"
#include "core/sha256.hpp"

namespace ij {

std::string_view to_string(audit_status s) {
  switch (s) {
    case audit_status::ok: return "ok";
    case audit_status::interrupted: return "interrupted";
    case audit_status::edited: return "edited";
    case audit_status::unfinished: return "unfinished";
    case audit_status::unreadable: return "unreadable";
  }
  return "edited";
}

namespace {

audit_verification edited(std::uint64_t lines, std::uint64_t bad,
                          std::string why) {
  return {audit_status::edited, lines, bad, std::move(why), {}};
}

std::string line_name(std::uint64_t n) {
  return "line " + std::to_string(n);
}

} // namespace

audit_verification verify_audit(std::istream& in) {
  std::string line;
  std::string prev_hash{audit_genesis_hash};
  std::uint64_t n = 0;
  // The last line's type as written (for messages) and as read (nullopt: a
  // type no writer has, passed over as readers always have).
  std::string last_type;
  std::optional<audit_type> last_kind;
  bool last_interrupted = false;
  audit_recount recount;
  auto with_hash = [&](audit_verification v) {
    v.final_hash = prev_hash;
    return v;
  };
  errno = 0;
  while (std::getline(in, line)) {
    // getline stops at EOF without a newline: the writer was cut off in the
    // middle of a line, so the run did not finish (this is not an edit),
    // unless the run had ended: then the bytes were added afterwards.
    if (in.eof()) {
      if (line.empty())
        break;
      if (last_kind == audit_type::run_end && !last_interrupted)
        return edited(n, n + 1,
                      line_name(n + 1)
                        + " (no newline) follows the run_end record");
      return with_hash({audit_status::unfinished,
                        n,
                        n + 1,
                        line_name(n + 1)
                          + " is partial (no newline): the run did not "
                            "finish",
                        {}});
    }
    ++n;
    // After an interrupted run_end only a resume record may follow (the run
    // was continued: invjudge run --resume, the daemon after a restart).
    bool after_end = last_kind == audit_type::run_end;
    if (after_end && !last_interrupted)
      return edited(n, n, line_name(n) + " follows the run_end record");
    // A fresh document per line: one document's allocator keeps every
    // parse's memory until it is destroyed.
    rapidjson::Document doc;
    doc.Parse(line.data(), line.size());
    if (doc.HasParseError() || !doc.IsObject())
      return edited(n, n, line_name(n) + " is not a JSON object");
    auto seq = doc.FindMember("seq");
    auto type = doc.FindMember("type");
    auto prev = doc.FindMember("prev");
    if (seq == doc.MemberEnd() || !seq->value.IsUint64()
        || type == doc.MemberEnd() || !type->value.IsString()
        || prev == doc.MemberEnd() || !prev->value.IsString())
      return edited(n, n, line_name(n) + " lacks seq, type or prev");
    if (seq->value.GetUint64() != n)
      return edited(n, n,
                    line_name(n) + " has seq "
                      + std::to_string(seq->value.GetUint64()) + ", expected "
                      + std::to_string(n)
                      + ": a line was removed, inserted or changed");
    std::string_view prev_field{prev->value.GetString(),
                                prev->value.GetStringLength()};
    if (prev_field != prev_hash) {
      // The successor's prev no longer matches: the previous line's bytes
      // changed (or this line's prev did).
      if (n == 1)
        return edited(n, 1, "line 1 has a prev other than 64 zeros");
      return edited(n, n - 1,
                    line_name(n - 1) + " does not hash to the prev recorded by "
                      + line_name(n) + ": " + line_name(n - 1)
                      + " was changed (or the prev of " + line_name(n) + ")");
    }
    last_type.assign(type->value.GetString(), type->value.GetStringLength());
    last_kind = audit_type_from_string(last_type);
    if (after_end && last_kind != audit_type::resumed)
      return edited(n, n, line_name(n) + " follows the run_end record");
    if (n == 1 && last_kind != audit_type::manifest)
      return edited(
        n, 1, "line 1 is a " + last_type + " record, not the run manifest");
    if (n > 1 && last_kind == audit_type::manifest)
      return edited(n, n, line_name(n) + " is a second manifest");
    if (last_kind == audit_type::run_end) {
      auto it = doc.FindMember("interrupted");
      last_interrupted =
        it != doc.MemberEnd() && it->value.IsBool() && it->value.GetBool();
      if (auto err = recount.check_run_end(doc))
        return edited(n, n, line_name(n) + " (run_end): " + context_of(err));
    } else if (auto err =
                 last_kind ? recount.add(*last_kind, doc) : caf::error{}) {
      return edited(n, n,
                    line_name(n) + " (" + last_type + ") " + context_of(err));
    }
    prev_hash = sha256_hex(line);
  }
  if (in.bad()) {
    int err = errno;
    return {audit_status::unreadable,
            n,
            0,
            "reading failed after " + line_name(n)
              + (err ? std::string{": "} + std::strerror(err) : std::string{}),
            {}};
  }
  if (n == 0)
    return with_hash({audit_status::unfinished,
                      0,
                      0,
                      "the file holds no record: the run did not start",
                      {}});
  if (last_kind != audit_type::run_end)
    return with_hash(
      {audit_status::unfinished,
       n,
       0,
       "no run_end record after " + line_name(n) + ": the run did not finish",
       {}});
  if (last_interrupted)
    return with_hash({audit_status::interrupted,
                      n,
                      0,
                      "the run was interrupted (its run_end record says so)",
                      {}});
  return with_hash({audit_status::ok, n, 0, {}, {}});
}

audit_verification verify_audit_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return {audit_status::unreadable,
            0,
            0,
            "cannot open " + path + ": " + std::strerror(errno),
            {}};
  return verify_audit(in);
}

} // namespace ij
