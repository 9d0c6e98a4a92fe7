#!/usr/bin/env python3
"""The cloud simulator's own CPU per request under a fixed client, A/B interleaved.

  bench/sim-load.py [--n N] [--clients C] [--latency-ms MS] [--rounds R] [--compiles] LABEL=CP[@WARM_UP] ...

For each round and each LABEL=CP (CP: the simulator's class path; WARM_UP: its -warm-up, default 10000),
starts strata-cloudsim as bench/run does (C1, serial GC, 512k stacks, the latency given, no limits), waits
until it listens, then sends N bucket creates (POST /v1/buckets, 201 expected) over C keep-alive
connections and prints the simulator's CPU (user+sys from /proc, its warm-up excluded) per request, with
the load average. The client is the same for every side, so only the simulator varies; the CLI is not
involved. --compiles also runs the simulator with -XX:+PrintCompilation and counts the methods it compiled
after it started listening (compiles its warm-up did not reach).

Example (this checkout against a saved jar of main):
  bench/sim-load.py --rounds 4 --compiles old=/tmp/main/cloudsim.jar:strata-cloudsim/target/lib/*@2000 \\
      new=strata-cloudsim/target/cloudsim.jar:strata-cloudsim/target/lib/*
"""
import argparse, http.client, json, os, socket, subprocess, tempfile, threading, time

JAVA = os.path.join(os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java")
TICK = os.sysconf("SC_CLK_TCK")


def cpu(pid):
    """(user, sys) seconds of a process, all its threads."""
    with open(f"/proc/{pid}/stat") as f:
        s = f.read()
    fields = s[s.rindex(")") + 2:].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK


def run(a, label, cp, warm_up):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    cmd = [JAVA, "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"]
    if a.compiles:
        cmd.append("-XX:+PrintCompilation")
    cmd += ["-cp", cp, "dev.strata.cloudsim.Main", f"-port={port}", f"-latency-ms={a.latency_ms}", "-rate=0",
            f"-warm-up={warm_up}"]
    with tempfile.TemporaryFile("w+") as log:
        sim = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        try:
            for _ in range(1200):
                try:
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                    c.request("GET", "/admin/counters")
                    c.getresponse().read()
                    break
                except OSError:
                    time.sleep(0.05)
            time.sleep(0.5)
            u0, s0 = cpu(sim.pid)
            t0 = time.monotonic()
            lock, nxt, failed = threading.Lock(), [0], [0]

            def client():
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                while True:
                    with lock:
                        i = nxt[0]
                        nxt[0] += 1
                    if i >= a.n:
                        return
                    c.request("POST", "/v1/buckets", json.dumps({"name": f"load-bucket-{i:07d}"}),
                              {"Content-Type": "application/json", "Idempotency-Key": f"k{i}", "X-Client-Id": "load"})
                    r = c.getresponse()
                    r.read()
                    if r.status != 201:
                        with lock:
                            failed[0] += 1

            threads = [threading.Thread(target=client) for _ in range(a.clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.monotonic() - t0
            u1, s1 = cpu(sim.pid)
        finally:
            sim.terminate()
            sim.wait()
        log.seek(0)
        lines = log.read().splitlines()
    at = next((i for i, l in enumerate(lines) if "cloudsim listening on" in l), len(lines))
    compiles = f" compiles after listening {len(lines) - at - 1}" if a.compiles else ""
    used = u1 - u0 + s1 - s0
    print(f"{label:>8} n={a.n} simulator CPU {used:.3f} s (user {u1 - u0:.3f}, sys {s1 - s0:.3f}) = "
          f"{1e3 * used / a.n:.3f} ms/request{compiles} | wall {wall:.2f} s, not 201: {failed[0]} | "
          f"load {os.getloadavg()[0]:.1f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sides", nargs="+", help="LABEL=CLASSPATH[@WARM_UP]")
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--latency-ms", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--compiles", action="store_true")
    a = ap.parse_args()
    sides = []
    for side in a.sides:
        label, rest = side.split("=", 1)
        cp, _, warm = rest.partition("@")
        sides.append((label, cp, int(warm) if warm else 10000))
    for _ in range(a.rounds):
        for label, cp, warm in sides:
            run(a, label, cp, warm)


if __name__ == "__main__":
    main()
