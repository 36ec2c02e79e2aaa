#!/usr/bin/env python3
"""Several `onair daemon` processes sharing one schedule on one PostgreSQL 15 (issue 15's benchmarks).

  record    N stations recorded by D daemons (--max-streams N/D each) from one Icecast serving a few
            mounts; each station is its own URL (the mount and `?station=i`), so its own upstream
            connection. Reports the time from the windows' preroll until all N are claimed and
            recording, how the stations spread over the daemons, CPU and RSS per daemon over the
            steady part of the window, and audio missing from the files.
  claims    how soon claims follow: R rules in the database, of which C come due at one instant; D daemons
            claim them. Every claim is timed by the database itself (a trigger on the lease table), so
            the figures are seconds after due on the database's clock.
  takeover  one long episode on a shared recordings directory; K times: kill -9 the daemon recording it,
            time until another daemon's part starts (from the recordings index), restart the killed one.

PostgreSQL is started as Tests/TestSupport/PostgresHarness starts it: initdb into a temporary directory,
the server on a free loopback port, as nobody when run as root. Unlike the tests, fsync stays on.

Usage: scripts/bench/cluster.py record --onair .build/release/onair [--streams 600] [--daemons 3] [--seconds 100]
                                                      [--preroll 3]
       scripts/bench/cluster.py claims --onair .build/release/onair [--rules 10000] [--due 600] [--daemons 1,3]
       scripts/bench/cluster.py takeover --onair .build/release/onair [--kills 20]
"""
import argparse, contextlib, json, math, os, random, shutil, signal, socket, statistics, subprocess, sys, tempfile, time
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from record_many import audio_bytes  # noqa: E402  (complete MP3 frames in a file)

PG = "/usr/lib/postgresql/15/bin"
BYTES_PER_SECOND = 16000  # the Icecast mounts are 128 kbit/s MP3
AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] if os.geteuid() == 0 else []


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def workspace(prefix):
    """A temporary directory that nobody (PostgreSQL's and Icecast's user) can pass through."""
    work = tempfile.mkdtemp(prefix=prefix)
    os.chmod(work, 0o755)
    return work


@contextlib.contextmanager
def cluster(prefix, keep=False, mounts=0, clients=0):
    """A workspace with PostgreSQL, a shared recordings directory and, given mounts, Icecast; yields them and a
    list for the daemons started in it. Whatever happens, every daemon in the list is killed, the servers are
    stopped and the workspace is removed (unless `keep`)."""
    work = workspace(prefix)
    shared = os.path.join(work, "recordings")
    os.makedirs(shared)
    database = Postgres(work)
    icecast = Icecast(work, mounts, clients) if mounts else None
    daemons = []
    try:
        yield work, shared, database, icecast, daemons
    finally:
        for d in daemons:
            d.stop(signal.SIGKILL, 10)
        if icecast:
            icecast.stop()
        database.stop()
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def handed_to_nobody(directory):
    if AS_NOBODY:
        shutil.chown(directory, "nobody", "nogroup")
    return directory


class Postgres:
    def __init__(self, work):
        self.directory = os.path.join(work, "postgres")
        os.makedirs(self.directory)
        handed_to_nobody(self.directory)
        subprocess.run(AS_NOBODY + [f"{PG}/initdb", "-D", f"{self.directory}/data", "-U", "onair", "--auth=trust", "-E", "UTF8",
                                    "--no-instructions"], check=True, stdout=subprocess.DEVNULL)
        self.port = free_port()
        self.server = subprocess.Popen(AS_NOBODY + [f"{PG}/postgres", "-D", f"{self.directory}/data", "-p", str(self.port),
                                                    "-k", self.directory, "-c", "listen_addresses=127.0.0.1",
                                                    "-c", "max_connections=100"],
                                       stdout=subprocess.DEVNULL, stderr=open(f"{work}/postgres.log", "w"))
        for _ in range(300):
            if subprocess.run([f"{PG}/pg_isready", "-q", "-h", "127.0.0.1", "-p", str(self.port)]).returncode == 0:
                break
            time.sleep(0.1)
        subprocess.run([f"{PG}/createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "onair", "onair"], check=True)
        self.url = f"postgresql://onair@127.0.0.1:{self.port}/onair"

    def sql(self, statement, stdin=None):
        result = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "onair", "-At", "-q", "-v", "ON_ERROR_STOP=1",
                                 "-c", statement, "onair"], input=stdin, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"psql: {result.stderr.strip()}")
        return [line.split("|") for line in result.stdout.splitlines() if line]

    def stop(self):
        self.server.send_signal(signal.SIGINT)
        self.server.wait(30)


