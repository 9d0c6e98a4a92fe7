#!/usr/bin/env python3
"""Timeline of one `strata apply` against a fresh cloud simulator, with both processes' CPU.

  bench/sim-timeline.py [--label L] [--sim-cp CP] [--sim-warm-up N] [--java-opts OPTS] [--aot FILE]
                        [--jfr FILE] [--sim-jfr FILE] [--latency-ms N] [--parallelism N] [--rates]
                        [--threads] [--out FILE] JAR N

Generates `bench/gen.py wide N --provider sim` in a scratch folder, starts strata-cloudsim (class path
--sim-cp, default this checkout's simulator and CLI libraries) with the options bench/run gives it (and
its -warm-up, default 10000 requests; 0 for a simulator without the flag), then
runs `java OPTS [-XX:AOTCache=FILE] -jar JAR apply -auto-approve -input=false -parallelism=P` there, time-
stamping every line of its output as it arrives (the CLI flushes each progress line) and sampling both
processes' CPU (/proc/PID/stat) every 20 ms. Prints one line per run:

  start = JVM start to its first output line (configuration loaded, plan made and rendered),
  plan printed = first line to the first `Creating...`, span = first `Creating...` to last
  `Creation complete`, tail = last `Creation complete` to the process's exit (summary, state written,
  JVM exit), in-flight peak (Creating minus complete), the CLI's CPU (user+sys) per phase, the
  simulator's CPU during the run, and the load average.
"""
import argparse, os, subprocess, sys, tempfile, threading, time, json, shutil, socket, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAVA = os.path.join(os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java")
TICK = os.sysconf("SC_CLK_TCK")


def cpu(pid):
    """user+sys seconds of a process (all its threads), or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            s = f.read()
    except OSError:
        return None
    fields = s[s.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def threads_cpu(pid, into):
    """Records each thread's user+sys seconds by thread id, with its name, into a dict."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                s = f.read()
        except OSError:
            continue
        name = s[s.index("(") + 1:s.rindex(")")]
        fields = s[s.rindex(")") + 2:].split()
        into[tid] = (name, (int(fields[11]) + int(fields[12])) / TICK)


def by_name(threads):
    """Thread CPU summed by name, digits dropped (ForkJoinPool-1-worker-3 -> ForkJoinPool-1-worker-)."""
    out = {}
    for name, c in threads.values():
        key = name.rstrip("0123456789")
        out[key] = out.get(key, 0.0) + c
    return sorted(out.items(), key=lambda kv: -kv[1])


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def run_once(a, work):
    port = free_port()
    sim_cmd = [JAVA, "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"]
    if a.sim_jfr:
        sim_cmd.append(f"-XX:StartFlightRecording=filename={a.sim_jfr},settings=profile,jdk.ExecutionSample#period=1ms")
    sim_cmd += ["-cp", a.sim_cp, "dev.strata.cloudsim.Main", f"-port={port}", f"-latency-ms={a.latency_ms}",
                "-rate=0", "-burst=10", "-provision-delay-ms=0"]
    if a.sim_warm_up:
        sim_cmd.append(f"-warm-up={a.sim_warm_up}")
    sim = subprocess.Popen(sim_cmd, stdout=open(os.path.join(work, "cloudsim.log"), "w"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(url + "/admin/counters", timeout=1).read()
            break
        except OSError:
            time.sleep(0.05)
    time.sleep(0.3)  # let the simulator's start-up compiles settle before the CLI starts
    sim_cpu0 = cpu(sim.pid)
    cmd = [JAVA] + a.java_opts.split() + ["-Xss1g", "-XX:UserThreadWaitAttemptsAtExit=0",
                                          "--sun-misc-unsafe-memory-access=allow", "-Dstrata.stdout.tty=false"]
    if a.aot:
        cmd += [f"-XX:AOTCache={a.aot}", "-Xlog:aot=off", "-Xlog:cds=off"]
    if a.jfr:
        cmd.append(f"-XX:StartFlightRecording=filename={a.jfr},settings=profile,jdk.ExecutionSample#period=1ms")
    cmd += ["-jar", a.jar, "apply", "-auto-approve", "-input=false", f"-parallelism={a.parallelism}",
            "-var", f"endpoint={url}"]
    load0 = os.getloadavg()[0]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=0)
    samples = []  # (t, cli cpu, sim cpu)
    done = threading.Event()
    cli_threads, sim_threads = {}, {}

    def sample():
        k = 0
        while not done.is_set():
            c = cpu(p.pid)
            if c is not None:
                samples.append((time.monotonic() - t0, c, cpu(sim.pid)))
            if a.threads and k % 5 == 0:
                threads_cpu(p.pid, cli_threads)
                threads_cpu(sim.pid, sim_threads)
            k += 1
            time.sleep(0.02)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    lines = []
    # Read in large chunks, each line stamped with its chunk's arrival: a line-by-line reader slow to
    # drain the pipe (the plan is one write of hundreds of kilobytes) would hold the CLI up on it.
    pending = b""
    fd = p.stdout.fileno()
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        t = time.monotonic() - t0
        pending += chunk
        *complete, pending = pending.split(b"\n")
        lines.extend((t, l.decode("utf-8", "replace")) for l in complete)
    if pending:
        lines.append((time.monotonic() - t0, pending.decode("utf-8", "replace")))
    # CPU of the whole process, children reaped: from wait4's rusage.
    _, status, ru = os.wait4(p.pid, 0)
    t_exit = time.monotonic() - t0
    done.set()
    th.join()
    sim_cpu1 = cpu(sim.pid)
    if a.threads:
        threads_cpu(sim.pid, sim_threads)
    try:
        counters = json.loads(urllib.request.urlopen(url + "/admin/counters", timeout=5).read())
    except OSError:
        counters = {}
    sim.terminate()
    sim.wait()
    load1 = os.getloadavg()[0]
    cli_cpu = ru.ru_utime + ru.ru_stime

    first = lines[0][0] if lines else t_exit
    creating = [t for t, l in lines if l.endswith(": Creating...")]
    complete = [t for t, l in lines if ": Creation complete after" in l]
    t_c0 = creating[0] if creating else t_exit
    t_c1 = complete[-1] if complete else t_exit
    # In flight over time: running count of Creating minus complete lines.
    events = sorted([(t, 1) for t in creating] + [(t, -1) for t in complete])
    n = peak = 0
    for _, d in events:
        n += d
        peak = max(peak, n)

    def cpu_at(t):
        best = None
        for s in samples:
            if s[0] <= t:
                best = s
        return best[1] if best else 0.0

    # Creates completed per 100 ms of the span, to see whether they flow evenly.
    rate = []
    if complete:
        b = t_c0
        while b < t_c1:
            rate.append(sum(1 for t in complete if b <= t < b + 0.1))
            b += 0.1
    if a.out:
        with open(a.out, "w") as f:
            f.writelines(f"{t:8.3f} {l}\n" for t, l in lines)
    ok = os.waitstatus_to_exitcode(status) == 0
    return {
        "label": a.label, "ok": ok, "wall": t_exit, "start": first, "plan_printed": t_c0 - first,
        "span": t_c1 - t_c0, "tail": t_exit - t_c1, "creates": len(complete), "in_flight_peak": peak,
        "cli_cpu": cli_cpu, "cli_cpu_before_apply": cpu_at(t_c0), "cli_cpu_span": cpu_at(t_c1) - cpu_at(t_c0),
        "sim_cpu": (sim_cpu1 or 0) - (sim_cpu0 or 0), "requests": counters.get("requests_total"),
        "sim_peak": counters.get("peak_concurrency"), "load": (load0, load1), "per_100ms": rate,
        "cli_threads": by_name(cli_threads), "sim_threads": by_name(sim_threads),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("jar")
    ap.add_argument("n", type=int)
    ap.add_argument("--label", default="")
    ap.add_argument("--sim-cp", default=f"{ROOT}/strata-cloudsim/target/cloudsim.jar:{ROOT}/strata-cli/target/lib/*")
    ap.add_argument("--java-opts", default="-XX:+UseSerialGC -XX:TieredStopAtLevel=1")
    ap.add_argument("--aot")
    ap.add_argument("--jfr")
    ap.add_argument("--sim-jfr")
    ap.add_argument("--sim-warm-up", type=int, default=10000, help="the simulator's -warm-up requests")
    ap.add_argument("--latency-ms", type=int, default=50)
    ap.add_argument("--parallelism", type=int, default=100)
    ap.add_argument("--rates", action="store_true", help="also print creates completed per 100 ms")
    ap.add_argument("--threads", action="store_true",
                    help="also print both processes' CPU by thread name (sampled every 100 ms: the CLI's last "
                         "100 ms are missing)")
    ap.add_argument("--out", help="write the CLI's output there, each line with its time")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="strata-timeline-")
    try:
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen.py"), "wide", str(a.n), work,
                        "--provider", "sim"], check=True, stdout=subprocess.DEVNULL)
        r = run_once(a, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{r['label']:>6} n={a.n} ok={r['ok']} wall {r['wall']:.2f} = start {r['start']:.2f} + plan printed "
          f"{r['plan_printed']:.2f} + span {r['span']:.2f} + tail {r['tail']:.2f} | creates {r['creates']} "
          f"in-flight peak {r['in_flight_peak']} sim peak {r['sim_peak']} requests {r['requests']} | CPU cli "
          f"{r['cli_cpu']:.2f} (before apply {r['cli_cpu_before_apply']:.2f}, span {r['cli_cpu_span']:.2f}) sim "
          f"{r['sim_cpu']:.2f} | load {r['load'][0]:.1f}->{r['load'][1]:.1f}")
    if a.rates:
        print("  completed per 100 ms:", " ".join(map(str, r["per_100ms"])))
    if a.threads:
        for side in ("cli_threads", "sim_threads"):
            print(f"  {side}: " + ", ".join(f"{k} {v:.2f}" for k, v in r[side] if v >= 0.01))


if __name__ == "__main__":
    main()
