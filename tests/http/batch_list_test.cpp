// Listing batches (batch_client::list against the fakes' list endpoints) and
// OpenAI's batch metadata: how a batch whose create answer was lost in a
// crash is found again.
#include <chrono>
#include <future>

#include <catch2/catch.hpp>

#include "adapters/batch_client.hpp"
#include "tests/http/fake_batches.hpp"

using namespace ij;
using namespace std::chrono_literals;
using test::api_kind;
using test::fake_batches;

namespace {

std::unique_ptr<batch_client> client_of(const fake_batches& fake,
                                        batch_api api) {
  batch_client_config cfg;
  cfg.api = api;
  auto base = parse_url(fake.base_url());
  REQUIRE(base);
  cfg.base = *base;
  cfg.key = "sk-list";
  cfg.timeout = 20s;
  auto client = batch_client::create(cfg);
  REQUIRE(client);
  return std::move(*client);
}

template <class T, class Op>
caf::expected<T> await(Op op) {
  auto promise = std::make_shared<std::promise<caf::expected<T>>>();
  auto future = promise->get_future();
  op([promise](caf::expected<T> r) { promise->set_value(std::move(r)); });
  if (future.wait_for(60s) != std::future_status::ready)
    throw std::runtime_error("no answer within 60 s");
  return future.get();
}

std::string document_of(batch_api api, const std::string& tag,
                        std::uint64_t n) {
  batch_document doc(api);
  call_options o;
  o.model = "m";
  for (std::uint64_t i = 0; i < n; ++i)
    REQUIRE_FALSE(doc.add(make_custom_id({tag, i, 0}), "prompt", o));
  return *doc.finish();
}

} // namespace

TEST_CASE(
  "batch list: newest first, each batch as its status, with OpenAI's key",
  "[http][batch]") {
  for (auto api : {batch_api::anthropic, batch_api::openai}) {
    INFO(to_string(api));
    test::fake_batch_options o;
    o.kind =
      api == batch_api::anthropic ? api_kind::anthropic : api_kind::openai;
    fake_batches fake(o);
    auto client = client_of(fake, api);
    auto empty =
      await<std::vector<batch_status>>([&](auto done) { client->list(done); });
    REQUIRE(empty);
    CHECK(empty->empty());
    auto first = await<batch_status>([&](auto done) {
      client->submit(document_of(api, "a", 2), done, "ijb-key-a");
    });
    auto second = await<batch_status>([&](auto done) {
      client->submit(document_of(api, "b", 3), done, "ijb-key-b");
    });
    REQUIRE(first);
    REQUIRE(second);
    auto list =
      await<std::vector<batch_status>>([&](auto done) { client->list(done); });
    REQUIRE(list);
    REQUIRE(list->size() == 2);
    CHECK((*list)[0].id == second->id);
    CHECK((*list)[1].id == first->id);
    CHECK(fake.lists() == 2);
    CHECK(fake.polls() == 0); // listing moves no batch
    if (api == batch_api::openai) {
      CHECK((*list)[0].batch_key == "ijb-key-b");
      CHECK(second->batch_key == "ijb-key-b");
    } else {
      // Anthropic has no metadata: size and time identify a batch.
      CHECK((*list)[0].batch_key.empty());
      CHECK((*list)[0].counts.total == 3);
      CHECK((*list)[1].created_at > 0);
    }
    CHECK(fake.violations().empty());
  }
}

TEST_CASE("batch list: the page shapes of both APIs are read",
          "[http][batch]") {
  auto openai = parse_batch_list(
    batch_api::openai,
    R"({"object":"list","data":[{"id":"batch_1","object":"batch","status":"in_progress",)"
    R"("created_at":1,"expires_at":2,"metadata":{"ij_batch_key":"k1"},)"
    R"("request_counts":{"total":4,"completed":1,"failed":0}}],"first_id":"batch_1",)"
    R"("last_id":"batch_1","has_more":false})");
  REQUIRE(openai);
  REQUIRE(openai->size() == 1);
  CHECK((*openai)[0].batch_key == "k1");
  CHECK((*openai)[0].counts.total == 4);
  auto anthropic = parse_batch_list(
    batch_api::anthropic, R"({"data":[],"has_more":false,"first_id":null,)"
                          R"("last_id":null})");
  REQUIRE(anthropic);
  CHECK(anthropic->empty());
  CHECK_FALSE(parse_batch_list(batch_api::openai, R"({"object":"list"})"));
  CHECK_FALSE(parse_batch_list(batch_api::openai, R"({"data":[{"id":"x"}]})"));
}
