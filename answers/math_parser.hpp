#pragma once
// The symbolic reader's parser (internal to answers/): a hand-written
// recursive descent over math_lexer's tokens into math_answer. Its members
// live in three files along the grammar's seams: math_parser.cpp (sequences,
// collections, relations), math_operands.cpp (sums, products, powers,
// numbers, names, functions, commands), math_brackets.cpp (brackets, sets,
// intervals, matrices). Only math_reader.cpp uses it.
//
// Every step returns what it read, or nullopt when the text is not read (a
// form the reader does not know, or one past a bound below): the first step
// not read ends the parse, and its caller returns nullopt in turn. GiNaC's
// own exceptions (a pole, an overflow) are caught where the parse starts.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "answers/math_answer.hpp"
#include "answers/math_lexer.hpp"

namespace ij::math_parsing {

using K = math_token_kind;
using GiNaC::ex;

// Bounds that keep every GiNaC operation on a read answer small.
inline constexpr std::size_t max_answer_bytes = 4096;
inline constexpr std::size_t max_tokens = 800;
inline constexpr int max_depth = 40;
inline constexpr std::size_t max_literal_digits = 60;
inline constexpr long max_integer_exponent = 1000;
inline constexpr long max_result_digits = 5000;
inline constexpr long max_factorial = 1000;
inline constexpr long max_binomial = 10000;
inline constexpr std::size_t max_alternatives = 8;

/// What a parse step read; nullopt: not read.
using parsed = std::optional<math_answer>;

math_answer expression_of(ex e, int places = -1);

int fewer_places(int a, int b);

bool is_expression(const math_answer& a);

/// base^exponent within the bounds; nullopt past them, and for a negative
/// constant to a fraction with an odd denominator (real or principal root?).
std::optional<ex> checked_power(const ex& base, const ex& exponent);

/// A constant that evaluates to a negative real number.
bool negative_constant(const ex& e);

/// n! and binomials only of small numbers (GiNaC computes them at once):
/// whether `n` is a whole number in [0, max], or no number at all.
bool count_in_bounds(const ex& n, long max);

class math_parser {
public:
  /// `log_base`: the base of "\log x" written without one (0: natural).
  /// `tight_division`: "1/2x" is 1/(2x) (else (1/2)x).
  /// `products`: a name nothing in the pair uses as a number, right
  /// before "(", multiplies the group ("g(0)" = g times 0); else it is
  /// applied to it (the symbol "g(0)").
  math_parser(std::vector<math_token> toks, symbol_table& symbols,
              int log_base = 0, bool tight_division = false,
              bool mixed_numbers = false, bool products = false)
      : t_(std::move(toks)), symbols_(symbols), log_base_(log_base),
        tight_division_(tight_division), mixed_numbers_(mixed_numbers),
        products_(products) {}

  /// A whole number right before a proper fraction ("2\frac{1}{3}"): a
  /// mixed number or a product, the text does not say.
  bool juxtaposed_fraction() const { return juxtaposed_fraction_; }

  /// A factor followed a divisor without an operator ("1/2x", "a/bc"):
  /// the text leaves open what the division covers.
  bool juxtaposed_divisor() const { return juxtaposed_divisor_; }

  /// A name right before "(" that the pair never uses as a number: an
  /// application or a product, the text does not say.
  bool open_application() const { return open_application_; }

  /// The whole answer; nullopt when it is not read.
  parsed answer() {
    auto a = sequence(nullptr);
    if (!a || pos_ != t_.size())
      return std::nullopt;
    return a;
  }

private:
  std::vector<math_token> t_;
  symbol_table& symbols_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  int log_base_ = 0;
  bool tight_division_ = false;
  bool juxtaposed_divisor_ = false;
  bool mixed_numbers_ = false;
  bool juxtaposed_fraction_ = false;
  bool products_ = false;
  bool open_application_ = false;

  /// At "\frac{p}{q}" (or "\frac pq") of whole numbers p < q.
  bool at_proper_fraction() const;

  /// Counts one more level of nesting while a step runs.
  struct depth_guard {
    int& d;
    explicit depth_guard(int& x) : d(x) { ++d; }
    ~depth_guard() { --d; }
    depth_guard(const depth_guard&) = delete;
    depth_guard& operator=(const depth_guard&) = delete;
    /// Within max_depth (else the step is not read).
    explicit operator bool() const { return d <= max_depth; }
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
  bool at_separator() const;

  bool at_close(const char* close) const;

  /// Elements separated by , ; and or, up to `close` (not consumed) or the
  /// end; one element without separators is returned as it is.
  parsed sequence(const char* close);

  /// What a list of elements means: named values, a variable's values, a
  /// set of alternatives or points, else a bare list.
  math_answer collection(std::vector<math_answer> items, bool alternatives);

