# Confidence-sequential voting against fixed votes (issue 16): a noisy judge
# (stub:noisy:ERR) calibrated on one labelled run, then votes = 5, k = 3
# against stop.probability = 0.99 on other pairs, through `invjudge`; again
# with an openai judge ("logprobs": true) against a fake OpenAI-compatible
# server the benchmark starts (tests/http/fake_apis), erring at the same rate.
include(${IJ_SOURCE_DIR}/tests/http/fakes.cmake)
add_executable(calibration_bench ${CMAKE_CURRENT_SOURCE_DIR}/calibration_bench.cpp)
target_link_libraries(calibration_bench PRIVATE ij_adapters ij_answers ij_core ij_http_fakes
                      ij_thirdparty ij_warnings)
target_compile_definitions(calibration_bench PRIVATE IJ_INVJUDGE="$<TARGET_FILE:invjudge>")
add_dependencies(calibration_bench invjudge)
