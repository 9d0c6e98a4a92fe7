#!/usr/bin/env python3
"""Top frames of a flight recording's CPU samples: bench/jfr-top.py FILE.jfr [N]

Prints the top N methods by self samples, and the top N dev.strata methods by inclusive samples
(a method counted once per sample when it is anywhere on the stack), from `jfr print --json`.
"""
import collections, json, os, subprocess, sys

jfr = os.path.join(os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "jfr")
n = int(sys.argv[2]) if len(sys.argv) > 2 else 15
out = subprocess.run([jfr, "print", "--json", "--stack-depth", "64", "--events", "jdk.ExecutionSample", sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
events = json.loads(out)["recording"]["events"]
self_c, incl = collections.Counter(), collections.Counter()
for e in events:
    frames = e["values"]["stackTrace"]["frames"] if e["values"].get("stackTrace") else []
    names = [f["method"]["type"]["name"].replace("/", ".") + "." + f["method"]["name"] + ":" + str(f.get("lineNumber", "")) for f in frames]
    if names:
        self_c[names[0]] += 1
    seen = set()
    for nm in names:
        m = nm.rsplit(":", 1)[0]
        if m.startswith("dev.strata") and m not in seen:
            seen.add(m)
            incl[m] += 1
total = max(1, len(events))
print(f"{len(events)} samples")
print("self:")
for k, v in self_c.most_common(n):
    print(f"  {100 * v / total:5.1f}%  {k}")
print("inclusive (dev.strata):")
for k, v in incl.most_common(n):
    print(f"  {100 * v / total:5.1f}%  {k}")
