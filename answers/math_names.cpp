#include "answers/math_names.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "core/text.hpp"

namespace ij {

namespace {

using GiNaC::ex;

void names_of(const ex& e, std::set<std::string>& out) {
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it)
    if (GiNaC::is_a<GiNaC::symbol>(*it)) {
      auto n = GiNaC::ex_to<GiNaC::symbol>(*it).get_name();
      if (n != "\\infty")
        out.insert(std::move(n));
    }
}

/// The free variables of an answer; an assignment's name is a label, not
/// one of them.
void free_names(const math_answer& a, std::set<std::string>& out) {
  if (a.kind != math_kind::assignment)
    names_of(a.value, out);
  for (const auto& t : a.terms)
    names_of(t, out);
  for (const auto& i : a.intervals) {
    names_of(i.lo.value, out);
    names_of(i.hi.value, out);
  }
  for (const auto& item : a.items)
    free_names(item, out);
}

std::set<std::string> free_names(const math_answer& a) {
  std::set<std::string> out;
  free_names(a, out);
  return out;
}

void substitute(math_answer& a, const GiNaC::exmap& m) {
  if (a.kind != math_kind::assignment)
    a.value = a.value.subs(m);
  for (auto& t : a.terms)
    t = t.subs(m);
  for (auto& i : a.intervals) {
    i.lo.value = i.lo.value.subs(m);
    i.hi.value = i.hi.value.subs(m);
  }
  for (auto& item : a.items)
    substitute(item, m);
}

/// The expression an antiderivative's constant would be added to.
ex* additive_value(math_answer& a) {
  if (a.kind == math_kind::expression)
    return &a.value;
  if (a.kind == math_kind::assignment && a.items.size() == 1
      && a.items.front().kind == math_kind::expression)
    return &a.items.front().value;
  return nullptr;
}

/// The names an antiderivative's constant goes by.
constexpr std::array<std::string_view, 4> constant_names{"C", "K", "C_1",
                                                         "C_0"};

/// "F(x) + C" against "F(x)": C dropped where it is only added to a
/// function of lower-case variables ("A + B + C" is a sum of three names).
void drop_constant(math_answer& with, symbol_table& symbols,
                   std::string_view name) {
  ex* v = additive_value(with);
  const ex c = symbols.get(std::string{name});
  if (!v || !v->has(c) || (*v - c).has(c))
    return;
  std::set<std::string> others;
  names_of(*v - c, others);
  if (others.empty())
    return; // "5 + C": not an antiderivative
  for (const auto& n : others)
    if (n.size() == 1 && n[0] >= 'A' && n[0] <= 'Z')
      return;
  *v = *v - c;
}

/// "f(x, y)" → head "f" and the argument names; nullopt for other names.
std::optional<std::pair<std::string, std::vector<std::string>>>
function_name(const std::string& name) {
  const auto open = name.find('(');
  if (open == std::string::npos || open == 0 || name.back() != ')')
    return std::nullopt;
  std::vector<std::string> args;
  std::string cur;
  for (std::size_t k = open + 1; k + 1 < name.size(); ++k) {
    if (name[k] == ',') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(name[k]);
    }
  }
  args.push_back(cur);
  return std::make_pair(name.substr(0, open), args);
}

bool rename_function_arguments(math_answer& a, math_answer& b,
                               symbol_table& symbols) {
  if (a.kind != math_kind::assignment || b.kind != math_kind::assignment)
    return false;
  auto fa = function_name(a.name), fb = function_name(b.name);
  if (!fa || !fb || fa->first != fb->first
      || fa->second.size() != fb->second.size() || a.name == b.name)
    return false;
  GiNaC::exmap m;
  for (std::size_t i = 0; i < fa->second.size(); ++i)
    m[symbols.get(fb->second[i])] = symbols.get(fa->second[i]);
  substitute(b, m);
  b.name = a.name;
  return true;
}

std::vector<std::string> minus(const std::set<std::string>& x,
                               const std::set<std::string>& y) {
  std::vector<std::string> out;
  std::set_difference(x.begin(), x.end(), y.begin(), y.end(),
                      std::back_inserter(out));
  return out;
}

} // namespace

std::optional<std::string> strip_integer_parameter(std::string& e) {
  static constexpr std::array<std::string_view, 6> sets{
    "\\in \\mathbb{Z}", "\\in\\mathbb{Z}",  "\\in \\mathbb Z",
    "\\in\\mathbb Z",   "\\in \\mathbf{Z}", "\xE2\x88\x88 \xE2\x84\xA4"};
  for (auto set : sets) {
    const auto at = e.rfind(set);
    if (at == std::string::npos)
      continue;
    std::size_t k = at;
    while (k > 0 && text::is_space(e[k - 1]))
      --k;
    if (k == 0 || !text::is_alpha(e[k - 1])
        || (k >= 2 && (text::is_alpha(e[k - 2]) || e[k - 2] == '\\')))
      return std::nullopt;
    std::string name(1, e[k - 1]);
    std::size_t cut = k - 1;
    // The joint before it: ",", "(", "\text{ where }", "for".
    while (cut > 0
           && (text::is_space(e[cut - 1]) || e[cut - 1] == ','
               || e[cut - 1] == '(' || e[cut - 1] == ';'))
      --cut;
    std::size_t end = at + set.size();
    while (end < e.size()
           && (text::is_space(e[end]) || e[end] == ')' || e[end] == '.'))
      ++end;
    if (end != e.size() || cut == 0)
      return std::nullopt;
    e.erase(cut);
    return name;
  }
  return std::nullopt;
}

naming align_names(math_answer& a, math_answer& b,
                   const std::set<std::string>& parameters,
                   symbol_table& symbols) {
  // A bare name on each side is the answer itself ("A" against "B", a
  // choice), not a variable of one.
  if (a.kind == math_kind::expression && b.kind == math_kind::expression
      && GiNaC::is_a<GiNaC::symbol>(a.value)
      && GiNaC::is_a<GiNaC::symbol>(b.value))
    return naming::same;
  auto na = free_names(a), nb = free_names(b);
  // "-\cos x + C" against "-\cos x" or "-\cos(x) + K": each side's
  // constant goes.
  for (auto name : constant_names) {
    const std::string n{name};
    if (na.count(n))
      drop_constant(a, symbols, name);
    if (nb.count(n))
      drop_constant(b, symbols, name);
  }
  rename_function_arguments(a, b, symbols);
  na = free_names(a);
  nb = free_names(b);
  const auto only_a = minus(na, nb), only_b = minus(nb, na);
  if (only_a.empty() && only_b.empty())
    return naming::same;
  if (only_a.size() != only_b.size())
    return naming::same; // "x + 1" against "2": the values decide
  if (only_a.size() > 1)
    return naming::unaligned;
  GiNaC::exmap m{{symbols.get(only_b.front()), symbols.get(only_a.front())}};
  substitute(b, m);
  return parameters.count(only_a.front()) || parameters.count(only_b.front())
           ? naming::same
           : naming::arbitrary;
}

} // namespace ij
