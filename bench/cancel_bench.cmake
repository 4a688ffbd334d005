# bench/cancel_bench: the next run's first verdict after DELETE of a run with
# its calls in flight, against a run on the idle judge (issue 26;
# docs/BENCHMARKS.md).
include(${IJ_SOURCE_DIR}/tests/http/fakes.cmake)
add_executable(cancel_bench ${CMAKE_CURRENT_LIST_DIR}/cancel_bench.cpp
               ${IJ_SOURCE_DIR}/tests/tools/cli_support.cpp
               ${IJ_SOURCE_DIR}/tests/daemon/daemon_support.cpp)
target_link_libraries(cancel_bench PRIVATE ij_daemon ij_driver ij_http_fakes ij_warnings)
target_compile_definitions(cancel_bench PRIVATE IJ_INVJUDGE="$<TARGET_FILE:invjudge>"
                           IJ_SOURCE_DIR="${IJ_SOURCE_DIR}")
target_compile_options(cancel_bench PRIVATE -Wno-maybe-uninitialized)
add_dependencies(cancel_bench invjudge)
