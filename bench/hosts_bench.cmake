# bench/hosts_bench: votes per second spread over k = 1, 2, 3 judge hosts
# (CAF middleman, each host with its own fake OpenAI-compatible backend),
# directly and through a delay proxy of round trips 10, 50, 200 ms (issue
# 31), the CPU cost of a vote across the middleman against a local worker,
# and the time from kill -9 of a host process to its workers leaving
# (docs/BENCHMARKS.md).
include(${IJ_SOURCE_DIR}/tests/http/fakes.cmake)
add_executable(hosts_bench ${CMAKE_CURRENT_LIST_DIR}/hosts_bench.cpp
               ${CMAKE_CURRENT_LIST_DIR}/delay_proxy.cpp
               ${IJ_SOURCE_DIR}/tests/hosts/in_process_hosts.cpp)
target_link_libraries(hosts_bench PRIVATE ij_actors ij_adapters ij_http_fakes ij_warnings)
target_compile_options(hosts_bench PRIVATE -Wno-maybe-uninitialized)
