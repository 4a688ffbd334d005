# core_bench: per-pair cost of the decision layer (numericMatch, the numeric
# rule judge, rules:math on numeric, symbolic and hard pairs, the reply
# parser) against a plain copy/strcmp baseline; rules:math's pairs per second
# against the numeric stub's over the same mixed pairs (--throughput runs
# only that); rules:math's precision and
# coverage per category on the hard pairs and on the public dev set.
add_executable(core_bench ${CMAKE_CURRENT_SOURCE_DIR}/core_bench.cpp)
target_link_libraries(core_bench PRIVATE ij_answers ij_core ij_warnings)
target_compile_definitions(core_bench PRIVATE
  IJ_ANSWER_PAIRS="${IJ_SOURCE_DIR}/tests/answers/answer_pairs.jsonl"
  IJ_SYMBOLIC_PAIRS="${IJ_SOURCE_DIR}/tests/answers/symbolic_pairs.jsonl"
  IJ_HARD_PAIRS="${IJ_SOURCE_DIR}/tests/data/hard_pairs.jsonl"
  IJ_DEV_PAIRS="${IJ_SHARED_DIR}/data/equivalence-dev.jsonl"
  IJ_EVAL_DIR="${IJ_SOURCE_DIR}/tests/data/eval")
