#!/usr/bin/env python3
"""Fails when the code's shape drifts from what docs/ARCHITECTURE.md promises.

- core/ keeps at most 20 sources at its top; the rest live in folders by
  concern, each named in ARCHITECTURE's folder table, and tests/core/ has no
  folder core/ lacks.
- No source file over 800 lines; no function over 80 lines in actors/,
  tools/, daemon/ (a body is counted from its '{' to its '}', lambdas in it
  included).
- States and kinds are enumerations: no `state`, `step`, `action`, `kind` or `type`
  compared with a string literal in daemon/, actors/, core/.
- No condition variable in daemon/ (its threads never wait on one).
Usage: code_shape.py SOURCE_DIR
"""
import pathlib
import re
import sys

SOURCE_DIRS = ['core', 'answers', 'adapters', 'messages', 'actors', 'runio',
               'daemon', 'tools', 'bench', 'tests']
MAX_CORE_TOP, MAX_FILE, MAX_FUNCTION = 20, 800, 80
LITERAL_KIND = re.compile(
    r'\b(state|step|action|kind|type)\s*[!=]=\s*"|"\s*[!=]=\s*[\w.>-]*\b(state|step|action|kind|type)\b')


def blank_out(src):
    """Comments, string and character literals as spaces (newlines kept)."""
    out, i, n = [], 0, len(src)
    while i < n:
        raw = re.match(r'R"([^(\s]*)\(', src[i:i + 20])
        if src.startswith('//', i):
            j = src.find('\n', i)
            j = n if j < 0 else j
        elif src.startswith('/*', i):
            j = src.find('*/', i) + 2
        elif raw and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == '_')):
            end = ')' + raw.group(1) + '"'
            j = src.find(end, i) + len(end)
        elif src[i] in '"\'':
            j = i + 1
            while j < n and src[j] != src[i]:
                j += 2 if src[j] == '\\' else 1
            j += 1
        else:
            out.append(src[i])
            i += 1
            continue
        out.append(re.sub(r'[^\n]', ' ', src[i:j]))
        i = j
    return ''.join(out)


SCOPE = re.compile(r'^(namespace\b|extern\b)|\b(struct|class|union|enum)\b[^()]*$')
BODY = re.compile(r'\)\s*(const|noexcept|override|final|mutable|\s)*'
                  r'(->\s*[\w:<>,\s*&]+)?$|\)\s*:[\s\S]*[)}]$')


def long_functions(src):
    """(first line, lines) of each function body over MAX_FUNCTION lines."""
    s = blank_out(src)
    stack, found, line = [], [], 1
    for i, c in enumerate(s):
        if c == '\n':
            line += 1
        elif c == '{':
            head = s[max(0, i - 400):i]
            head = head[max(head.rfind(';'), head.rfind('}'), head.rfind('{')) + 1:].strip()
            kind = 'block'
            if all(k != 'function' for k, _ in stack):
                if SCOPE.search(head):
                    kind = 'scope'
                elif BODY.search(head):
                    kind = 'function'
            stack.append((kind, line))
        elif c == '}' and stack:
            kind, first = stack.pop()
            if kind == 'function' and line - first + 1 > MAX_FUNCTION:
                found.append((first, line - first + 1))
    return found


def main():
    root = pathlib.Path(sys.argv[1])
    bad = []
    sources = [p for d in SOURCE_DIRS for p in sorted((root / d).rglob('*'))
               if p.suffix in ('.cpp', '.hpp')]
    if len(sources) < 100:
        print(f'only {len(sources)} sources found under {root}: wrong directory?')
        return 1
    top = [p for p in (root / 'core').iterdir() if p.suffix in ('.cpp', '.hpp')]
    if len(top) > MAX_CORE_TOP:
        bad.append(f'core/ has {len(top)} sources at its top (at most {MAX_CORE_TOP}): '
                   'put them in the folder of their concern')
    architecture = (root / 'docs' / 'ARCHITECTURE.md').read_text(encoding='utf-8')
    for folder in sorted(p for p in (root / 'core').iterdir() if p.is_dir()):
        if f'`core/{folder.name}/`' not in architecture:
            bad.append(f'core/{folder.name}/ has no line in docs/ARCHITECTURE.md\'s folder table')
    for folder in sorted(p for p in (root / 'tests' / 'core').iterdir() if p.is_dir()):
        if not (root / 'core' / folder.name).is_dir():
            bad.append(f'tests/core/{folder.name}/ tests no folder of core/')
    for path in sources:
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding='utf-8')
        lines = text.count('\n')
        if lines > MAX_FILE:
            bad.append(f'{rel}: {lines} lines (at most {MAX_FILE}): split it by concept')
        if rel.split('/')[0] in ('actors', 'tools', 'daemon'):
            for first, count in long_functions(text):
                bad.append(f'{rel}:{first}: a function of {count} lines (at most {MAX_FUNCTION})')
        if rel.split('/')[0] in ('daemon', 'actors', 'core'):
            for n, code in enumerate(text.split('\n'), 1):
                if LITERAL_KIND.search(re.sub(r'//.*', '', code)):
                    bad.append(f'{rel}:{n}: a state or kind compared with a string '
                               'literal: use its enumeration')
        if rel.startswith('daemon/') and 'condition_variable' in blank_out(text):
            bad.append(f'{rel}: a condition variable in daemon/ (answer by message instead)')
    for b in bad:
        print(b)
    print(f'{len(sources)} sources read, {len(bad)} findings')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