  /// The values of a ± pair stand beside the other elements.
  static std::vector<math_answer> flattened(std::vector<math_answer> items);

  /// "x = 1, y = 2": one solution; "p = 5, q = 2, p = 7, q = 2": a set of
  /// solutions, a new one starting where a name repeats.
  static math_answer systems(std::vector<math_answer> items);

  bool relation_at(std::size_t k) const;

  std::optional<relation_op> relation_here() const;

  /// A relation chain, an assignment, "x \in S", "E \approx 0.33" (the
  /// exact value E is the answer), or one operand.
  parsed element();

  static std::optional<std::string> simple_name(const math_answer& a);

  /// "(x, y)" on the left of "=": the names of a point's coordinates.
  static std::optional<std::string> names_tuple(const math_answer& a);

  parsed assignment(const math_answer& lhs, math_answer value);

  parsed relation(std::vector<math_answer> parts, std::vector<relation_op> ops);

  /// "3:4", "a:b:c": a ratio of two or more terms, else one operand.
  parsed ratio();

  /// "a:b" on the left of "=": a ratio of names labels the ratio's value.
  static std::optional<std::string> names_ratio(const math_answer& a);

  /// An operand, or a union of intervals "A \cup B".
  parsed united();

  parsed sum();

  parsed plus_minus(const math_answer& a, const math_answer& b);

  /// a op b for expressions, distributed over ± pairs.
  parsed arithmetic(const math_answer& a, const math_answer& b, char op);

  bool starts_factor() const;

  parsed term();

  parsed signed_factor();

  /// The operand after "/", with the factors juxtaposed to it under the
  /// tight-division convention.
  parsed divisor();

  parsed power();

  /// "^{...}", "^2", "^-1", "^x", "^(...)".
  parsed exponent_operand();

  /// n! (factorials of small numbers only).
  parsed postfix(math_answer a);

  parsed primary();

  parsed number();

  /// "0.\overline{3}", "1.2\overline{45}": the repeating decimal after
  /// `head` (written with `places` decimals), exactly.
  parsed repeating(const ex& head, int places);

  /// "f(x) =", "0 < f(x) < 1": a function's name before a relation labels
  /// the value, like a variable.
  std::optional<std::string> function_label();

  bool is_op(std::string_view text, std::size_t k) const;

  /// A variable, with its subscript: "x", "x_1", "a_{37}", "\alpha"; a
  /// name applied to a group ("g(0)", "P(A)") unless the pair uses the
  /// name as a number or the products convention is asked.
  parsed name();

  /// "g(0)": the symbol that stands for the name applied to the group
  /// after it (its arguments printed by GiNaC, so "g(2-1)" is "g(1)").
  parsed application(const std::string& name);

  math_answer constant();

  /// The argument of a function: a bracketed group, or the product of the
  /// plain factors that follow ("\sin 2x").
  parsed function_argument();

  parsed function();

  parsed braced_rest();

  /// f(x) (with a base: log only); nullopt where it has no value.
  static std::optional<ex> apply_function(std::string_view f, const ex& x,
                                          const parsed& base);

  /// One argument of \frac, \sqrt, \binom: "{...}" or one token ("\frac34").
  parsed command_argument();

  parsed command();

  /// \sqrt[n]{x}, \sqrt{x}, \sqrt x, sqrt(x) (after the command).
  parsed root();

  /// \begin{pmatrix} a & b \\ c & d \end{pmatrix} (also bmatrix, matrix).
  parsed matrix();

  parsed sequence_until_cell_end();

  /// The matrix when it has rows, all of one length.
  static parsed checked_matrix(math_answer m);

  static math_answer empty_set();

  /// ( ... ), [ ... ], { ... }, \{ ... \}, | x |.
  parsed bracketed();

  /// Whether the braces just opened ("\{") open with "x |" or "x :".
  bool at_set_builder() const;

  /// "\{x \mid x > 2\}", "\{x : x < 0 or x > 1\}" (at_set_builder()):
  /// the condition on x, whose solution set the braces describe.
  parsed set_builder();

  /// "(x+1)" a group; "(1, 2)" a point or an open interval; "[0, 1)" an
  /// interval; "[1, 2, 3]" a list written as a vector.
  parsed round_or_square(std::string_view open);

  /// A tuple with ± elements is the set of the tuples they stand for.
  parsed expanded_tuple(math_answer tuple);

  /// The inside of ( ) or [ ]: a list when it has separators.
  parsed sequence_in_brackets();

  bool has_infinity(const math_answer& pair);

  parsed interval(const math_answer& inner, bool lo_closed, bool hi_closed);

  std::optional<interval_end> end_of(const math_answer& a, bool closed);
};

} // namespace ij::math_parsing
