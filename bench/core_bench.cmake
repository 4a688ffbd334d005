# core_bench: per-pair cost of the core decision layer (numericMatch, the
# numeric rule judge, the reply parser) against a plain copy/strcmp baseline.
add_executable(core_bench ${CMAKE_CURRENT_SOURCE_DIR}/core_bench.cpp)
target_link_libraries(core_bench PRIVATE ij_answers ij_core ij_warnings)
target_compile_definitions(core_bench PRIVATE
  IJ_ANSWER_PAIRS="${IJ_SOURCE_DIR}/tests/answers/answer_pairs.jsonl")
