#!/usr/bin/env python3
"""HTTP relay with 100 listeners: onair's CPU, memory and upstream connections, side by side with
what people run without it, in one run.

A local 128 kbit/s MP3 station (this script's own ICY server, paced to real time, counting its
connections) is played to N listeners (default 100) for S seconds (default 60) by
  - onair relay STATION --to http://127.0.0.1:PORT/radio                 (copy: the station's bytes)
  - onair relay STATION --to http://127.0.0.1:PORT/radio?format=mp3:128  (one shared re-encode)
  - onair relay with no listener at all, as the baseline for the per-listener cost
and, for comparison, N separate `ffmpeg -i STATION -c copy -f mp3 -` processes: one restreaming
process per player, which is what a relay replaces (players pulling from the station directly cost
the station the same N connections, and nothing on this machine).
The listeners are this script's own sockets, read in one thread; each must receive audio at the
station's rate, or the row says how many fell behind.

Usage: scripts/bench/http_relay.py --onair .build/release/onair [--listeners 100] [--seconds 60]
"""
import argparse, os, selectors, socket, socketserver, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from first_pcm_and_decode import icy_body, make_mp3  # noqa: E402  (the same station audio as the other benchmark)

BYTES_PER_SECOND = 16000  # 128 kbit/s
TICKS = os.sysconf("SC_CLK_TCK")


class PacedICYServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    """Serves the station in real time, as a radio server does, and counts the connections."""
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256

    def __init__(self, audio):
        self.audio, self.with_metadata = audio, icy_body(audio)
        self.connections = 0
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), PacedICYHandler)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}/station.mp3"


class PacedICYHandler(socketserver.BaseRequestHandler):
    def handle(self):
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.request.recv(4096)
            if not chunk:
                return
            head += chunk
        with self.server.lock:
            self.server.connections += 1
        metadata = b"icy-metadata: 1" in head.lower()
        body = self.server.with_metadata if metadata else self.server.audio
        reply = b"HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\nicy-name: Bench FM\r\n"
        reply += b"icy-metaint: 16000\r\n\r\n" if metadata else b"\r\n"
        chunk_size, start = BYTES_PER_SECOND // 10, time.monotonic()
        try:
            self.request.sendall(reply)
            for offset in range(0, len(body), chunk_size):
                self.request.sendall(body[offset:offset + chunk_size])
                delay = start + (offset + chunk_size) / BYTES_PER_SECOND - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
        except OSError:
            pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def memory_mib(pid, field, source="status"):
    """A memory figure in MiB from /proc/PID/status (VmRSS, VmHWM) or smaps_rollup (Pss)."""
    with open(f"/proc/{pid}/{source}") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def listen(url, count, seconds):
    """Opens `count` listeners on an HTTP URL, reads them for `seconds` in one thread; returns bytes per listener."""
    host, port_path = url.split("//", 1)[1].split(":", 1)
    port, path = port_path.split("/", 1)
    selector, received = selectors.DefaultSelector(), {}
    for _ in range(count):
        s = socket.create_connection((host, int(port)))
        s.sendall(f"GET /{path} HTTP/1.0\r\nHost: {host}\r\n\r\n".encode())
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
        received[s] = 0
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        for key, _ in selector.select(timeout=left):
            try:
                data = key.fileobj.recv(65536)
            except OSError:
                data = b""
            if not data:
                selector.unregister(key.fileobj)
            received[key.fileobj] += len(data)
    for s in received:
        s.close()
    return list(received.values())


def measure(pids, seconds, work):
    """CPU seconds used by `pids` while `work` runs; their memory at the end (proportional set size, which
    splits shared library pages among the processes sharing them) and the sum of their peak RSS."""
    before = sum(cpu_seconds(pid) for pid in pids)
    result = work(seconds)
    cpu = sum(cpu_seconds(pid) for pid in pids) - before
    pss = sum(memory_mib(pid, "Pss", "smaps_rollup") for pid in pids)
    return cpu, pss, sum(memory_mib(pid, "VmHWM") for pid in pids), result


