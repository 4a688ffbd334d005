// The batch client (adapters/batch_client) against the protocol-faithful
// batch fakes (tests/http/fake_batches): submit, poll through the statuses,
// results in any order matched by custom_id, failures of requests and of
// whole batches, cancel, HTTP error statuses, TLS, shutdown.
#include <algorithm>
#include <chrono>
#include <future>
#include <map>

#include <catch2/catch.hpp>

#include "adapters/batch_client.hpp"
#include "messages/error.hpp"
#include "tests/http/fake_batches.hpp"
#include "tests/http/test_support.hpp"
#include "tests/http/test_tls.hpp"

using namespace ij;
using namespace std::chrono_literals;
using test::api_kind;
using test::fake_batches;

namespace {

constexpr const char* test_key = "sk-batch-test-key";

/// Waits for an operation's one answer; a missing answer fails the test
/// instead of hanging it.
template <class T, class Op>
caf::expected<T> await(Op op) {
  auto promise = std::make_shared<std::promise<caf::expected<T>>>();
  auto future = promise->get_future();
  op([promise](caf::expected<T> r) { promise->set_value(std::move(r)); });
  if (future.wait_for(60s) != std::future_status::ready)
    throw std::runtime_error("no answer within 60 s");
  return future.get();
}

api_kind kind_of(batch_api api) {
  return api == batch_api::anthropic ? api_kind::anthropic : api_kind::openai;
}

test::fake_batch_options fake_options(batch_api api) {
  test::fake_batch_options o;
  o.kind = kind_of(api);
  o.api_key = test_key;
  return o;
}

std::unique_ptr<batch_client> client_for(const std::string& base_url,
                                         batch_api api,
                                         const std::string& key = test_key,
                                         const std::string& ca_file = {}) {
  batch_client_config cfg;
  cfg.api = api;
  auto base = parse_url(base_url);
  REQUIRE(base);
  cfg.base = *base;
  cfg.key = key;
  cfg.ca_file = ca_file;
  cfg.timeout = 20s;
  auto client = batch_client::create(cfg);
  REQUIRE(client);
  return std::move(*client);
}

call_options opts() {
  call_options o;
  o.model = "judge-model";
  o.temperature = 0.0;
  o.seed = 7;
  o.max_tokens = 64;
  return o;
}

std::string prompt_of(std::uint64_t seq) {
  return "pair " + std::to_string(seq) + ": " + test::tricky_prompt();
}

/// The document of `n` votes, pairs 0..n-1 at vote 0.
std::string document_of(batch_api api, std::size_t n) {
  batch_document doc(api);
  for (std::uint64_t i = 0; i < n; ++i)
    REQUIRE_FALSE(doc.add(make_custom_id({"t", i, 0}), prompt_of(i), opts()));
  auto text = doc.finish();
  REQUIRE(text);
  return std::move(*text);
}

batch_status submit(batch_client& c, batch_api api, std::size_t n) {
  auto st = await<batch_status>(
    [&](auto done) { c.submit(document_of(api, n), done); });
  REQUIRE(st);
  return *st;
}

batch_status poll(batch_client& c, const std::string& id) {
  auto st = await<batch_status>([&](auto done) { c.status(id, done); });
  REQUIRE(st);
  return *st;
}

/// Polls until the batch ends; the states seen, the submit's first.
std::vector<batch_state> poll_to_end(batch_client& c, const batch_status& first,
                                     batch_status& last) {
  std::vector<batch_state> seen{first.state};
  last = first;
  for (int i = 0; i < 20 && !is_terminal(last.state); ++i) {
    last = poll(c, first.id);
    seen.push_back(last.state);
  }
  REQUIRE(is_terminal(last.state));
  return seen;
}

std::map<std::string, batch_result>
results_of(batch_client& c, const std::string& id,
           std::vector<std::string>* order = nullptr) {
  auto rs =
    await<std::vector<batch_result>>([&](auto done) { c.results(id, done); });
  REQUIRE(rs);
  std::map<std::string, batch_result> out;
  for (auto& r : *rs) {
    if (order)
      order->push_back(r.custom_id);
    CHECK(out.count(r.custom_id) == 0);
    out[r.custom_id] = r;
  }
  return out;
}

std::uint8_t code_of(const caf::error& err) {
  return err.code();
}

constexpr std::uint8_t code(errc c) {
  return static_cast<std::uint8_t>(c);
}

} // namespace

