"""Writes each test of the Mustache spec (in the folder given first) as a seed of the mustache
fuzz target into the folder given second: the template, then each partial as NUL, name, 0x01,
text (the input format of MustacheFuzzer.swift)."""
import json
import pathlib
import sys

spec, corpus = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
count = 0
for file in sorted(spec.glob("*.json")):
    for test in json.loads(file.read_text(encoding="utf-8"))["tests"]:
        seed = test["template"].encode()
        for name, text in (test.get("partials") or {}).items():
            seed += b"\0" + name.encode() + b"\1" + text.encode()
        count += 1
        (corpus / f"spec-{count}").write_bytes(seed)
print(f"fuzz: mustache: {count} seeds from the Mustache spec")
