#include "adapters/batch_client.hpp"

#include <optional>
#include <random>
#include <set>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <rapidjson/document.h>

#include "adapters/api_error.hpp"
#include "adapters/connection_pool.hpp"
#include "adapters/redaction.hpp"
#include "messages/error.hpp"

namespace ij {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using boost::system::error_code;

namespace {

constexpr const char* user_agent = "invariance-judge/0.1";

struct http_answer {
  unsigned status = 0;
  std::string body;
};

using answer_handler = std::function<void(caf::expected<http_answer>)>;

struct request_spec {
  http::verb method = http::verb::get;
  std::string target;
  std::string content_type;
  std::string accept = "application/json";
  std::string body;
};

/// A request without a body.
request_spec bodiless(http::verb method, std::string target,
                      std::string accept = "application/json") {
  request_spec s;
  s.method = method;
  s.target = std::move(target);
  s.accept = std::move(accept);
  return s;
}

bool is_ip_literal(const std::string& host) {
  error_code ec;
  net::ip::make_address(host, ec);
  return !ec;
}

/// Errors that mean a kept-alive connection was closed by the server while
/// it idled: the request goes again on a fresh one.
bool stale_connection_error(const error_code& ec) {
  return ec == http::error::end_of_stream || ec == net::error::eof
         || ec == net::error::connection_reset || ec == net::error::broken_pipe
         || ec == net::error::connection_aborted
         || ec == ssl::error::stream_truncated;
}

/// Provider ids go into request targets: only characters that need no
/// escaping are let through.
bool safe_id(const std::string& id) {
  if (id.empty() || id.size() > 256)
    return false;
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
      return false;
  return true;
}

} // namespace

struct batch_client::core {
  core(batch_client_config c, std::unique_ptr<ssl::context> t)
      : cfg(std::move(c)), work(net::make_work_guard(io)), tls(std::move(t)),
        pool(io, tls.get(), 2) {}

  batch_client_config cfg;
  net::io_context io;
  net::executor_work_guard<net::io_context::executor_type> work;
  std::unique_ptr<ssl::context> tls;
  connection_pool pool;
  std::thread thread;
  /// Connections in use, aborted at shutdown so that their exchanges answer.
  std::set<connection_ptr> busy;
  bool stopping = false;

  std::string path(const std::string& rest) const {
    return cfg.base.path + rest;
  }

  void exchange(request_spec spec, answer_handler done);
};

namespace {

/// One HTTP request and its response on a pooled connection: resolve,
/// connect, handshake (https), write, read. Answers once.
class http_exchange : public std::enable_shared_from_this<http_exchange> {
public:
  http_exchange(batch_client::core& c, request_spec spec, answer_handler done)
      : core_(c), spec_(std::move(spec)), done_(std::move(done)) {
    const auto& base = core_.cfg.base;
    req_.method(spec_.method);
    req_.target(spec_.target);
    req_.version(11);
    req_.set(http::field::host, base.host_header());
    req_.set(http::field::user_agent, user_agent);
    req_.set(http::field::accept, spec_.accept);
    if (!spec_.content_type.empty())
      req_.set(http::field::content_type, spec_.content_type);
    const auto& p = protocol_of(core_.cfg.api);
    if (p.key_header && !core_.cfg.key.empty())
      req_.set(p.key_header, p.key_prefix + core_.cfg.key);
    if (p.fixed_header)
      req_.set(p.fixed_header, p.fixed_header_value);
    req_.keep_alive(true);
    req_.body() = std::move(spec_.body);
    req_.prepare_payload();
  }

  void start() {
    if (core_.stopping)
      return finish(make_error(errc::unreachable,
                               what() + ": the client is shutting down"));
    if (auto conn = core_.pool.take_idle()) {
      reused_ = true;
      hold(std::move(conn));
      return send();
    }
    reused_ = false;
    hold(core_.pool.make_new());
    resolve();
  }

private:
  std::string what() const {
    return std::string(http::to_string(spec_.method)) + " " + spec_.target;
  }

