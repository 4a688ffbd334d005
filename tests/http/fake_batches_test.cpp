// The batch fakes are faithful on the wire (tests/http/fake_batches), seen
// through a bare Beast client rather than the project's own: multipart
// upload, the statuses, shuffled results, and the API's refusals.
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "tests/http/fake_batches.hpp"

using namespace ij::test;

namespace {

namespace net = boost::asio;
namespace http = boost::beast::http;

struct answer {
  unsigned status = 0;
  std::string body;
  rapidjson::Document json() const {
    rapidjson::Document d;
    d.Parse(body.c_str());
    return d;
  }
};

/// One request on a fresh connection, answered whole.
answer send(fake_batches& fake, http::verb method, const std::string& target,
            std::vector<std::pair<std::string, std::string>> headers = {},
            const std::string& body = {}) {
  net::io_context io;
  net::ip::tcp::socket sock(io);
  sock.connect({net::ip::make_address("127.0.0.1"), fake.server().port()});
  http::request<http::string_body> req{method, target, 11};
  req.set(http::field::host, "127.0.0.1");
  for (auto& [name, value] : headers)
    req.set(name, value);
  req.body() = body;
  req.prepare_payload();
  http::write(sock, req);
  boost::beast::flat_buffer buf;
  http::response<http::string_body> res;
  http::read(sock, buf, res);
  return {res.result_int(), res.body()};
}

const std::vector<std::pair<std::string, std::string>> anthropic_headers{
  {"x-api-key", "k"},
  {"anthropic-version", "2023-06-01"},
  {"content-type", "application/json"}};

std::string openai_line(const std::string& id) {
  return R"({"custom_id":")" + id
         + R"(","method":"POST","url":"/v1/chat/completions","body":{"model":"m",)"
           R"("messages":[{"role":"user","content":"hi"}]}})"
           "\n";
}

std::string multipart(const std::string& purpose, const std::string& filename,
                      const std::string& content) {
  return "--XyZ\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n"
         + purpose
         + "\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; "
           "filename=\""
         + filename + "\"\r\nContent-Type: application/jsonl\r\n\r\n" + content
         + "\r\n--XyZ--\r\n";
}

std::string upload(fake_batches& fake, const std::string& content) {
  auto a = send(fake, http::verb::post, "/v1/files",
                {{"content-type", "multipart/form-data; boundary=\"XyZ\""}},
                multipart("batch", "in.jsonl", content));
  REQUIRE(a.status == 200);
  return a.json()["id"].GetString();
}

std::string create(fake_batches& fake, const std::string& file_id) {
  auto a = send(
    fake, http::verb::post, "/v1/batches",
    {{"content-type", "application/json"}},
    R"({"input_file_id":")" + file_id
      + R"(","endpoint":"/v1/chat/completions","completion_window":"24h"})");
  REQUIRE(a.status == 200);
  return a.json()["id"].GetString();
}

} // namespace

TEST_CASE("openai batch fake: upload, create, statuses, shuffled output",
          "[http][batch]") {
  fake_batch_options o;
  o.kind = api_kind::openai;
  fake_batches fake(o);
  std::string content;
  for (int i = 0; i < 10; ++i)
    content += openai_line("r" + std::to_string(i));
  auto id = create(fake, upload(fake, content));
  CHECK(fake.files_uploaded() == 1);
  CHECK(fake.batches_created() == 1);
  CHECK(fake.times_sent("r3") == 1);
  CHECK(fake.status_of(id) == "validating");
  std::vector<std::string> seen;
  for (int i = 0; i < 3; ++i)
    seen.push_back(send(fake, http::verb::get, "/v1/batches/" + id)
                     .json()["status"]
                     .GetString());
  CHECK(seen
        == std::vector<std::string>{"in_progress", "finalizing", "completed"});
  auto st = send(fake, http::verb::get, "/v1/batches/" + id).json();
  CHECK(st["request_counts"]["completed"].GetUint() == 10);
  CHECK(st["error_file_id"].IsNull());
  auto out = send(fake, http::verb::get,
                  std::string{"/v1/files/"} + st["output_file_id"].GetString()
                    + "/content");
  REQUIRE(out.status == 200);
  CHECK(std::count(out.body.begin(), out.body.end(), '\n') == 10);
  CHECK(out.body.rfind(R"({"id":"batch_req_r0")", 0) != 0); // shuffled
  auto cancel = send(fake, http::verb::post, "/v1/batches/" + id + "/cancel");
  CHECK(cancel.status == 409);
  CHECK(fake.violations().empty());
}

TEST_CASE("openai batch fake: a 10,000-request upload over 1 MiB is taken",
          "[http][batch]") {
  // Beast's default request body limit (1 MiB) would drop such an upload;
  // the API takes files of up to 200 MB.
  fake_batch_options o;
  o.kind = api_kind::openai;
  o.keep_documents = false;
  fake_batches fake(o);
  std::string content;
  const std::string padding(100, 'x');
  for (int i = 0; i < 10000; ++i)
    content += openai_line("r" + std::to_string(i) + padding.substr(0, 40));
  REQUIRE(content.size() > (1u << 20));
  auto id = create(fake, upload(fake, content));
  CHECK(fake.batch_sizes() == std::vector<std::size_t>{10000});
  CHECK(fake.times_sent("r9999" + padding.substr(0, 40)) == 1);
  CHECK(fake.request_body("r1" + padding.substr(0, 40)).empty()); // not kept
  for (int i = 0; i < 3; ++i)
    send(fake, http::verb::get, "/v1/batches/" + id);
  auto st = send(fake, http::verb::get, "/v1/batches/" + id).json();
  CHECK(st["request_counts"]["completed"].GetUint() == 10000);
  CHECK(fake.violations().empty());
}

