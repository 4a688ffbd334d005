#include <sstream>

#include "answers/math_parser.hpp"
#include "core/text.hpp"

namespace ij::math_parsing {

// ------------------------------------------------------------ operands

parsed math_parser::united() {
  auto first = sum();
  if (!first || !is_op("cup"))
    return first;
  math_answer out;
  out.kind = math_kind::intervals;
  // Whether `part` is intervals (a pair in brackets is one), added to `out`.
  auto add = [&](parsed part) {
    if (part && part->kind == math_kind::tuple
        && (part->round_pair || part->square_pair))
      part = interval(*part, part->square_pair, part->square_pair);
    if (!part || part->kind != math_kind::intervals)
      return false;
    for (auto& i : part->intervals)
      out.intervals.push_back(std::move(i));
    return true;
  };
  if (!add(std::move(first)))
    return std::nullopt;
  while (eat_op("cup"))
    if (!add(sum()))
      return std::nullopt;
  return out;
}

parsed math_parser::sum() {
  depth_guard guard{depth_};
  if (!guard)
    return std::nullopt;
  parsed acc;
  if (eat_op("pm")) {
    auto t = term();
    if (!t)
      return std::nullopt;
    acc = plus_minus(expression_of(0), *t);
  } else {
    const bool negative = is_op("-");
    if (negative || is_op("+"))
      ++pos_;
    acc = term();
    if (acc && negative)
      acc = arithmetic(expression_of(0), *acc, '-');
  }
  while (acc) {
    const bool plus = eat_op("+");
    const bool minus = !plus && eat_op("-");
    const bool pm = !plus && !minus && (eat_op("pm") || eat_op("mp"));
    if (!plus && !minus && !pm)
      return acc;
    auto t = term();
    if (!t)
      return std::nullopt;
    acc = pm ? plus_minus(*acc, *t) : arithmetic(*acc, *t, plus ? '+' : '-');
  }
  return std::nullopt;
}

parsed math_parser::plus_minus(const math_answer& a, const math_answer& b) {
  auto plus = arithmetic(a, b, '+');
  auto minus = arithmetic(a, b, '-');
  if (!plus || !minus)
    return std::nullopt;
  math_answer out;
  out.kind = math_kind::set;
  out.plus_minus = true;
  for (auto* part : {&*plus, &*minus}) {
    if (part->plus_minus)
      for (auto& x : part->items)
        out.items.push_back(std::move(x));
    else
      out.items.push_back(std::move(*part));
  }
  if (out.items.size() > max_alternatives)
    return std::nullopt;
  return out;
}

parsed math_parser::arithmetic(const math_answer& a, const math_answer& b,
                               char op) {
  if (a.plus_minus || b.plus_minus) {
    math_answer out;
    out.kind = math_kind::set;
    out.plus_minus = true;
    const auto& xs = a.plus_minus ? a.items : std::vector<math_answer>{a};
    const auto& ys = b.plus_minus ? b.items : std::vector<math_answer>{b};
    for (const auto& x : xs)
      for (const auto& y : ys) {
        auto r = arithmetic(x, y, op);
        if (!r)
          return std::nullopt;
        out.items.push_back(std::move(*r));
      }
    if (out.items.size() > max_alternatives)
      return std::nullopt;
    return out;
  }
  if (!is_expression(a) || !is_expression(b))
    return std::nullopt;
  ex r;
  switch (op) {
    case '+': r = a.value + b.value; break;
    case '-': r = a.value - b.value; break;
    case '*': r = a.value * b.value; break;
    case '/':
      if (b.value.is_zero())
        return std::nullopt;
      r = a.value / b.value;
      break;
    default: {
      auto p = checked_power(a.value, b.value);
      if (!p)
        return std::nullopt;
      r = *p;
      break;
    }
  }
  return expression_of(r, fewer_places(a.min_places, b.min_places));
}

bool math_parser::starts_factor() const {
  auto p = peek();
  if (!p)
    return false;
  switch (p->kind) {
    case K::number:
    case K::name:
    case K::function:
    case K::constant:
    case K::command: return true;
    case K::op: return p->text == "(" || p->text == "{";
    default: return false;
  }
}

bool math_parser::at_proper_fraction() const {
  if (!is(K::command, "frac"))
    return false;
  auto whole = [](const math_token* t) {
    return t && t->kind == K::number
           && t->text.find('.') == std::string_view::npos;
  };
  long p = 0, q = 0;
  if (is_op("{", 1) && whole(peek(2)) && is_op("}", 3) && is_op("{", 4)
      && whole(peek(5)) && is_op("}", 6)) {
    if (peek(2)->text.size() > 9 || peek(5)->text.size() > 9)
      return false;
    p = std::stol(std::string{peek(2)->text});
    q = std::stol(std::string{peek(5)->text});
  } else if (whole(peek(1)) && peek(1)->text.size() == 2) { // "\frac13"
    p = peek(1)->text[0] - '0';
    q = peek(1)->text[1] - '0';
  } else {
    return false;
  }
  return p > 0 && p < q;
}

parsed math_parser::term() {
  const bool from_whole = peek() && peek()->kind == K::number
                          && peek()->text.find('.') == std::string_view::npos;
  auto acc = signed_factor();
  if (acc && from_whole && pos_ > 0 && t_[pos_ - 1].kind == K::number
      && at_proper_fraction()) {
    juxtaposed_fraction_ = true; // "2\frac{1}{3}": 7/3 or 2/3?
    if (mixed_numbers_) {
      auto part = power();
      if (!part)
        return std::nullopt;
      const bool negative =
        is_expression(*acc) && acc->value.info(GiNaC::info_flags::negative);
      acc = arithmetic(*acc, *part, negative ? '-' : '+');
    }
  }
  while (acc) {
    parsed next;
    char op = '*';
    if (eat_op("*")) {
      next = signed_factor();
    } else if (eat_op("/")) {
      next = divisor();
      op = '/';
    } else if (starts_factor()) {
      next = power(); // implicit multiplication
    } else {
      return acc;
    }
    if (!next)
      return std::nullopt;
    acc = arithmetic(*acc, *next, op);
  }
  return std::nullopt;
}

parsed math_parser::divisor() {
  auto d = signed_factor();
  if (!d || !starts_factor())
    return d;
  juxtaposed_divisor_ = true; // "1/2x": 1/(2x) or x/2?
  if (tight_division_)
    while (d && starts_factor()) {
      auto factor = power();
      if (!factor)
        return std::nullopt;
      d = arithmetic(*d, *factor, '*');
    }
  return d;
}

parsed math_parser::signed_factor() {
  if (eat_op("-")) {
    auto f = signed_factor();
    if (!f)
      return std::nullopt;
    return arithmetic(expression_of(0), *f, '-');
  }
  if (eat_op("+"))
    return signed_factor();
  return power();
}

parsed math_parser::power() {
  depth_guard guard{depth_};
  if (!guard)
    return std::nullopt;
  auto p = primary();
  if (!p)
    return std::nullopt;
  auto base = postfix(std::move(*p));
  if (!base || !eat_op("^"))
    return base;
  auto exponent = exponent_operand();
  if (!exponent)
    return std::nullopt;
  auto raised = arithmetic(*base, *exponent, '^');
  if (!raised)
    return std::nullopt;
  return postfix(std::move(*raised));
}

parsed math_parser::exponent_operand() {
  if (eat_op("{")) {
    auto e = sequence("}");
    if (!e || !eat_op("}"))
      return std::nullopt;
    return e;
  }
  if (eat_op("-")) {
    auto e = exponent_operand();
    if (!e)
      return std::nullopt;
    return arithmetic(expression_of(0), *e, '-');
  }
  return primary();
}

parsed math_parser::postfix(math_answer a) {
  while (is_op("!")) {
    ++pos_;
    if (!is_expression(a) || !count_in_bounds(a.value, max_factorial))
      return std::nullopt;
    a.value = GiNaC::factorial(a.value);
  }
  return a;
}

// ------------------------------------------------------------ primaries

parsed math_parser::primary() {
  depth_guard guard{depth_};
  auto p = peek();
  if (!guard || !p)
    return std::nullopt;
  switch (p->kind) {
    case K::number: return number();
    case K::name: return name();
    case K::constant: return constant();
    case K::function: return function();
    case K::command: return command();
    case K::begin: return matrix();
    case K::op: return bracketed();
    default: return std::nullopt;
  }
}

parsed math_parser::number() {
  auto text = peek()->text;
  ++pos_;
  const auto dot = text.find('.');
  std::string digits{text.substr(0, dot)};
  int places = -1;
  if (dot != std::string_view::npos) {
    auto frac = text.substr(dot + 1);
    digits += frac;
    places = static_cast<int>(frac.size());
  }
  if (text.size() > 1 && text[0] == '0' && text::is_digit(text[1]))
    return std::nullopt; // "01", "2023-01-05": a date or a code, not arithmetic
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  if (digits.empty())
    digits = "0";
  if (digits.size() > max_literal_digits)
    return std::nullopt;
  ex value = GiNaC::numeric(digits.c_str());
  if (places > 0)
    value = value / GiNaC::pow(GiNaC::numeric(10), places);
  if (dot != std::string_view::npos && is(K::command, "overline"))
    return repeating(value, places);
  if (places == 0)
    return std::nullopt; // "3." without a repeating part
  return expression_of(value, places);
}

parsed math_parser::repeating(const ex& head, int places) {
  ++pos_;
  if (!eat_op("{"))
    return std::nullopt;
  auto p = peek();
  if (!p || p->kind != K::number || p->text.find('.') != std::string_view::npos
      || p->text.size() > max_literal_digits)
    return std::nullopt;
  const auto period = static_cast<int>(p->text.size());
  const ex block = GiNaC::numeric(std::string{p->text}.c_str());
  ++pos_;
  if (!eat_op("}"))
    return std::nullopt;
  // 0.1\overline{6} = 0.1 + 6 / (10 * (10^1 - 1)): exact, and no rounding.
  const ex shift = GiNaC::pow(GiNaC::numeric(10), std::max(places, 0));
  return expression_of(
    head + block / (shift * (GiNaC::pow(GiNaC::numeric(10), period) - 1)));
}

std::optional<std::string> math_parser::function_label() {
  if (!is_op("(", 1))
    return std::nullopt;
  std::string label{peek()->text};
  label += "(";
  std::size_t k = 2;
  for (; peek(k) && !is(K::op, ")", k); ++k) {
    const auto* q = peek(k);
    if (q->kind != K::name && !(q->kind == K::op && q->text == ","))
      return std::nullopt;
    label += q->text;
  }
  if (!is(K::op, ")", k) || !relation_at(k + 1))
    return std::nullopt;
  pos_ += k + 1;
  return label + ")";
}

bool math_parser::is_op(std::string_view text, std::size_t k) const {
  return is(K::op, text, k);
}

parsed math_parser::name() {
  if (auto label = function_label())
    return expression_of(symbols_.get(*label));
  std::string n{peek()->text};
  ++pos_;
  if (eat_op("_")) {
    n += "_";
    if (eat_op("{")) {
      while (!is_op("}")) {
        auto q = peek();
        if (!q || (q->kind != K::number && q->kind != K::name))
          return std::nullopt;
        n += q->text;
        ++pos_;
      }
      ++pos_;
    } else {
      auto q = peek();
      if (!q || (q->kind != K::number && q->kind != K::name))
        return std::nullopt;
      n += q->text;
      ++pos_;
    }
  }
  if (is_op("(") && !symbols_.known_number(n)) {
    open_application_ = true; // "g(0)": g applied to 0, or g times 0?
    if (!products_)
      return application(n);
  }
  return expression_of(symbols_.get(n));
}

parsed math_parser::application(const std::string& name) {
  const auto group = primary();
  if (!group)
    return std::nullopt;
  std::ostringstream label;
  label << name << "(";
  if (is_expression(*group)) {
    label << group->value;
  } else if (group->kind == math_kind::tuple) {
    for (std::size_t k = 0; k < group->items.size(); ++k) {
      if (!is_expression(group->items[k]))
        return std::nullopt;
      label << (k ? "," : "") << group->items[k].value;
    }
  } else {
    return std::nullopt;
  }
  label << ")";
  return expression_of(symbols_.get(label.str()));
}

math_answer math_parser::constant() {
  auto c = peek()->text;
  ++pos_;
  if (c == "pi")
    return expression_of(GiNaC::Pi);
  if (c == "e")
    return expression_of(GiNaC::exp(ex(1)));
  if (c == "i")
    return expression_of(GiNaC::I);
  return expression_of(symbols_.infinity());
}

parsed math_parser::function_argument() {
  if (is_op("(") || is_op("{"))
    return primary();
  auto acc = signed_factor();
  while (acc && peek()
         && (peek()->kind == K::number || peek()->kind == K::name
             || peek()->kind == K::constant)) {
    auto factor = primary();
    if (!factor)
      return std::nullopt;
    acc = arithmetic(*acc, *factor, '*');
  }
  return acc;
}

parsed math_parser::function() {
  const auto f = peek()->text;
  ++pos_;
  parsed base, power_of;
  if (eat_op("_")) { // \log_2 x
    base = eat_op("{") ? braced_rest() : primary();
    if (!base)
      return std::nullopt;
  }
  if (eat_op("^")) { // \sin^2 x
    power_of = exponent_operand();
    if (!power_of)
      return std::nullopt;
  }
  auto arg = function_argument();
  if (!arg || !is_expression(*arg) || (base && !is_expression(*base)))
    return std::nullopt;
  if (power_of && is_expression(*power_of) && power_of->value.is_equal(-1)) {
    // "\sin^{-1} x" is arcsin x by convention, not 1 / sin x.
    if (base || (f != "sin" && f != "cos" && f != "tan"))
      return std::nullopt; // "\sec^{-1}", "\log^{-1}": no settled convention
    const std::string inverse = "arc" + std::string{f};
    auto value = apply_function(inverse, arg->value, base);
    if (!value)
      return std::nullopt;
    return expression_of(*value, arg->min_places);
  }
  if (f == "log" && !base && log_base_ > 0)
    base = expression_of(log_base_);
  auto value = apply_function(f, arg->value, base);
  if (!value)
    return std::nullopt;
  math_answer out = expression_of(*value, arg->min_places);
  if (power_of)
    return arithmetic(out, *power_of, '^');
  return out;
}

parsed math_parser::braced_rest() {
  auto e = sequence("}");
  if (!e || !eat_op("}"))
    return std::nullopt;
  return e;
}

std::optional<ex> math_parser::apply_function(std::string_view f, const ex& x,
                                              const parsed& base) {
  if (base) {
    if (f != "log" || base->value.is_zero())
      return std::nullopt;
    return GiNaC::log(x) / GiNaC::log(base->value);
  }
  if (f == "sin")
    return GiNaC::sin(x);
  if (f == "cos")
    return GiNaC::cos(x);
  if (f == "tan")
    return GiNaC::tan(x);
  if (f == "sec")
    return 1 / GiNaC::cos(x);
  if (f == "csc")
    return 1 / GiNaC::sin(x);
  if (f == "cot")
    return GiNaC::cos(x) / GiNaC::sin(x);
  if (f == "arcsin")
    return GiNaC::asin(x);
  if (f == "arccos")
    return GiNaC::acos(x);
  if (f == "arctan")
    return GiNaC::atan(x);
  if (f == "sinh")
    return GiNaC::sinh(x);
  if (f == "cosh")
    return GiNaC::cosh(x);
  if (f == "tanh")
    return GiNaC::tanh(x);
  if (f == "exp")
    return GiNaC::exp(x);
  if (f == "lg")
    return GiNaC::log(x) / GiNaC::log(ex(10));
  if (x.is_zero())
    return std::nullopt;
  return GiNaC::log(x); // log and ln: the natural logarithm
}

parsed math_parser::command_argument() {
  if (eat_op("{"))
    return braced_rest();
  auto p = peek();
  if (!p)
    return std::nullopt;
  if (p->kind == K::number && p->text.size() > 1) {
    // "\frac34": one digit is the argument, the next digit the other.
    auto d = p->text.substr(0, 1);
    t_[pos_].text = p->text.substr(1);
    return expression_of(GiNaC::numeric(std::string{d}.c_str()));
  }
  return primary();
}

parsed math_parser::command() {
  const auto c = peek()->text;
  ++pos_;
  if (c == "emptyset")
    return empty_set();
  if (c == "mathbb") { // \mathbb{R}: the real line; other number sets unread
    if (!eat_op("{") || !is(K::name, "R"))
      return std::nullopt;
    ++pos_;
    if (!eat_op("}"))
      return std::nullopt;
    math_answer reals;
    reals.kind = math_kind::intervals;
    math_interval line;
    line.lo.infinite = line.hi.infinite = true;
    line.lo.value = -1;
    line.hi.value = 1;
    reals.intervals.push_back(line);
    return reals;
  }
  // A segment, a conjugate, a repeating part without its number.
  if (c == "overline")
    return std::nullopt;
  if (c == "frac") {
    auto num = command_argument();
    if (!num)
      return std::nullopt;
    auto den = command_argument();
    if (!den)
      return std::nullopt;
    return arithmetic(*num, *den, '/');
  }
  if (c == "binom") {
    auto n = command_argument();
    if (!n)
      return std::nullopt;
    auto k = command_argument();
    if (!k || !is_expression(*n) || !is_expression(*k)
        || !count_in_bounds(n->value, max_binomial))
      return std::nullopt;
    return expression_of(GiNaC::binomial(n->value, k->value));
  }
  return root();
}

parsed math_parser::root() {
  // \sqrt[n]{x}, \sqrt{x}, \sqrt x, sqrt(x)
  parsed index = expression_of(2);
  if (eat_op("[")) {
    index = sequence("]");
    if (!index || !eat_op("]"))
      return std::nullopt;
  }
  auto x = is_op("(") ? primary() : command_argument();
  if (!x || !is_expression(*index) || index->value.is_zero())
    return std::nullopt;
  const auto reciprocal = expression_of(1 / index->value);
  if (is_expression(*x) && GiNaC::is_a<GiNaC::numeric>(index->value)) {
    const auto n = GiNaC::ex_to<GiNaC::numeric>(index->value);
    if (n.is_integer() && n.is_odd() && n > 1 && negative_constant(x->value)) {
      // "\sqrt[3]{-8}": an odd root of a negative number is the real one.
      const auto positive = arithmetic(expression_of(0), *x, '-');
      if (!positive)
        return std::nullopt;
      const auto r = arithmetic(*positive, reciprocal, '^');
      if (!r)
        return std::nullopt;
      return arithmetic(expression_of(0), *r, '-');
    }
  }
  return arithmetic(*x, reciprocal, '^');
}

} // namespace ij::math_parsing