  /// A step that completed just as shutdown aborted its connection must
  /// not start the next (a connect would reopen the closed socket).
  bool cut_short() const { return core_.stopping; }

  void hold(connection_ptr conn) {
    conn_ = std::move(conn);
    core_.busy.insert(conn_);
  }

  void release(bool reusable) {
    if (!conn_)
      return;
    core_.busy.erase(conn_);
    conn_->lowest().expires_never();
    core_.pool.give_back(std::move(conn_), reusable && !core_.stopping);
  }

  void resolve() {
    const auto& base = core_.cfg.base;
    step_ = "resolving " + base.host;
    conn_->resolver.async_resolve(
      base.host, std::to_string(base.port),
      [self = shared_from_this()](error_code ec,
                                  tcp::resolver::results_type where) {
        if (ec || self->cut_short())
          return self->failed(ec);
        self->connect(where);
      });
  }

  void connect(const tcp::resolver::results_type& where) {
    step_ = "connecting to " + core_.cfg.base.host_header();
    conn_->lowest().expires_after(core_.cfg.connect_timeout);
    conn_->lowest().async_connect(
      where, [self = shared_from_this()](error_code ec, const tcp::endpoint&) {
        if (ec || self->cut_short())
          return self->failed(ec);
        self->conn_->lowest().socket().set_option(tcp::no_delay(true), ec);
        if (self->conn_->tls)
          return self->handshake();
        self->send();
      });
  }

  void handshake() {
    const auto& host = core_.cfg.base.host;
    step_ = "TLS handshake with " + host;
    auto& stream = *conn_->tls;
    // SNI takes DNS names only; IP literals are verified against the
    // certificate's IP addresses.
    if (!is_ip_literal(host)
        && !SSL_set_tlsext_host_name(stream.native_handle(), host.c_str()))
      return fail_text("TLS: cannot set the server name (SNI)");
    stream.set_verify_mode(ssl::verify_peer);
    stream.set_verify_callback(ssl::host_name_verification(host));
    conn_->lowest().expires_after(core_.cfg.connect_timeout);
    stream.async_handshake(ssl::stream_base::client,
                           [self = shared_from_this()](error_code ec) {
                             if (ec || self->cut_short())
                               return self->failed(ec);
                             self->send();
                           });
  }

  void send() {
    step_ = "sending the request";
    parser_.emplace();
    parser_->body_limit(core_.cfg.max_response_bytes);
    // One deadline for writing the request and reading the whole answer.
    conn_->lowest().expires_after(core_.cfg.timeout);
    conn_->with_stream([&](auto& stream) { write(stream); });
  }

  template <class Stream>
  void write(Stream& stream) {
    http::async_write(
      stream, req_,
      [self = shared_from_this(), &stream](error_code ec, std::size_t) {
        if (ec || self->cut_short())
          return self->failed(ec);
        self->read_header(stream);
      });
  }

  // The header first: Beast 1.74 loses the body_limit error for a
  // Content-Length that arrives together with the body.
  template <class Stream>
  void read_header(Stream& stream) {
    step_ = "waiting for the response";
    http::async_read_header(
      stream, conn_->buffer, *parser_,
      [self = shared_from_this(), &stream](error_code ec, std::size_t) {
        if (ec)
          return self->failed(ec);
        auto length = self->parser_->content_length();
        if (length && *length > self->core_.cfg.max_response_bytes)
          return self->failed(http::error::body_limit);
        self->step_ = "reading the response body";
        http::async_read(stream, self->conn_->buffer, *self->parser_,
                         [self](error_code ec, std::size_t) {
                           if (ec)
                             return self->failed(ec);
                           self->on_response();
                         });
      });
  }

  void on_response() {
    bool keep = parser_->keep_alive();
    auto res = parser_->release();
    parser_.reset();
    release(keep);
    http_answer a;
    a.status = res.result_int();
    a.body = std::move(res.body());
    finish(std::move(a));
  }

