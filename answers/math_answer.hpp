#pragma once
// What a final answer means, as the symbolic reader reads it: one
// expression (a GiNaC expression), or a structure of them — a tuple, a set,
// a list, intervals, a matrix, a relation, an assignment, a text word.
// The comparison (math_equivalence.hpp) works on this model, never on text.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <ginac/ginac.h>

namespace ij {

enum class math_kind {
  expression, // 2x+1, \frac{\sqrt 3}{3}
  tuple,      // (1, 2), [1, 2, 3]: order matters
  set,        // \{1, 2\}, "x = 1 or x = 2", a list of points: order does not
  list,       // 1, 2, 3: a tuple or a list of solutions, the text does not say
  intervals,  // [0, 1), (1, \infty), unions
  matrix,     // pmatrix, bmatrix: rows of cells
  relation,   // x < 1, 2x + 4y - 3 = 0 (an equation), a \le b \le c
  assignment, // x = 5 (name and value), "a = 4, -8" (a list of values)
  system,     // x = 1, y = 2: named values of one solution (items: assignments)
  text,       // \text{east}, "odd": words, compared as words
  ratio,      // 3:4, a:b:c (items: the terms, in order)
};

enum class relation_op { eq, lt, le, gt, ge, ne };

struct interval_end {
  GiNaC::ex value;
  bool infinite = false; // then value's sign says which infinity
  bool closed = false;
  int places = -1; // decimal places written (rounding policy)
};

struct math_interval {
  interval_end lo, hi;
};

struct math_answer {
  math_kind kind = math_kind::expression;
  /// expression: the value; assignment: the variable (zero for "(x, y)").
  GiNaC::ex value;
  /// tuple / set / list: the elements; matrix: its rows (each a tuple);
  /// assignment: one item, the value assigned.
  std::vector<math_answer> items;
  std::vector<math_interval> intervals;
  /// relation: terms[0] ops[0] terms[1] ops[1] terms[2] ...
  std::vector<GiNaC::ex> terms;
  std::vector<relation_op> ops;
  /// assignment: the name ("x", "a_37", "f(x)"); text: the words.
  std::string name;
  /// a ± b: the pair of values (a set that arithmetic distributes over).
  bool plus_minus = false;
  /// A list written as digit groups joined by commas without spaces
  /// ("6,8", "1,23,456"): against one number it may be that number's
  /// decimal comma or thousands marks, so it decides only against lists.
  bool number_like = false;
  /// "(a, b)" with round brackets: a point or an open interval.
  bool round_pair = false;
  /// "[a, b]": a closed interval or a list.
  bool square_pair = false;
  /// Fewest decimal places of a decimal literal in the answer (rounding
  /// policy); -1 when it has none.
  int min_places = -1;
  /// "1/2x": a factor juxtaposed to a divisor; read (1/2)x, though 1/(2x)
  /// is meant as often (set on the answer read, not on its parts).
  bool ambiguous_division = false;
  /// "2\frac{1}{3}": a mixed number (7/3) or a product (2/3).
  bool ambiguous_mixed = false;
  /// "g(0)": a function applied to 0, or g times 0, where nothing in the
  /// pair says that g is a number (read as the application; set on the
  /// answer read).
  bool ambiguous_application = false;
};

/// The variables of one pair: the same name is the same symbol on both
/// sides.
class symbol_table {
public:
  GiNaC::ex get(const std::string& name) {
    auto it = symbols_.find(name);
    if (it == symbols_.end())
      it = symbols_.emplace(name, GiNaC::symbol{name}).first;
    return it->second;
  }
  /// The marker of \infty, only valid as an interval end.
  GiNaC::ex infinity() { return get("\\infty"); }

  /// A name the pair uses as a number somewhere (not right before "("):
  /// "x(x+1)" multiplies, "g(0)" alone may apply g.
  void note_number(const std::string& name) { numbers_.insert(name); }
  bool known_number(const std::string& name) const {
    return numbers_.count(name) > 0;
  }

private:
  std::map<std::string, GiNaC::symbol> symbols_;
  std::set<std::string> numbers_;
};

} // namespace ij
