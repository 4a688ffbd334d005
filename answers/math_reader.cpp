#include "answers/math_reader.hpp"

#include <algorithm>
#include <stdexcept>

#include "answers/cleaning.hpp"
#include "answers/math_lexer.hpp"

namespace ij {

namespace {

using K = math_token_kind;
using GiNaC::ex;

// Bounds that keep every GiNaC operation on a read answer small.
constexpr std::size_t max_answer_bytes = 4096;
constexpr std::size_t max_tokens = 800;
constexpr int max_depth = 40;
constexpr std::size_t max_literal_digits = 60;
constexpr long max_integer_exponent = 1000;
constexpr long max_result_digits = 5000;
constexpr long max_factorial = 1000;
constexpr long max_binomial = 10000;
constexpr std::size_t max_alternatives = 8;

/// Thrown inside the parser when the answer is not read; caught at the top.
struct not_read : std::runtime_error {
  not_read() : std::runtime_error("not read") {}
};

[[noreturn]] void refuse() {
  throw not_read{};
}

math_answer expression_of(ex e, int places = -1) {
  math_answer a;
  a.value = std::move(e);
  a.min_places = places;
  return a;
}

int fewer_places(int a, int b) {
  if (a < 0)
    return b;
  if (b < 0)
    return a;
  return std::min(a, b);
}

bool is_expression(const math_answer& a) {
  return a.kind == math_kind::expression;
}

/// Decimal digits of an integer numeric (for the size bounds).
long digits_of(const GiNaC::numeric& n) {
  if (n.is_zero())
    return 1;
  return static_cast<long>(GiNaC::numeric(GiNaC::abs(n)).int_length()) / 3 + 1;
}

/// base^exponent within the bounds.
ex checked_power(const ex& base, const ex& exponent) {
  if (GiNaC::is_a<GiNaC::numeric>(exponent)) {
    const auto e = GiNaC::ex_to<GiNaC::numeric>(exponent);
    if (!e.is_rational())
      refuse();
    const auto num = GiNaC::abs(e.numer());
    if (num > max_integer_exponent)
      refuse();
    if (GiNaC::is_a<GiNaC::numeric>(base)) {
      const auto b = GiNaC::ex_to<GiNaC::numeric>(base);
      if (b.is_zero() && e.is_negative())
        refuse();
      const long d = b.is_rational()
                       ? digits_of(b.numer()) + digits_of(b.denom())
                       : 20;
      if (d * num.to_long() > max_result_digits)
        refuse();
    }
  }
  return GiNaC::pow(base, exponent);
}

/// n! and binomials only of small numbers: GiNaC computes them at once.
void check_count(const ex& n, long max) {
  if (!GiNaC::is_a<GiNaC::numeric>(n))
    return;
  const auto v = GiNaC::ex_to<GiNaC::numeric>(n);
  if (!v.is_integer() || v.is_negative() || v > max)
    refuse();
}

class reader {
public:
  reader(std::vector<math_token> toks, symbol_table& symbols)
    : t_(std::move(toks)), symbols_(symbols) {}

  math_answer answer() {
    auto a = sequence(nullptr);
    if (pos_ != t_.size())
      refuse();
    return a;
  }

private:
  std::vector<math_token> t_;
  symbol_table& symbols_;
  std::size_t pos_ = 0;
  int depth_ = 0;

  struct depth_guard {
    int& d;
    explicit depth_guard(int& x) : d(x) {
      if (++d > max_depth)
        refuse();
    }
    ~depth_guard() { --d; }
  };

  bool at_end() const { return pos_ >= t_.size(); }
  const math_token* peek(std::size_t k = 0) const {
    return pos_ + k < t_.size() ? &t_[pos_ + k] : nullptr;
  }
  bool is(K kind, std::string_view text, std::size_t k = 0) const {
    auto p = peek(k);
    return p && p->kind == kind && p->text == text;
  }
  bool is_op(std::string_view text) const { return is(K::op, text); }
  bool eat_op(std::string_view text) {
    if (!is_op(text))
      return false;
    ++pos_;
    return true;
  }
  void expect_op(std::string_view text) {
    if (!eat_op(text))
      refuse();
  }

