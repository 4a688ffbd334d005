#pragma once
// The actor system's network side for judge hosts (SPEC §10,
// "Distribution"): CAF's middleman, with its heartbeats configured so that a
// silent connection is dropped in bounded time, and, with TLS files given,
// CAF's OpenSSL transport with mutual certificate authentication (a peer
// without a certificate signed by the CA is refused by the handshake, on
// both ends). Both `invjudge host` and a coordinator configure the same way.
#include <string>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/error.hpp>
#include <caf/io/middleman_actor.hpp>

#include "core/config/run_config.hpp"

namespace ij {

/// Checks the TLS files before anything starts (CAF's OpenSSL module aborts
/// on a file it cannot load, per connection): each can be read, the
/// certificate and the CA are PEM certificates, the key is a PEM private key
/// matching the certificate, and the certificate is signed by the CA; none
/// of the three, or all. A bad_config error names the file and what is wrong
/// (never the key's content).
caf::error check_tls_files(const host_connection& c);

/// Loads the middleman (and OpenSSL with c.tls()) on `cfg` and sets the
/// heartbeat interval and connection timeout. Call after
/// configure_actor_system and after check_tls_files.
void configure_remoting(caf::actor_system_config& cfg,
                        const host_connection& c);

/// The middleman actor to connect and publish through: OpenSSL's when TLS
/// is on, the plain one otherwise. Its requests never block the caller.
caf::io::middleman_actor connection_manager(caf::actor_system& sys, bool tls);

} // namespace ij
