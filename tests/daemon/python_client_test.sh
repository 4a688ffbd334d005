#!/bin/sh
# ctest's runner of python_client_test.py: python3 missing fails under
# CI=true and is skipped (exit 77) otherwise, saying so.
if ! command -v python3 >/dev/null 2>&1; then
  if [ "${CI:-}" = "true" ]; then
    echo "python3 is missing (CI=true: the Python client must be tested)" >&2
    exit 1
  fi
  echo "SKIPPED: python3 is missing; the Python client is not tested" >&2
  exit 77
fi
exec python3 "$(dirname "$0")/python_client_test.py" "$@"