  // ------------------------------------------------------------ sequences

  bool at_separator() const {
    return is_op(",") || is_op(";") || is(K::word, "and")
           || is(K::word, "or");
  }

  bool at_close(const char* close) const {
    if (at_end())
      return true;
    return close && is_op(close);
  }

  /// Elements separated by , ; and or, up to `close` (not consumed) or the
  /// end; one element without separators is returned as it is.
  math_answer sequence(const char* close) {
    depth_guard guard{depth_};
    std::vector<math_answer> items;
    bool alternatives = false, trailing = false;
    while (!at_close(close)) {
      if (at_separator()) {
        alternatives = alternatives || is(K::word, "or");
        ++pos_;
        trailing = true;
        continue; // "6 and 8", "a, and b", "(0,)"
      }
      items.push_back(element());
      trailing = false;
      if (items.size() > 200)
        refuse();
    }
    if (items.empty())
      refuse();
    if (items.size() == 1 && !trailing)
      return std::move(items.front());
    return collection(std::move(items), alternatives);
  }

  /// What a list of elements means: named values, a variable's values, a
  /// set of alternatives or points, else a bare list.
  math_answer collection(std::vector<math_answer> items, bool alternatives) {
    math_answer out;
    const bool all_assignments =
      std::all_of(items.begin(), items.end(), [](const math_answer& a) {
        return a.kind == math_kind::assignment;
      });
    if (all_assignments)
      return systems(std::move(items));
    if (items.front().kind == math_kind::assignment
        && std::all_of(items.begin() + 1, items.end(), is_expression)) {
      // "n = 2, 3, 4": the values of one variable.
      out = std::move(items.front());
      math_answer values;
      values.kind = math_kind::set;
      values.items.push_back(std::move(out.items.front()));
      for (auto it = items.begin() + 1; it != items.end(); ++it)
        values.items.push_back(std::move(*it));
      out.items.front() = std::move(values);
      return out;
    }
    const bool points = items.size() > 1
                        && std::all_of(items.begin(), items.end(),
                                       [](const math_answer& a) {
                                         return a.kind == math_kind::tuple;
                                       });
    const bool any_pair =
      std::any_of(items.begin(), items.end(),
                  [](const math_answer& a) { return a.plus_minus; });
    // "1 \pm \sqrt 5, -2": values, not a tuple.
    out.kind = alternatives || points || any_pair ? math_kind::set
                                                  : math_kind::list;
    out.items = flattened(std::move(items));
    return out;
  }

  /// The values of a ± pair stand beside the other elements.
  static std::vector<math_answer> flattened(std::vector<math_answer> items) {
    std::vector<math_answer> out;
    for (auto& a : items) {
      if (a.plus_minus)
        for (auto& x : a.items)
          out.push_back(std::move(x));
      else
        out.push_back(std::move(a));
    }
    return out;
  }

  /// "x = 1, y = 2": one solution; "p = 5, q = 2, p = 7, q = 2": a set of
  /// solutions, a new one starting where a name repeats.
  static math_answer systems(std::vector<math_answer> items) {
    std::vector<math_answer> solutions;
    math_answer current;
    current.kind = math_kind::system;
    for (auto& a : items) {
      const bool repeats =
        std::any_of(current.items.begin(), current.items.end(),
                    [&](const math_answer& b) { return b.name == a.name; });
      if (repeats) {
        solutions.push_back(std::move(current));
        current = math_answer{};
        current.kind = math_kind::system;
      }
      current.items.push_back(std::move(a));
    }
    solutions.push_back(std::move(current));
    const bool one_name_each =
      std::all_of(solutions.begin(), solutions.end(), [&](const math_answer& s) {
        return s.items.size() == 1 && s.items.front().name
                                        == solutions.front().items.front().name;
      });
    if (solutions.size() > 1 && one_name_each) {
      // "x = 1 or x = 2": the values of one variable.
      math_answer values;
      values.kind = math_kind::set;
      for (auto& s : solutions)
        values.items.push_back(std::move(s.items.front().items.front()));
      math_answer out = std::move(solutions.front().items.front());
      out.items.front() = std::move(values);
      return out;
    }
    if (solutions.size() == 1) {
      if (solutions.front().items.size() == 1)
        return std::move(solutions.front().items.front());
      return std::move(solutions.front());
    }
    math_answer set;
    set.kind = math_kind::set;
    set.items = std::move(solutions);
    return set;
  }

