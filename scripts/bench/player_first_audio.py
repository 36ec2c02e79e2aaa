#!/usr/bin/env python3
"""The player: time from starting it to the first sound at the speaker, and its CPU while playing,
for onair next to mpv and ffplay, in one run.

The speaker is a private PulseAudio with a null sink; parec records the sink's monitor from before
each player starts, and the first sample louder than -50 dBFS marks the first audio. Each player
plays the same stream:
  onair listen URL --sink speaker
  mpv --no-video --no-terminal --ao=pulse URL
  ffplay -nodisp -loglevel quiet URL          (SDL's PulseAudio output)
once from the local Icecast mount (ICY, MP3 128 kbit/s) and once from a live HLS stream that FFmpeg's
own muxer makes (AAC, 2-second segments, served over loopback HTTP). Then each plays the Icecast
mount for --cpu-seconds, all at once so that a loaded machine weighs on each alike: CPU time
(user+sys) and context switches of every thread (its wake-ups) are read from /proc over the same
instants, after 5 s of start-up; peak RSS when it exits.

Usage: scripts/bench/player_first_audio.py --onair .build/release/onair --icecast URL [--runs 5] [--cpu-seconds 30]
"""
import argparse, functools, http.server, os, shutil, signal, socketserver, statistics, subprocess, tempfile, threading, time

THRESHOLD = 100  # s16: about -50 dBFS

