#!/usr/bin/env python3
"""Scheduled recording: how exactly episodes start, and what an idle daemon costs.

accuracy  N one-off rules of 3 s, two seconds apart (so they overlap and share one connection), on a
          live HLS stream (FFmpeg's muxer, 1 s segments with program-date-time) and on an Icecast MP3
          mount, recorded by one `onair daemon`. For HLS the truth is taken from the encoder's own
          segments: each file's first AAC frames are found among the segments' frames, whose wall-clock
          time is the segment's program-date-time plus 1024 samples per frame before it. Side by side:
          what a crontab user gets, `ffmpeg -i PLAYLIST -t 3 -c copy` started at each instant, located the
          same way. ICY carries no time stamps, so its figure is the instant onair's own clock for the
          stream (this machine's time at the connection's first audio, plus media time) put on the first
          frame recorded, not the time the audio was produced (an Icecast burst puts that seconds earlier).
idle      `onair daemon` with N rules loaded (none due within the hour), CPU seconds and RSS over a minute.

Usage: scripts/bench/schedule.py accuracy --onair .build/release/onair --icecast URL [--count 20]
       scripts/bench/schedule.py idle --onair .build/release/onair [--rules 500] [--seconds 60]
"""
import argparse, datetime, glob, http.server, json, os, shutil, signal, sqlite3, statistics, subprocess, sys, tempfile
import threading, time

FRAME = 1024 / 44100


def onair(binary, home, *arguments, check=True):
    result = subprocess.run([binary, *arguments], env={**os.environ, "ONAIR_HOME": home}, capture_output=True, text=True)
    if check and result.returncode != 0:
        sys.exit(f"onair {' '.join(arguments)}: {result.stderr}")
    return result.stdout


def utc_text(instant):
    return datetime.datetime.fromtimestamp(instant, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")


def parse_date(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def adts_payloads(path):
    data = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-c:a", "copy", "-f", "adts", "-"], capture_output=True).stdout
    frames, offset = [], 0
    while offset + 7 <= len(data) and data[offset] == 0xFF and data[offset + 1] & 0xF0 == 0xF0:
        length = ((data[offset + 3] & 3) << 11) | (data[offset + 4] << 3) | (data[offset + 5] >> 5)
        header = 7 if data[offset + 1] & 1 else 9
        frames.append(data[offset + header:offset + length])
        offset += length
    return frames


def stream_frames(directory):
    """(payload, wall-clock time) of every AAC frame of the playlist's segments."""
    frames, date = [], None
    for line in open(os.path.join(directory, "live.m3u8")).read().splitlines():
        if line.startswith("#EXT-X-PROGRAM-DATE-TIME:"):
            date = parse_date(line.split(":", 1)[1].replace("+0000", "+00:00"))
        elif line and not line.startswith("#") and date is not None:
            frames += [(payload, date + index * FRAME) for index, payload in enumerate(adts_payloads(os.path.join(directory, line)))]
    return frames


def first_frame_time(path, frames, index):
    recorded = adts_payloads(path)[:5]
    if len(recorded) < 5:
        return None
    candidates = index.get(recorded[0], [])
    for position in candidates:
        if [payload for payload, _ in frames[position:position + 5]] == recorded:
            return frames[position][1]
    return None


def summary(errors):
    values = sorted(abs(e) * 1000 for e in errors)
    if not values:
        return "—", "—", "—"
    return f"{statistics.median(values):.1f}", f"{values[-1]:.1f}", f"{sum(e > 0 for e in errors)}/{len(errors)} late"


def run_daemon(binary, home):
    return subprocess.Popen([binary, "daemon", "--json", "--http", "off"], env={**os.environ, "ONAIR_HOME": home},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_for_episodes(binary, home, count, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        episodes = [json.loads(line) for line in onair(binary, home, "schedule", "episodes", "--json").splitlines()]
        if len(episodes) >= count and all(e["status"] in ("done", "failed", "missed") for e in episodes):
            return episodes
        time.sleep(1)
    sys.exit(f"episodes not finished after {timeout} s")


def accuracy(args):
    work = tempfile.mkdtemp(prefix="onair-bench-schedule-")
    hls = os.path.join(work, "hls")
    os.makedirs(hls)
    encoder = subprocess.Popen(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi",
                                "-i", "sine=frequency=440:sample_rate=44100", "-c:a", "aac", "-b:a", "64k", "-f", "hls",
                                "-hls_time", "1", "-hls_list_size", "600", "-hls_flags", "program_date_time+temp_file+omit_endlist",
                                os.path.join(hls, "live.m3u8")])
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=hls, **k)
    http.server.SimpleHTTPRequestHandler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    playlist = f"http://127.0.0.1:{server.server_address[1]}/live.m3u8"
    home = os.path.join(work, "home")
    daemon = None
    ffmpegs = []
    try:
        time.sleep(8)
        first = int(time.time()) + 12 + args.count // 2  # after the rules are added and the daemon is up
        starts = [first + 2 * i for i in range(args.count)]
        for start in starts:
            onair(args.onair, home, "schedule", "add", playlist, "--on", utc_text(start), "--for", "3s", "--tz", "UTC")
            onair(args.onair, home, "schedule", "add", args.icecast, "--on", utc_text(start), "--for", "3s", "--tz", "UTC")
        daemon = run_daemon(args.onair, home)
        # The crontab way: ffmpeg started at each instant.
        for index, start in enumerate(starts):
            time.sleep(max(0, start - time.time()))
            out = os.path.join(work, f"ffmpeg-{index}.ts")
            ffmpegs.append((start, out, subprocess.Popen(["ffmpeg", "-nostdin", "-loglevel", "error", "-i", playlist, "-t", "3",
                                                          "-c", "copy", "-y", out])))
        episodes = wait_for_episodes(args.onair, home, 2 * args.count, 60)
        for _, _, process in ffmpegs:
            process.wait(timeout=60)
        frames = stream_frames(hls)
        index = {}
        for position, (payload, _) in enumerate(frames):
            index.setdefault(payload, []).append(position)
        onair_hls, onair_icy, ffmpeg_hls, durations = [], [], [], []
        failed = [e for e in episodes if e["status"] != "done"]
        late = [e for e in episodes if e["late"]]
        for episode in episodes:
            if episode["status"] != "done" or episode["late"]:
                continue
            scheduled = parse_date(episode["programmeStart"])
            path = episode["files"][0]
            if episode["station"] == playlist:
                truth = first_frame_time(path, frames, index)
                if truth is not None:
                    onair_hls.append(truth - scheduled)
            else:
                onair_icy.append(parse_date(episode["firstSampleAt"]) - scheduled)
            durations.append(float(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                   path], capture_output=True, text=True).stdout.strip() or 0) - 3)
        for start, out, _ in ffmpegs:
            truth = first_frame_time(out, frames, index) if os.path.exists(out) else None
            if truth is not None:
                ffmpeg_hls.append(truth - start)
        print(f"{args.count} one-off rules of 3 s on each stream, starting 2 s apart (overlapping: one connection per station);"
              f" {len(failed)} episodes not done, {len(late)} started late (left out).\n")
        print("| recorder | stream | recordings | median \\|start error\\| (ms) | worst (ms) | late / early |")
        print("|---|---|---:|---:|---:|---|")
        for name, stream, errors in [("onair daemon", "HLS (program-date-time)", onair_hls),
                                     ("ffmpeg -t 3 started at the instant", "HLS", ffmpeg_hls),
                                     ("onair daemon", "ICY (arrival clock)", onair_icy)]:
            median, worst, lateness = summary(errors)
            print(f"| {name} | {stream} | {len(errors)} | {median} | {worst} | {lateness} |")
        if durations:
            print(f"\nonair's files: length − 3 s, median {statistics.median(durations) * 1000:.1f} ms, "
                  f"worst {max(durations, key=abs) * 1000:.1f} ms (one AAC frame is {FRAME * 1000:.1f} ms, one MP3 frame 26.1 ms).")
    finally:
        if daemon:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=30)
        encoder.terminate()
        encoder.wait()
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)


