# canary_alarm: the figures of the bias alarm (issue 10): canaries and pairs
# needed to fire, per stub judge, over many seeds (not a timing benchmark).
add_executable(canary_alarm ${CMAKE_CURRENT_SOURCE_DIR}/canary_alarm.cpp)
target_link_libraries(canary_alarm PRIVATE ij_adapters ij_core ij_warnings)
