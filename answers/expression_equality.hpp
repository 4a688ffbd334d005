#pragma once
// Whether two GiNaC expressions are the same: by exact simplification
// (their difference normalises to zero), else by evaluation at random
// points with a tolerance, with the rounding policy of the number reader
// for written decimals. A difference shown only off the positive reals is
// "equal on part of the domain": undecided.
#include <complex>
#include <optional>
#include <vector>

#include <ginac/ginac.h>

#include "answers/pair_budget.hpp"

namespace ij {

enum class math_verdict { equal, different, undecided };

enum class math_method {
  identical,  // the same text
  exact,      // exact simplification, or structure element by element
  evaluation, // agreement (or a witness) at sample points
  rounding,   // a written decimal agrees only to its places
  domain,     // equal on the positive reals only
  kind,       // different kinds of answer
  budget,     // the time budget ran out
  names,      // equal only once a free variable is renamed
  log_base,   // decided only as one base of an unbased logarithm
  convention, // decided only under one reading of "1/2x"
};

struct math_outcome {
  math_verdict verdict = math_verdict::undecided;
  math_method method = math_method::kind;
};

/// `places_*`: the fewest decimal places written on that side (-1: none).
math_outcome compare_expressions(const GiNaC::ex& a, int places_a,
                                 const GiNaC::ex& b, int places_b,
                                 const pair_budget& budget);

/// The value of `e` with each symbol given a value from `point`; nullopt
/// where it is not a finite number.
std::optional<std::complex<double>> value_at(const GiNaC::ex& e,
                                             const GiNaC::exmap& point);

/// Sample points for the symbols of `e1` and `e2`: `positive` values in
/// [0.5, 3.5], else values of either sign. Fixed seed: the same pair
/// always gets the same points.
std::vector<GiNaC::exmap> sample_points(const GiNaC::ex& e1,
                                        const GiNaC::ex& e2, bool positive,
                                        int count);

} // namespace ij
