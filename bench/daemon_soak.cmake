# bench/daemon_soak: the daemon's memory and open files over 1,000 finished
# runs (four clients at once), and GET /v1/runs with 100,000 runs in the
# state (docs/BENCHMARKS.md).
add_executable(daemon_soak ${CMAKE_CURRENT_LIST_DIR}/daemon_soak.cpp
               ${IJ_SOURCE_DIR}/tests/daemon/soak_load.cpp
               ${IJ_SOURCE_DIR}/tests/tools/cli_support.cpp)
target_link_libraries(daemon_soak PRIVATE ij_daemon ij_driver ij_warnings SQLite::SQLite3)
target_compile_definitions(daemon_soak PRIVATE IJ_INVJUDGE="$<TARGET_FILE:invjudge>"
                           IJ_SOURCE_DIR="${IJ_SOURCE_DIR}")
add_dependencies(daemon_soak invjudge)