TEST_CASE("batch client: submit, poll through every status, results matched by "
          "custom_id",
          "[http][batch]") {
  for (auto api : {batch_api::anthropic, batch_api::openai}) {
    INFO(to_string(api));
    fake_batches fake(fake_options(api));
    fake.set_reply(
      [](const std::string& id) { return "DECISION: EQUIVALENT for " + id; });
    auto client = client_for(fake.base_url(), api);
    const std::size_t n = 20;
    auto first = submit(*client, api, n);
    CHECK_FALSE(first.id.empty());
    batch_status last;
    auto seen = poll_to_end(*client, first, last);
    if (api == batch_api::anthropic)
      CHECK(seen
            == std::vector<batch_state>{batch_state::in_progress,
                                        batch_state::ended});
    else
      CHECK(seen
            == std::vector<batch_state>{
              batch_state::validating, batch_state::in_progress,
              batch_state::finalizing, batch_state::ended});
    CHECK(last.counts.total == n);
    CHECK(last.counts.succeeded == n);

    std::vector<std::string> order;
    auto results = results_of(*client, first.id, &order);
    REQUIRE(results.size() == n);
    std::vector<std::string> input_order;
    for (std::uint64_t i = 0; i < n; ++i)
      input_order.push_back(make_custom_id({"t", i, 0}));
    CHECK(order != input_order); // shuffled: only custom_id matches them
    auto& p = protocol_of(api);
    for (std::uint64_t i = 0; i < n; ++i) {
      auto id = make_custom_id({"t", i, 0});
      auto& r = results.at(id);
      CHECK(r.kind == result_kind::succeeded);
      CHECK(r.reply.ok);
      CHECK(r.reply.text == "DECISION: EQUIVALENT for " + id);
      CHECK(r.reply.input_tokens == 42);
      CHECK(r.reply.output_tokens == 7);
      // Sent once, and exactly as the synchronous call would have asked.
      CHECK(fake.times_sent(id) == 1);
      CHECK(fake.request_body(id)
            == chat_request_body(p, prompt_of(i), opts()));
    }
    CHECK(fake.batches_created() == 1);
    CHECK(fake.files_uploaded() == (api == batch_api::openai ? 1u : 0u));
    CHECK(fake.violations().empty());
  }
}

TEST_CASE(
  "batch client: failed requests come back errored, with the API's words",
  "[http][batch]") {
  for (auto api : {batch_api::anthropic, batch_api::openai}) {
    INFO(to_string(api));
    fake_batches fake(fake_options(api));
    fake.fail_request("t-p3-v0", 400, "max_tokens: 64 > the model's limit");
    fake.fail_request("t-p5-v0", 400, "prompt too long");
    auto client = client_for(fake.base_url(), api);
    auto first = submit(*client, api, 8);
    batch_status last;
    poll_to_end(*client, first, last);
    CHECK(last.state == batch_state::ended);
    CHECK(last.counts.errored == 2);
    if (api == batch_api::openai) {
      // Successes in the output file, failures in the error file.
      CHECK_FALSE(last.output_file_id.empty());
      CHECK_FALSE(last.error_file_id.empty());
    }
    auto results = results_of(*client, first.id);
    REQUIRE(results.size() == 8);
    auto& bad = results.at("t-p3-v0");
    CHECK(bad.kind == result_kind::errored);
    CHECK_THAT(bad.error,
               Catch::Contains("max_tokens: 64 > the model's limit"));
    CHECK(bad.error_type == "invalid_request_error");
    CHECK(bad.status == (api == batch_api::openai ? 400u : 0u));
    CHECK(results.at("t-p5-v0").kind == result_kind::errored);
    CHECK(std::count_if(
            results.begin(), results.end(),
            [](auto& kv) { return kv.second.kind == result_kind::succeeded; })
          == 6);
  }
}

