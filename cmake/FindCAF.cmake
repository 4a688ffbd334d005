# Finds CAF 0.17 as Debian ships it (libcaf-dev: headers and shared libraries,
# no CMake package) and defines the imported targets CAF::core, CAF::io and
# CAF::openssl.
find_path(CAF_INCLUDE_DIR caf/all.hpp)
find_library(CAF_CORE_LIBRARY NAMES caf_core)
find_library(CAF_IO_LIBRARY NAMES caf_io)
find_library(CAF_OPENSSL_LIBRARY NAMES caf_openssl)

if(CAF_INCLUDE_DIR AND EXISTS "${CAF_INCLUDE_DIR}/caf/config.hpp")
  file(STRINGS "${CAF_INCLUDE_DIR}/caf/config.hpp" _caf_version_line
       REGEX "^#define CAF_VERSION [0-9]+")
  string(REGEX REPLACE "^#define CAF_VERSION ([0-9]+).*" "\\1" _caf_version_num
         "${_caf_version_line}")
  if(_caf_version_num)
    math(EXPR _caf_major "${_caf_version_num} / 10000")
    math(EXPR _caf_minor "(${_caf_version_num} / 100) % 100")
    math(EXPR _caf_patch "${_caf_version_num} % 100")
    set(CAF_VERSION "${_caf_major}.${_caf_minor}.${_caf_patch}")
  endif()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CAF
  REQUIRED_VARS CAF_INCLUDE_DIR CAF_CORE_LIBRARY CAF_IO_LIBRARY CAF_OPENSSL_LIBRARY
  VERSION_VAR CAF_VERSION
  FAIL_MESSAGE "CAF 0.17 not found: install Debian's libcaf-dev (scripts/setup does) or set CMAKE_PREFIX_PATH")

if(CAF_FOUND)
  foreach(_c core io openssl)
    string(TOUPPER ${_c} _C)
    if(NOT TARGET CAF::${_c})
      add_library(CAF::${_c} SHARED IMPORTED)
      set_target_properties(CAF::${_c} PROPERTIES
        IMPORTED_LOCATION "${CAF_${_C}_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${CAF_INCLUDE_DIR}")
    endif()
  endforeach()
  set_property(TARGET CAF::io APPEND PROPERTY INTERFACE_LINK_LIBRARIES CAF::core)
  set_property(TARGET CAF::openssl APPEND PROPERTY INTERFACE_LINK_LIBRARIES CAF::io)
endif()
mark_as_advanced(CAF_INCLUDE_DIR CAF_CORE_LIBRARY CAF_IO_LIBRARY CAF_OPENSSL_LIBRARY)
