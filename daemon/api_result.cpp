#include "daemon/api_result.hpp"

#include <boost/beast/http.hpp>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/audit/audit_record.hpp"

namespace ij {

namespace beast = boost::beast;
namespace http = beast::http;

namespace {

using writer = rapidjson::Writer<rapidjson::StringBuffer>;

void write_run(writer& w, const run_row& r) {
  w.StartObject();
  w.Key("id");
  w.String(r.id);
  w.Key("name");
  w.String(r.name);
  w.Key("state");
  w.String(std::string{to_string(r.state)});
  w.Key("closed");
  w.Bool(r.closed);
  w.Key("lines");
  w.Uint64(r.lines);
  w.Key("counts");
  rapidjson::Document counts;
  counts.Parse(r.counts_json);
  if (counts.IsObject())
    counts.Accept(w);
  else
    w.StartObject(), w.EndObject();
  w.Key("created");
  w.String(iso8601_utc(r.created_ms));
  w.Key("finished");
  if (r.finished_ms > 0)
    w.String(iso8601_utc(r.finished_ms));
  else
    w.Null();
  w.Key("final_hash");
  if (r.final_hash.empty())
    w.Null();
  else
    w.String(r.final_hash);
  if (!r.error.empty()) {
    w.Key("error");
    w.String(r.error);
  }
  w.EndObject();
}

http_response with_body(unsigned status, const char* type, std::string body) {
  http_response res{static_cast<http::status>(status), 11};
  res.set(http::field::content_type, type);
  res.body() = std::move(body);
  return res;
}

http_response json_body(unsigned status, const rapidjson::StringBuffer& sb) {
  return with_body(status, "application/json",
                   std::string{sb.GetString(), sb.GetSize()} + "\n");
}

struct renderer {
  http_reply operator()(const error_reply& e) const {
    auto res = json_error(e.status, e.code, e.message);
    if (!e.allow.empty())
      res.set(http::field::allow, e.allow);
    if (e.status == 503) // busy: the request may be sent again soon
      res.set(http::field::retry_after, "1");
    return res;
  }
  http_reply operator()(const run_view& v) const {
    return with_body(v.status, "application/json", run_json(v.row) + "\n");
  }
  http_reply operator()(const run_list& v) const {
    rapidjson::StringBuffer sb;
    writer w(sb);
    w.StartObject();
    w.Key("runs");
    w.StartArray();
    for (auto& row : v.rows)
      write_run(w, row);
    w.EndArray();
    w.Key("next");
    if (v.next.empty())
      w.Null();
    else
      w.String(v.next);
    w.EndObject();
    return json_body(200, sb);
  }
  http_reply operator()(const upload_view& v) const {
    rapidjson::StringBuffer sb;
    writer w(sb);
    w.StartObject();
    w.Key("accepted");
    w.Uint64(v.accepted);
    w.Key("rejected");
    w.StartArray();
    for (auto& [line, reason] : v.rejected) {
      w.StartObject();
      w.Key("line");
      w.Uint64(line);
      w.Key("reason");
      w.String(reason);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    return json_body(200, sb);
  }
  http_reply operator()(const verdict_lines& v) const {
    std::string body;
    for (auto& line : v.lines)
      body += line + "\n";
    auto res = with_body(200, "application/x-ndjson", std::move(body));
    res.set("X-Run-State", std::string{to_string(v.state)});
    return res;
  }
  http_reply operator()(const file_view& v) const {
    http_file_response res{http::status::ok, 11};
    beast::error_code ec;
    res.body().open(v.path.c_str(), beast::file_mode::scan, ec);
    if (ec)
      return json_error(500, "internal",
                        "cannot read " + v.what + ": " + ec.message());
    res.set(http::field::content_type, "application/x-ndjson");
    return res;
  }
  http_reply operator()(const metrics_text& v) const {
    return with_body(200, "text/plain; version=0.0.4", v.text);
  }
  http_reply operator()(const health_view&) const {
    return with_body(200, "text/plain", "ok\n");
  }
  http_reply operator()(const deferred_result& v) const {
    auto start = [start =
                    v.start](std::function<void(http_continuation)> answer) {
      start([answer = std::move(answer)](std::function<api_result()> next) {
        answer([next = std::move(next)] { return render_result(next()); });
      });
    };
    return http_deferred{v.at_most, std::move(start),
                         [late = v.late] { return render_result(late()); },
                         v.idle};
  }
};

} // namespace

std::string run_json(const run_row& r) {
  rapidjson::StringBuffer sb;
  writer w(sb);
  write_run(w, r);
  return {sb.GetString(), sb.GetSize()};
}

http_reply render_result(const api_result& result) {
  return std::visit(renderer{}, result);
}

} // namespace ij