def idle(args):
    work = tempfile.mkdtemp(prefix="onair-bench-idle-")
    home = os.path.join(work, "home")
    try:
        # One rule through the CLI creates the tables; the rest are copies with other days and times,
        # none within the next hour.
        now = datetime.datetime.now(datetime.timezone.utc)
        onair(args.onair, home, "schedule", "add", "http://127.0.0.1:9/x.mp3", "--at", "mon 00:00", "--for", "1h", "--tz", "UTC")
        database = sqlite3.connect(os.path.join(home, "data", "onair.sqlite"))
        row = database.execute("SELECT station, programme, timing, timeZone, padBefore, padAfter, format, output, splitTracks, "
                               "keep, paused, createdAt FROM rule").fetchone()
        days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        far = (now.hour + 2 + 24) % 24
        for index in range(args.rules - 1):
            slot = [{"days": [days[index % 7], days[(index + 3) % 7]], "start": f"{(far + index % 20) % 24:02d}:{index % 60:02d}",
                     "duration": "1h"}]
            database.execute("INSERT INTO rule (station, programme, timing, timeZone, padBefore, padAfter, format, output, splitTracks,"
                             " keep, paused, createdAt) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                             (f"http://127.0.0.1:9/{index}.mp3", row[1], json.dumps({"weekly": {"_0": slot}}), "Europe/London",
                              *row[4:]))
        database.commit()
        count = database.execute("SELECT count(*) FROM rule").fetchone()[0]
        database.close()
        daemon = run_daemon(args.onair, home)
        time.sleep(5)
        ticks = os.sysconf("SC_CLK_TCK")

        def cpu():
            fields = open(f"/proc/{daemon.pid}/stat").read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / ticks

        def memory(key):
            for line in open(f"/proc/{daemon.pid}/status"):
                if line.startswith(key):
                    return int(line.split()[1]) / 1024
        start_cpu, start = cpu(), time.time()
        time.sleep(args.seconds)
        used, elapsed = cpu() - start_cpu, time.time() - start
        rss, peak = memory("VmRSS:"), memory("VmHWM:")
        status = subprocess.run([args.onair, "status", "--json"], env={**os.environ, "ONAIR_HOME": home}, capture_output=True, text=True)
        rules = json.loads(status.stdout)["rules"] if status.returncode == 0 else "?"
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=30)
        print(f"`onair daemon` with {count} rules in the database ({rules} as the daemon reports them), none due, "
              f"measured for {elapsed:.0f} s after 5 s of start-up.\n")
        print("| CPU time | CPU share | RSS | peak RSS |")
        print("|---:|---:|---:|---:|")
        print(f"| {used:.2f} s | {100 * used / elapsed:.2f} % | {rss:.1f} MiB | {peak:.1f} MiB |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["accuracy", "idle"])
    parser.add_argument("--onair", required=True)
    parser.add_argument("--icecast")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--rules", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    if args.mode == "accuracy" and not args.icecast:
        parser.error("accuracy needs --icecast URL")
    (accuracy if args.mode == "accuracy" else idle)(args)


if __name__ == "__main__":
    main()
