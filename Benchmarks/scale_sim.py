#!/usr/bin/env python3
"""Simulates a cluster of `webimage serve` nodes behind nginx's consistent hash (no network, standard library only).

Each request names a result; results belong to sources (an original each). A request goes to one node, chosen by
nginx's ketama ring (`hash $request_uri consistent`, the same ring as Sources/WebImageStores/ConsistentHashRing.swift)
or round-robin. The node answers from its own LRU cache (memory and disk, `--cache` entries), else from the shared
tier (every result ever processed, unless `--no-shared`), else it processes the result, fetching the original from the
shared tier or, the first time cluster-wide, from the origin. Events change the ring mid-trace: `kill`, `add`, and
`restart` (a node's memory is lost, its disk kept, as after a rolling restart).

Two uses:
  scale_sim.py check --servers 127.0.0.1:8001,127.0.0.1:8002,127.0.0.1:8003 --keys keys.txt [--add 127.0.0.1:8004]
      the 3-node run of docs/scale-out.md replayed: origin fetches, processing runs and the share of keys that move
      when a node is added or killed, to compare with the measured run.
  scale_sim.py zipf --nodes 200 --results 10000000 --cache 100000 --requests 20000000
      hit ratio, origin fetches and node load for a Zipf trace, consistent hashing against round-robin.
"""

import argparse
import bisect
import collections
import random
import sys
import time
import zlib


class Ring:
    """nginx's `hash ... consistent` ring: 160 points per unit of weight, CRC-32 chained per point."""

    def __init__(self, servers):
        self.servers = list(servers)
        points = {}
        for index, server in enumerate(self.servers):
            host, _, port = server.rpartition(":")
            if not port.isdigit():
                host, port = server, ""
            base = zlib.crc32(port.encode(), zlib.crc32(b"\0", zlib.crc32(host.encode())))
            previous = 0
            for _ in range(160):
                previous = zlib.crc32(previous.to_bytes(4, "little"), base)
                points.setdefault(previous, index)
        self.hashes = sorted(points)
        self.owners = [points[h] for h in self.hashes]

    def server(self, key):
        index = bisect.bisect_left(self.hashes, zlib.crc32(key.encode())) % len(self.hashes)
        return self.servers[self.owners[index]]


