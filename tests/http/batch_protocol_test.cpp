// The batch APIs' documents, statuses and result lines (adapters/
// batch_protocol), for Anthropic and OpenAI, against the shapes of
// reference/llm-batch-logprobs-constraints.md §1–2.
#include <chrono>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>
#include <rapidjson/pointer.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "adapters/batch_protocol.hpp"
#include "messages/error.hpp"
#include "tests/http/test_support.hpp"

using namespace ij;

namespace {

call_options opts() {
  call_options o;
  o.model = "m";
  o.temperature = 0.25;
  o.seed = 11;
  o.max_tokens = 99;
  o.logprobs = true;
  return o;
}

std::string compact(const rapidjson::Value& v) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  v.Accept(w);
  return {buf.GetString(), buf.GetSize()};
}

std::string errc_text(const caf::error& err) {
  return render_error(err);
}

} // namespace

TEST_CASE("custom_id: made from a vote key, parsed back, both APIs' syntax",
          "[http][batch]") {
  for (auto key : {vote_key{"r", 0, 0}, vote_key{"run17", 17, 3},
                   vote_key{std::string(16, 'z'), UINT64_MAX, UINT32_MAX}}) {
    auto id = make_custom_id(key);
    CHECK(valid_custom_id(id));
    auto back = parse_custom_id(id);
    REQUIRE(back);
    CHECK(*back == key);
  }
  CHECK(make_custom_id({"ab1", 42, 1}) == "ab1-p42-v1");
  CHECK(make_custom_id({std::string(16, 'z'), UINT64_MAX, UINT32_MAX}).size()
        <= max_custom_id_length);
  CHECK(valid_run_tag("a"));
  CHECK(valid_run_tag("0123456789abcdef"));
  CHECK_FALSE(valid_run_tag(""));
  CHECK_FALSE(valid_run_tag("0123456789abcdefg"));
  CHECK_FALSE(valid_run_tag("A"));
  CHECK_FALSE(valid_run_tag("a-b"));
}

TEST_CASE("custom_id: anything else is rejected with a clear error",
          "[http][batch]") {
  for (auto bad : {"",
                   "p",
                   "p1",
                   "p1-v",
                   "p1-v1",
                   "r-p",
                   "r-p1",
                   "r-p1-v",
                   "r-p-v1",
                   "r-q1-v1",
                   "r-p01-v1",
                   "r-p1-v01",
                   "r-p1-v1x",
                   "r-p+1-v1",
                   "r-p1-v-1",
                   "r-p18446744073709551616-v0",
                   "r-p1-v4294967296",
                   "r-p1 -v1",
                   "r-p1-v1\n",
                   "-p1-v1",
                   "R-p1-v1",
                   "r_1-p1-v1",
                   "0123456789abcdefg-p1-v1"}) {
    INFO(bad);
    auto r = parse_custom_id(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().code() == static_cast<std::uint8_t>(errc::bad_input));
    CHECK_THAT(errc_text(r.error()),
               Catch::Contains("<run tag>-p<sequence>-v<vote>"));
  }
  CHECK(valid_custom_id("a_b-C9"));
  CHECK(valid_custom_id(std::string(64, 'x')));
  CHECK_FALSE(valid_custom_id(std::string(65, 'x')));
  CHECK_FALSE(valid_custom_id(""));
  CHECK_FALSE(valid_custom_id("a.b"));
  CHECK_FALSE(valid_custom_id("a b"));
  CHECK_FALSE(valid_custom_id("é"));
}

TEST_CASE("limits: requests and bytes per batch, checked before sending",
          "[http][batch]") {
  CHECK(limits_of(batch_api::anthropic).max_requests == 100000);
  CHECK(limits_of(batch_api::openai).max_requests == 50000);
  CHECK(limits_of(batch_api::anthropic).max_bytes == 256000000);
  CHECK(limits_of(batch_api::openai).max_bytes == 200000000);
  CHECK_FALSE(check_batch(batch_api::anthropic, 100000, 256000000));
  CHECK_FALSE(check_batch(batch_api::openai, 50000, 200000000));
  auto many = check_batch(batch_api::openai, 50001, 10);
  REQUIRE(many);
  CHECK_THAT(render_error(many), Catch::Contains("50000 requests per batch"));
  auto big = check_batch(batch_api::anthropic, 1, 256000001);
  REQUIRE(big);
  CHECK_THAT(render_error(big), Catch::Contains("256000000 bytes per batch"));
  auto empty = check_batch(batch_api::anthropic, 0, 0);
  REQUIRE(empty);
  CHECK_THAT(render_error(empty), Catch::Contains("empty"));
}

