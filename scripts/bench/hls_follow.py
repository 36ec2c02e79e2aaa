#!/usr/bin/env python3
"""onair vs ffmpeg following a live HLS stream, side by side in one run, for 5 minutes: once from a
steady server (CPU and memory), and at the same time from a server that stalls for a while (gaps).

FFmpeg's own hls muxer makes each stream in real time (AAC 128 kbit/s, 2-second segments, a
30-second window, old segments deleted, program-date-times); this script serves them over loopback
HTTP. On each, three clients follow the same playlist at the same time:
  onair listen PLAYLIST --sink stdout            (follows, decodes and resamples to 48 kHz s16 stereo)
  ffmpeg -i PLAYLIST -c copy -f null -           (follows and demuxes only)
  ffmpeg -i PLAYLIST -f s16le -ar 48000 -ac 2 -  (follows and decodes, like onair)
The second server stalls at --stall-at seconds for --stall seconds: every connection is held open
without a byte and then dropped. The stall is shorter than the window, so a client that resumes
where it stopped loses nothing.

Measured: CPU seconds (user+sys) and peak RSS of each client on the steady stream; on both, from
the server's log, the segments each client fetched, the gaps in them (runs of media sequence numbers
it skipped between its first and last), and when it stopped fetching; onair's own gap events.

Usage: scripts/bench/hls_follow.py --onair .build/release/onair [--seconds 300] [--stall-at 120] [--stall 20]
"""
import argparse, http.server, json, os, re, signal, socketserver, subprocess, tempfile, threading, time

class StallingServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

def serve(directory, stall_from, stall_until):
    """Serves the HLS directory; logs (time, user agent, media sequence) of every segment request."""
    log, lock = [], threading.Lock()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=directory, **kwargs)

        def do_GET(self):
            now = time.monotonic()
            if stall_from <= now < stall_until:
                time.sleep(stall_until - now)  # a stalled server: no byte, then the connection drops
                self.close_connection = True
                return
            match = re.search(r"(\d+)\.ts$", self.path)
            if match:
                with lock:
                    log.append((now, self.headers.get("User-Agent", ""), int(match.group(1))))
            super().do_GET()

        def log_message(self, *args):
            pass

    server = StallingServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, log, lock

class Client:
    """A tool following the stream; its rusage is collected the moment it exits, early or not."""
    def __init__(self, command, agent, stderr=subprocess.DEVNULL):
        self.agent, self.ended_at, self.usage = agent, None, None
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr)
        self.waiter = threading.Thread(target=self._wait, daemon=True)
        self.waiter.start()

    def _wait(self):
        _, _, self.usage = os.wait4(self.process.pid, 0)
        self.ended_at = time.monotonic()

    def finish(self):
        """Stops the tool the way a user does (Ctrl-C); its CPU seconds and peak RSS (MiB)."""
        if self.ended_at is None:
            self.process.send_signal(signal.SIGINT)
        self.waiter.join()
        return self.usage.ru_utime + self.usage.ru_stime, self.usage.ru_maxrss / 1024

def gaps(sequences):
    """Runs of sequence numbers missing between the first and the last one fetched."""
    fetched = sorted(set(sequences))
    return [(a + 1, b - 1) for a, b in zip(fetched, fetched[1:]) if b > a + 1]

SEGMENT_SECONDS, WINDOW_SEGMENTS = 2, 15

