#!/usr/bin/env python3
"""The HTTP relay beside Icecast 2.4: one 128 kbit/s MP3 station played to N listeners (100, then
1,000), by `onair relay --to http://…` (on Hummingbird) and by Icecast serving the same station
(pushed to it by `ffmpeg -c copy`), one after the other on this machine. For each: the server's CPU
while the listeners play, its memory, and how many listeners kept the station's rate.

The station and the listeners are http_relay.py's (this script's own paced ICY server; the listeners'
sockets, read by four processes). The relay's mount allows as many listeners as the run has
(`max-listeners`; its default is 256). Icecast runs as nobody (it refuses root) from a temporary directory.

Usage: scripts/bench/relay_vs_icecast.py --onair .build/release/onair [--listeners 100,1000] [--seconds 30]
"""
import argparse, concurrent.futures, os, shutil, subprocess, sys, tempfile, threading, time, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from first_pcm_and_decode import make_mp3  # noqa: E402
from http_relay import BYTES_PER_SECOND, PacedICYServer, free_port, listen, measure  # noqa: E402

LISTENER_PROCESSES = 4  # one Python thread cannot read 1,000 sockets at 16 kB/s each on a loaded machine


def listeners(url, count, seconds):
    """`count` listeners split over a few processes; bytes received per listener."""
    shares = [count // LISTENER_PROCESSES + (i < count % LISTENER_PROCESSES) for i in range(LISTENER_PROCESSES)]
    with concurrent.futures.ProcessPoolExecutor(LISTENER_PROCESSES) as pool:
        results = pool.map(listen, [url] * LISTENER_PROCESSES, [n for n in shares], [seconds] * LISTENER_PROCESSES)
        return [received for share in results for received in share]


def onair_row(onair, station, count, seconds):
    port = free_port()
    relay = subprocess.Popen([onair, "relay", station.url, "--to", f"http://127.0.0.1:{port}/radio?max-listeners={count}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        time.sleep(3)
        cpu, pss, peak, received = measure([relay.pid], seconds, lambda s: listeners(f"http://127.0.0.1:{port}/radio", count, s))
        return cpu, pss, peak, 1, received
    finally:
        relay.terminate()
        relay.wait()

ICECAST_CONFIG = """<icecast>
  <hostname>127.0.0.1</hostname>
  <limits><clients>{clients}</clients><sources>2</sources><queue-size>524288</queue-size>
    <client-timeout>30</client-timeout><header-timeout>15</header-timeout><source-timeout>10</source-timeout>
    <burst-on-connect>1</burst-on-connect><burst-size>65535</burst-size></limits>
  <authentication><source-password>bench</source-password><admin-user>admin</admin-user>
    <admin-password>bench</admin-password></authentication>
  <listen-socket><port>{port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <paths><basedir>{dir}</basedir><logdir>{dir}</logdir><pidfile>{dir}/icecast.pid</pidfile>
    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>1</loglevel></logging>
</icecast>
"""


def start_icecast(directory, clients):
    """Icecast 2.4 on a free port with its files in `directory` (made here, under a folder nobody may enter,
    as it runs as nobody when we are root); returns the process and the port."""
    os.makedirs(directory)
    os.chmod(os.path.dirname(directory), 0o777)
    os.chmod(directory, 0o777)
    port = free_port()
    config = os.path.join(directory, "icecast.xml")
    with open(config, "w") as f:
        f.write(ICECAST_CONFIG.format(clients=clients, port=port, dir=directory))
    command = [shutil.which("icecast2") or "/usr/bin/icecast2", "-c", config]
    if os.geteuid() == 0:
        command = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"] + command
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL), port


def icecast_row(station, count, seconds, tmp):
    server, port = start_icecast(os.path.join(tmp, f"icecast-{count}"), count + 10)
    source = None
    try:
        time.sleep(1)
        source = subprocess.Popen(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "quiet", "-i", station.url, "-c", "copy",
                                   "-content_type", "audio/mpeg", "-f", "mp3", f"icecast://source:bench@127.0.0.1:{port}/radio"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}/radio"
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/status-json.xsl", timeout=1) as reply:
                    if b'"listenurl"' in reply.read():
                        break
            except OSError:
                pass
            time.sleep(0.1)
        time.sleep(3)
        cpu, pss, peak, received = measure([server.pid], seconds, lambda s: listeners(url, count, s))
        return cpu, pss, peak, 1, received
    finally:
        for process in (source, server):
            if process:
                process.terminate()
                process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--onair", required=True)
    parser.add_argument("--listeners", default="100,1000")
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    counts = [int(n) for n in args.listeners.split(",")]

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        station = PacedICYServer(make_mp3(int(args.seconds) + 30, os.path.join(tmp, "station.mp3")))
        threading.Thread(target=station.serve_forever, daemon=True).start()
        for n in counts:
            rows.append((f"onair relay, copy, {n} listeners", onair_row(args.onair, station, n, args.seconds)))
            rows.append((f"Icecast 2.4, {n} listeners", icecast_row(station, n, args.seconds, tmp)))
        station.shutdown()

    expected = BYTES_PER_SECOND * args.seconds
    print(f"## HTTP relay beside Icecast: 100 and 1,000 listeners of a 128 kbit/s MP3 station, {args.seconds:.0f} s each\n")
    print("| setup | CPU (user+sys) | memory (PSS) | peak RSS | listeners at the station's rate |")
    print("|---|---|---|---|---|")
    for label, (cpu, pss, peak, _, received) in rows:
        keeping_up = sum(r >= 0.9 * expected for r in received)
        print(f"| {label} | {cpu:.2f} s ({cpu / args.seconds * 100:.1f}% of a core) | {pss:.1f} MiB | {peak:.1f} MiB "
              f"| {keeping_up} of {len(received)} |")


if __name__ == "__main__":
    main()