TEST_CASE(
  "batch document: Anthropic's create body holds the synchronous bodies",
  "[http][batch]") {
  batch_document doc(batch_api::anthropic);
  REQUIRE_FALSE(doc.add("p1-v0", test::tricky_prompt(), opts()));
  auto o2 = opts();
  o2.constrain = reply_constraint::json;
  REQUIRE_FALSE(doc.add("p2-v1", "second", o2));
  CHECK(doc.size() == 2);
  auto bytes = doc.bytes();
  auto text = doc.finish();
  REQUIRE(text);
  CHECK(text->size() == bytes);
  rapidjson::Document d;
  d.Parse(text->data(), text->size());
  REQUIRE_FALSE(d.HasParseError());
  REQUIRE(d["requests"].Size() == 2);
  auto& p = protocol_of(batch_api::anthropic);
  CHECK(std::string{d["requests"][0]["custom_id"].GetString()} == "p1-v0");
  CHECK(compact(d["requests"][0]["params"])
        == chat_request_body(p, test::tricky_prompt(), opts()));
  CHECK(std::string{d["requests"][1]["custom_id"].GetString()} == "p2-v1");
  CHECK(compact(d["requests"][1]["params"])
        == chat_request_body(p, "second", o2));
  CHECK(d["requests"][0].MemberCount() == 2);
  // The document was handed over: it starts empty again.
  CHECK(doc.size() == 0);
  CHECK_FALSE(doc.finish());
}

TEST_CASE("batch document: OpenAI's input JSONL, one line per request",
          "[http][batch]") {
  batch_document doc(batch_api::openai);
  REQUIRE_FALSE(doc.add("p1-v0", test::tricky_prompt(), opts()));
  REQUIRE_FALSE(doc.add("p1-v1", "two", opts()));
  auto bytes = doc.bytes();
  CHECK(doc.custom_ids() == std::vector<std::string>{"p1-v0", "p1-v1"});
  auto text = doc.finish();
  REQUIRE(text);
  CHECK(text->size() == bytes);
  REQUIRE(text->back() == '\n');
  auto& p = protocol_of(batch_api::openai);
  std::vector<std::string> prompts{test::tricky_prompt(), "two"};
  std::size_t at = 0;
  for (std::size_t i = 0; i < 2; ++i) {
    auto end = text->find('\n', at);
    REQUIRE(end != std::string::npos);
    rapidjson::Document d;
    d.Parse(text->data() + at, end - at);
    REQUIRE_FALSE(d.HasParseError());
    CHECK(std::string{d["custom_id"].GetString()}
          == (i == 0 ? "p1-v0" : "p1-v1"));
    CHECK(std::string{d["method"].GetString()} == "POST");
    CHECK(std::string{d["url"].GetString()} == "/v1/chat/completions");
    CHECK(compact(d["body"]) == chat_request_body(p, prompts[i], opts()));
    at = end + 1;
  }
  CHECK(at == text->size());
}

TEST_CASE(
  "batch document: a bad or repeated custom_id and a full batch are refused, "
  "the document unchanged",
  "[http][batch]") {
  batch_document doc(batch_api::anthropic);
  REQUIRE_FALSE(doc.add("p1-v0", "x", opts()));
  auto before = doc.bytes();
  auto bad = doc.add("p1.v0", "x", opts());
  REQUIRE(bad);
  CHECK_THAT(render_error(bad), Catch::Contains("1-64 characters"));
  auto again = doc.add("p1-v0", "x", opts());
  REQUIRE(again);
  CHECK_THAT(render_error(again), Catch::Contains("already in the batch"));
  CHECK(doc.bytes() == before);
  CHECK(doc.size() == 1);

  // A request that would pass the byte limit: refused, the rest still sent.
  batch_document big(batch_api::openai);
  std::string body(1000000, ' ');
  body.front() = '{';
  body.back() = '}';
  std::size_t added = 0;
  caf::error full;
  while (!(full = big.add_body(make_custom_id({"t", added, 0}), body)))
    ++added;
  CHECK(added == 199);
  CHECK_THAT(render_error(full), Catch::Contains("bytes per batch"));
  CHECK(big.size() == 199);
  CHECK(big.bytes() <= openai_batch_limits.max_bytes);
}

TEST_CASE("batch document: 10,000 requests build fast", "[http][batch]") {
  batch_document doc(batch_api::openai);
  auto start = std::chrono::steady_clock::now();
  for (std::uint64_t i = 0; i < 10000; ++i)
    REQUIRE_FALSE(
      doc.add(make_custom_id({"t", i, 0}), test::tricky_prompt(), opts()));
  auto text = doc.finish();
  auto took = std::chrono::steady_clock::now() - start;
  REQUIRE(text);
  // Reported, not asserted: the time depends on the machine's load.
  WARN("10,000 requests built in "
       << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
       << " ms, " << text->size() << " bytes");
}