  void failed(const error_code& ec) {
    bool nothing_received = !parser_ || !parser_->got_some();
    if (!core_.stopping && reused_ && nothing_received
        && stale_connection_error(ec)) {
      // A kept-alive connection the server had closed: not the server's
      // failure; once more on a fresh connection.
      release(false);
      reused_ = false;
      hold(core_.pool.make_new());
      return resolve();
    }
    std::string text;
    if (core_.stopping)
      text = "the client is shutting down";
    else if (ec == beast::error::timeout)
      text = step_ + ": timed out";
    else if (ec == http::error::body_limit)
      text = "the response exceeds "
             + std::to_string(core_.cfg.max_response_bytes) + " bytes";
    else
      text = step_ + ": " + ec.message();
    fail_text(text);
  }

  void fail_text(const std::string& text) {
    release(false);
    finish(
      make_error(errc::unreachable,
                 what() + " to " + core_.cfg.base.host_header() + ": " + text));
  }

  void finish(caf::expected<http_answer> result) {
    if (!done_)
      return;
    auto done = std::move(done_);
    done_ = nullptr;
    done(std::move(result));
  }

  batch_client::core& core_;
  request_spec spec_;
  answer_handler done_;
  http::request<http::string_body> req_;
  std::optional<http::response_parser<http::string_body>> parser_;
  connection_ptr conn_;
  bool reused_ = false;
  std::string step_;
};

/// A non-2xx answer as an error: the request, the status, the API's words.
caf::error status_error(const std::string& what, const http_answer& a,
                        const std::string& secret) {
  auto err = parse_api_error(a.body);
  auto text = what + ": HTTP " + std::to_string(a.status) + ": "
              + redact(err.message, secret);
  if (!err.type.empty())
    text += " (" + redact(err.type, secret) + ")";
  auto code = a.status == 401 || a.status == 403 ? errc::bad_config
              : a.status == 408 || a.status == 429 || a.status >= 500
                ? errc::unreachable
                : errc::bad_input;
  return make_error(code, std::move(text));
}

/// Runs `spec` and hands on the body of a 2xx answer, or the error.
template <class F>
void call(batch_client::core& c, request_spec spec,
          std::function<void(caf::error)> fail, F on_body) {
  auto what = std::string(http::to_string(spec.method)) + " " + spec.target;
  c.exchange(std::move(spec),
             [&c, what, fail = std::move(fail), on_body = std::move(on_body)](
               caf::expected<http_answer> a) mutable {
               if (!a)
                 return fail(a.error());
               if (a->status < 200 || a->status >= 300)
                 return fail(status_error(what, *a, c.cfg.key));
               on_body(std::move(a->body));
             });
}

std::string random_boundary() {
  std::random_device rd;
  std::mt19937_64 rng(rd());
  static const char hex[] = "0123456789abcdef";
  std::string b = "ij-batch-";
  for (int i = 0; i < 24; ++i)
    b += hex[rng() % 16];
  return b;
}

} // namespace

void batch_client::core::exchange(request_spec spec, answer_handler done) {
  std::make_shared<http_exchange>(*this, std::move(spec), std::move(done))
    ->start();
}

caf::expected<std::unique_ptr<batch_client>>
batch_client::create(batch_client_config config) {
  auto tls = tls_context_if(config.base.tls, config.ca_file);
  if (!tls)
    return std::move(tls.error());
  auto c = std::make_shared<core>(std::move(config), std::move(*tls));
  c->thread = std::thread([raw = c.get()] { raw->io.run(); });
  return std::unique_ptr<batch_client>(new batch_client(std::move(c)));
}

batch_client::batch_client(std::shared_ptr<core> c) : core_(std::move(c)) {}

batch_client::~batch_client() {
  net::post(core_->io, [c = core_.get()] {
    c->stopping = true;
    c->pool.close();
    // Their exchanges fail at once and answer "shutting down".
    for (auto& conn : c->busy)
      conn->abort();
  });
  core_->work.reset();
  core_->thread.join();
}

batch_api batch_client::api() const {
  return core_->cfg.api;
}

void batch_client::submit(std::string document, batch_status_handler done,
                          std::string batch_key) {
  net::post(core_->io, [c = core_.get(), document = std::move(document),
                        done = std::move(done),
                        batch_key = std::move(batch_key)]() mutable {
    auto api = c->cfg.api;
    auto fail = [done](caf::error err) { done(std::move(err)); };
    auto read_status = [api, done](std::string body) {
      done(parse_batch_status(api, body));
    };
    if (api == batch_api::anthropic) {
      request_spec spec{http::verb::post, c->path("/v1/messages/batches"),
                        "application/json", "application/json",
                        std::move(document)};
      return call(*c, std::move(spec), fail, read_status);
    }
    // OpenAI: the file first, then the batch that names it.
    auto boundary = random_boundary();
    while (document.find(boundary) != std::string::npos)
      boundary = random_boundary();
    std::string body;
    body.reserve(document.size() + 400);
    body.append("--").append(boundary).append("\r\n");
    body.append(
      "Content-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n");
    body.append("--").append(boundary).append("\r\n");
    body.append("Content-Disposition: form-data; name=\"file\"; "
                "filename=\"batch.jsonl\"\r\n");
    body.append("Content-Type: application/jsonl\r\n\r\n");
    body.append(document);
    body.append("\r\n--").append(boundary).append("--\r\n");
    document.clear();
    document.shrink_to_fit();
    request_spec upload{http::verb::post, c->path("/files"),
                        "multipart/form-data; boundary=" + boundary,
                        "application/json", std::move(body)};
    call(
      *c, std::move(upload), fail,
      [c, fail, read_status, batch_key](std::string reply) {
        rapidjson::Document doc;
        doc.Parse(reply.data(), reply.size());
        if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("id")
            || !doc["id"].IsString())
          return fail(make_error(errc::bad_reply, "POST " + c->path("/files")
                                                    + ": no file id in "
                                                    + body_excerpt(reply)));
        std::string id = doc["id"].GetString();
        if (!safe_id(id))
          return fail(make_error(errc::bad_reply, "POST " + c->path("/files")
                                                    + ": an unusable file id: "
                                                    + body_excerpt(id, 80)));
        std::string create =
          R"({"input_file_id":")" + id
          + R"(","endpoint":"/v1/chat/completions","completion_window":"24h")";
        // The key is the batch_judge's own ([a-z0-9-]): no escaping needed.
        if (!batch_key.empty() && safe_id(batch_key))
          create += R"(,"metadata":{"ij_batch_key":")" + batch_key + R"("})";
        create += "}";
        request_spec spec{http::verb::post, c->path("/batches"),
                          "application/json", "application/json",
                          std::move(create)};
        call(*c, std::move(spec), fail, read_status);
      });
  });
}