  // ------------------------------------------------------------ relations

  bool relation_at(std::size_t k) const {
    for (std::string_view op : {"=", "<", ">", "<=", ">=", "!="})
      if (is(K::op, op, k))
        return true;
    return false;
  }

  std::optional<relation_op> relation_here() const {
    static const std::pair<std::string_view, relation_op> ops[] = {
      {"=", relation_op::eq}, {"<", relation_op::lt}, {"<=", relation_op::le},
      {">", relation_op::gt}, {">=", relation_op::ge}, {"!=", relation_op::ne}};
    for (const auto& [text, op] : ops)
      if (is_op(text))
        return op;
    return std::nullopt;
  }

  /// A relation chain, an assignment, "x \in S", "E \approx 0.33" (the
  /// exact value E is the answer), or one operand.
  math_answer element() {
    math_answer first = united();
    if (eat_op("approx")) {
      // "x \approx 0.58": the value; "\frac{1}{3} \approx 0.33": the exact
      // value is the answer, the approximation only illustrates it.
      auto approximation = united();
      while (eat_op("approx"))
        approximation = united();
      if (simple_name(first))
        return assignment(first, std::move(approximation));
      return first;
    }
    if (eat_op("in")) {
      auto set = united();
      return assignment(first, std::move(set));
    }
    std::vector<math_answer> parts{std::move(first)};
    std::vector<relation_op> ops;
    while (auto op = relation_here()) {
      ++pos_;
      ops.push_back(*op);
      parts.push_back(united());
    }
    if (eat_op("approx"))
      united();
    if (ops.empty())
      return std::move(parts.front());
    return relation(std::move(parts), std::move(ops));
  }

  static std::optional<std::string> simple_name(const math_answer& a) {
    if (!is_expression(a) || !GiNaC::is_a<GiNaC::symbol>(a.value))
      return std::nullopt;
    auto name = GiNaC::ex_to<GiNaC::symbol>(a.value).get_name();
    if (name == "\\infty")
      return std::nullopt;
    return name;
  }

  /// "(x, y)" on the left of "=": the names of a point's coordinates.
  static std::optional<std::string> names_tuple(const math_answer& a) {
    if (a.kind != math_kind::tuple)
      return std::nullopt;
    std::string out = "(";
    for (const auto& item : a.items) {
      auto n = simple_name(item);
      if (!n)
        return std::nullopt;
      out += (out.size() > 1 ? ", " : "") + *n;
    }
    return out + ")";
  }

  math_answer assignment(const math_answer& lhs, math_answer value) {
    auto name = simple_name(lhs);
    if (!name)
      name = names_tuple(lhs);
    if (!name)
      refuse();
    math_answer out;
    out.kind = math_kind::assignment;
    out.name = *name;
    if (is_expression(lhs))
      out.value = lhs.value; // the variable, for "y = 2x + 1" as an equation
    out.min_places = value.min_places;
    out.items.push_back(std::move(value));
    return out;
  }

