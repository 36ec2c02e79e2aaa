#!/usr/bin/env python3
"""What listening for known clips costs the daemon: CPU per station-hour of its path beside `onair monitor`'s.

`onair monitor` has FFmpeg resample a station to Chromaprint's own 11,025 Hz mono; the daemon decodes every station
once to 48 kHz s16 stereo for its jobs and gives that PCM to each connection's ClipWatch, where Chromaprint mixes it
down and resamples it itself. Both paths are run here on the same files, in one run, by `onair-clip-cost` (the library's ClipWatch fed by Media's MediaFile, in one process, no network), and beside them the decode alone:

- decode 48k: the file decoded to 48 kHz s16 stereo (`onair-hotpaths decode-resample`), what the daemon does anyway
  for a station it records or relays;
- daemon path: decoded to 48 kHz stereo and watched (ClipWatch on 48 kHz stereo);
- monitor path: decoded to 11,025 Hz mono and watched;
each with the 16 clips of the airplay test set and with its 1,000 (scripts/bench/airplay.py builds both, and the
stations: 51 minutes of music with 32 airings, as MP3 128k, MP3 64k after -6 dB, and AAC 64k). The airings each path
finds are scored against the truth, so a faster path that finds less would show.

CPU is user+sys of the process (wait4). Detection alone on the daemon's path is its time less the 48k decode.

Usage: scripts/bench/clip_cost.py --clip-cost .build/release/onair-clip-cost --hotpaths .build/release/onair-hotpaths
       --onair .build/release/onair
       [--work /tmp/onair-bench-airplay]
"""
import argparse, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import airplay  # noqa: E402  (the test set, the clip libraries, the CPU measurement and the scoring)


def watched(clip_cost, data, path, rate=None):
    """(CPU seconds, airings found as (station, clip, start, None)) of one file watched at 48 kHz stereo or `rate` mono."""
    with tempfile.TemporaryFile() as out:
        command = [clip_cost, path, data] + ([str(rate), "1"] if rate else [])
        status, cpu, _, _ = airplay.measured(command, stdout=out)
        out.seek(0)
        reports = []
        for line in out.read().decode().splitlines():
            clip, _, start = line.rpartition(" ")
            reports.append((path, clip, float(start), None))
    if status != 0:
        sys.exit(f"clip_cost: {' '.join(command)} exited {status}")
    return cpu, reports


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clip-cost", required=True, help="onair-clip-cost: clip detection as the daemon runs it")
    parser.add_argument("--hotpaths", required=True, help="onair-hotpaths: the 48 kHz decode alone")
    parser.add_argument("--onair", required=True, help="adds the clips to the libraries (onair clips add)")
    parser.add_argument("--work", default="/tmp/onair-bench-airplay", help="the airplay test set, kept between runs")
    args = parser.parse_args()
    clip_cost, hotpaths, onair = os.path.abspath(args.clip_cost), os.path.abspath(args.hotpaths), os.path.abspath(args.onair)
    manifest = airplay.build_testset(args.work)
    hours = manifest["station_seconds"] / 3600
    libraries = {}
    for name, clips in (("16 clips", manifest["clips"]), ("1,000 clips", manifest["library"])):
        airplay.log(f"library of {name}")
        libraries[name] = os.path.join(airplay.onair_library(onair, clips)["ONAIR_HOME"], "data")
    try:
        decode = sum(airplay.measured([hotpaths, "decode-resample", path], stdout=subprocess.DEVNULL)[1]
                     for path in manifest["stations"].values())
        rows = []
        for library, data in libraries.items():
            for label, rate in (("daemon path (48 kHz stereo into Chromaprint)", None), ("monitor path (FFmpeg to 11,025 Hz mono)", 11025)):
                airplay.log(f"{label}, {library}")
                cpu, found, reported = 0.0, 0, 0
                for path in manifest["stations"].values():
                    part_cpu, reports = watched(clip_cost, data, path, rate)
                    cpu += part_cpu
                    errors, _ = airplay.score(reports, manifest["truth"])
                    found, reported = found + len(errors), reported + len(reports)
                rows.append((label, library, cpu, found, reported))
    finally:
        for home in airplay.HOMES:
            shutil.rmtree(home, ignore_errors=True)
    stations = len(manifest["stations"])
    print(f"## Known-clip detection in the daemon: CPU per station-hour\n")
    print(f"The airplay test set's three stations ({manifest['station_seconds'] / 60:.1f} min each, {len(manifest['truth'])} "
          f"airings each; MP3 128k, MP3 64k after -6 dB, AAC 64k), {stations * hours:.2f} station-hours a row, "
          f"`onair-clip-cost` and `onair-hotpaths` (release) in one process per file. Command: `scripts/bench/clip_cost.py "
          f"--clip-cost .build/release/onair-clip-cost --hotpaths .build/release/onair-hotpaths --onair .build/release/onair`.\n")
    print("| path | library | CPU per station-hour | of it, detection (less the 48k decode) | airings found |")
    print("|---|---|---|---|---|")
    print(f"| decode to 48 kHz stereo alone | – | {decode / (stations * hours):.1f} s | – | – |")
    for label, library, cpu, found, reported in rows:
        detection = f"{(cpu - decode) / (stations * hours):.1f} s" if label.startswith("daemon") else "–"
        # The 1,000 clips are 30-s slices of the song sources and of the stations' own filler: their reports are not scored.
        airings = f"{found}/{stations * len(manifest['truth'])}" if library == "16 clips" else f"not scored ({reported} reports)"
        print(f"| {label} | {library} | {cpu / (stations * hours):.1f} s | {detection} | {airings} |")
    daemon = [cpu for label, library, cpu, _, _ in rows if label.startswith("daemon") and library == "16 clips"][0]
    per_hour = (daemon - decode) / (stations * hours)
    print(f"\nStations one core can listen to on the daemon's path, detection alone (3,600 s / {per_hour:.1f} s): "
          f"{3600 / per_hour:.0f}; with the decode: {3600 * stations * hours / daemon:.0f} (goal: 200).")


if __name__ == "__main__":
    main()
