#include "messages/error.hpp"

#include <caf/exit_reason.hpp>
#include <caf/sec.hpp>

namespace ij {

std::string_view to_string(errc code) {
  switch (code) {
    case errc::bad_config: return "bad configuration";
    case errc::bad_input: return "bad input";
    case errc::audit_failed: return "the audit trail cannot be written";
    case errc::run_not_started: return "the run has not started";
    case errc::run_ended: return "the run has ended";
    case errc::run_state: return "not possible in the run's state";
    case errc::no_worker: return "no worker serves the judge";
    case errc::unreachable: return "unreachable";
    case errc::incompatible_peer: return "incompatible peer";
    case errc::internal: return "internal error";
    case errc::io_failed: return "cannot read or write";
    case errc::bad_reply: return "an unreadable reply";
  }
  return "unknown error";
}

caf::error make_error(errc code, std::string context) {
  return caf::error{static_cast<std::uint8_t>(code), caf::atom("ij"),
                    caf::make_message(std::move(context))};
}

namespace {

// The context text an error carries, if it is one string.
std::string context_text(const caf::error& err) {
  auto& ctx = err.context();
  if (ctx.size() == 1 && ctx.match_element<std::string>(0))
    return ctx.get_as<std::string>(0);
  if (ctx.empty())
    return {};
  return caf::to_string(ctx);
}

std::string with_context(std::string_view words, const std::string& ctx) {
  std::string out{words};
  if (!ctx.empty())
    out += ": " + ctx;
  return out;
}

std::string_view sec_words(caf::sec code) {
  switch (code) {
    case caf::sec::request_timeout: return "no reply in time";
    case caf::sec::request_receiver_down: return "the actor asked is gone";
    case caf::sec::unexpected_message:
      return "a message the receiver does not handle";
    case caf::sec::unexpected_response: return "an unexpected reply";
    case caf::sec::remote_linking_failed:
    case caf::sec::cannot_connect_to_node: return "cannot connect to the host";
    case caf::sec::no_actor_published_at_port:
      return "nothing is published there";
    case caf::sec::unexpected_actor_messaging_interface:
      return "the host speaks another interface (different message types)";
    case caf::sec::incompatible_versions:
      return "the host runs an incompatible version";
    case caf::sec::cannot_open_port: return "cannot open the port";
    case caf::sec::disconnect_during_handshake:
      return "the connection closed during the handshake";
    case caf::sec::runtime_error: return "failed";
    default: return "";
  }
}

} // namespace

std::string context_of(const caf::error& err) {
  if (!err)
    return {};
  auto ctx = context_text(err);
  return ctx.empty() ? render_error(err) : ctx;
}

std::string render_error(const caf::error& err) {
  if (!err)
    return "no error";
  auto ctx = context_text(err);
  if (err.category() == caf::atom("ij"))
    return with_context(to_string(static_cast<errc>(err.code())), ctx);
  if (err.category() == caf::atom("system")) {
    auto code = static_cast<caf::sec>(err.code());
    auto words = sec_words(code);
    // A runtime error's context is already the whole message.
    if (code == caf::sec::runtime_error && !ctx.empty())
      return ctx;
    if (!words.empty())
      return with_context(words, ctx);
    return with_context(caf::to_string(code), ctx);
  }
  if (err.category() == caf::atom("exit")) {
    auto reason = static_cast<caf::exit_reason>(err.code());
    if (reason == caf::exit_reason::remote_link_unreachable)
      return with_context("the host was lost", ctx);
    return with_context("the actor exited (" + caf::to_string(reason) + ")",
                        ctx);
  }
  return caf::to_string(err);
}

} // namespace ij
