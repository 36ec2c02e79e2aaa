#!/usr/bin/env python3
"""How long a normal request waits while 200 slowloris clients trickle, for onair's daemon and Icecast 2.4.

A slowloris client opens a connection, sends the start of a request head and then one header line a
second, never finishing, and opens a new connection whenever the server closes one. Three cases per
server, each for S seconds: nobody else connected; 200 such clients from one address (127.0.0.2, one
machine on the LAN); 200 spread over 50 addresses (127.0.1.1-50, four each). Meanwhile a client on
127.0.0.1 sends a normal request every 100 ms on a new connection (onair: `GET /api/v1/stations`;
Icecast: `GET /status-json.xsl`) and the script reports its latency percentiles, the requests that
failed, how many slowloris connections the server closed (refused, or timed out) and how many were
open at the end.

Usage: scripts/bench/slowloris.py --onair .build/release/onair [--clients 200] [--seconds 20]
"""
import argparse, os, socket, statistics, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_latency import start_daemon  # noqa: E402
from http_relay import free_port  # noqa: E402
from relay_vs_icecast import start_icecast  # noqa: E402


class Slowloris:
    """`count` connections from `addresses`, each trickling a header line a second; reopened when closed."""

    def __init__(self, port, addresses, count):
        self.port, self.addresses, self.count = port, addresses, count
        self.stop = threading.Event()
        self.open = [None] * count
        self.closed = 0  # connections the server closed (refused at once, or timed out)
        self.thread = threading.Thread(target=self.run, daemon=True)

    def connect(self, index):
        try:
            connection = socket.create_connection(("127.0.0.1", self.port), timeout=2,
                                                  source_address=(self.addresses[index % len(self.addresses)], 0))
            connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            connection.setblocking(False)
            return connection
        except OSError:
            return None

    def run(self):
        while not self.stop.is_set():
            for index in range(self.count):
                connection = self.open[index]
                if connection is not None:
                    try:
                        connection.sendall(b"X-Trickle: a\r\n")
                        if connection.recv(1 << 16, socket.MSG_PEEK) == b"":
                            raise OSError("closed")
                    except BlockingIOError:
                        pass  # nothing to read: the server still holds it open
                    except OSError:
                        connection.close()
                        connection = None
                        self.closed += 1
                self.open[index] = connection or self.connect(index)
            self.stop.wait(1)

    def holding(self):
        return sum(1 for connection in self.open if connection is not None)

    def __enter__(self):
        self.thread.start()
        time.sleep(3)  # every connection opened and trickling
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        for connection in self.open:
            if connection is not None:
                connection.close()


def request(port, path):
    """Seconds for one request on a new connection, or None when it failed or was refused."""
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=15) as connection:
            connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            reply = b""
            while chunk := connection.recv(1 << 16):
                reply += chunk
        return time.monotonic() - start if reply.startswith(b"HTTP/1.1 200") or reply.startswith(b"HTTP/1.0 200") else None
    except OSError:
        return None


def measure(port, path, seconds):
    times, failed = [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        took = request(port, path)
        if took is None:
            failed += 1
        else:
            times.append(took)
        time.sleep(0.1)
    return times, failed


def rows(name, port, path, clients, seconds):
    cases = [("alone", []), (f"{clients} from one address", ["127.0.0.2"]),
             (f"{clients} from 50 addresses", [f"127.0.1.{i}" for i in range(1, 51)])]
    for case, addresses in cases:
        if addresses:
            with Slowloris(port, addresses, clients) as attack:
                times, failed = measure(port, path, seconds)
                holding, closed = attack.holding(), attack.closed
        else:
            (times, failed), holding, closed = measure(port, path, seconds), 0, 0
        quantiles = statistics.quantiles(times, n=100) if len(times) > 1 else [float("nan")] * 99
        yield (f"| {name} | {case} | {len(times)} | {failed} | {quantiles[49] * 1e3:.1f} ms | {quantiles[98] * 1e3:.1f} ms "
               f"| {max(times, default=float('nan')) * 1e3:.1f} ms | {closed} | {holding} |")


def wait_for(port, path):
    for _ in range(100):
        if request(port, path) is not None:
            return
        time.sleep(0.1)
    raise SystemExit(f"slowloris: nothing answered {path} on port {port}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--onair", required=True)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=20)
    args = parser.parse_args()
    print(f"## A normal request beside {args.clients} slowloris clients, {args.seconds} s a case\n")
    print("| server | slowloris clients | answered | failed | p50 | p99 | slowest | slowloris connections closed by the server | open at the end |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as home:
        def onair():
            port = free_port()
            return start_daemon(args.onair, home, port), port

        for name, path, start in (("onair daemon", "/api/v1/stations", onair),
                                  ("Icecast 2.4", "/status-json.xsl", lambda: start_icecast(os.path.join(home, "icecast"), args.clients * 3))):
            server, port = start()
            try:
                wait_for(port, path)
                for row in rows(name, port, path, args.clients, args.seconds):
                    print(row, flush=True)
            finally:
                server.terminate()
                server.wait()


if __name__ == "__main__":
    main()
