#pragma once
// One pair to compare (SPEC §2): answer A (original) and answer B
// (transformed) of the same problem `item`.
#include <optional>
#include <string>

#include <caf/error.hpp>
#include <caf/meta/load_callback.hpp>
#include <caf/meta/type_name.hpp>

#include "messages/tri_bool.hpp"

namespace ij {

struct answer_pair {
  std::string id;
  /// Groups pairs of one problem for the statistical verdict; defaults to id.
  std::string item;
  std::string a;
  std::string b;
  /// Known truth (true: equivalent), when known.
  std::optional<bool> label;
  /// Free text naming the transformation that produced B, if given.
  std::string transform;
  /// The problem both answers answer, if given: a declared prompt may show
  /// it to the judge ({{problem}}, issue 29).
  std::string problem{};
};

inline bool operator==(const answer_pair& x, const answer_pair& y) {
  return x.id == y.id && x.item == y.item && x.a == y.a && x.b == y.b
         && x.label == y.label && x.transform == y.transform
         && x.problem == y.problem;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, answer_pair& x) {
  auto label = encode_tri(x.label);
  return f(caf::meta::type_name("ij.answer_pair2"), x.id, x.item, x.a, x.b,
           label, x.transform, x.problem,
           caf::meta::load_callback([&]() -> caf::error {
             x.label = decode_tri(label);
             return caf::none;
           }));
}

} // namespace ij