  math_answer relation(std::vector<math_answer> parts,
                       std::vector<relation_op> ops) {
    const bool all_eq = std::all_of(ops.begin(), ops.end(), [](relation_op o) {
      return o == relation_op::eq;
    });
    // "x = 5", "5 = x", "z = 1 + 1 = 2" (the last value counts).
    if (all_eq && (simple_name(parts.front()) || names_tuple(parts.front())))
      return assignment(parts.front(), std::move(parts.back()));
    if (all_eq && parts.size() == 2 && simple_name(parts.back()))
      return assignment(parts.back(), std::move(parts.front()));
    math_answer out;
    out.kind = math_kind::relation;
    for (auto& p : parts) {
      if (!is_expression(p))
        refuse(); // a relation between structures
      out.min_places = fewer_places(out.min_places, p.min_places);
      out.terms.push_back(p.value);
    }
    out.ops = std::move(ops);
    return out;
  }

  // ------------------------------------------------------------ operands

  /// An operand, or a union of intervals "A \cup B".
  math_answer united() {
    math_answer first = sum();
    if (!is_op("cup"))
      return first;
    math_answer out;
    out.kind = math_kind::intervals;
    auto add = [&](math_answer& part) {
      if (part.kind == math_kind::tuple && (part.round_pair || part.square_pair))
        part = interval(part, part.square_pair, part.square_pair);
      if (part.kind != math_kind::intervals)
        refuse();
      for (auto& i : part.intervals)
        out.intervals.push_back(std::move(i));
    };
    add(first);
    while (eat_op("cup")) {
      auto next = sum();
      add(next);
    }
    return out;
  }

  math_answer sum() {
    depth_guard guard{depth_};
    math_answer acc;
    if (eat_op("pm")) {
      acc = plus_minus(expression_of(0), term());
    } else {
      const bool negative = is_op("-");
      if (negative || is_op("+"))
        ++pos_;
      acc = term();
      if (negative)
        acc = arithmetic(expression_of(0), acc, '-');
    }
    for (;;) {
      if (eat_op("+"))
        acc = arithmetic(acc, term(), '+');
      else if (eat_op("-"))
        acc = arithmetic(acc, term(), '-');
      else if (eat_op("pm") || eat_op("mp"))
        acc = plus_minus(acc, term());
      else
        return acc;
    }
  }

  math_answer plus_minus(const math_answer& a, const math_answer& b) {
    auto plus = arithmetic(a, b, '+');
    auto minus = arithmetic(a, b, '-');
    math_answer out;
    out.kind = math_kind::set;
    out.plus_minus = true;
    for (auto* part : {&plus, &minus}) {
      if (part->plus_minus)
        for (auto& x : part->items)
          out.items.push_back(std::move(x));
      else
        out.items.push_back(std::move(*part));
    }
    if (out.items.size() > max_alternatives)
      refuse();
    return out;
  }

  /// a op b for expressions, distributed over ± pairs.
  math_answer arithmetic(const math_answer& a, const math_answer& b, char op) {
    if (a.plus_minus || b.plus_minus) {
      math_answer out;
      out.kind = math_kind::set;
      out.plus_minus = true;
      const auto& xs = a.plus_minus ? a.items : std::vector<math_answer>{a};
      const auto& ys = b.plus_minus ? b.items : std::vector<math_answer>{b};
      for (const auto& x : xs)
        for (const auto& y : ys)
          out.items.push_back(arithmetic(x, y, op));
      if (out.items.size() > max_alternatives)
        refuse();
      return out;
    }
    if (!is_expression(a) || !is_expression(b))
      refuse();
    ex r;
    switch (op) {
      case '+': r = a.value + b.value; break;
      case '-': r = a.value - b.value; break;
      case '*': r = a.value * b.value; break;
      case '/':
        if (b.value.is_zero())
          refuse();
        r = a.value / b.value;
        break;
      default: r = checked_power(a.value, b.value); break;
    }
    return expression_of(r, fewer_places(a.min_places, b.min_places));
  }

  bool starts_factor() const {
    auto p = peek();
    if (!p)
      return false;
    switch (p->kind) {
      case K::number: case K::name: case K::function: case K::constant:
      case K::command:
        return true;
      case K::op:
        return p->text == "(" || p->text == "{";
      default:
        return false;
    }
  }