TEST_CASE("batch status: Anthropic's MessageBatch in each processing status",
          "[http][batch]") {
  auto body = [](const char* status, const char* results) {
    return std::string{
             R"({"id":"msgbatch_01","type":"message_batch","processing_status":")"}
           + status
           + R"(","request_counts":{"processing":1,"succeeded":2,"errored":3,)"
           + R"("canceled":4,"expired":5},"ended_at":null,)"
           + R"("created_at":"2024-08-20T18:37:24.100435Z",)"
           + R"("expires_at":"2024-08-21T20:37:24+02:00","cancel_initiated_at":null,)"
           + R"("archived_at":null,"results_url":)" + results + "}";
  };
  auto st =
    parse_batch_status(batch_api::anthropic, body("in_progress", "null"));
  REQUIRE(st);
  CHECK(st->id == "msgbatch_01");
  CHECK(st->state == batch_state::in_progress);
  CHECK(st->counts.processing == 1);
  CHECK(st->counts.succeeded == 2);
  CHECK(st->counts.errored == 3);
  CHECK(st->counts.canceled == 4);
  CHECK(st->counts.expired == 5);
  CHECK(st->counts.total == 15);
  CHECK(st->created_at == 1724179044);
  CHECK(st->expires_at == 1724179044 + 86400);
  CHECK(st->results_url.empty());
  CHECK_FALSE(is_terminal(st->state));

  auto canceling =
    parse_batch_status(batch_api::anthropic, body("canceling", "null"));
  REQUIRE(canceling);
  CHECK(canceling->state == batch_state::cancelling);
  auto ended = parse_batch_status(
    batch_api::anthropic,
    body(
      "ended",
      R"("https://api.anthropic.com/v1/messages/batches/msgbatch_01/results")"));
  REQUIRE(ended);
  CHECK(ended->state == batch_state::ended);
  CHECK(is_terminal(ended->state));
  CHECK(ended->results_url
        == "https://api.anthropic.com/v1/messages/batches/msgbatch_01/results");

  for (auto bad :
       {std::string{"{}"}, std::string{"not json"}, body("completed", "null"),
        std::string{
          R"({"id":"x","type":"message","processing_status":"ended"})"}}) {
    INFO(bad);
    auto r = parse_batch_status(batch_api::anthropic, bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().code() == static_cast<std::uint8_t>(errc::bad_reply));
  }
}

TEST_CASE("batch status: OpenAI's Batch in each of its eight statuses",
          "[http][batch]") {
  auto body = [](const std::string& status, const std::string& extra = {}) {
    return R"({"id":"batch_abc","object":"batch","endpoint":"/v1/chat/completions",)"
           R"("input_file_id":"file-in","completion_window":"24h","status":")"
           + status + R"(","created_at":1714508499,"expires_at":null,)"
           + R"("request_counts":{"total":10,"completed":6,"failed":1})" + extra
           + "}";
  };
  std::pair<const char*, batch_state> all[] = {
    {"validating", batch_state::validating},
    {"in_progress", batch_state::in_progress},
    {"finalizing", batch_state::finalizing},
    {"completed", batch_state::ended},
    {"failed", batch_state::failed},
    {"expired", batch_state::expired},
    {"cancelling", batch_state::cancelling},
    {"cancelled", batch_state::cancelled}};
  for (auto& [name, state] : all) {
    INFO(name);
    auto st = parse_batch_status(batch_api::openai, body(name));
    REQUIRE(st);
    CHECK(st->state == state);
    CHECK(st->id == "batch_abc");
    CHECK(st->created_at == 1714508499);
    CHECK(st->expires_at == 0);
    CHECK(st->counts.total == 10);
    CHECK(st->counts.succeeded == 6);
    CHECK(st->counts.errored == 1);
    CHECK(st->counts.processing == (is_terminal(state) ? 0u : 3u));
  }
  auto done = parse_batch_status(
    batch_api::openai,
    body("completed",
         R"(,"output_file_id":"file-out","error_file_id":"file-err")"));
  REQUIRE(done);
  CHECK(done->output_file_id == "file-out");
  CHECK(done->error_file_id == "file-err");

  auto failed = parse_batch_status(
    batch_api::openai,
    body(
      "failed",
      R"(,"output_file_id":null,"errors":{"object":"list","data":[)"
      R"({"code":"invalid_json_line","line":3,"message":"bad line","param":null},)"
      R"({"code":"too_many","line":null,"message":"too many","param":null}]})"));
  REQUIRE(failed);
  CHECK(failed->output_file_id.empty());
  CHECK(failed->errors
        == std::vector<std::string>{"line 3: invalid_json_line: bad line",
                                    "too_many: too many"});
  // A new batch: null counts and ids.
  auto fresh = parse_batch_status(
    batch_api::openai,
    R"({"id":"b","object":"batch","status":"validating","request_counts":null,)"
    R"("created_at":1,"output_file_id":null})");
  REQUIRE(fresh);
  CHECK(fresh->counts.total == 0);
  CHECK_FALSE(parse_batch_status(batch_api::openai, body("ended")));
  CHECK_FALSE(
    parse_batch_status(batch_api::openai, R"({"error":{"message":"x"}})"));
}

