#!/usr/bin/env python3
"""Recording many stations at once: one onair process against N ffmpeg and N streamripper processes.

Each tool records N simultaneous 128 kbit/s MP3 streams (with ICY titles changing every 10 s) from
this script's own paced ICY server, one tool after another in the same run. Per tool: total CPU
seconds (user+sys) and the sum of peak RSS over its processes, from wait4(2); and bytes lost: the
audio bytes the server sent to the tool's connections minus the MPEG audio frames found in its files
(ID3 tags and Xing/Info frames not counted).

Why not Icecast fed by ffmpeg: 200 live MP3 encoders would take the two cores the tools are measured
on, and Icecast cannot say how many audio bytes it sent to each listener; this server sends the same
pre-encoded frames in real time (a 2 s burst, then 16 000 bytes/s), counts every audio byte per
connection, and ends each stream after --seconds, so "lost" is exact.

Usage: scripts/bench/record_many.py --onair .build/release/onair [--streams 10,50,200] [--seconds 30]
"""
import argparse, asyncio, os, shutil, signal, subprocess, sys, tempfile, threading, time

BYTES_PER_SECOND = 16000  # 128 kbit/s
METAINT = 16000


def make_mp3(seconds, path):
    subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                    "-i", f"sine=frequency=440:sample_rate=44100:duration={seconds}", "-ac", "2",
                    "-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0", path], check=True)
    with open(path, "rb") as f:
        return f.read()


