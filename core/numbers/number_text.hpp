#pragma once
// A number as messages, ids and reports write it: printf's "%g" ("0.7",
// "1e-09"), six significant digits. One definition, so that a judge id, an
// error message and the report never spell the same value two ways.
#include <string>

namespace ij {

std::string number_text(double x);

} // namespace ij
