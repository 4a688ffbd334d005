# bench/batch_bench: 100,000 pairs at votes = 1 through a batched judge
# against the OpenAI batch fake, against the same run made synchronously:
# requests per batch, the driver's (and with --daemon the daemon's) peak
# memory, the time to build and upload a batch of 10,000 requests, and the
# cost ratio (docs/BENCHMARKS.md).
include(${IJ_SOURCE_DIR}/tests/http/fakes.cmake)
add_executable(batch_bench ${CMAKE_CURRENT_LIST_DIR}/batch_bench.cpp
               ${IJ_SOURCE_DIR}/tests/tools/cli_support.cpp)
target_link_libraries(batch_bench PRIVATE ij_driver ij_adapters ij_http_fakes ij_warnings)
target_compile_definitions(batch_bench PRIVATE IJ_INVJUDGE="$<TARGET_FILE:invjudge>"
                           IJ_SOURCE_DIR="${IJ_SOURCE_DIR}")
target_compile_options(batch_bench PRIVATE -Wno-maybe-uninitialized)
add_dependencies(batch_bench invjudge)
