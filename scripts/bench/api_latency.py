#!/usr/bin/env python3
"""Latency of `GET /api/v1/recordings` with 10,000 recordings in the index, measured with wrk.

A daemon (`onair daemon --http`) runs in a temporary ONAIR_HOME whose index this script fills with
N recordings (one hour each, 15 titles each, as a busy box's would look), then wrk asks for the list
from C connections for S seconds. Prints the latency percentiles wrk reports, and the reply's size.

Usage: scripts/bench/api_latency.py --onair .build/release/onair [--recordings 10000] [--connections 4] [--seconds 20]
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


def start_daemon(onair, home, port):
    """`onair daemon --http 127.0.0.1:PORT` in ONAIR_HOME `home`, with an empty catalogue."""
    stations = os.path.join(home, "stations.json")
    with open(stations, "w") as f:
        json.dump({"version": 1, "stations": []}, f)
    return subprocess.Popen([onair, "daemon", "--http", f"127.0.0.1:{port}"],
                            env={**os.environ, "ONAIR_HOME": home, "ONAIR_STATIONS": stations},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--onair", required=True)
    parser.add_argument("--recordings", type=int, default=10_000)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        port = free_port()
        daemon = start_daemon(args.onair, home, port)
        try:
            url = f"http://127.0.0.1:{port}/api/v1/recordings"
            for _ in range(100):
                try:
                    urllib.request.urlopen(url, timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            fill(os.path.join(home, "data", "onair.sqlite"), args.recordings)
            size = len(urllib.request.urlopen(url, timeout=30).read())
            wrk = subprocess.run(["wrk", "-t", "2", "-c", str(args.connections), "-d", f"{args.seconds}s", "--latency", "--timeout", "30s", url],
                                 capture_output=True, text=True, check=True).stdout
        finally:
            daemon.terminate()
            daemon.wait()
    percentiles = dict(re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", wrk, re.M))
    requests = re.search(r"Requests/sec:\s+(\S+)", wrk).group(1)
    print(f"## API latency: GET /api/v1/recordings with {args.recordings:,} recordings (the first page of 100: {size / 1e3:.0f} kB of JSON)\n")
    print(f"wrk, {args.connections} connections, {args.seconds} s: p50 {percentiles.get('50')}, p90 {percentiles.get('90')}, "
          f"p99 {percentiles.get('99')}; {requests} requests/s")


if __name__ == "__main__":
    main()
