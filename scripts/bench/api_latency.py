#!/usr/bin/env python3
"""Latency and throughput of the daemon's API beside the same server's static document, measured with wrk.

A daemon (`onair daemon --http`) runs in a temporary ONAIR_HOME with the shipped catalogue and an index
this script fills with N recordings (one hour each, 15 titles each, as a busy box's would look). wrk then
asks, one after the other, for `GET /api/v1/stations`, `GET /api/v1/recordings` (the first page of 100)
and the static `GET /api/openapi.json`, each from 4 and from 64 connections for S seconds. Prints a
table: reply size, p50/p90/p99 and requests/s, and each route's throughput as a share of the static
document's at the same connection count.

Usage: scripts/bench/api_latency.py --onair .build/release/onair [--recordings 10000] [--seconds 15]
"""
import argparse, datetime, json, os, re, socket, sqlite3, subprocess, tempfile, time, urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fill(database, count):
    base = datetime.datetime(2025, 1, 1)
    stamp = lambda d: d.strftime("%Y-%m-%d %H:%M:%S.000")
    titles = json.dumps([{"title": f"Song {j}", "start": j * 240.0} for j in range(15)])
    rows = [(f"station-{i % 20}", f"Station {i % 20}", f"programme-{i % 50}", f"Programme {i % 50}",
             stamp(base + datetime.timedelta(hours=i)), stamp(base + datetime.timedelta(hours=i + 1)),
             stamp(base + datetime.timedelta(hours=i)), stamp(base + datetime.timedelta(hours=i + 1)), "UTC",
             f"/nonexistent/{i}.mp3", 57_600_000, 3600.0, "mp3", "mp3", titles, "[]", "http://127.0.0.1:9/x.mp3")
            for i in range(count)]
    with sqlite3.connect(database) as db:
        db.executemany("insert into recording (station, stationName, programme, programmeName, startUTC, endUTC, startLocal,"
                       " endLocal, timeZone, file, size, duration, codec, container, titles, gaps, source)"
                       " values (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROUTES = ["/api/v1/stations", "/api/v1/recordings", "/api/v1/recordings?offset=RANDOM", "/api/openapi.json"]
# A page asked again is served as encoded the first time, while the index is unchanged; asked at a random offset
# each time (a wrk script), the pages of 10,000 recordings outnumber what is kept, so most are encoded afresh.
RANDOM_PAGE = """
math.randomseed(7)
request = function() return wrk.format(nil, "/api/v1/recordings?offset=" .. math.random(0, %d)) end
"""


def start_daemon(onair, home, port):
    """`onair daemon --http 127.0.0.1:PORT` in ONAIR_HOME `home`, with the shipped catalogue."""
    stations = os.path.join(ROOT, "stations.json")
    return subprocess.Popen([onair, "daemon", "--http", f"127.0.0.1:{port}"],
                            env={**os.environ, "ONAIR_HOME": home, "ONAIR_STATIONS": stations},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)


def wrk(url, connections, seconds, script=None):
    extra = ["-s", script] if script else []
    out = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--latency", "--timeout", "30s", *extra, url],
                         capture_output=True, text=True, check=True).stdout
    percentiles = dict(re.findall(r"^\s+(50|90|99)%\s+(\S+)", out, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return percentiles, float(re.search(r"Requests/sec:\s+(\S+)", out).group(1)), int(errors.group(1)) if errors else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--onair", required=True)
    parser.add_argument("--recordings", type=int, default=10_000)
    parser.add_argument("--seconds", type=int, default=15)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as home:
        port = free_port()
        daemon = start_daemon(args.onair, home, port)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    urllib.request.urlopen(base + ROUTES[0], timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            fill(os.path.join(home, "data", "onair.sqlite"), args.recordings)
            script = os.path.join(home, "random-page.lua")
            with open(script, "w") as out:
                out.write(RANDOM_PAGE % max(0, args.recordings - 100))
            for connections in (4, 64):
                results = {}
                for route in ROUTES:
                    random = route.endswith("RANDOM")
                    path = route.split("?")[0] if random else route
                    size = len(urllib.request.urlopen(base + path, timeout=30).read())
                    results[route] = (size, *wrk(base + path, connections, args.seconds, script if random else None))
                static = results[ROUTES[-1]][2]
                for route in ROUTES:
                    size, percentiles, rate, errors = results[route]
                    rows.append((route, connections, size, percentiles, rate, rate / static, errors))
        finally:
            daemon.terminate()
            daemon.wait()
    print(f"## API latency beside the static document: {args.recordings:,} recordings, the shipped catalogue\n")
    print(f"wrk, {args.seconds} s a case, one case at a time; `share` is the route's requests/s over the static document's at the "
          "same connections.\n")
    print("| route | connections | reply | p50 | p90 | p99 | requests/s | share | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for route, connections, size, percentiles, rate, share, errors in rows:
        print(f"| `GET {route}` | {connections} | {size / 1e3:.0f} kB | {percentiles.get('50')} | {percentiles.get('90')} | "
              f"{percentiles.get('99')} | {rate:,.0f} | {share:.0%} | {errors} |")


if __name__ == "__main__":
    main()