TEST_CASE("RFC 3339 times", "[http][batch]") {
  CHECK(*parse_rfc3339("1970-01-01T00:00:00Z") == 0);
  CHECK(*parse_rfc3339("2000-03-01T00:00:00Z") == 951868800);
  CHECK(*parse_rfc3339("2024-02-29T23:59:59.5-01:30") == 1709251199 + 5400);
  for (auto bad :
       {"", "2024-02-29", "2024-02-29T23:59:59", "2024-13-01T00:00:00Z",
        "2024-02-29T23:59:59Zx", "2024-02-29T23:59:59.Z"})
    CHECK_FALSE(parse_rfc3339(bad));
}

TEST_CASE("result lines: Anthropic's four result types", "[http][batch]") {
  auto ok = parse_result_line(
    batch_api::anthropic,
    R"({"custom_id":"p1-v0","result":{"type":"succeeded","message":{"id":"msg_1",)"
    R"("type":"message","role":"assistant","model":"m","content":[{"type":"text",)"
    R"("text":"DECISION: EQUIVALENT"}],"stop_reason":"end_turn",)"
    R"("usage":{"input_tokens":12,"output_tokens":5}}}})");
  REQUIRE(ok);
  CHECK(ok->custom_id == "p1-v0");
  CHECK(ok->kind == result_kind::succeeded);
  CHECK(ok->reply.ok);
  CHECK(ok->reply.text == "DECISION: EQUIVALENT");
  CHECK(ok->reply.input_tokens == 12);
  CHECK(ok->reply.output_tokens == 5);

  auto err = parse_result_line(
    batch_api::anthropic,
    R"({"custom_id":"p1-v1","result":{"type":"errored","error":{"type":"error",)"
    R"("error":{"type":"invalid_request_error","message":"max_tokens: too large"},)"
    R"("request_id":"req_1"}}})");
  REQUIRE(err);
  CHECK(err->kind == result_kind::errored);
  CHECK(err->error == "max_tokens: too large");
  CHECK(err->error_type == "invalid_request_error");

  auto expired = parse_result_line(
    batch_api::anthropic, R"({"custom_id":"a","result":{"type":"expired"}})");
  REQUIRE(expired);
  CHECK(expired->kind == result_kind::expired);
  auto canceled = parse_result_line(
    batch_api::anthropic, R"({"custom_id":"b","result":{"type":"canceled"}})");
  REQUIRE(canceled);
  CHECK(canceled->kind == result_kind::canceled);

  // A message that is not a reply: that vote's error, not the file's.
  auto unreadable = parse_result_line(
    batch_api::anthropic,
    R"({"custom_id":"c","result":{"type":"succeeded","message":{"content":"x"}}})");
  REQUIRE(unreadable);
  CHECK(unreadable->kind == result_kind::errored);
  CHECK_THAT(unreadable->error, Catch::Contains("unreadable reply"));

  for (auto bad :
       {R"({"result":{"type":"expired"}})", R"({"custom_id":"a"})",
        R"({"custom_id":"a","result":{"type":"pending"}})", "[1]", "{"}) {
    INFO(bad);
    CHECK_FALSE(parse_result_line(batch_api::anthropic, bad));
  }
}