TEST_CASE("batch client: an expired batch gives its partial results and the "
          "rest expired",
          "[http][batch]") {
  for (auto api : {batch_api::anthropic, batch_api::openai}) {
    INFO(to_string(api));
    fake_batches fake(fake_options(api));
    fake.hold(true);
    auto client = client_for(fake.base_url(), api);
    auto first = submit(*client, api, 6);
    CHECK_FALSE(is_terminal(poll(*client, first.id).state));
    // Not ended yet: no results to fetch.
    auto early = await<std::vector<batch_result>>(
      [&](auto done) { client->results(first.id, done); });
    REQUIRE_FALSE(early);
    CHECK(code_of(early.error()) == code(errc::bad_input));
    CHECK_THAT(render_error(early.error()), Catch::Contains("has not ended"));

    fake.expire(first.id, 4);
    auto st = poll(*client, first.id);
    CHECK(st.state
          == (api == batch_api::openai ? batch_state::expired
                                       : batch_state::ended));
    if (api == batch_api::anthropic)
      CHECK(st.counts.expired == 2);
    auto results = results_of(*client, first.id);
    REQUIRE(results.size() == 6);
    for (std::uint64_t i = 0; i < 6; ++i) {
      INFO(i);
      auto& r = results.at(make_custom_id({"t", i, 0}));
      CHECK(r.kind == (i < 4 ? result_kind::succeeded : result_kind::expired));
    }
  }
}

TEST_CASE("batch client: cancel moves the batch through cancelling to its end",
          "[http][batch]") {
  for (auto api : {batch_api::anthropic, batch_api::openai}) {
    INFO(to_string(api));
    fake_batches fake(fake_options(api));
    fake.hold(true);
    fake.set_done_at_cancel(2);
    auto client = client_for(fake.base_url(), api);
    auto first = submit(*client, api, 5);
    auto cancelling =
      await<batch_status>([&](auto done) { client->cancel(first.id, done); });
    REQUIRE(cancelling);
    CHECK(cancelling->state == batch_state::cancelling);
    CHECK(fake.cancels() == 1);
    fake.hold(false);
    auto st = poll(*client, first.id);
    CHECK(st.state
          == (api == batch_api::openai ? batch_state::cancelled
                                       : batch_state::ended));
    auto results = results_of(*client, first.id);
    CHECK(results.at("t-p0-v0").kind == result_kind::succeeded);
    CHECK(results.at("t-p1-v0").kind == result_kind::succeeded);
    if (api == batch_api::anthropic) {
      REQUIRE(results.size() == 5);
      CHECK(results.at("t-p4-v0").kind == result_kind::canceled);
    } else {
      // OpenAI: partial results only; the caller finds the missing ones.
      CHECK(results.size() == 2);
      std::vector<batch_result> lines;
      for (auto& kv : results)
        lines.push_back(kv.second);
      CHECK(missing_results(
              {"t-p0-v0", "t-p1-v0", "t-p2-v0", "t-p3-v0", "t-p4-v0"}, lines)
            == std::vector<std::string>{"t-p2-v0", "t-p3-v0", "t-p4-v0"});
    }
  }
}

TEST_CASE("batch client: a batch rejected whole is one clear error",
          "[http][batch]") {
  for (auto api : {batch_api::anthropic, batch_api::openai}) {
    INFO(to_string(api));
    fake_batches fake(fake_options(api));
    fake.reject_next_batch(400,
                           "requests: too many requests for this organization");
    auto client = client_for(fake.base_url(), api);
    auto st = await<batch_status>(
      [&](auto done) { client->submit(document_of(api, 3), done); });
    REQUIRE_FALSE(st);
    CHECK(code_of(st.error()) == code(errc::bad_input));
    auto text = render_error(st.error());
    CHECK_THAT(text, Catch::Contains("HTTP 400"));
    CHECK_THAT(text,
               Catch::Contains("too many requests for this organization"));
    CHECK_THAT(text, Catch::Contains("batches"));
    CHECK(fake.batches_created() == 0);
    CHECK(fake.times_sent("p0-v0") == 0);
  }
}

TEST_CASE(
  "batch client: OpenAI's validation failure is a failed batch with its errors",
  "[http][batch]") {
  fake_batches fake(fake_options(batch_api::openai));
  fake.fail_next_validation("invalid_json_line",
                            "This line is not parseable as valid JSON.");
  auto client = client_for(fake.base_url(), batch_api::openai);
  auto first = submit(*client, batch_api::openai, 2);
  CHECK(first.state == batch_state::validating);
  auto st = poll(*client, first.id);
  CHECK(st.state == batch_state::failed);
  REQUIRE(st.errors.size() == 1);
  CHECK_THAT(st.errors[0], Catch::Contains("invalid_json_line"));
  CHECK(results_of(*client, first.id).empty());
}