  math_answer term() {
    math_answer acc = signed_factor();
    for (;;) {
      if (eat_op("*"))
        acc = arithmetic(acc, signed_factor(), '*');
      else if (eat_op("/"))
        acc = arithmetic(acc, signed_factor(), '/');
      else if (starts_factor())
        acc = arithmetic(acc, power(), '*'); // implicit multiplication
      else
        return acc;
    }
  }

  math_answer signed_factor() {
    if (eat_op("-"))
      return arithmetic(expression_of(0), signed_factor(), '-');
    if (eat_op("+"))
      return signed_factor();
    return power();
  }

  math_answer power() {
    depth_guard guard{depth_};
    math_answer base = postfix(primary());
    if (!eat_op("^"))
      return base;
    auto exponent = exponent_operand();
    return postfix(arithmetic(base, exponent, '^'));
  }

  /// "^{...}", "^2", "^-1", "^x", "^(...)".
  math_answer exponent_operand() {
    if (eat_op("{")) {
      auto e = sequence("}");
      expect_op("}");
      return e;
    }
    if (eat_op("-"))
      return arithmetic(expression_of(0), exponent_operand(), '-');
    return primary();
  }

  /// n! (factorials of small numbers only).
  math_answer postfix(math_answer a) {
    while (is_op("!")) {
      ++pos_;
      if (!is_expression(a))
        refuse();
      check_count(a.value, max_factorial);
      a.value = GiNaC::factorial(a.value);
    }
    return a;
  }

  // ------------------------------------------------------------ primaries

  math_answer primary() {
    depth_guard guard{depth_};
    auto p = peek();
    if (!p)
      refuse();
    switch (p->kind) {
      case K::number: return number();
      case K::name: return name();
      case K::constant: return constant();
      case K::function: return function();
      case K::command: return command();
      case K::begin: return matrix();
      case K::op: return bracketed();
      default: refuse();
    }
  }

  math_answer number() {
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
      refuse(); // "01", "2023-01-05": a date or a code, not arithmetic
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
    if (digits.empty())
      digits = "0";
    if (digits.size() > max_literal_digits)
      refuse();
    ex value = GiNaC::numeric(digits.c_str());
    if (places > 0)
      value = value / GiNaC::pow(GiNaC::numeric(10), places);
    return expression_of(value, places);
  }

  /// "f(x) =", "0 < f(x) < 1": a function's name before a relation labels
  /// the value, like a variable.
  std::optional<std::string> function_label() {
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

  bool is_op(std::string_view text, std::size_t k) const {
    return is(K::op, text, k);
  }

  /// A variable, with its subscript: "x", "x_1", "a_{37}", "\alpha".
  math_answer name() {
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
            refuse();
          n += q->text;
          ++pos_;
        }
        ++pos_;
      } else {
        auto q = peek();
        if (!q || (q->kind != K::number && q->kind != K::name))
          refuse();
        n += q->text;
        ++pos_;
      }
    }
    return expression_of(symbols_.get(n));
  }

