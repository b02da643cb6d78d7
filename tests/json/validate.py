#!/usr/bin/env python3
"""validate.py SCHEMA COMMAND [FILE]: check one -J document (or, for
monitor, one object a line) against the command's definition in SCHEMA.
Exit 0 valid, 1 invalid (each error on stderr), 2 usage.

validate.py SCHEMA --batch LIST: the same for each line COMMAND<TAB>FILE
of LIST, in one process (python and jsonschema start once, not per file):
a line "ok" or "not ok<TAB>first errors" each, in order; exit 0, or 2 for
a usage error.

Every document must also be in the one layout of every -J (fbclassctl(8),
JSON OUTPUT): two spaces a level, "key": value, [] and {} when empty;
monitor's objects each on one line, {"key": value, "list": [1, 2]}."""
import json
import re
import sys

import jsonschema


def validator_of(doc, cmd):
    schema = {"$schema": doc["$schema"], "$defs": doc["$defs"], "$ref": f"#/$defs/{cmd}"}
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def layout(cmd, text):
    """Where text is not in the one layout: numbers are kept as written,
    json-c's text for a double is not Python's."""
    keep = lambda s: "\0NUM" + s + "\0"
    unkeep = lambda s: re.sub(r'"\\u0000NUM([^"\\]*)\\u0000"', r"\1", s)
    if cmd == "monitor":
        want = "".join(unkeep(json.dumps(json.loads(l, parse_float=keep), ensure_ascii=False)) + "\n"
                       for l in text.splitlines() if l.strip())
    else:
        want = unkeep(json.dumps(json.loads(text, parse_float=keep), indent=2, ensure_ascii=False)) + "\n"
    if text == want:
        return []
    got_lines, want_lines = text.splitlines(), want.splitlines()
    n = next((i for i, (g, w) in enumerate(zip(got_lines, want_lines)) if g != w),
             min(len(got_lines), len(want_lines)))
    return [f"{cmd} -J: not the layout of every -J, line {n + 1}: "
            f"{got_lines[n] if n < len(got_lines) else 'EOF'!r}, "
            f"not {want_lines[n] if n < len(want_lines) else 'EOF'!r}"]


def errors(validator, cmd, text):
    """The error lines of one document (monitor: one object a line)."""
    out = []
    try:
        docs = [json.loads(l) for l in text.splitlines() if l.strip()] if cmd == "monitor" else [json.loads(text)]
    except ValueError as e:
        return [f"{cmd} -J: not JSON: {e}"]
    out += layout(cmd, text)
    for d in docs:
        for e in validator.iter_errors(d):
            path = "/".join(str(p) for p in e.absolute_path)
            out.append(f"{cmd} -J: at /{path}: {e.message}")
    return out


def batch(doc, listfile):
    validators = {}
    for line in open(listfile):
        cmd, _, path = line.rstrip("\n").partition("\t")
        if cmd not in doc["$defs"]:
            print(f"validate.py: no definition of {cmd}", file=sys.stderr)
            return 2
        if cmd not in validators:
            validators[cmd] = validator_of(doc, cmd)
        bad = errors(validators[cmd], cmd, open(path).read())
        print("not ok\t" + " | ".join(bad[:5]) if bad else "ok", flush=True)
    return 0


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    cmd = sys.argv[2]
    if cmd == "--batch" and len(sys.argv) == 4:
        return batch(doc, sys.argv[3])
    if cmd not in doc["$defs"]:
        print(f"validate.py: no definition of {cmd}", file=sys.stderr)
        return 2
    text = open(sys.argv[3]).read() if len(sys.argv) == 4 else sys.stdin.read()
    bad = errors(validator_of(doc, cmd), cmd, text)
    for b in bad:
        print(b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