class Scenario:
    """One live encoder, the server in front of it, and the three clients following it."""
    def __init__(self, name, onair, directory, stall_from=float("inf"), stall_until=float("inf")):
        self.name, self.directory = name, directory
        os.makedirs(directory)
        self.encoder = subprocess.Popen(
            ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi",
             "-i", "sine=frequency=440:sample_rate=48000", "-ac", "2", "-c:a", "aac", "-b:a", "128k",
             "-f", "hls", "-hls_time", str(SEGMENT_SECONDS), "-hls_list_size", str(WINDOW_SEGMENTS),
             "-hls_flags", "delete_segments+program_date_time+temp_file", os.path.join(directory, "live.m3u8")],
            stdin=subprocess.DEVNULL)
        self.stall = (stall_from, stall_until)
        self.onair = onair

    def follow(self):
        self.server, self.log, self.lock = serve(self.directory, *self.stall)
        url = f"http://127.0.0.1:{self.server.server_address[1]}/live.m3u8"
        self.onair_events = open(os.path.join(self.directory, "onair-events.jsonl"), "w+")
        ffmpeg = ["ffmpeg", "-nostdin", "-loglevel", "quiet"]
        self.clients = {  # told apart in the server's log by their User-Agent
            "onair listen --sink stdout": Client([self.onair, "listen", url, "--sink", "stdout", "--json"], "onair/",
                                                 stderr=self.onair_events),
            "ffmpeg -c copy -f null -": Client(ffmpeg + ["-user_agent", "ffmpeg-copy", "-i", url, "-c", "copy", "-f", "null", "-"],
                                               "ffmpeg-copy"),
            "ffmpeg -f s16le -ar 48000 -ac 2 -": Client(ffmpeg + ["-user_agent", "ffmpeg-decode", "-i", url,
                                                                  "-f", "s16le", "-ar", "48000", "-ac", "2", "-"], "ffmpeg-decode"),
        }

    def finish(self):
        self.ended = {label: client.ended_at for label, client in self.clients.items()}
        self.usage = {label: client.finish() for label, client in self.clients.items()}
        self.encoder.send_signal(signal.SIGINT)
        self.encoder.wait()
        self.server.shutdown()
        self.onair_events.seek(0)
        self.onair_gaps = sum(1 for line in self.onair_events if '"event":"gap"' in line)
        with self.lock:
            self.requests = list(self.log)

    def rows(self, started):
        for label, client in self.clients.items():
            fetched = [(at, sequence) for at, user_agent, sequence in self.requests if user_agent.startswith(client.agent)]
            missing = gaps([sequence for _, sequence in fetched])
            last = max((at for at, _ in fetched), default=started) - started
            ended = self.ended[label]
            yield label, self.usage[label], len(fetched), len(missing), sum(b - a + 1 for a, b in missing), last, \
                f"after {ended - started:.0f} s" if ended else "no"

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--onair", required=True)
    parser.add_argument("--seconds", type=int, default=300)
    parser.add_argument("--stall-at", type=int, default=120)
    parser.add_argument("--stall", type=int, default=20)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        steady = Scenario("steady", args.onair, os.path.join(tmp, "steady"))
        stalling = Scenario("stalling", args.onair, os.path.join(tmp, "stalling"))
        time.sleep(4 * SEGMENT_SECONDS)  # a few segments, as on a stream that has been on air a while
        started = time.monotonic()
        stalling.stall = (started + args.stall_at, started + args.stall_at + args.stall)
        for scenario in (steady, stalling):
            scenario.follow()
        time.sleep(args.seconds)
        for scenario in (steady, stalling):
            scenario.finish()

    minutes = f"{args.seconds // 60} minutes" if args.seconds % 60 == 0 else f"{args.seconds} s"
    print(f"## Following a live HLS stream for {minutes} ({SEGMENT_SECONDS}-second segments, "
          f"{SEGMENT_SECONDS * WINDOW_SEGMENTS}-second window), side by side\n")
    print(f"From a steady server, all three clients at once for {minutes}:\n")
    print("| client | CPU (user+sys) | peak RSS | segments fetched | gaps (segments lost) |")
    print("|---|---|---|---|---|")
    for label, (cpu, rss), fetched, gap_count, lost, _, _ in steady.rows(started):
        print(f"| {label} | {cpu:.2f} s | {rss:.1f} MiB | {fetched} | {gap_count} ({lost}) |")
    print(f"\nAt the same time, from a server that stalled for {args.stall} s after {args.stall_at} s "
          "(every connection held open without a byte, then dropped):\n")
    print("| client | segments fetched | gaps (segments lost) | last fetch | exited by itself |")
    print("|---|---|---|---|---|")
    for label, _, fetched, gap_count, lost, last, exited in stalling.rows(started):
        print(f"| {label} | {fetched} | {gap_count} ({lost}) | {last:.0f} s | {exited} |")
    print(f"\nonair itself reported {steady.onair_gaps} and {stalling.onair_gaps} gap event(s). A run spans about "
          f"{args.seconds // SEGMENT_SECONDS} segments. \"last fetch\": seconds into the run of the client's last "
          "segment request; \"exited by itself\": the client quit before the run was over.")

if __name__ == "__main__":
    main()