  math_answer constant() {
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

  /// The argument of a function: a bracketed group, or the product of the
  /// plain factors that follow ("\sin 2x").
  math_answer function_argument() {
    if (is_op("(") || is_op("{"))
      return primary();
    math_answer acc = signed_factor();
    while (peek() && (peek()->kind == K::number || peek()->kind == K::name
                      || peek()->kind == K::constant))
      acc = arithmetic(acc, primary(), '*');
    return acc;
  }

  math_answer function() {
    const auto f = peek()->text;
    ++pos_;
    std::optional<math_answer> base, power_of;
    if (eat_op("_")) // \log_2 x
      base = eat_op("{") ? braced_rest() : primary();
    if (eat_op("^")) // \sin^2 x
      power_of = exponent_operand();
    auto arg = function_argument();
    if (!is_expression(arg) || (base && !is_expression(*base)))
      refuse();
    math_answer out = expression_of(apply_function(f, arg.value, base),
                                    arg.min_places);
    if (power_of)
      out = arithmetic(out, *power_of, '^');
    return out;
  }

  math_answer braced_rest() {
    auto e = sequence("}");
    expect_op("}");
    return e;
  }

  static ex apply_function(std::string_view f, const ex& x,
                           const std::optional<math_answer>& base) {
    if (base) {
      if (f != "log" || base->value.is_zero())
        refuse();
      return GiNaC::log(x) / GiNaC::log(base->value);
    }
    if (f == "sin") return GiNaC::sin(x);
    if (f == "cos") return GiNaC::cos(x);
    if (f == "tan") return GiNaC::tan(x);
    if (f == "sec") return 1 / GiNaC::cos(x);
    if (f == "csc") return 1 / GiNaC::sin(x);
    if (f == "cot") return GiNaC::cos(x) / GiNaC::sin(x);
    if (f == "arcsin") return GiNaC::asin(x);
    if (f == "arccos") return GiNaC::acos(x);
    if (f == "arctan") return GiNaC::atan(x);
    if (f == "sinh") return GiNaC::sinh(x);
    if (f == "cosh") return GiNaC::cosh(x);
    if (f == "tanh") return GiNaC::tanh(x);
    if (f == "exp") return GiNaC::exp(x);
    if (f == "lg") return GiNaC::log(x) / GiNaC::log(ex(10));
    if (x.is_zero())
      refuse();
    return GiNaC::log(x); // log and ln: the natural logarithm
  }

  /// One argument of \frac, \sqrt, \binom: "{...}" or one token ("\frac34").
  math_answer command_argument() {
    if (eat_op("{"))
      return braced_rest();
    auto p = peek();
    if (!p)
      refuse();
    if (p->kind == K::number && p->text.size() > 1) {
      // "\frac34": one digit is the argument, the next digit the other.
      auto d = p->text.substr(0, 1);
      t_[pos_].text = p->text.substr(1);
      return expression_of(GiNaC::numeric(std::string{d}.c_str()));
    }
    return primary();
  }

  math_answer command() {
    const auto c = peek()->text;
    ++pos_;
    if (c == "frac") {
      auto num = command_argument();
      auto den = command_argument();
      return arithmetic(num, den, '/');
    }
    if (c == "binom") {
      auto n = command_argument();
      auto k = command_argument();
      if (!is_expression(n) || !is_expression(k))
        refuse();
      check_count(n.value, max_binomial);
      return expression_of(GiNaC::binomial(n.value, k.value));
    }
    // \sqrt[n]{x}, \sqrt{x}, \sqrt x, sqrt(x)
    math_answer index = expression_of(2);
    if (eat_op("[")) {
      index = sequence("]");
      expect_op("]");
    }
    auto x = is_op("(") ? primary() : command_argument();
    if (!is_expression(index) || index.value.is_zero())
      refuse();
    return arithmetic(x, expression_of(1 / index.value), '^');
  }

  /// \begin{pmatrix} a & b \\ c & d \end{pmatrix} (also bmatrix, matrix).
  math_answer matrix() {
    const auto env = peek()->text;
    ++pos_;
    if (env != "pmatrix" && env != "bmatrix" && env != "matrix"
        && env != "Bmatrix" && env != "smallmatrix")
      refuse();
    math_answer out;
    out.kind = math_kind::matrix;
    math_answer row;
    row.kind = math_kind::tuple;
    for (;;) {
      if (is(K::end, env)) {
        ++pos_;
        break;
      }
      auto cell = sequence_until_cell_end();
      out.min_places = fewer_places(out.min_places, cell.min_places);
      row.items.push_back(std::move(cell));
      if (eat_op("&"))
        continue;
      if (eat_op("\\\\")) {
        out.items.push_back(std::move(row));
        row = math_answer{};
        row.kind = math_kind::tuple;
        if (is(K::end, env)) { // a trailing "\\"
          ++pos_;
          return checked_matrix(std::move(out));
        }
        continue;
      }
      if (!is(K::end, env))
        refuse();
    }
    if (!row.items.empty())
      out.items.push_back(std::move(row));
    return checked_matrix(std::move(out));
  }

  math_answer sequence_until_cell_end() {
    auto cell = sum();
    if (!is_expression(cell))
      refuse();
    return cell;
  }

  static math_answer checked_matrix(math_answer m) {
    if (m.items.empty())
      refuse();
    for (const auto& r : m.items)
      if (r.items.size() != m.items.front().items.size())
        refuse();
    return m;
  }

  static math_answer empty_set() {
    math_answer set;
    set.kind = math_kind::set;
    return set;
  }

  /// ( ... ), [ ... ], { ... }, \{ ... \}, | x |.
  math_answer bracketed() {
    const auto open = peek()->text;
    if (open == "(" || open == "[")
      return round_or_square(open);
    ++pos_;
    if (open == "{") { // a LaTeX group: "{1, 2}" is the list 1, 2
      auto g = sequence("}");
      expect_op("}");
      return g;
    }
    if (open == "\\{") {
      if (eat_op("\\}"))
        return empty_set();
      auto g = sequence("\\}");
      expect_op("\\}");
      math_answer set;
      set.kind = math_kind::set;
      if (g.kind == math_kind::list || g.kind == math_kind::set)
        set.items = flattened(std::move(g.items));
      else
        set.items.push_back(std::move(g));
      return set;
    }
    if (open == "|") {
      auto x = sum();
      expect_op("|");
      if (!is_expression(x))
        refuse();
      return expression_of(GiNaC::abs(x.value), x.min_places);
    }
    refuse();
  }

  /// "(x+1)" a group; "(1, 2)" a point or an open interval; "[0, 1)" an
  /// interval; "[1, 2, 3]" a list written as a vector.
  math_answer round_or_square(std::string_view open) {
    ++pos_;
    if (open == "[" && eat_op("]"))
      return empty_set(); // "[]"
    auto inner = sequence_in_brackets();
    const auto close = peek();
    if (!close || close->kind != K::op || (close->text != ")" && close->text != "]"))
      refuse();
    ++pos_;
    const bool round_open = open == "(", round_close = close->text == ")";
    const bool several = inner.kind == math_kind::list && !inner.items.empty();
    if (!several) {
      if (!round_open || !round_close)
        refuse(); // "[5]": not an answer form the reader knows
      return inner;
    }
    const std::size_t n = inner.items.size();
    if (n == 2 && (round_open != round_close || has_infinity(inner)))
      return interval(inner, !round_open, !round_close);
    inner.kind = math_kind::tuple;
    inner.round_pair = n == 2 && round_open;
    inner.square_pair = n == 2 && !round_open;
    return inner;
  }

  /// The inside of ( ) or [ ]: a list when it has separators.
  math_answer sequence_in_brackets() {
    std::vector<math_answer> items;
    bool trailing = false;
    while (!is_op(")") && !is_op("]")) {
      if (at_end())
        refuse();
      if (is_op(",") || is_op(";")) {
        ++pos_;
        trailing = true;
        continue;
      }
      items.push_back(element());
      trailing = false;
    }
    if (items.empty())
      refuse();
    if (items.size() == 1 && !trailing)
      return std::move(items.front());
    math_answer list;
    list.kind = math_kind::list;
    list.items = std::move(items);
    return list;
  }

  bool has_infinity(const math_answer& pair) {
    const auto inf = symbols_.infinity();
    return std::any_of(pair.items.begin(), pair.items.end(),
                       [&](const math_answer& a) {
                         return is_expression(a) && a.value.has(inf);
                       });
  }

  math_answer interval(const math_answer& inner, bool lo_closed,
                       bool hi_closed) {
    math_interval i;
    i.lo = end_of(inner.items[0], lo_closed);
    i.hi = end_of(inner.items[1], hi_closed);
    math_answer out;
    out.kind = math_kind::intervals;
    out.intervals.push_back(std::move(i));
    out.min_places = fewer_places(inner.items[0].min_places,
                                  inner.items[1].min_places);
    return out;
  }

  interval_end end_of(const math_answer& a, bool closed) {
    if (!is_expression(a))
      refuse();
    interval_end e;
    e.closed = closed;
    e.value = a.value;
    e.places = a.min_places;
    const auto inf = symbols_.infinity();
    if (a.value.is_equal(inf) || a.value.is_equal(-inf)) {
      e.infinite = true;
      e.value = a.value.is_equal(inf) ? ex(1) : ex(-1);
      e.closed = false;
    }
    return e;
  }
};

/// An answer that is only words ("odd", "\text{east}", "Even"): compared
/// as words, lower-cased.
std::optional<math_answer> text_answer(std::string_view cleaned) {
  std::string words;
  for (char c : cleaned) {
    if (text::is_alpha(c))
      words.push_back(text::lower(c));
    else if (is_gap(c)) {
      if (!words.empty() && words.back() != ' ')
        words.push_back(' ');
    } else {
      return std::nullopt;
    }
  }
  while (!words.empty() && words.back() == ' ')
    words.pop_back();
  // One or two letters are variables or a choice ("E", "xy"): the
  // expression reader handles them; two words or more is a phrase.
  if (words.size() < 3 || words.find(' ') != std::string::npos)
    return std::nullopt;
  static constexpr std::string_view math_words[] = {
    "sin", "cos", "tan", "log", "ln", "exp", "sqrt", "pi", "and", "or"};
  for (auto w : math_words)
    if (words == w)
      return std::nullopt;
  math_answer a;
  a.kind = math_kind::text;
  a.name = words;
  return a;
}

/// "1,22", "1,2345", "1,23,456", "6,8": digit groups joined by commas
/// without spaces, that a number could be written as (a decimal comma,
/// Indian or broken thousands groups); the number reader refused them.
bool ambiguous_comma(std::string_view s) {
  std::vector<std::size_t> groups;
  std::size_t run = 0;
  for (char c : s) {
    if (text::is_digit(c)) {
      ++run;
    } else if (c == ',' && run > 0) {
      groups.push_back(run);
      run = 0;
    } else {
      return false;
    }
  }
  if (run == 0 || groups.empty())
    return false;
  groups.push_back(run);
  if (groups.size() == 2)
    return true;
  return groups.front() <= 3
         && std::all_of(groups.begin() + 1, groups.end(),
                        [](std::size_t g) { return g == 2 || g == 3; });
}

/// An infinity anywhere but at an interval's end is not read.
bool stray_infinity(const math_answer& a, const ex& inf) {
  if (a.kind == math_kind::expression && a.value.has(inf))
    return true;
  for (const auto& t : a.terms)
    if (t.has(inf))
      return true;
  return std::any_of(a.items.begin(), a.items.end(),
                     [&](const math_answer& b) {
                       return stray_infinity(b, inf);
                     });
}

} // namespace

std::optional<math_answer> read_math(std::string_view final_answer,
                                     symbol_table& symbols) {
  if (final_answer.size() > max_answer_bytes)
    return std::nullopt;
  const std::string cleaned{
    strip_punctuation(clean_answer(final_answer, /*keep_line_breaks=*/true))};
  if (auto t = text_answer(cleaned))
    return t;
  auto tokens = lex_math(cleaned, max_tokens);
  if (!tokens || tokens->empty())
    return std::nullopt;
  try {
    auto a = reader{std::move(*tokens), symbols}.answer();
    if (stray_infinity(a, symbols.infinity()))
      return std::nullopt;
    a.number_like = ambiguous_comma(cleaned);
    return a;
  } catch (const not_read&) {
    return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt; // GiNaC refused an operation (a pole, an overflow)
  }
}

} // namespace ij
