#include "core/prompt_choice.hpp"

namespace ij {

prompt_identity identity_of(const prompt_choice& p) {
  if (!p.declared())
    if (auto b = built_in_prompt(p.id))
      return {b->id(), b->sha256()};
  return {p.id, p.loaded ? p.loaded->sha256() : p.sha256};
}

prompt_ptr template_of(const prompt_choice& p) {
  if (!p.declared())
    return built_in_prompt(p.id);
  return p.loaded;
}

} // namespace ij