def onair_relay(onair, station, listeners, seconds, query=""):
    port = free_port()
    relay = subprocess.Popen([onair, "relay", station.url, "--to", f"http://127.0.0.1:{port}/radio{query}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        connections_before = station.connections
        time.sleep(3)  # connected, decoding, the relay's burst window filled
        url = f"http://127.0.0.1:{port}/radio"
        cpu, rss, peak, received = measure([relay.pid], seconds,
                                           lambda s: listen(url, listeners, s) if listeners else time.sleep(s))
        return cpu, rss, peak, station.connections - connections_before, received or []
    finally:
        relay.terminate()
        relay.wait()


def ffmpeg_restreamers(station, listeners, seconds):
    """One `ffmpeg -c copy` per player, each read by this script as a player would read the relay."""
    connections_before = station.connections
    processes = [subprocess.Popen(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "quiet", "-i", station.url,
                                   "-c", "copy", "-f", "mp3", "-"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
                 for _ in range(listeners)]
    try:
        received = [0] * listeners
        def drain(index):
            while chunk := processes[index].stdout.read1(65536):
                received[index] += len(chunk)
        readers = [threading.Thread(target=drain, args=(i,), daemon=True) for i in range(listeners)]
        for reader in readers:
            reader.start()
        time.sleep(3)
        start = list(received)
        cpu, rss, peak, _ = measure([p.pid for p in processes], seconds, time.sleep)
        return cpu, rss, peak, station.connections - connections_before, [r - s for r, s in zip(received, start)]
    finally:
        for process in processes:
            process.kill()
        for process in processes:
            process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--onair", required=True)
    parser.add_argument("--listeners", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        # Long enough for every row: each connection starts the station's audio from the beginning.
        station = PacedICYServer(make_mp3(int(args.seconds) + 30, os.path.join(tmp, "station.mp3")))
        threading.Thread(target=station.serve_forever, daemon=True).start()
        n, seconds = args.listeners, args.seconds
        rows = [
            ("onair relay, no listener (baseline)", onair_relay(args.onair, station, 0, seconds)),
            (f"onair relay, copy, {n} listeners", onair_relay(args.onair, station, n, seconds)),
            (f"onair relay, ?format=mp3:128, {n} listeners", onair_relay(args.onair, station, n, seconds, "?format=mp3:128")),
            (f"{n} × ffmpeg -i URL -c copy -f mp3 -", ffmpeg_restreamers(station, n, seconds)),
        ]
        station.shutdown()

    expected = BYTES_PER_SECOND * seconds
    print(f"## HTTP relay: {n} listeners of a 128 kbit/s MP3 station for {seconds:.0f} s\n")
    print("| setup | upstream connections | CPU (user+sys) | CPU per listener-hour | memory (PSS) | peak RSS "
          "| listeners at the station's rate |")
    print("|---|---|---|---|---|---|---|")
    baseline_cpu = rows[0][1][0]
    for label, (cpu, rss, peak, upstream, received) in rows:
        count = len(received)
        per_hour = f"{(cpu - baseline_cpu) / count * 3600 / seconds:.2f} s" if count and label.startswith("onair") else (
            f"{cpu / count * 3600 / seconds:.2f} s" if count else "")
        keeping_up = f"{sum(r >= 0.9 * expected for r in received)} of {count}" if count else ""
        print(f"| {label} | {upstream} | {cpu:.2f} s ({cpu / seconds * 100:.1f}% of a core) | {per_hour} "
              f"| {rss:.1f} MiB | {peak:.1f} MiB | {keeping_up} |")
    onair_copy, ffmpeg = rows[1][1], rows[3][1]
    print(f"\n{n} ffmpeg processes ÷ onair (copy): CPU {ffmpeg[0] / max(onair_copy[0], 0.01):.1f}×, "
          f"memory {ffmpeg[1] / onair_copy[1]:.1f}×, upstream connections {ffmpeg[3]} vs {onair_copy[3]}")
    print("""
- **Upstream connections** are counted by the station itself. onair opens one, whatever the number of
  listeners; the ffmpeg row opens one per player, as players pulling from the station directly would.
- **CPU per listener-hour** is the row's CPU above the no-listener baseline, per listener, scaled to an
  hour: what one more listener costs. The re-encoded row pays for decoding and one MP3 encode on top
  of the baseline's copy, once, shared by all its listeners.
- **Memory** is the proportional set size at the end (shared library pages divided among the processes
  that map them, so N ffmpeg processes are not charged N times for libavcodec) and the sum of peak
  RSS. A relay listener costs a socket and a cursor into its mount's shared 256 KiB window of recent
  audio; the audio itself is held once per mount, and each event loop writes the same buffer to all of
  its listeners that stand at the same place, every 250 ms (`ListenerFanOut`).""")


if __name__ == "__main__":
    main()