class Node:
    """A node's own caches: an LRU of results, standing for memory and disk together."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.cache = collections.OrderedDict()
        self.requests = 0

    def lookup(self, key):
        if key in self.cache:
            self.cache.move_to_end(key)
            return True
        return False

    def store(self, key):
        self.cache[key] = True
        if len(self.cache) > self.capacity:
            self.cache.popitem(last=False)


class Cluster:
    def __init__(self, servers, capacity, routing, shared):
        self.capacity = capacity
        self.routing = routing
        self.shared = shared
        self.nodes = {server: Node(capacity) for server in servers}
        self.ring = Ring(servers)
        self.turn = 0
        self.shared_results = set()
        self.shared_originals = set()
        self.counts = collections.Counter()

    def route(self, key):
        if self.routing == "hash":
            return self.ring.server(key)
        self.turn += 1
        servers = self.ring.servers
        return servers[self.turn % len(servers)]

    def request(self, key, source):
        server = self.route(key)
        node = self.nodes[server]
        node.requests += 1
        self.counts["requests"] += 1
        if node.lookup(key):
            self.counts["local hits"] += 1
            return server
        if self.shared and key in self.shared_results:
            self.counts["shared hits"] += 1
        else:
            self.counts["processing runs"] += 1
            if not (self.shared and source in self.shared_originals):
                self.counts["origin fetches"] += 1
                self.shared_originals.add(source)
            self.shared_results.add(key)
        node.store(key)
        return server

    def kill(self, server):
        del self.nodes[server]
        self.ring = Ring([s for s in self.ring.servers if s != server])

    def add(self, server):
        self.nodes[server] = Node(self.capacity)
        self.ring = Ring(self.ring.servers + [server])

    def load(self):
        loads = [node.requests for node in self.nodes.values()]
        return max(loads) / (sum(loads) / len(loads))


def moved_share(keys, before, after):
    moved = [key for key in keys if before.server(key) != after.server(key)]
    return len(moved) / len(keys), moved


def check(arguments):
    """Replays the measured 3-node scenario: each key requested `--repeat` times in shuffled order."""
    lines = [line.split() for line in open(arguments.keys) if line.strip()]
    keys = [(parts[0], parts[1] if len(parts) > 1 else parts[0]) for parts in lines]
    servers = arguments.servers.split(",")
    cluster = Cluster(servers, arguments.cache, "hash", shared=True)
    trace = keys * arguments.repeat
    random.Random(arguments.seed).shuffle(trace)
    for key, source in trace:
        cluster.request(key, source)
    print(f"requests {cluster.counts['requests']}, origin fetches {cluster.counts['origin fetches']}, "
          f"processing runs {cluster.counts['processing runs']}")
    names = [key for key, _ in keys]
    before = Ring(servers)
    if arguments.add:
        share, moved = moved_share(names, before, Ring(servers + [arguments.add]))
        targets = {Ring(servers + [arguments.add]).server(key) for key in moved}
        print(f"add {arguments.add}: {share:.1%} of keys move, to {sorted(targets)}")
    if arguments.kill:
        survivors = [s for s in servers if s != arguments.kill]
        share, moved = moved_share(names, before, Ring(survivors))
        stayed = sum(1 for key in names if before.server(key) != arguments.kill
                     and before.server(key) != Ring(survivors).server(key))
        print(f"kill {arguments.kill}: {share:.1%} of keys move; keys of survivors that move: {stayed}")


def zipf_trace(cumulative, count, seed, chunk=1_000_000):
    """`count` result numbers drawn by rank popularity, in chunks so the trace is never held whole."""
    generator = random.Random(seed)
    population = range(len(cumulative))
    for start in range(0, count, chunk):
        yield from generator.choices(population, cum_weights=cumulative, k=min(chunk, count - start))


def _accumulate(values):
    total = 0.0
    for value in values:
        total += value
        yield total


def zipf(arguments):
    servers = [f"10.0.{n // 250}.{n % 250 + 1}:8080" for n in range(arguments.nodes)]
    started = time.time()
    cumulative = list(_accumulate(1.0 / rank**arguments.exponent for rank in range(1, arguments.results + 1)))
    print(f"{arguments.requests:,} requests over {arguments.results:,} results (Zipf s={arguments.exponent}), "
          f"{arguments.nodes} nodes x {arguments.cache:,} entries; a node dies at 50 %, one is added at 75 %",
          file=sys.stderr)
    events = {arguments.requests // 2: ("kill", servers[0]), arguments.requests * 3 // 4: ("add", "10.9.0.1:8080")}
    print("| routing | local hit ratio | shared-tier reads | processing runs | origin fetches | max/mean node load |")
    print("| --- | --- | --- | --- | --- | --- |")
    for routing in ("hash", "round-robin"):
        cluster = Cluster(servers, arguments.cache, routing, shared=not arguments.no_shared)
        for position, result in enumerate(zipf_trace(cumulative, arguments.requests, arguments.seed)):
            event = events.get(position)
            if event:
                getattr(cluster, event[0])(event[1])
            cluster.request(f"/r/{result}", result // arguments.results_per_source)
        counts = cluster.counts
        print(f"| {routing} | {counts['local hits'] / counts['requests']:.1%} | {counts['shared hits']:,} | "
              f"{counts['processing runs']:,} | {counts['origin fetches']:,} | {cluster.load():.2f} |")
        print(f"{routing} done in {time.time() - started:.0f} s", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check", help="replay the measured 3-node run")
    checking.add_argument("--servers", required=True, help="the upstream servers, host:port, comma-separated")
    checking.add_argument("--keys", required=True, help="a file of lines 'request-uri source'")
    checking.add_argument("--repeat", type=int, default=5)
    checking.add_argument("--cache", type=int, default=1_000_000)
    checking.add_argument("--add", help="a server added to the ring")
    checking.add_argument("--kill", help="a server removed from the ring")
    checking.add_argument("--seed", type=int, default=1)
    simulating = commands.add_parser("zipf", help="a Zipf trace over many nodes")
    simulating.add_argument("--nodes", type=int, default=200)
    simulating.add_argument("--results", type=int, default=10_000_000)
    simulating.add_argument("--results-per-source", type=int, default=6)
    simulating.add_argument("--cache", type=int, default=100_000)
    simulating.add_argument("--requests", type=int, default=20_000_000)
    simulating.add_argument("--exponent", type=float, default=0.9)
    simulating.add_argument("--no-shared", action="store_true", help="no shared tier")
    simulating.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    check(arguments) if arguments.command == "check" else zipf(arguments)


if __name__ == "__main__":
    main()