TEST_CASE("result lines: OpenAI's output and error file lines",
          "[http][batch]") {
  auto ok = parse_result_line(
    batch_api::openai,
    R"({"id":"batch_req_1","custom_id":"p2-v0","response":{"status_code":200,)"
    R"("request_id":"req_1","body":{"id":"chatcmpl-1","object":"chat.completion",)"
    R"("choices":[{"index":0,"message":{"role":"assistant","content":"DECISION: DIFFERENT"},)"
    R"("finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":4,)"
    R"("total_tokens":24}}},"error":null})");
  REQUIRE(ok);
  CHECK(ok->kind == result_kind::succeeded);
  CHECK(ok->reply.text == "DECISION: DIFFERENT");
  CHECK(ok->reply.input_tokens == 20);
  CHECK(ok->reply.output_tokens == 4);
  CHECK(ok->status == 200);

  auto http_err = parse_result_line(
    batch_api::openai,
    R"({"id":"batch_req_2","custom_id":"p2-v1","response":{"status_code":400,)"
    R"("request_id":"req_2","body":{"error":{"message":"bad max_tokens",)"
    R"("type":"invalid_request_error","param":null,"code":null}}},"error":null})");
  REQUIRE(http_err);
  CHECK(http_err->kind == result_kind::errored);
  CHECK(http_err->status == 400);
  CHECK(http_err->error == "HTTP 400: bad max_tokens");
  CHECK(http_err->error_type == "invalid_request_error");

  auto expired = parse_result_line(
    batch_api::openai,
    R"({"id":"batch_req_3","custom_id":"request-3","response":null,"error":{)"
    R"("code":"batch_expired","message":"This request could not be executed before the )"
    R"(completion window expired."}})");
  REQUIRE(expired);
  CHECK(expired->kind == result_kind::expired);
  CHECK(expired->error_type == "batch_expired");
  CHECK_THAT(expired->error, Catch::Contains("completion window"));

  auto cancelled = parse_result_line(
    batch_api::openai,
    R"({"custom_id":"x","response":null,"error":{"code":"batch_cancelled","message":"c"}})");
  REQUIRE(cancelled);
  CHECK(cancelled->kind == result_kind::canceled);
  auto other = parse_result_line(
    batch_api::openai,
    R"({"custom_id":"x","response":null,"error":{"code":"server_error","message":"boom"}})");
  REQUIRE(other);
  CHECK(other->kind == result_kind::errored);
  CHECK(other->error == "boom");

  // An error status whose body is not the API's error object.
  auto odd = parse_result_line(
    batch_api::openai,
    R"({"custom_id":"x","response":{"status_code":500,"body":"upstream"},"error":null})");
  REQUIRE(odd);
  CHECK(odd->kind == result_kind::errored);
  CHECK(odd->status == 500);
  CHECK_THAT(odd->error, Catch::StartsWith("HTTP 500"));

  for (auto bad : {R"({"custom_id":"x","response":null,"error":null})",
                   R"({"response":{"status_code":200,"body":{}}})",
                   R"({"custom_id":"x","response":{"status_code":200}})"}) {
    INFO(bad);
    CHECK_FALSE(parse_result_line(batch_api::openai, bad));
  }
}

TEST_CASE("result lines: a whole file, any line breaks, a bad line named",
          "[http][batch]") {
  std::string jsonl =
    "{\"custom_id\":\"a\",\"result\":{\"type\":\"expired\"}}\r\n\n"
    "{\"custom_id\":\"b\",\"result\":{\"type\":\"canceled\"}}\r"
    "{\"custom_id\":\"c\",\"result\":{\"type\":\"expired\"}}";
  auto all = parse_result_lines(batch_api::anthropic, jsonl);
  REQUIRE(all);
  REQUIRE(all->size() == 3);
  CHECK((*all)[0].custom_id == "a");
  CHECK((*all)[1].custom_id == "b");
  CHECK((*all)[2].custom_id == "c");
  CHECK(parse_result_lines(batch_api::openai, "")->empty());
  auto bad = parse_result_lines(
    batch_api::anthropic,
    "{\"custom_id\":\"a\",\"result\":{\"type\":\"expired\"}}\n{oops}\n");
  REQUIRE_FALSE(bad);
  CHECK_THAT(render_error(bad.error()), Catch::Contains("results line 2"));
}

TEST_CASE("batch API of a judge type", "[http][batch]") {
  CHECK(*batch_api_for("anthropic") == batch_api::anthropic);
  CHECK(*batch_api_for("openai") == batch_api::openai);
  auto none = batch_api_for("ollama");
  REQUIRE_FALSE(none);
  CHECK_THAT(render_error(none.error()), Catch::Contains("no batch API"));
}

TEST_CASE("missing results: the sent custom_ids without a line",
          "[http][batch]") {
  std::vector<batch_result> results(2);
  results[0].custom_id = "p2-v0";
  results[1].custom_id = "p0-v0";
  CHECK(missing_results({"p0-v0", "p1-v0", "p2-v0", "p3-v0"}, results)
        == std::vector<std::string>{"p1-v0", "p3-v0"});
  CHECK(missing_results({"p0-v0"}, {}) == std::vector<std::string>{"p0-v0"});
}
