# The fake judge servers as a library, shared by tests/http and
# bench/http_bench (included from both; defined once).
if(NOT TARGET ij_http_fakes)
  add_library(ij_http_fakes STATIC
    ${IJ_SOURCE_DIR}/tests/http/fake_server.cpp
    ${IJ_SOURCE_DIR}/tests/http/fake_apis.cpp
    ${IJ_SOURCE_DIR}/tests/http/fake_verdicts.cpp
    ${IJ_SOURCE_DIR}/tests/http/prompt_models.cpp
    ${IJ_SOURCE_DIR}/tests/http/fake_batches.cpp
    ${IJ_SOURCE_DIR}/tests/http/multipart_form.cpp
    ${IJ_SOURCE_DIR}/tests/http/batch_script.cpp
    ${IJ_SOURCE_DIR}/tests/http/test_tls.cpp)
  target_include_directories(ij_http_fakes PUBLIC ${IJ_SOURCE_DIR})
  # ij_adapters: the prompt models read answers back and judge them
  # (tests/http/prompt_models).
  target_link_libraries(ij_http_fakes PUBLIC ij_adapters ij_thirdparty OpenSSL::SSL
                        OpenSSL::Crypto Threads::Threads PRIVATE ij_warnings)
  # g++ 12 + sanitizers: false -Wmaybe-uninitialized in Beast's parser.
  target_compile_options(ij_http_fakes PRIVATE -Wno-maybe-uninitialized)
endif()
