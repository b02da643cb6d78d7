#!/usr/bin/env python3
"""validate.py SCHEMA COMMAND [FILE]: check one -J document (or, for
monitor, one object a line) against the command's definition in SCHEMA.
Exit 0 valid, 1 invalid (each error on stderr), 2 usage."""
import json
import sys

import jsonschema


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    cmd = sys.argv[2]
    if cmd not in doc["$defs"]:
        print(f"validate.py: no definition of {cmd}", file=sys.stderr)
        return 2
    schema = {"$schema": doc["$schema"], "$defs": doc["$defs"], "$ref": f"#/$defs/{cmd}"}
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    text = open(sys.argv[3]).read() if len(sys.argv) == 4 else sys.stdin.read()
    docs = [json.loads(l) for l in text.splitlines() if l.strip()] if cmd == "monitor" else [json.loads(text)]
    bad = 0
    for d in docs:
        for e in validator.iter_errors(d):
            path = "/".join(str(p) for p in e.absolute_path)
            print(f"{cmd} -J: at /{path}: {e.message}", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
