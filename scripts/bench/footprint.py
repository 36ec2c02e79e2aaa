#!/usr/bin/env python3
"""Start-up and footprint, onair next to ffmpeg and streamripper in one run.

1. `onair --version` against `ffmpeg -version` under hyperfine (warm caches, one after the other in one run),
   their instructions under callgrind, and the shared libraries each loads before main.
2. One station relayed for --seconds from a real-time MP3 server (record_many's), all tools at once:
     onair relay URL --to fifo:FIFO            (a reader drains the FIFO, like snapserver)
     ffmpeg -i URL -f s16le -ar 48000 -ac 2 FIFO
     streamripper URL (recording as sent: it does not decode)
   RSS and PSS (shared pages divided among the processes that map them) at the end, peak RSS, and the
   shared libraries mapped.
3. The floor beside them: linkage_floor.c, a C program that links only what onair must link from Debian
   (FFmpeg's libraries and libcurl) and opens the MP3 decoder, a resampler and a libcurl multi handle:
   its `--version` start-up in the same hyperfine run, its RSS in the same table. No onair code can go
   below it.

Usage: scripts/bench/footprint.py --onair .build/release/onair [--seconds 20]
"""
import argparse, json, os, shutil, signal, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from record_many import PacedICYServer, make_mp3  # noqa: E402


def mapped_libraries(pid):
    """Distinct shared objects in the process's memory map."""
    with open(f"/proc/{pid}/maps") as maps:
        return len({line.split()[-1] for line in maps if ".so" in line.split()[-1]})


def memory(pid):
    """(RSS, PSS, peak RSS) in MiB."""
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        fields = {line.split(":")[0]: int(line.split()[1]) for line in rollup if line.split(":")[0] in ("Rss", "Pss")}
    with open(f"/proc/{pid}/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
    return fields["Rss"] / 1024, fields["Pss"] / 1024, peak / 1024


def drain(path):
    def read():
        with open(path, "rb") as fifo:
            while fifo.read(65536):
                pass
    threading.Thread(target=read, daemon=True).start()


def build_floor(directory):
    """linkage_floor.c built against Debian's FFmpeg and libcurl; None without a C compiler."""
    if not shutil.which("cc"):
        return None
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "linkage_floor.c")
    binary = os.path.join(directory, "linkage_floor")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libavformat", "libavcodec", "libswresample", "libavutil",
                            "libcurl"], capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["cc", "-O2", source, "-o", binary, *flags], check=True)
    return binary


def startup(onair, floor):
    if not shutil.which("hyperfine"):
        return None
    commands = [f"{onair} --version", "ffmpeg -version"] + ([f"{floor} --version"] if floor else [])
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        subprocess.run(["hyperfine", "--warmup", "5", "--runs", "40", "-N", "--export-json", report.name, *commands],
                       check=True, stdout=subprocess.DEVNULL)
        results = json.load(open(report.name))["results"]
    return [(r["mean"] * 1000, r["stddev"] * 1000, r["median"] * 1000) for r in results]


