"""The command line every benchmark runner shares: [RELAY_BINARY] [--runs N]."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse(argv, runs=5):
    """Returns (relay binary path, number of runs); the binary defaults to build-release/relay."""
    args = list(argv)
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    relay = os.path.abspath(args[0] if args else os.path.join(ROOT, "build-release", "relay"))
    return relay, runs
