# bench/daemon_bench: pairs per second through `invjudge serve` against the
# driver on the same pairs in the same run; eight runs at once; resume time
# after kill -9; the daemon's peak memory (docs/BENCHMARKS.md).
include(${IJ_SOURCE_DIR}/tests/http/fakes.cmake)
add_executable(daemon_bench ${CMAKE_CURRENT_LIST_DIR}/daemon_bench.cpp
               ${IJ_SOURCE_DIR}/tests/tools/cli_support.cpp)
target_link_libraries(daemon_bench PRIVATE ij_daemon ij_driver ij_http_fakes ij_warnings)
target_compile_definitions(daemon_bench PRIVATE IJ_INVJUDGE="$<TARGET_FILE:invjudge>"
                           IJ_SOURCE_DIR="${IJ_SOURCE_DIR}")
target_compile_options(daemon_bench PRIVATE -Wno-maybe-uninitialized)
add_dependencies(daemon_bench invjudge)
