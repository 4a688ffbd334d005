// LeakSanitizer: CLN, GiNaC's number library, allocates a few bytes once
// when it is loaded and keeps them for the life of the process; they are
// not ours to free. Every binary that links GiNaC compiles this file in
// (answers/CMakeLists.txt adds it to the sanitizer and fuzzer builds'
// consumers of ij_answers), so the suppression holds wherever libcln is
// loaded, whether or not the binary reads any mathematics.
#if defined(__SANITIZE_ADDRESS__)
#define IJ_LSAN_SUPPRESSIONS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IJ_LSAN_SUPPRESSIONS 1
#endif
#endif

#ifdef IJ_LSAN_SUPPRESSIONS
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libcln.so\n";
}
#endif