class Icecast:
    """Icecast 2.4 with its client limit raised, and an ffmpeg source (a 128 kbit/s MP3 sine) per mount.

    It listens on its most ports (20), stations spread over them: Icecast listens with a backlog of 5, so
    hundreds of connections opened in the same second overflow one port's queue; the kernel then answers with
    SYN cookies and drops the requests, which retransmit in lockstep waves of six, seconds apart (seen with
    tcpdump and nstat's ListenOverflows in a run with one port: audio up to 13 s late). That measures Icecast,
    not the daemons."""

    LISTEN_SOCKETS = 20

    def __init__(self, work, mounts, clients):
        self.directory = os.path.join(work, "icecast")
        os.makedirs(self.directory)
        handed_to_nobody(self.directory)
        self.ports = [free_port() for _ in range(self.LISTEN_SOCKETS)]
        self.port = self.ports[0]
        self.password = "bench-source"
        config = os.path.join(self.directory, "icecast.xml")
        with open(config, "w") as f:
            f.write(f"""<icecast>
    <hostname>127.0.0.1</hostname>
    <limits><clients>{clients + 50}</clients><sources>{mounts + 2}</sources><queue-size>1048576</queue-size>
            <burst-size>65535</burst-size><source-timeout>30</source-timeout></limits>
    <authentication><source-password>{self.password}</source-password><admin-user>admin</admin-user>
                    <admin-password>bench-admin</admin-password></authentication>
    {"".join(f"<listen-socket><port>{port}</port><bind-address>127.0.0.1</bind-address></listen-socket>" for port in self.ports)}
    <paths><logdir>{self.directory}</logdir><pidfile>{self.directory}/icecast.pid</pidfile>
           <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
    <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
</icecast>
""")
        self.server = subprocess.Popen(AS_NOBODY + ["icecast2", "-c", config], cwd=self.directory,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.sources = []
        time.sleep(1)
        for i in range(mounts):
            self.sources.append(subprocess.Popen(
                ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi",
                 "-i", f"sine=frequency={330 + 110 * i}:sample_rate=44100", "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k",
                 "-content_type", "audio/mpeg", "-f", "mp3", f"icecast://source:{self.password}@127.0.0.1:{self.port}/m{i}.mp3"],
                stderr=subprocess.DEVNULL))
        self.mounts = mounts
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                status = subprocess.run(["curl", "-s", f"http://127.0.0.1:{self.port}/status-json.xsl"], capture_output=True, text=True).stdout
                if all(f"/m{i}.mp3" in status for i in range(mounts)):
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError("Icecast's mounts did not come up")

    def url(self, station):
        return f"http://127.0.0.1:{self.ports[station % len(self.ports)]}/m{station % self.mounts}.mp3?station={station}"

    def processes(self):
        return [self.server] + self.sources

    def stop(self):
        for p in self.sources + [self.server]:
            p.terminate()
        for p in self.sources + [self.server]:
            p.wait(10)


