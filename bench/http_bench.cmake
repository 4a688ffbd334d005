# bench/http_bench: judge calls per second through an HTTP adapter against
# a fake OpenAI-compatible server with fixed latency, directly and through
# the delay proxy (docs/BENCHMARKS.md).
include(${IJ_SOURCE_DIR}/tests/http/fakes.cmake)
add_executable(http_bench ${CMAKE_CURRENT_LIST_DIR}/http_bench.cpp
               ${CMAKE_CURRENT_LIST_DIR}/delay_proxy.cpp)
target_link_libraries(http_bench PRIVATE ij_adapters ij_http_fakes ij_warnings)