class PacedICYServer:
    """Serves `audio` once per path, in real time, with ICY metadata for clients that ask; a path
    asked again gets 404, so a reconnecting tool cannot be served twice."""

    def __init__(self, audio):
        self.audio = audio
        self.lock = threading.Lock()
        self.sent = {}       # path -> audio bytes sent
        self.finished = set()
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        ready.wait()

    def _run(self, ready):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0, backlog=1024))
        self.port = self.server.sockets[0].getsockname()[1]
        ready.set()
        self.loop.run_forever()

    async def _serve(self, reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            path = lines[0].split(" ")[1]
            wants_metadata = any(l.lower().startswith("icy-metadata:") and l.split(":", 1)[1].strip() == "1" for l in lines)
            with self.lock:
                taken = path in self.sent
                if not taken:
                    self.sent[path] = 0
            if taken:
                writer.write(b"HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
                return
            headers = "HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\nicy-name: bench\r\nicy-br: 128\r\n"
            if wants_metadata:
                headers += f"icy-metaint: {METAINT}\r\n"
            writer.write((headers + "\r\n").encode())
            start = time.monotonic()
            offset = 0
            burst = 2 * BYTES_PER_SECOND
            while offset < len(self.audio):
                due = burst + int((time.monotonic() - start) * BYTES_PER_SECOND)
                end = min(len(self.audio), max(offset, due))
                while offset < end:
                    boundary = (offset // METAINT + 1) * METAINT
                    step = min(end, boundary) - offset
                    writer.write(self.audio[offset:offset + step])
                    offset += step
                    if wants_metadata and offset % METAINT == 0:
                        writer.write(self._block(offset))
                with self.lock:
                    self.sent[path] = offset
                await writer.drain()
                await asyncio.sleep(0.1)
            with self.lock:
                self.finished.add(path)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    @staticmethod
    def _block(offset):
        song = offset // (10 * BYTES_PER_SECOND)  # a new title every 10 s
        payload = f"StreamTitle='Bench Artist - Song {song}';".encode()
        payload += b"\0" * (-len(payload) % 16)
        return bytes([len(payload) // 16]) + payload

    def progress(self, prefix):
        with self.lock:
            paths = [p for p in self.sent if p.startswith(prefix)]
            return sum(self.sent[p] for p in paths), sum(1 for p in paths if p in self.finished)


def frame_length(data, i):
    """Length of the MPEG-1/2 layer III frame at i, or None."""
    if i + 4 > len(data) or data[i] != 0xFF or data[i + 1] & 0xE0 != 0xE0:
        return None
    version, layer = (data[i + 1] >> 3) & 3, (data[i + 1] >> 1) & 3
    bitrate_index, rate_index, padding = data[i + 2] >> 4, (data[i + 2] >> 2) & 3, (data[i + 2] >> 1) & 1
    if version == 1 or layer != 1 or bitrate_index in (0, 15) or rate_index == 3:
        return None
    mpeg1 = version == 3
    kbps = ([0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] if mpeg1
            else [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160])[bitrate_index]
    rate = [44100, 48000, 32000][rate_index] // (1 if mpeg1 else 2 if version == 2 else 4)
    return (144 if mpeg1 else 72) * kbps * 1000 // rate + padding


def audio_bytes(path):
    """Bytes of complete MP3 audio frames in a file, tags and Xing/Info frames left out."""
    with open(path, "rb") as f:
        data = f.read()
    i, total = 0, 0
    while i + 10 <= len(data) and data[i:i + 3] == b"ID3":
        i += 10 + ((data[i + 6] << 21) | (data[i + 7] << 14) | (data[i + 8] << 7) | data[i + 9])
    while i < len(data):
        length = frame_length(data, i)
        if length is None or i + length > len(data):
            i += 1
            continue
        if b"Xing" not in data[i:i + 40] and b"Info" not in data[i:i + 40]:
            total += length
        i += length
    return total


def run_tool(commands, server, prefix, streams, seconds, env=None):
    """Starts the commands, waits until the server has sent every stream and the tools had a moment
    to write the end, stops what still runs with SIGINT (as Ctrl-C), and returns (cpu, peak RSS sum)."""
    processes = [subprocess.Popen(c, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
                 for c in commands]
    started = time.monotonic()
    deadline = started + seconds * 6 + 60
    # One process's share of a core while every stream plays (the middle third of their length), without
    # the connecting at the start and the finishing of files at the end.
    window = [started + seconds * 0.4, started + seconds * 0.8] if len(processes) == 1 else []
    samples = []
    while server.progress(prefix)[1] < streams and time.monotonic() < deadline:
        if window and time.monotonic() >= window[0]:
            samples.append((time.monotonic(), process_ticks(processes[0].pid)))
            window.pop(0)
        time.sleep(0.2)
    playing_share = ((samples[1][1] - samples[0][1]) / os.sysconf("SC_CLK_TCK") / (samples[1][0] - samples[0][0])
                     if len(samples) == 2 else None)
    time.sleep(3)
    usage = {}
    # One SIGINT (a second one makes onair exit at once, as a second Ctrl-C does), then time to finish files.
    for sig, patience in ((signal.SIGINT, 120), (signal.SIGKILL, 10)):
        for p in processes:
            if p.returncode is None and p.pid not in usage:
                try:
                    os.kill(p.pid, sig)
                except ProcessLookupError:
                    pass
        end = time.monotonic() + patience
        while len(usage) < len(processes) and time.monotonic() < end:
            for p in processes:
                if p.pid not in usage:
                    pid, _, rusage = os.wait4(p.pid, os.WNOHANG)
                    if pid:
                        usage[pid] = rusage
            time.sleep(0.05)
    user = sum(u.ru_utime for u in usage.values())
    system = sum(u.ru_stime for u in usage.values())
    rss = sum(u.ru_maxrss for u in usage.values()) / 1024  # ru_maxrss is in KiB on Linux
    return (user, system), rss, time.monotonic() - started, playing_share


def process_ticks(pid):
    """User and system clock ticks of a process so far, all its threads."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def files_under(directory):
    for root, _, names in os.walk(directory):
        for name in names:
            yield os.path.join(root, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--onair", required=True)
    parser.add_argument("--streams", default="10,50,200", help="comma-separated stream counts")
    parser.add_argument("--seconds", type=int, default=30, help="length of each stream")
    parser.add_argument("--peers-up-to", type=int, default=200,
                        help="run ffmpeg and streamripper (a process per stream) only up to this N")
    parser.add_argument("--onair-args", default="",
                        help="more arguments for onair record, e.g. '--dead-air-seconds 0' (named in the row)")
    args = parser.parse_args()
    have_streamripper = shutil.which("streamripper") is not None

    with tempfile.TemporaryDirectory() as tmp:
        audio = make_mp3(args.seconds, os.path.join(tmp, "source.mp3"))
        server = PacedICYServer(audio)
        base = f"http://127.0.0.1:{server.port}"
        rows = []
        shares = []
        for n in (int(s) for s in args.streams.split(",")):
            tools = []
            home = os.path.join(tmp, f"onair-{n}")
            urls = [f"{base}/onair-{n}/{i}.mp3" for i in range(n)]
            extra = args.onair_args.split()
            label = "onair record (1 process)" + (f", `{args.onair_args}`" if extra else "")
            tools.append((label, f"/onair-{n}/", [[args.onair, "record", *extra, *urls]], home,
                          dict(os.environ, ONAIR_HOME=home)))
            if n <= args.peers_up_to:  # a process per stream: 1,000 ffmpeg would need some 50 GiB
                out = os.path.join(tmp, f"ffmpeg-{n}")
                os.makedirs(out)
                tools.append(("ffmpeg -c copy", f"/ffmpeg-{n}/",
                              [["ffmpeg", "-nostdin", "-v", "error", "-i", f"{base}/ffmpeg-{n}/{i}.mp3", "-c", "copy",
                                os.path.join(out, f"{i}.mp3")] for i in range(n)], out, None))
                if have_streamripper:
                    out = os.path.join(tmp, f"streamripper-{n}")
                    tools.append(("streamripper", f"/streamripper-{n}/",
                                  [["streamripper", f"{base}/streamripper-{n}/{i}.mp3", "-d", os.path.join(out, str(i)), "-s",
                                    "-a", "rip", "-A", "-c", "--quiet"] for i in range(n)], out, None))
            for label, prefix, commands, output, env in tools:
                (user, system), rss, wall, playing_share = run_tool(commands, server, prefix, n, args.seconds, env)
                cpu = user + system
                sent, _ = server.progress(prefix)
                kept = sum(audio_bytes(f) for f in files_under(output) if f.endswith(".mp3"))
                rows.append((n, label, len(commands), cpu, system, rss, sent, kept))
                if playing_share is not None:
                    shares.append((n, label, wall, cpu, playing_share))
                print(f"N={n} {label}: {cpu:.1f} CPU-s ({system:.1f} in the kernel), {rss:.0f} MiB, sent {sent}, kept {kept}",
                      file=sys.stderr)

        print(f"## Recording N simultaneous 128 kbit/s MP3 streams of {args.seconds} s\n")
        print("| N | tool | processes | CPU (user+sys) | of it sys | CPU per stream | peak RSS (sum) | RSS per stream "
              "| audio bytes sent | bytes lost |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for n, label, processes, cpu, system, rss, sent, kept in rows:
            print(f"| {n} | {label} | {processes} | {cpu:.2f} s | {system:.2f} s | {cpu / n:.3f} s | {rss:.1f} MiB | {rss / n:.2f} MiB "
                  f"| {sent:,} | {max(0, sent - kept):,} |")
        print()
        by = {(n, label.split()[0]): (cpu, rss) for n, label, _, cpu, _, rss, _, _ in rows}
        counts = sorted({n for n, *_ in rows})
        for n in counts:
            onair = by[(n, "onair")]
            if (n, "ffmpeg") not in by:
                print(f"- N={n}: onair alone (peers run up to N={args.peers_up_to}); "
                      f"CPU {onair[0] / n / args.seconds * 100:.3f} % of a core per stream, {onair[1] / n:.2f} MiB per stream")
                continue
            ratios = [f"ffmpeg ÷ onair: CPU {by[(n, 'ffmpeg')][0] / onair[0]:.1f}×, RSS {by[(n, 'ffmpeg')][1] / onair[1]:.1f}×"]
            if (n, "streamripper") in by:
                ratios.append(f"streamripper ÷ onair: CPU {by[(n, 'streamripper')][0] / onair[0]:.1f}×, "
                              f"RSS {by[(n, 'streamripper')][1] / onair[1]:.1f}×")
            print(f"- N={n}: " + "; ".join(ratios))
        if len(counts) > 1:
            low, high = counts[0], counts[-1]
            extra = (by[(high, "onair")][1] - by[(low, "onair")][1]) / (high - low)
            print(f"- onair's memory per extra stream (N={low} → N={high}): {extra:.2f} MiB")
        for n, label, wall, cpu, playing_share in shares:
            print(f"- N={n}, {label}: {cpu:.1f} CPU-s over {wall:.1f} s from start to exit ({cpu / wall:.2f} of one core); "
                  f"while every stream played ({args.seconds * 0.4:.0f}–{args.seconds * 0.8:.0f} s), {playing_share:.2f} of one core")
        if not have_streamripper:
            print("- streamripper is not installed (scripts/setup installs it from Debian's package)")


if __name__ == "__main__":
    main()