namespace {

std::string batch_target(const batch_client::core& c, const std::string& id) {
  return c.path(c.cfg.api == batch_api::anthropic ? "/v1/messages/batches/" + id
                                                  : "/batches/" + id);
}

} // namespace

void batch_client::status(const std::string& id, batch_status_handler done) {
  net::post(core_->io, [c = core_.get(), id, done = std::move(done)] {
    if (!safe_id(id))
      return done(make_error(errc::bad_input,
                             "an unusable batch id: " + body_excerpt(id, 80)));
    auto api = c->cfg.api;
    call(
      *c, bodiless(http::verb::get, batch_target(*c, id)),
      [done](caf::error err) { done(std::move(err)); },
      [api, done](std::string body) { done(parse_batch_status(api, body)); });
  });
}

void batch_client::list(batch_list_handler done) {
  net::post(core_->io, [c = core_.get(), done = std::move(done)] {
    auto api = c->cfg.api;
    auto target =
      c->path(api == batch_api::anthropic ? "/v1/messages/batches?limit=100"
                                          : "/batches?limit=100");
    call(
      *c, bodiless(http::verb::get, target),
      [done](caf::error err) { done(std::move(err)); },
      [api, done](std::string body) { done(parse_batch_list(api, body)); });
  });
}

void batch_client::cancel(const std::string& id, batch_status_handler done) {
  net::post(core_->io, [c = core_.get(), id, done = std::move(done)] {
    if (!safe_id(id))
      return done(make_error(errc::bad_input,
                             "an unusable batch id: " + body_excerpt(id, 80)));
    auto api = c->cfg.api;
    call(
      *c, bodiless(http::verb::post, batch_target(*c, id) + "/cancel"),
      [done](caf::error err) { done(std::move(err)); },
      [api, done](std::string body) { done(parse_batch_status(api, body)); });
  });
}

