#include "actors/remoting.hpp"

#include <cstdio>
#include <memory>

#include <caf/io/middleman.hpp>
#include <caf/openssl/manager.hpp>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "messages/error.hpp"

namespace ij {

namespace {

struct file_closer {
  void operator()(std::FILE* f) const {
    if (f)
      std::fclose(f);
  }
};
struct x509_free {
  void operator()(X509* x) const { X509_free(x); }
};
struct pkey_free {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using x509_ptr = std::unique_ptr<X509, x509_free>;
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_free>;

using file_ptr = std::unique_ptr<std::FILE, file_closer>;

caf::expected<file_ptr> open_file(const std::string& path, const char* what) {
  file_ptr f{std::fopen(path.c_str(), "rb")};
  if (!f)
    return make_error(errc::bad_config,
                      std::string{what} + " " + path + " cannot be read");
  return f;
}

caf::expected<x509_ptr> read_certificate(const std::string& path,
                                         const char* what) {
  auto f = open_file(path, what);
  if (!f)
    return f.error();
  x509_ptr cert{PEM_read_X509(f->get(), nullptr, nullptr, nullptr)};
  ERR_clear_error();
  if (!cert)
    return make_error(errc::bad_config, std::string{what} + " " + path
                                          + " is not a PEM certificate");
  return cert;
}

caf::expected<pkey_ptr> read_private_key(const std::string& path) {
  auto f = open_file(path, "--tls-key");
  if (!f)
    return f.error();
  pkey_ptr key{PEM_read_PrivateKey(f->get(), nullptr, nullptr, nullptr)};
  ERR_clear_error();
  if (!key)
    return make_error(errc::bad_config,
                      "--tls-key " + path
                        + " is not an unencrypted PEM private key");
  return key;
}

} // namespace

caf::error check_tls_files(const host_connection& c) {
  auto given = !c.tls_cert.empty() + !c.tls_key.empty() + !c.tls_ca.empty();
  if (given == 0)
    return {};
  if (given != 3)
    return make_error(errc::bad_config, "mutual TLS needs all three of "
                                        "--tls-cert, --tls-key and --tls-ca");
  auto cert = read_certificate(c.tls_cert, "--tls-cert");
  if (!cert)
    return cert.error();
  auto ca = read_certificate(c.tls_ca, "--tls-ca");
  if (!ca)
    return ca.error();
  auto key = read_private_key(c.tls_key);
  if (!key)
    return key.error();
  if (X509_check_private_key(cert->get(), key->get()) != 1) {
    ERR_clear_error();
    return make_error(errc::bad_config, "--tls-key " + c.tls_key
                                          + " does not belong to --tls-cert "
                                          + c.tls_cert);
  }
  pkey_ptr ca_key{X509_get_pubkey(ca->get())};
  if (!ca_key || X509_verify(cert->get(), ca_key.get()) != 1) {
    ERR_clear_error();
    return make_error(errc::bad_config, "--tls-cert " + c.tls_cert
                                          + " is not signed by --tls-ca "
                                          + c.tls_ca);
  }
  return {};
}

void configure_remoting(caf::actor_system_config& cfg,
                        const host_connection& c) {
  cfg.load<caf::io::middleman>();
  cfg.set("middleman.heartbeat-interval", caf::timespan{c.heartbeat});
  cfg.set("middleman.connection-timeout", caf::timespan{c.connection_timeout});
  if (c.tls()) {
    cfg.openssl_certificate = c.tls_cert;
    cfg.openssl_key = c.tls_key;
    cfg.openssl_cafile = c.tls_ca;
    cfg.load<caf::openssl::manager>();
  }
}

caf::io::middleman_actor connection_manager(caf::actor_system& sys, bool tls) {
  if (tls)
    return sys.openssl_manager().actor_handle();
  return sys.middleman().actor_handle();
}

} // namespace ij