def startup_instructions(onair, directory):
    """Instructions (callgrind Ir) to start and print the version: what a loaded machine cannot blur."""
    if not shutil.which("valgrind"):
        return None
    readable = os.path.join(directory, "onair")  # valgrind 3.19 cannot read the DWARF 5 Swift writes
    subprocess.run(["objcopy", "--strip-debug", onair, readable], check=True)
    counts = []
    for command in ([readable, "--version"], ["ffmpeg", "-version"]):
        out = os.path.join(directory, "startup.callgrind")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        with open(out) as handle:
            counts.append(next(int(line.split()[1]) for line in handle if line.startswith("summary:")))
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--onair", required=True)
    parser.add_argument("--seconds", type=int, default=20)
    arguments = parser.parse_args()
    onair = os.path.abspath(arguments.onair)

    floor_directory = tempfile.TemporaryDirectory(prefix="onair-bench-floor")
    floor = build_floor(floor_directory.name)
    times = startup(onair, floor)
    libraries = {}
    for name, command in (("onair", [onair, "--version"]), ("ffmpeg", ["ffmpeg", "-version"]),
                          ("floor", [floor, "--version"] if floor else None)):
        if not command:
            continue
        # What ld.so loads before main (as ldd lists it); libraries opened later show in the relay's map below.
        listing = subprocess.run(command, env=dict(os.environ, LD_TRACE_LOADED_OBJECTS="1"), capture_output=True, text=True)
        libraries[name] = sum(1 for line in listing.stdout.splitlines() if ".so" in line)

    with tempfile.TemporaryDirectory(prefix="onair-bench-footprint") as directory:
        instructions = startup_instructions(onair, directory)
        audio = make_mp3(arguments.seconds + 30, os.path.join(directory, "station.mp3"))
        server = PacedICYServer(audio)
        base = f"http://127.0.0.1:{server.port}"
        fifos = {name: os.path.join(directory, f"{name}.fifo") for name in ("onair", "ffmpeg")}
        for path in fifos.values():
            os.mkfifo(path)
            drain(path)
        commands = [
            ("`onair relay URL --to fifo:FIFO`", [onair, "relay", f"{base}/onair.mp3", "--to", f"fifo:{fifos['onair']}"]),
            ("`ffmpeg -i URL -f s16le -ar 48000 -ac 2 FIFO`", ["ffmpeg", "-nostdin", "-loglevel", "quiet", "-i", f"{base}/ffmpeg.mp3",
                                                               "-f", "s16le", "-ar", "48000", "-ac", "2", "-y", fifos["ffmpeg"]]),
        ]
        if floor:
            commands.append(("linkage_floor.c: FFmpeg and libcurl linked, MP3 decoder open, nothing else", [floor, "hold"]))
        if shutil.which("streamripper"):
            commands.append(("`streamripper URL` (records as sent)", ["streamripper", f"{base}/streamripper.mp3", "-d",
                                                                       os.path.join(directory, "rip"), "-s", "-A", "--quiet"]))
        processes = [(label, subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL, cwd=directory)) for label, command in commands]
        time.sleep(arguments.seconds)
        rows = []
        for label, process in processes:
            rows.append((label, *memory(process.pid), mapped_libraries(process.pid)))
        for _, process in processes:
            process.send_signal(signal.SIGINT)
        for _, process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    print("## Start-up and footprint\n")
    if times:
        labels = [("`onair --version`", "onair"), ("`ffmpeg -version`", "ffmpeg"),
                  ("`linkage_floor --version` (FFmpeg and libcurl linked, nothing else)", "floor")]
        print("| command | start-up, mean ± σ (hyperfine, 40 runs) | median | shared libraries loaded |")
        print("|---|---|---|---|")
        for (label, name), (mean, sd, median) in zip(labels, times):
            print(f"| {label} | {mean:.1f} ms ± {sd:.1f} | {median:.1f} ms | {libraries[name]} |")
        print(f"\nffmpeg ÷ onair: {times[1][0] / times[0][0]:.2f}×\n")
    if instructions:
        print(f"Instructions to start (callgrind, blind to the machine's load): `onair --version` {instructions[0]:,}, "
              f"`ffmpeg -version` {instructions[1]:,} (ffmpeg ÷ onair {instructions[1] / instructions[0]:.2f}×).\n")
    print(f"One station (a real-time 128 kbit/s MP3) for {arguments.seconds} s, all tools at once:\n")
    print("| tool | RSS | PSS | peak RSS | shared libraries mapped |")
    print("|---|---|---|---|---|")
    for label, rss, pss, peak, mapped in rows:
        print(f"| {label} | {rss:.1f} MiB | {pss:.1f} MiB | {peak:.1f} MiB | {mapped} |")
    floor_directory.cleanup()


if __name__ == "__main__":
    main()