TEST_CASE(
  "batch client: HTTP error statuses name the status and the API's message",
  "[http][batch]") {
  for (auto api : {batch_api::anthropic, batch_api::openai}) {
    INFO(to_string(api));
    auto options = fake_options(api);
    options.echo_key_in_errors = true; // a careless server
    fake_batches fake(options);
    auto client = client_for(fake.base_url(), api);
    auto first = submit(*client, api, 1);

    fake.fail_next_request(503, "the service is overloaded");
    auto busy =
      await<batch_status>([&](auto done) { client->status(first.id, done); });
    REQUIRE_FALSE(busy);
    CHECK(code_of(busy.error()) == code(errc::unreachable));
    CHECK_THAT(render_error(busy.error()), Catch::Contains("HTTP 503"));
    CHECK_THAT(render_error(busy.error()),
               Catch::Contains("the service is overloaded"));

    auto missing =
      await<batch_status>([&](auto done) { client->status("nope_1", done); });
    REQUIRE_FALSE(missing);
    CHECK(code_of(missing.error()) == code(errc::bad_input));
    CHECK_THAT(render_error(missing.error()), Catch::Contains("HTTP 404"));

    auto unsafe =
      await<batch_status>([&](auto done) { client->status("../files", done); });
    REQUIRE_FALSE(unsafe);
    CHECK(code_of(unsafe.error()) == code(errc::bad_input));

    // A wrong key: bad configuration, and the key never in the words.
    auto wrong = client_for(fake.base_url(), api, "sk-wrong-key");
    auto denied =
      await<batch_status>([&](auto done) { wrong->status(first.id, done); });
    REQUIRE_FALSE(denied);
    CHECK(code_of(denied.error()) == code(errc::bad_config));
    CHECK_THAT(render_error(denied.error()), Catch::Contains("HTTP 401"));
    CHECK_THAT(render_error(denied.error()), Catch::Contains("[redacted]"));
    CHECK(render_error(denied.error()).find("sk-wrong-key")
          == std::string::npos);
    CHECK(fake.violations().size() == 1); // the wrong key only
  }
}

TEST_CASE("batch client: HTTPS verified against the CA file",
          "[http][batch][tls]") {
  auto pki = test::make_test_pki({"localhost"}, {"127.0.0.1"});
  auto options = fake_options(batch_api::anthropic);
  options.tls = test::server_tls_context(pki);
  fake_batches fake(options);
  test::temp_file ca(pki.ca_cert_pem);
  auto client =
    client_for(fake.base_url(), batch_api::anthropic, test_key, ca.path());
  auto first = submit(*client, batch_api::anthropic, 2);
  batch_status last;
  poll_to_end(*client, first, last);
  CHECK(results_of(*client, first.id).size() == 2);
}

TEST_CASE(
  "batch client: no server, and shutdown with a request pending, answer once",
  "[http][batch]") {
  std::string closed_url;
  {
    test::fake_server gone(
      [](const test::fake_request&, const test::request_context&) {
        return test::planned_reply{};
      });
    closed_url = gone.base_url();
  }
  auto client = client_for(closed_url, batch_api::anthropic);
  auto st =
    await<batch_status>([&](auto done) { client->status("msgbatch_1", done); });
  REQUIRE_FALSE(st);
  CHECK(code_of(st.error()) == code(errc::unreachable));

  // A server that thinks for a minute: destroying the client answers the
  // pending status at once.
  test::fake_server slow(
    [](const test::fake_request&, const test::request_context&) {
      test::planned_reply r;
      r.delay = 60s;
      return r;
    });
  auto promise = std::make_shared<std::promise<caf::expected<batch_status>>>();
  auto future = promise->get_future();
  {
    auto pending = client_for(slow.base_url(), batch_api::anthropic);
    pending->status("msgbatch_1", [promise](caf::expected<batch_status> r) {
      promise->set_value(std::move(r));
    });
  }
  REQUIRE(future.wait_for(0s) == std::future_status::ready);
  auto answer = future.get();
  REQUIRE_FALSE(answer);
  CHECK_THAT(render_error(answer.error()), Catch::Contains("shutting down"));
}
