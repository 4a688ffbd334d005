#!/usr/bin/env python3
"""Fails on a Catch2 test name that ctest cannot run whole.

catch_discover_tests passes each name through a CMake list, which splits
it at ';': the test it registers is a piece of the name, matches no test
case, and the real case never runs. Names are read from TEST_CASE and
TEST_CASE_METHOD, their adjacent string literals joined.
Usage: test_names.py TESTS_DIR
"""
import pathlib
import re
import sys

CASE = re.compile(r'\bTEST_CASE(?:_METHOD)?\s*\(')
LITERAL = re.compile(r'\s*"((?:[^"\\]|\\.)*)"')


def names(text):
    for m in CASE.finditer(text):
        pos = m.end()
        if text.startswith('TEST_CASE_METHOD', m.start()):
            comma = text.find(',', pos)  # skip the fixture
            if comma < 0:
                continue
            pos = comma + 1
        parts = []
        while (lit := LITERAL.match(text, pos)):
            parts.append(lit.group(1))
            pos = lit.end()
        if parts:
            yield text.count('\n', 0, m.start()) + 1, ''.join(parts)


def main():
    root = pathlib.Path(sys.argv[1])
    bad, seen = [], 0
    for path in sorted(root.rglob('*.cpp')):
        for line, name in names(path.read_text(encoding='utf-8')):
            seen += 1
            if ';' in name:
                bad.append(f'{path.relative_to(root)}:{line}: "{name}"')
    if seen == 0:
        print(f'no TEST_CASE found under {root}')
        return 1
    for b in bad:
        print(f"{b}: ';' splits the name in ctest, so the case never runs; use ',' or ':'")
    print(f'{seen} test names read, {len(bad)} with a semicolon')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