class Daemon:
    """`onair daemon` with a data directory of its own; its recordings directory may be a shared one."""

    def __init__(self, onair, work, name, database, max_streams, shared=None, preroll=3):
        self.onair, self.name, self.database, self.max_streams, self.preroll = onair, name, database, max_streams, preroll
        self.home = os.path.join(work, f"home-{name}")
        os.makedirs(self.home, exist_ok=True)
        if shared and not os.path.exists(os.path.join(self.home, "recordings")):
            os.symlink(shared, os.path.join(self.home, "recordings"))
        self.start()

    def start(self):
        self.log = open(os.path.join(self.home, f"daemon-{time.time():.0f}.log"), "w")
        self.process = subprocess.Popen([self.onair, "daemon", "--json", "--http", "off", "--database", self.database,
                                         "--name", self.name, "--max-streams", str(self.max_streams), "--preroll", str(self.preroll)],
                                        env=dict(os.environ, ONAIR_HOME=self.home), stdin=subprocess.DEVNULL,
                                        stdout=self.log, stderr=subprocess.STDOUT)

    def cpu_seconds(self):
        fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def memory(self, key):
        """VmRSS or VmHWM, in MiB."""
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self, sig=signal.SIGINT, timeout=120):
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def process_cpu(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def utc_text(instant):
    return instant.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")


def add_rules(onair, work, database, rules):
    """Adds (url, start, seconds) one-off rules: the first through `onair schedule add`, the others as copies
    of its stored record with the station and the time replaced (thousands of commands would take minutes)."""
    home = os.path.join(work, "home-scheduler")
    env = dict(os.environ, ONAIR_HOME=home)
    url, start, seconds = rules[0]
    subprocess.run([onair, "schedule", "add", url, "--on", utc_text(start), "--for", f"{seconds}s", "--tz", "UTC",
                    "--database", database.url], env=env, check=True, stdout=subprocess.DEVNULL)
    if len(rules) == 1:
        return
    (record,), = database.sql("SELECT record FROM rule ORDER BY id LIMIT 1")
    template = json.loads(record)
    rows = []
    for url, start, seconds in rules[1:]:
        copy = json.loads(record)
        copy["station"] = url
        copy["timing"]["once"]["_0"] = utc_text(start)  # the duration: the first rule's, the same for all
        assert set(copy) == set(template)
        rows.append("f\t" + json.dumps(copy, separators=(",", ":")).replace("\\", "\\\\") + "\n")
    database.sql("COPY rule (paused, record) FROM STDIN", stdin="".join(rows))
    database.sql("UPDATE rule_changes SET changes = changes + 1")


def timing_check(database, count):
    (stored,), = database.sql("SELECT count(*) FROM rule")
    assert int(stored) == count, f"{stored} rules stored, {count} expected"


def claim_log(database):
    """A trigger recording, on the database's clock, each time a station's lease passes to a daemon (by its --name:
    a lease's holder is NAME/INSTANCE)."""
    database.sql("""
        CREATE TABLE bench_claim (station TEXT, daemon TEXT, epoch BIGINT, at TIMESTAMPTZ DEFAULT clock_timestamp());
        CREATE FUNCTION bench_claimed() RETURNS trigger AS $$
        BEGIN
            IF TG_OP = 'INSERT' OR NEW.daemon <> OLD.daemon OR NEW.epoch <> OLD.epoch THEN
                INSERT INTO bench_claim (station, daemon, epoch) VALUES (NEW.station, split_part(NEW.daemon, '/', 1), NEW.epoch);
            END IF;
            RETURN NEW;
        END $$ LANGUAGE plpgsql;
        CREATE TRIGGER bench_claimed AFTER INSERT OR UPDATE ON station_lease FOR EACH ROW EXECUTE FUNCTION bench_claimed();
        """)


def wait_registered(database, names, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if len(database.sql("SELECT name FROM daemon")) >= len(names):
                return
        except RuntimeError:
            pass  # the daemons' migrations are not applied yet
        time.sleep(0.3)
    raise RuntimeError("the daemons did not register")


def epoch_seconds(text):
    return datetime.fromisoformat(text).timestamp()


# MARK: record


def record(args):
    with cluster("onair-bench-cluster-", args.keep, args.mounts, args.streams) as (work, shared, database, icecast, daemons):
        per_daemon = math.ceil(args.streams / args.daemons)
        names = [f"bench-{i + 1}" for i in range(args.daemons)]
        daemons += [Daemon(args.onair, work, name, database.url, per_daemon, shared, args.preroll) for name in names]
        wait_registered(database, names)
        claim_log(database)
        start = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(seconds=25 + args.preroll)
        add_rules(args.onair, work, database, [(icecast.url(i), start, args.seconds) for i in range(args.streams)])
        timing_check(database, args.streams)
        due = start.timestamp() - args.preroll
        idle = [d.memory("VmRSS") for d in daemons]  # registered, nothing due yet
        print(f"{args.streams} rules, window {start.isoformat()} + {args.seconds} s", file=sys.stderr)

        # Spreading: every 0.5 s, how many episodes are recording.
        all_recording_at = None
        while time.time() < start.timestamp() + 60:
            (recording,), = database.sql("SELECT count(*) FROM episode WHERE status = 'recording'")
            if int(recording) >= args.streams:
                all_recording_at = time.time()
                break
            time.sleep(0.5)
        claims = database.sql("SELECT daemon, count(*), extract(epoch FROM min(at)), extract(epoch FROM max(at)) "
                              "FROM bench_claim GROUP BY daemon ORDER BY daemon")
        print(f"claims: {claims}", file=sys.stderr)

        # Steady state: CPU and RSS over the middle of the window.
        steady_from = max(time.time(), start.timestamp() + 15)
        steady_to = start.timestamp() + args.seconds - 10
        time.sleep(max(0, steady_from - time.time()))
        others = {"Icecast": [icecast.server.pid], "ffmpeg sources": [p.pid for p in icecast.sources],
                  "PostgreSQL": [database.server.pid] + [int(p) for p in subprocess.run(
                      ["pgrep", "-P", str(database.server.pid)], capture_output=True, text=True).stdout.split()]}
        before = [d.cpu_seconds() for d in daemons]
        before_others = {k: sum(process_cpu(p) for p in v) for k, v in others.items()}
        t0 = time.monotonic()
        time.sleep(max(1, steady_to - time.time()))
        elapsed = time.monotonic() - t0
        used = [d.cpu_seconds() - b for d, b in zip(daemons, before)]
        rss = [d.memory("VmRSS") for d in daemons]
        used_others = {k: sum(process_cpu(p) for p in v if os.path.exists(f"/proc/{p}")) - before_others[k]
                       for k, v in others.items()}
        load = os.getloadavg()[0]

        # The end: every episode done, then the files.
        deadline = start.timestamp() + args.seconds + 600
        all_done_at = None
        while time.time() < deadline:
            (open_episodes,), = database.sql("SELECT count(*) FROM episode WHERE status IN ('scheduled', 'recording')")
            if int(open_episodes) == 0:
                all_done_at = time.time()
                break
            time.sleep(1)
        statuses = dict(database.sql("SELECT status, count(*) FROM episode GROUP BY status"))
        peak = [d.memory("VmHWM") for d in daemons]
        files = [json.loads(f) for (f,) in database.sql("SELECT record FROM episode")]
        paths = [p for episode in files for p in episode.get("files", [])]
        gaps = sum(1 for episode in files if "gap of" in (episode.get("reason") or ""))
        expected = args.streams * args.seconds * BYTES_PER_SECOND
        kept = [audio_bytes(p) for p in paths if os.path.exists(p)]
        frame = 418  # one 128 kbit/s MP3 frame at 44.1 kHz, the cut's granularity at each end
        short = [args.seconds * BYTES_PER_SECOND - k for k in kept if k < args.seconds * BYTES_PER_SECOND - 2 * frame]
        lost = sum(max(0, args.seconds * BYTES_PER_SECOND - 2 * frame - k) for k in kept)
        longer = [k for k in kept if k > args.seconds * BYTES_PER_SECOND + 2 * frame]
        # Swift's JSONEncoder writes a Date as seconds since 2001-01-01.
        lateness = [e["firstSampleAt"] - e["windowStart"] for e in files if e.get("firstSampleAt") is not None]
        late = [seconds for seconds in lateness if seconds > 1]
        told_late = sum(1 for e in files if "audio first arrived" in (e.get("reason") or ""))
        for d in daemons:
            d.stop()

        # The report.
        print(f"## {args.streams} stations recorded by {args.daemons} daemons on one PostgreSQL 15\n")
        print(f"{args.streams} one-off rules of {args.seconds} s, all opening at the same instant, each on its own URL "
              f"(one of {args.mounts} Icecast mounts of 128 kbit/s MP3, `?station=i`), so one upstream connection each; "
              f"{args.daemons} `onair daemon --http off --name bench-K --max-streams {per_daemon} --preroll {args.preroll}` with their own data "
              f"directories and one shared recordings directory; load average {load:.1f} at the end of the steady part.\n")
        print("| daemon | stations claimed | first claim | last claim | CPU (steady) | share of a core | CPU per stream "
              "| RSS idle → recording | RSS per stream (all / above idle) | peak RSS |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        by_name = {row[0]: row for row in claims}
        for d, cpu, i, r, p in zip(daemons, used, idle, rss, peak):
            row = by_name.get(d.name, [d.name, "0", "nan", "nan"])
            n = int(row[1])
            print(f"| {d.name} | {n} | {float(row[2]) - due:+.2f} s | {float(row[3]) - due:+.2f} s | {cpu:.1f} s in {elapsed:.0f} s "
                  f"| {cpu / elapsed * 100:.1f} % | {cpu / elapsed * 100 / max(n, 1):.3f} % | {i:.1f} → {r:.1f} MiB "
                  f"| {r / max(n, 1):.2f} / {(r - i) / max(n, 1):.2f} MiB | {p:.1f} MiB |")
        total_cpu, total_idle, total_rss = sum(used), sum(idle), sum(rss)
        print(f"| all | {sum(int(r[1]) for r in claims)} | | | {total_cpu:.1f} s | {total_cpu / elapsed * 100:.1f} % "
              f"| {total_cpu / elapsed * 100 / args.streams:.3f} % | {total_idle:.1f} → {total_rss:.1f} MiB "
              f"| {total_rss / args.streams:.2f} / {(total_rss - total_idle) / args.streams:.2f} MiB | |")
        print()
        spread = (all_recording_at - due) if all_recording_at else None
        print(f"- Work spread: the windows came due (opening less the {args.preroll} s preroll) at 0 s; "
              + (f"all {args.streams} episodes were recording {spread:.1f} s later" if spread is not None
                 else f"not all {args.streams} episodes were recording 60 s after the window opened")
              + " (claim times from the database's clock, `recording` polled every 0.5 s).")
        window_end = start.timestamp() + args.seconds
        print(f"- Finishing: every file remuxed, tagged and indexed, every episode done, "
              + (f"{all_done_at - window_end:.0f} s after the windows closed." if all_done_at
                 else "not within 600 s of the windows' end."))
        print(f"- Alongside, over the same {elapsed:.0f} s: " + ", ".join(
            f"{k} {v:.1f} CPU-s ({v / elapsed * 100:.0f} %)" for k, v in used_others.items()) + ".")
        print(f"- Episodes: {', '.join(f'{n} {s}' for s, n in sorted(statuses.items()))}; {len(paths)} files, "
              f"{gaps} with a gap told; audio kept {sum(kept):,} bytes of {expected:,} in the windows; "
              f"bytes lost (short of the window by more than a frame at each cut): {lost:,} in {len(short)} files; "
              f"{len(longer)} files longer than the window by more than a frame at each cut.")
        print(f"- First audio after the window opened: at most {max(lateness, default=0):.2f} s; {len(late)} episodes more "
              f"than 1 s late, {told_late} of them told so in their note.")


# MARK: claims


def claims(args):
    rows = []
    for count in (int(c) for c in args.daemons.split(",")):
        with cluster("onair-bench-claims-") as (work, _, database, _, daemons):
            closed_port = free_port()  # the stations: nothing listens, so the run measures claiming, not recording
            start = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(seconds=args.lead)
            later = start + timedelta(days=30)
            rules = [(f"http://127.0.0.1:{closed_port}/s{i}.mp3", start if i < args.due else later + timedelta(minutes=i), 20)
                     for i in range(args.rules)]
            names = [f"claim-{i + 1}" for i in range(count)]
            t = time.monotonic()
            add_rules(args.onair, work, database, rules)
            timing_check(database, args.rules)
            print(f"{args.rules} rules stored in {time.monotonic() - t:.1f} s", file=sys.stderr)
            daemons += [Daemon(args.onair, work, name, database.url, args.due) for name in names]
            wait_registered(database, names)
            claim_log(database)
            if time.time() > start.timestamp() - 5:
                raise RuntimeError("the daemons came up too late: raise --lead")
            deadline = start.timestamp() + 240
            while time.time() < deadline:
                (claimed,), = database.sql("SELECT count(DISTINCT station) FROM bench_claim")
                if int(claimed) >= args.due:
                    break
                time.sleep(0.5)
            (first, last, n), = database.sql("SELECT extract(epoch FROM min(at)), extract(epoch FROM max(at)), count(*) FROM bench_claim")
            per = database.sql("SELECT daemon, count(*) FROM bench_claim GROUP BY daemon ORDER BY daemon")
            due = start.timestamp() - 3
            rows.append((count, int(n), float(first) - due, float(last) - due, ", ".join(f"{c}" for _, c in per), os.getloadavg()[0]))
            print(rows[-1], file=sys.stderr)
    print(f"## Claim throughput: {args.due} episodes due at once among {args.rules:,} rules\n")
    print(f"{args.rules:,} one-off rules in the database, {args.due} of them opening at the same instant (the rest a month "
          f"later), each on its own station; the stations are a closed port, so a claimed episode costs a failed connection, "
          f"not a recording. Each claim is timed by the database: a trigger on `station_lease` notes `clock_timestamp()` as each "
          f"lease is written, in the claiming transaction (which commits right after it marks the episodes); "
          f"`--max-streams {args.due}`, so one daemon may take them all. \"Due\" is the windows' opening less the default "
          f"3 s preroll.\n")
    print("| daemons | episodes claimed | first claim after due | last claim after due | claimed per daemon | load average |")
    print("|---:|---:|---:|---:|---|---:|")
    for count, n, first, last, per, load in rows:
        print(f"| {count} | {n} | {first:.2f} s | {last:.2f} s | {per} | {load:.1f} |")


# MARK: takeover


def takeover(args):
    names = [f"node-{i + 1}" for i in range(args.daemons)]
    samples = []
    with cluster("onair-bench-takeover-", args.keep, 1, 10) as (work, shared, database, icecast, started):
        started += [Daemon(args.onair, work, name, database.url, 10, shared) for name in names]
        daemons = dict(zip(names, started))
        wait_registered(database, names)
        claim_log(database)
        start = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(seconds=10)
        window = args.kills * 40 + 60
        add_rules(args.onair, work, database, [(icecast.url(0), start, window)])
        time.sleep(max(0, start.timestamp() + 5 - time.time()))
        rng = random.Random(15)
        kills = []
        for k in range(args.kills):
            holder = database.sql("SELECT daemon, epoch FROM station_lease WHERE expires > now()")
            if not holder:
                raise RuntimeError("nobody holds the station")
            (owner, epoch), = holder
            name = owner.split("/")[0]
            victim = daemons[name]
            victim.process.send_signal(signal.SIGKILL)
            killed_at = time.time()
            victim.process.wait()
            victim.log.close()
            kills.append(killed_at)
            deadline = time.time() + 60
            while time.time() < deadline:
                if database.sql(f"SELECT 1 FROM station_lease WHERE epoch > {epoch} AND expires > now()"):
                    break
                time.sleep(0.2)
            else:
                raise RuntimeError(f"kill {k + 1}: no takeover within 60 s")
            claimed_at = float(database.sql(f"SELECT extract(epoch FROM min(at)) FROM bench_claim WHERE epoch > {epoch}")[0][0])
            print(f"kill {k + 1}: {name} killed, lease taken over after {claimed_at - killed_at:.1f} s", file=sys.stderr)
            victim.start()  # back, as a supervisor would restart it
            time.sleep(rng.uniform(3, 8))  # a random phase against the renewal cycle for the next kill
        time.sleep(5)
        for d in daemons.values():
            d.stop()
        env = dict(os.environ, ONAIR_HOME=os.path.join(work, "home-scheduler"))
        parts = [json.loads(line) for line in subprocess.run(
            [args.onair, "recordings", "list", "--json", "--database", database.url], env=env, capture_output=True, text=True,
            check=True).stdout.splitlines() if line.strip()]
        starts = sorted(epoch_seconds(p["startUTC"].replace("Z", "+00:00")) for p in parts)
        ends = sorted(epoch_seconds(p["endUTC"].replace("Z", "+00:00")) for p in parts)
        claims_at = [float(a) for (a,) in database.sql("SELECT extract(epoch FROM at) FROM bench_claim WHERE epoch > 1 ORDER BY at")]
        for killed_at in kills:
            part = next((s for s in starts if s > killed_at), None)
            claim = next((c for c in claims_at if c > killed_at), None)
            ended = min(ends, key=lambda e: abs(e - killed_at))
            samples.append((part - killed_at if part else math.nan, claim - killed_at if claim else math.nan, ended - killed_at))

    def summary(values):
        values = sorted(v for v in values if not math.isnan(v))
        if not values:
            return "| – | – | – | – |"
        p90 = values[min(len(values) - 1, math.ceil(0.9 * len(values)) - 1)]
        return f"| {values[0]:.1f} s | {statistics.median(values):.1f} s | {p90:.1f} s | {values[-1]:.1f} s |"

    print(f"## Takeover after kill -9: {len(samples)} kills\n")
    print(f"{args.daemons} `onair daemon` on one PostgreSQL 15 and one shared recordings directory, one episode of one Icecast "
          f"station; {len(samples)} times: `kill -9` of the daemon holding the station's lease (at a random point of its "
          f"3 s renewal cycle), restarted once another had taken over. Leases last 15 s, renewed every 3 s.\n")
    print("| from the kill to | min | median | p90 | max |")
    print("|---|---:|---:|---:|---:|")
    print("| the lease claimed by another daemon (database clock) " + summary([s[1] for s in samples]))
    print("| the next part's first audio (recordings index) " + summary([s[0] for s in samples]))
    within = sum(1 for s in samples if s[0] < 30)
    closest = max(abs(s[2]) for s in samples) if samples else math.nan
    print(f"\n- {within} of {len(samples)} takeovers within 30 s; each killed part was finished from its journal and "
          f"indexed, ending within {closest:.1f} s of its kill.")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", choices=["record", "claims", "takeover"])
    parser.add_argument("--onair", required=True)
    parser.add_argument("--streams", type=int, default=600)
    parser.add_argument("--mounts", type=int, default=3)
    parser.add_argument("--daemons", default=None, help="record and takeover: a count (3); claims: comma-separated counts (1,3)")
    parser.add_argument("--seconds", type=int, default=100, help="record: the windows' length")
    parser.add_argument("--preroll", type=int, default=3, help="record: the daemons' --preroll")
    parser.add_argument("--rules", type=int, default=10000)
    parser.add_argument("--due", type=int, default=600)
    parser.add_argument("--lead", type=int, default=40, help="claims: seconds from storing the rules to the window")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    if args.scenario == "claims":
        args.daemons = args.daemons or "1,3"
        claims(args)
    else:
        args.daemons = int(args.daemons or 3)
        {"record": record, "takeover": takeover}[args.scenario](args)


if __name__ == "__main__":
    main()
