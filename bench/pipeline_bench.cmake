# Pipeline throughput against a single-threaded baseline, and (with
# --million) the peak memory of `invjudge run` on one million pairs.
add_executable(pipeline_bench ${CMAKE_CURRENT_SOURCE_DIR}/pipeline_bench.cpp)
target_link_libraries(pipeline_bench PRIVATE ij_driver ij_warnings)
target_compile_definitions(pipeline_bench PRIVATE IJ_INVJUDGE="$<TARGET_FILE:invjudge>")
add_dependencies(pipeline_bench invjudge)