class PulseAudio:
    """A private daemon with one null sink, as the tests use."""
    def __init__(self, directory):
        runtime = os.path.join(directory, "runtime")
        os.makedirs(runtime, mode=0o700)
        self.socket = os.path.join(directory, "native")
        config = os.path.join(directory, "client.conf")
        with open(config, "w") as handle:
            handle.write("autospawn = no\n")
        self.env = dict(os.environ, HOME=directory, XDG_RUNTIME_DIR=runtime, PULSE_SERVER=f"unix:{self.socket}",
                        PULSE_CLIENTCONFIG=config, SDL_AUDIODRIVER="pulseaudio")
        self.daemon = subprocess.Popen(["pulseaudio", "--daemonize=no", "--exit-idle-time=-1", "-n", "--use-pid-file=no",
                                        "--disable-shm", f"--load=module-native-protocol-unix socket={self.socket} auth-anonymous=1",
                                        "--load=module-null-sink sink_name=bench rate=48000"],
                                       env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if subprocess.run(["pactl", "info"], env=self.env, capture_output=True).returncode == 0:
                return
            time.sleep(0.1)
        raise SystemExit("bench: pulseaudio did not start")

    def stop(self):
        self.daemon.terminate()
        self.daemon.wait()

class FirstSound:
    """parec on the null sink's monitor; notes when the first audible sample arrives."""
    def __init__(self, pulse):
        self.at = None
        self.process = subprocess.Popen(["parec", "--device", "bench.monitor", "--raw", "--format=s16le", "--rate=48000",
                                         "--channels=2", "--latency-msec=10"], env=pulse.env, stdout=subprocess.PIPE)
        self.started = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        self.started.wait(5)
        time.sleep(0.3)  # parec is connected and reading silence

    def _read(self):
        while True:
            chunk = self.process.stdout.read1(4096)
            if not chunk:
                return
            self.started.set()
            if self.at is None:
                samples = memoryview(chunk[: len(chunk) // 2 * 2]).cast("h")
                if any(abs(sample) > THRESHOLD for sample in samples):
                    self.at = time.monotonic()

    def stop(self):
        self.process.terminate()
        self.process.wait()

def players(onair, url):
    return [
        ("`onair listen URL --sink speaker`", [onair, "listen", url, "--sink", "speaker"]),
        ("`mpv --no-video --no-terminal --ao=pulse URL`", ["mpv", "--no-video", "--no-terminal", "--ao=pulse", url]),
        ("`ffplay -nodisp URL`", ["ffplay", "-nodisp", "-loglevel", "quiet", url]),
    ]

def first_audio(pulse, command, timeout=20):
    listener = FirstSound(pulse)
    start = time.monotonic()
    player = subprocess.Popen(command, env=pulse.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    while listener.at is None and time.monotonic() - start < timeout and player.poll() is None:
        time.sleep(0.005)
    player.send_signal(signal.SIGINT)
    try:
        player.wait(5)
    except subprocess.TimeoutExpired:
        player.kill()
        player.wait()
    listener.stop()
    time.sleep(0.5)  # the stream is gone from the sink before the next run
    return None if listener.at is None else (listener.at - start) * 1000

def context_switches(pid):
    """Voluntary and involuntary context switches of every thread of `pid` so far: its wake-ups."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as status:
                total += sum(int(line.split()[1]) for line in status if "ctxt_switches" in line)
        except FileNotFoundError:
            pass  # a thread that ended meanwhile
    return total

def cpu_side_by_side(pulse, commands, seconds):
    """Every player at once on the same stream for `seconds` after a 5 s start: CPU (user+sys), wake-ups
    per second and peak RSS of each, measured over the same instants."""
    players = {name: subprocess.Popen(command, env=pulse.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL) for name, command in commands}
    time.sleep(5)  # start-up and the first buffering are not what listening costs

    def cpu_of(pid):
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    before = {name: (cpu_of(p.pid), context_switches(p.pid)) for name, p in players.items()}
    time.sleep(seconds)
    after = {name: (cpu_of(p.pid), context_switches(p.pid)) for name, p in players.items()}
    usage = {}
    for name, player in players.items():
        player.send_signal(signal.SIGINT)
        _, _, rusage = os.wait4(player.pid, 0)
        usage[name] = (after[name][0] - before[name][0], (after[name][1] - before[name][1]) / seconds, rusage.ru_maxrss / 1024)
    return usage

class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

def live_hls(directory):
    """FFmpeg's HLS muxer making a live AAC stream in real time, served over loopback HTTP."""
    encoder = subprocess.Popen(["ffmpeg", "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
                                "sine=frequency=440:sample_rate=48000", "-c:a", "aac", "-b:a", "128k", "-f", "hls",
                                "-hls_time", "2", "-hls_list_size", "6", "-hls_flags", "delete_segments",
                                os.path.join(directory, "live.m3u8")])
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=directory))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    time.sleep(8)  # a few segments in the window, as on a station that has been on air a while
    return encoder, server, f"http://127.0.0.1:{server.server_address[1]}/live.m3u8"

def summary(values):
    if not values:
        return "no sound"
    return f"{statistics.median(values):.0f} ms (min {min(values):.0f}, max {max(values):.0f})"

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--onair", required=True)
    parser.add_argument("--icecast", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cpu-seconds", type=int, default=30)
    arguments = parser.parse_args()
    onair = os.path.abspath(arguments.onair)
    with tempfile.TemporaryDirectory(prefix="onair-bench-player") as directory:
        os.makedirs(os.path.join(directory, "pulse"))
        pulse = PulseAudio(os.path.join(directory, "pulse"))
        hls_directory = os.path.join(directory, "hls")
        os.makedirs(hls_directory)
        encoder, server, hls = live_hls(hls_directory)
        try:
            available = [name for name, command in players(onair, "") if shutil.which(command[0])]
            rows = []
            for kind, url in [("ICY (Icecast, MP3)", arguments.icecast), ("HLS (AAC, 2 s segments)", hls)]:
                timings = {name: [] for name, _ in players(onair, url)}
                for _ in range(arguments.runs):
                    for name, command in players(onair, url):
                        if name in available:
                            value = first_audio(pulse, command)
                            if value is not None:
                                timings[name].append(value)
                rows.append((kind, timings))
            usage = cpu_side_by_side(pulse, [(name, command) for name, command in players(onair, arguments.icecast)
                                             if name in available], arguments.cpu_seconds)
        finally:
            encoder.terminate()
            encoder.wait()
            server.shutdown()
            pulse.stop()
    names = [name for name, _ in players(onair, "")]
    print(f"## Player: from start to the first sound at the speaker (median of {arguments.runs})\n")
    print("| stream | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for kind, timings in rows:
        print(f"| {kind} | " + " | ".join(summary(timings[name]) if name in available else "not installed" for name in names) + " |")
    print(f"\n## Player: CPU while playing the Icecast mount for {arguments.cpu_seconds} s, all players at once\n")
    print("| player | CPU (user+sys) | share of one core | wake-ups per second | peak RSS |")
    print("|---|---|---|---|---|")
    for name in names:
        if name in usage:
            seconds, wakeups, rss = usage[name]
            print(f"| {name} | {seconds:.2f} s | {100 * seconds / arguments.cpu_seconds:.2f} % | {wakeups:.0f} | {rss:.1f} MiB |")
    print("\nWake-ups are the context switches of all the player's threads, voluntary and not, per second.")
    print("\nThe sound is taken at PulseAudio's null sink (parec on its monitor, first sample above -50 dBFS), so each "
          "figure includes the player's own audio buffering: onair asks PulseAudio for 0.4 s, mpv and ffplay for their defaults.")

if __name__ == "__main__":
    main()