TEST_CASE("openai batch fake: refusals as the API makes them",
          "[http][batch]") {
  fake_batch_options o;
  o.kind = api_kind::openai;
  o.api_key = "sk-1";
  fake_batches fake(o);
  auto no_key = send(fake, http::verb::get, "/v1/batches/batch_1");
  CHECK(no_key.status == 401);
  CHECK(no_key.json()["error"]["message"].IsString());
  const std::pair<std::string, std::string> key{"authorization", "Bearer sk-1"};
  auto wrong_purpose =
    send(fake, http::verb::post, "/v1/files",
         {key, {"content-type", "multipart/form-data; boundary=XyZ"}},
         multipart("fine-tune", "in.jsonl", openai_line("a")));
  CHECK(wrong_purpose.status == 400);
  auto not_multipart = send(fake, http::verb::post, "/v1/files",
                            {key, {"content-type", "application/json"}}, "{}");
  CHECK(not_multipart.status == 400);
  auto file =
    send(fake, http::verb::post, "/v1/files",
         {key, {"content-type", "multipart/form-data; boundary=XyZ"}},
         multipart("batch", "in.jsonl", openai_line("a") + openai_line("a")));
  REQUIRE(file.status == 200);
  auto bad_window = send(
    fake, http::verb::post, "/v1/batches", {key},
    R"({"input_file_id":")" + std::string{file.json()["id"].GetString()}
      + R"(","endpoint":"/v1/chat/completions","completion_window":"1h"})");
  CHECK(bad_window.status == 400);
  // A duplicate custom_id: accepted, then failed in validation.
  auto created = send(
    fake, http::verb::post, "/v1/batches", {key},
    R"({"input_file_id":")" + std::string{file.json()["id"].GetString()}
      + R"(","endpoint":"/v1/chat/completions","completion_window":"24h"})");
  REQUIRE(created.status == 200);
  std::string id = created.json()["id"].GetString();
  auto failed = send(fake, http::verb::get, "/v1/batches/" + id, {key}).json();
  CHECK(std::string{failed["status"].GetString()} == "failed");
  CHECK(std::string{failed["errors"]["data"][0]["code"].GetString()}
        == "duplicate_custom_id");
  CHECK(fake.times_sent("a") == 0);
  CHECK(fake.violations().size() == 5);
}

TEST_CASE("anthropic batch fake: create, explicit steps, results, refusals",
          "[http][batch]") {
  fake_batch_options o;
  o.kind = api_kind::anthropic;
  fake_batches fake(o);
  auto no_version = send(fake, http::verb::post, "/v1/messages/batches",
                         {{"x-api-key", "k"}}, "{}");
  CHECK(no_version.status == 400);
  CHECK(std::string{no_version.json()["type"].GetString()} == "error");
  auto bad_id = send(
    fake, http::verb::post, "/v1/messages/batches", anthropic_headers,
    R"({"requests":[{"custom_id":"a.b","params":{"model":"m","max_tokens":5,)"
    R"("messages":[]}}]})");
  CHECK(bad_id.status == 400);
  CHECK_THAT(bad_id.body, Catch::Contains("a.b"));
  fake.hold(true);
  auto created = send(
    fake, http::verb::post, "/v1/messages/batches", anthropic_headers,
    R"({"requests":[{"custom_id":"a","params":{"model":"m","max_tokens":5,)"
    R"("messages":[]}},{"custom_id":"b","params":{"model":"m",)"
    R"("max_tokens":5,"messages":[]}}]})");
  REQUIRE(created.status == 200);
  auto batch = created.json();
  std::string id = batch["id"].GetString();
  CHECK(std::string{batch["processing_status"].GetString()} == "in_progress");
  CHECK(batch["results_url"].IsNull());
  CHECK(batch["request_counts"]["processing"].GetUint() == 2);
  auto early =
    send(fake, http::verb::get, "/v1/messages/batches/" + id + "/results",
         anthropic_headers);
  CHECK(early.status == 400);
  CHECK(fake.status_of(id) == "in_progress"); // held: polls do not move it
  send(fake, http::verb::get, "/v1/messages/batches/" + id, anthropic_headers);
  CHECK(fake.status_of(id) == "in_progress");
  fake.advance(id);
  auto ended =
    send(fake, http::verb::get, "/v1/messages/batches/" + id, anthropic_headers)
      .json();
  CHECK(std::string{ended["processing_status"].GetString()} == "ended");
  CHECK(ended["request_counts"]["succeeded"].GetUint() == 2);
  CHECK_THAT(
    ended["results_url"].GetString(),
    Catch::StartsWith(fake.server().base_url() + "/v1/messages/batches/"));
  auto results =
    send(fake, http::verb::get, "/v1/messages/batches/" + id + "/results",
         anthropic_headers);
  CHECK(results.status == 200);
  CHECK(std::count(results.body.begin(), results.body.end(), '\n') == 2);
  CHECK(fake.polls() == 2);
  CHECK(fake.violations().size() == 3);
}
