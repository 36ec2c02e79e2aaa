#!/usr/bin/env python3
"""onair vs ffmpeg, side by side in one run, on the same local streams.

1. Time from process start to the first PCM byte on stdout, against
   - a real Icecast mount fed by ffmpeg (what users run), and
   - an instant ICY server (this script's own) that answers at once, so the
     figure is the tool's own start-up, not Icecast's listener latency.
   A raw socket's time to the first body byte is measured too: the floor.
2. CPU seconds and peak RSS for decoding 60 s of a 128 kbit/s MP3 stream
   served as fast as the client reads.

Usage: scripts/bench/first_pcm_and_decode.py --onair .build/release/onair [--runs 15]
       [--icecast http://127.0.0.1:8000/demo.mp3]   (scripts/bench/run starts one)
"""
import argparse, http.server, os, resource, socket, socketserver, statistics, subprocess, sys, tempfile, threading, time, urllib.parse

def make_mp3(seconds, path):
    subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", f"sine=frequency=440:sample_rate=44100:duration={seconds}", "-ac", "2",
                    "-c:a", "libmp3lame", "-b:a", "128k", path], check=True)
    with open(path, "rb") as f:
        return f.read()

def icy_body(audio, metaint=16000, title=b"StreamTitle='Benchmark';"):
    out = bytearray()
    block = title + b"\0" * (-len(title) % 16)
    for i, start in enumerate(range(0, len(audio), metaint)):
        chunk = audio[start:start + metaint]
        out += chunk
        if len(chunk) == metaint:
            if i == 0:
                out.append(len(block) // 16); out += block
            else:
                out.append(0)
    return bytes(out)

class InstantICYServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True

def serve(body):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "audio/mpeg")
            self.send_header("icy-metaint", "16000")
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass
        def log_message(self, *args):
            pass
    server = InstantICYServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/bench.mp3"

def first_byte_raw(url):
    parts = urllib.parse.urlsplit(url)
    start = time.monotonic()
    with socket.create_connection((parts.hostname, parts.port)) as s:
        s.sendall(f"GET {parts.path} HTTP/1.0\r\nHost: {parts.hostname}\r\nIcy-MetaData: 1\r\n\r\n".encode())
        buffer = b""
        while b"\r\n\r\n" not in buffer:
            buffer += s.recv(4096)
        body = buffer.split(b"\r\n\r\n", 1)[1]
        while not body:
            body = s.recv(4096)
    return time.monotonic() - start

def first_pcm(command):
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    byte = process.stdout.read(1)
    elapsed = time.monotonic() - start
    process.kill(); process.wait()
    if not byte:
        raise RuntimeError(f"no PCM from {' '.join(command)}")
    return elapsed

def rusage_of(command):
    """Wall, user+system CPU seconds and peak RSS (MiB) of one child."""
    start = time.monotonic()
    with open(os.devnull, "wb") as null:
        process = subprocess.Popen(command, stdout=null, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(command)} exited with {status}")
    return time.monotonic() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024

def onair_listen(onair, url, seconds=None):
    command = [onair, "listen", url, "--sink", "stdout"]
    return command + (["--duration", str(seconds)] if seconds else [])

def ffmpeg_decode(url, seconds=None, tuned=False):
    # Tuned: the flags an expert adds for a quick start (little probing, no analysis).
    tuning = ["-probesize", "32768", "-analyzeduration", "0"] if tuned else []
    command = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "quiet"] + tuning + ["-i", url]
    return command + (["-t", str(seconds)] if seconds else []) + ["-f", "s16le", "-ac", "2", "-ar", "48000", "-"]

def startup(command):
    start = time.monotonic()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.monotonic() - start

def median_ms(values):
    return f"{statistics.median(values) * 1000:.0f} ms (min {min(values) * 1000:.0f}, max {max(values) * 1000:.0f})"

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--onair", required=True)
    parser.add_argument("--icecast", help="an Icecast mount URL to measure against")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        audio = make_mp3(70, os.path.join(tmp, "bench.mp3"))
        server, instant_url = serve(icy_body(audio))
        rows = []
        onair_start, ffmpeg_start = [], []
        for _ in range(args.runs):
            onair_start.append(startup([args.onair, "--version"]))
            ffmpeg_start.append(startup(["ffmpeg", "-version"]))
        targets = ([("Icecast 2.4 mount", args.icecast)] if args.icecast else []) + [("instant ICY server", instant_url)]
        for label, url in targets:
            raw, onair, ffmpeg, tuned = [], [], [], []
            for _ in range(args.runs):  # interleaved, so drift affects every tool alike
                raw.append(first_byte_raw(url))
                onair.append(first_pcm(onair_listen(args.onair, url)))
                ffmpeg.append(first_pcm(ffmpeg_decode(url)))
                tuned.append(first_pcm(ffmpeg_decode(url, tuned=True)))
            rows.append((label, raw, onair, ffmpeg, tuned))

        print(f"## Time to first PCM byte (median of {args.runs}, from process start)\n")
        print("| server | raw socket, first body byte | onair listen --sink stdout | ffmpeg -i URL -f s16le - "
              "| ffmpeg -probesize 32768 -analyzeduration 0 | ffmpeg ÷ onair | tuned ffmpeg ÷ onair |")
        print("|---|---|---|---|---|---|---|")
        for label, raw, onair, ffmpeg, tuned in rows:
            base = statistics.median(onair)
            print(f"| {label} | {median_ms(raw)} | {median_ms(onair)} | {median_ms(ffmpeg)} | {median_ms(tuned)} "
                  f"| {statistics.median(ffmpeg) / base:.2f}× | {statistics.median(tuned) / base:.2f}× |")
        print(f"| process start-up alone (`--version` / `-version`) | | {median_ms(onair_start)} | {median_ms(ffmpeg_start)} | | | |")

        print("\n## Decoding 60 s of a 128 kbit/s MP3 stream to 48 kHz s16 stereo (served as fast as read)\n")
        print("| tool | wall | CPU (user+sys) | peak RSS |")
        print("|---|---|---|---|")
        results = {}
        for label, command in [("onair", onair_listen(args.onair, instant_url, 60)), ("ffmpeg", ffmpeg_decode(instant_url, 60))]:
            samples = [rusage_of(command) for _ in range(3)]
            wall, cpu, rss = (statistics.median(column) for column in zip(*samples))
            results[label] = (cpu, rss)
            print(f"| {label} | {wall:.2f} s | {cpu:.2f} s | {rss:.1f} MiB |")
        print(f"\nffmpeg ÷ onair: CPU {results['ffmpeg'][0] / results['onair'][0]:.2f}×, "
              f"peak RSS {results['ffmpeg'][1] / results['onair'][1]:.2f}×")
        server.shutdown()

if __name__ == "__main__":
    main()
