#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Strict check of Prometheus text exposition format 0.0.4 as mlock-audit
writes it: every family has # HELP and # TYPE before its samples, its
samples together, names and labels valid, label values correctly escaped
and valid UTF-8, float values, counters end in _total, no duplicate series,
names prefixed mlock_audit_. Usage: promcheck.py FILE (or - for stdin).
Exits 1 and prints each problem on failure."""
import re
import sys

NAME = re.compile(r'[a-zA-Z_:][a-zA-Z0-9_:]*$')
LABEL = re.compile(r'[a-zA-Z_][a-zA-Z0-9_]*$')
FLOAT = re.compile(r'([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?Inf|NaN)$')
TYPES = {'counter', 'gauge', 'untyped', 'summary', 'histogram'}


def parse_labels(s, i, errs, ln):
    """s[i] == '{'; returns (labels, index after '}')."""
    labels = []
    i += 1
    while True:
        if s[i:i + 1] == '}':
            return labels, i + 1
        m = re.compile(r'[a-zA-Z_][a-zA-Z0-9_]*').match(s, i)
        if not m:
            errs.append(f'line {ln}: bad label name at {s[i:i+20]!r}')
            return None, len(s)
        name = m.group(0)
        if name.startswith('__'):
            errs.append(f'line {ln}: reserved label name {name}')
        i = m.end()
        if s[i:i + 2] != '="':
            errs.append(f'line {ln}: want =" after label {name}')
            return None, len(s)
        i += 2
        val = []
        while True:
            if i >= len(s):
                errs.append(f'line {ln}: unterminated label value')
                return None, len(s)
            c = s[i]
            if c == '\\':
                nxt = s[i + 1:i + 2]
                if nxt not in ('\\', '"', 'n'):
                    errs.append(f'line {ln}: bad escape \\{nxt} in label {name}')
                val.append({'n': '\n'}.get(nxt, nxt))
                i += 2
                continue
            if c == '"':
                i += 1
                break
            if c == '\n':
                errs.append(f'line {ln}: raw newline in label value')
            val.append(c)
            i += 1
        labels.append((name, ''.join(val)))
        if s[i:i + 1] == ',':
            i += 1
            if s[i:i + 1] == '}':
                return labels, i + 1
        elif s[i:i + 1] != '}':
            errs.append(f'line {ln}: want , or }} after label {name}')
            return None, len(s)


def check(data):
    errs = []
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError as e:
        return [f'not valid UTF-8: {e}']
    if text and not text.endswith('\n'):
        errs.append('does not end with a newline')
    help_, type_, done, series = {}, {}, set(), set()
    current = None
    for ln, line in enumerate(text.split('\n')[:-1], 1):
        if not line:
            errs.append(f'line {ln}: empty line')
            continue
        if line.startswith('#'):
            parts = line.split(' ', 3)
            if len(parts) >= 3 and parts[1] in ('HELP', 'TYPE'):
                name = parts[2]
                if not NAME.match(name):
                    errs.append(f'line {ln}: bad metric name {name!r}')
                if name in done or (current and name != current and name in help_ and name in type_):
                    errs.append(f'line {ln}: {parts[1]} for {name} after its samples')
                table = help_ if parts[1] == 'HELP' else type_
                if name in table:
                    errs.append(f'line {ln}: second {parts[1]} for {name}')
                rest = parts[3] if len(parts) > 3 else ''
                if parts[1] == 'HELP':
                    if not rest.strip():
                        errs.append(f'line {ln}: empty HELP for {name}')
                    if re.search(r'\\[^\\n]', rest):
                        errs.append(f'line {ln}: bad escape in HELP of {name}')
                else:
                    if rest not in TYPES:
                        errs.append(f'line {ln}: bad TYPE {rest!r}')
                    if rest == 'counter' and not name.endswith('_total'):
                        errs.append(f'line {ln}: counter {name} does not end in _total')
                if current and current != name:
                    done.add(current)
                current = name
                table[name] = rest
            continue
        m = re.match(r'[a-zA-Z_:][a-zA-Z0-9_:]*', line)
        if not m:
            errs.append(f'line {ln}: bad sample {line!r}')
            continue
        name = m.group(0)
        i = m.end()
        labels = []
        if line[i:i + 1] == '{':
            labels, i = parse_labels(line, i, errs, ln)
            if labels is None:
                continue
        names = [k for k, _ in labels]
        if len(set(names)) != len(names):
            errs.append(f'line {ln}: duplicate label name')
        if line[i:i + 1] != ' ':
            errs.append(f'line {ln}: want a blank before the value')
            continue
        fields = line[i + 1:].split(' ')
        if not FLOAT.match(fields[0]):
            errs.append(f'line {ln}: bad value {fields[0]!r}')
        if len(fields) > 2 or (len(fields) == 2 and not re.match(r'-?\d+$', fields[1])):
            errs.append(f'line {ln}: junk after the value')
        if not name.startswith('mlock_audit_'):
            errs.append(f'line {ln}: {name} lacks the mlock_audit_ prefix')
        if name not in help_ or name not in type_:
            errs.append(f'line {ln}: sample of {name} before its HELP and TYPE')
        if name in done:
            errs.append(f'line {ln}: samples of {name} not together')
        if current and current != name:
            done.add(current)
        current = name
        key = (name, tuple(sorted(labels)))
        if key in series:
            errs.append(f'line {ln}: duplicate series {line!r}')
        series.add(key)
    for name in type_:
        if name not in help_:
            errs.append(f'{name}: TYPE without HELP')
    return errs


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else '-'
    data = sys.stdin.buffer.read() if path == '-' else open(path, 'rb').read()
    errs = check(data)
    for e in errs:
        print(f'{path}: {e}')
    sys.exit(1 if errs else 0)


if __name__ == '__main__':
    main()