namespace {

/// The request target of a results URL: its path when absolute (the client
/// talks to its base host only), as is when relative.
caf::expected<std::string> results_target(const std::string& results_url) {
  auto scheme = results_url.find("://");
  if (scheme == std::string::npos)
    return results_url.empty() || results_url[0] != '/'
             ? caf::expected<std::string>{make_error(
               errc::bad_reply,
               "an unusable results_url: " + body_excerpt(results_url, 120))}
             : caf::expected<std::string>{results_url};
  auto path = results_url.find('/', scheme + 3);
  if (path == std::string::npos)
    return make_error(errc::bad_reply, "an unusable results_url: "
                                         + body_excerpt(results_url, 120));
  return results_url.substr(path);
}

/// Downloads the files in `ids` one after another and parses their lines
/// into `acc`.
void fetch_files(batch_client::core* c, std::vector<std::string> ids,
                 std::shared_ptr<std::vector<batch_result>> acc,
                 batch_results_handler done) {
  if (ids.empty())
    return done(std::move(*acc));
  auto id = ids.front();
  ids.erase(ids.begin());
  if (!safe_id(id))
    return done(make_error(errc::bad_reply,
                           "an unusable file id: " + body_excerpt(id, 80)));
  call(
    *c, bodiless(http::verb::get, c->path("/files/" + id + "/content"), "*/*"),
    [done](caf::error err) { done(std::move(err)); },
    [c, ids = std::move(ids), acc, done](std::string body) mutable {
      auto lines = parse_result_lines(batch_api::openai, body);
      if (!lines)
        return done(lines.error());
      acc->insert(acc->end(), std::make_move_iterator(lines->begin()),
                  std::make_move_iterator(lines->end()));
      fetch_files(c, std::move(ids), std::move(acc), std::move(done));
    });
}

} // namespace

void batch_client::results(const std::string& id, batch_results_handler done) {
  status(id, [c = core_.get(), id,
              done = std::move(done)](caf::expected<batch_status> st) {
    if (!st)
      return done(st.error());
    if (!is_terminal(st->state))
      return done(make_error(errc::bad_input, "batch " + id + " has not ended: "
                                                + to_string(st->state)));
    if (c->cfg.api == batch_api::openai) {
      std::vector<std::string> files;
      for (auto& f : {st->output_file_id, st->error_file_id})
        if (!f.empty())
          files.push_back(f);
      return fetch_files(c, std::move(files),
                         std::make_shared<std::vector<batch_result>>(),
                         std::move(done));
    }
    if (st->results_url.empty())
      return done(make_error(errc::bad_reply,
                             "batch " + id
                               + " has ended without a results_url "
                                 "(results are kept 29 days after creation)"));
    auto target = results_target(st->results_url);
    if (!target)
      return done(target.error());
    call(
      *c, bodiless(http::verb::get, *target, "application/binary"),
      [done](caf::error err) { done(std::move(err)); },
      [done](std::string body) {
        done(parse_result_lines(batch_api::anthropic, body));
      });
  });
}

} // namespace ij
