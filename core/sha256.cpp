#include "core/sha256.hpp"

#include <cstdlib>
#include <memory>

#include <openssl/evp.h>

namespace ij {

namespace {

// OpenSSL 3's one-shot SHA256() looks the algorithm up on every call, which
// costs as much as hashing a short line: fetch it once, and keep one context
// per thread.
const EVP_MD* sha256_algorithm() {
  static EVP_MD* md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}

struct context_deleter {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};

void digest(std::string_view data, unsigned char (&out)[32]) {
  thread_local std::unique_ptr<EVP_MD_CTX, context_deleter> ctx{
    EVP_MD_CTX_new()};
  unsigned int len = 0;
  auto md = sha256_algorithm();
  if (!md || !ctx || EVP_DigestInit_ex2(ctx.get(), md, nullptr) != 1
      || EVP_DigestUpdate(ctx.get(), data.data(), data.size()) != 1
      || EVP_DigestFinal_ex(ctx.get(), out, &len) != 1 || len != 32)
    std::abort(); // OpenSSL without SHA-256: nothing here can be trusted
}

} // namespace

void sha256_hex_into(std::string_view data, std::string& out) {
  unsigned char d[32];
  digest(data, d);
  static constexpr char hex[] = "0123456789abcdef";
  out.resize(64);
  for (int i = 0; i < 32; ++i) {
    out[2 * i] = hex[d[i] >> 4];
    out[2 * i + 1] = hex[d[i] & 0xf];
  }
}

std::string sha256_hex(std::string_view data) {
  std::string out;
  sha256_hex_into(data, out);
  return out;
}

} // namespace ij
