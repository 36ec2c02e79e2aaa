#!/usr/bin/env python3
"""onair relay vs ffmpeg, side by side in one run: relaying one station to a FIFO (what a Snapcast
pipe source reads) as 48 kHz s16 stereo, for 5 minutes.

Both tools listen to the same Icecast mount at the same time, each writing its own FIFO:
  onair relay URL --to fifo:FIFO
  ffmpeg -re -i URL -f s16le -ar 48000 -ac 2 FIFO     (what people glue together today)
A reader thread per FIFO reads as fast as data comes, like snapserver, and timestamps every read.
Measured: CPU seconds (user+sys) and peak RSS of each tool, the drift of the PCM delivered against
the wall clock (bytes read ÷ 192000 − elapsed, from the reader's first byte), and the longest the
reader waited for data.

Usage: scripts/bench/relay_fifo.py --onair .build/release/onair --icecast http://127.0.0.1:8000/demo.mp3
       [--seconds 300]   (scripts/bench/run starts the station)
"""
import argparse, os, signal, subprocess, tempfile, threading, time

BYTES_PER_SECOND = 48000 * 2 * 2

class Reader(threading.Thread):
    """Opens a FIFO like a reader does (waiting for the writer) and reads until told to stop."""
    def __init__(self, path):
        super().__init__(daemon=True)
        self.path, self.stopping = path, False
        self.first = self.last = None
        self.total = self.first_size = 0
        self.longest_wait = 0.0

    def run(self):
        with open(self.path, "rb", buffering=0) as fifo:
            while not self.stopping:
                chunk = fifo.read(65536)
                now = time.monotonic()
                if not chunk:
                    return
                if self.first is None:
                    self.first, self.first_size = now, len(chunk)
                else:
                    self.longest_wait = max(self.longest_wait, now - self.last)
                self.last = now
                self.total += len(chunk)

    def drift(self):
        """Seconds of PCM ahead of (+) or behind (−) the wall clock since the first read."""
        return (self.total - self.first_size) / BYTES_PER_SECOND - (self.last - self.first)

def start(command):
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def finish(process):
    """Stops a tool the way a user does (Ctrl-C) and returns its CPU seconds and peak RSS (MiB)."""
    process.send_signal(signal.SIGINT)
    _, _, usage = os.wait4(process.pid, 0)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--onair", required=True)
    parser.add_argument("--icecast", required=True, help="the Icecast mount URL to relay")
    parser.add_argument("--seconds", type=int, default=300)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        fifos = {name: os.path.join(tmp, f"{name}.fifo") for name in ("onair", "ffmpeg")}
        for path in fifos.values():
            os.mkfifo(path)
        readers = {name: Reader(path) for name, path in fifos.items()}
        for reader in readers.values():
            reader.start()
        tools = {
            "onair": start([args.onair, "relay", args.icecast, "--to", f"fifo:{fifos['onair']}"]),
            "ffmpeg": start(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "quiet", "-re", "-i", args.icecast,
                             "-f", "s16le", "-ar", "48000", "-ac", "2", "-y", fifos["ffmpeg"]]),
        }
        started = time.monotonic()
        time.sleep(args.seconds)
        results = {}
        for name, process in tools.items():
            readers[name].stopping = True
            cpu, rss = finish(process)
            results[name] = (cpu, rss, readers[name])

    span = f"{args.seconds // 60} minutes" if args.seconds % 60 == 0 else f"{args.seconds} s"
    print(f"## Relaying one station to a FIFO for {span} (48 kHz s16 stereo)\n")
    print("Both tools relay the same Icecast mount (a 128 kbit/s MP3) at the same time; a reader thread per FIFO")
    print("reads as fast as data comes, like snapserver. Drift is the PCM delivered minus the wall-clock time since")
    print("the reader's first byte (192,000 bytes a second is exact).\n")
    print("| tool | CPU (user+sys) | CPU share of one core | peak RSS | first PCM at the reader | drift against wall clock | longest wait at the reader |")
    print("|---|---|---|---|---|---|---|")
    for name, label in [("onair", f"`onair relay URL --to fifo:FIFO`"),
                        ("ffmpeg", "`ffmpeg -re -i URL -f s16le -ar 48000 -ac 2 FIFO`")]:
        cpu, rss, reader = results[name]
        if reader.first is None:
            print(f"| {label} | {cpu:.2f} s | | {rss:.1f} MiB | never | | |")
            continue
        print(f"| {label} | {cpu:.2f} s | {cpu / args.seconds * 100:.2f} % | {rss:.1f} MiB | {reader.first - started:.2f} s "
              f"| {reader.drift() * 1000:+.1f} ms | {reader.longest_wait * 1000:.0f} ms |")
    onair_cpu, onair_rss, _ = results["onair"]
    ffmpeg_cpu, ffmpeg_rss, _ = results["ffmpeg"]
    print(f"\nffmpeg ÷ onair: CPU {ffmpeg_cpu / onair_cpu:.2f}×, peak RSS {ffmpeg_rss / onair_rss:.2f}×")

if __name__ == "__main__":
    main()
