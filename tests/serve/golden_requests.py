"""Requests made from the golden tests' texts, for the serve tests (tests/serve/serve_test.py, and
tests/play/wasm_serve_test.py, which sends them to relay.wasm and to native relay alike): each a
golden file's text, half of them with a token slipped in, through a method chosen at random."""
import random

SLIPS = ["(", ")", "{", "?", ":t ", "\n:{\n", "%x", "@f", ";", "let %q = 1\n"]
METHODS = ["eval", "check", "type_at", "inlay", "type", "annot", "complete"]


def golden_request(texts, rng):
    """(method, params) of one request made from a random file of texts (paths)."""
    with open(rng.choice(texts), errors="replace") as f:
        text = f.read()
    if rng.random() < 0.5:
        k = rng.randrange(len(text) + 1)
        text = text[:k] + rng.choice(SLIPS) + text[k:]
    method = rng.choice(METHODS)
    params = {"text": text}
    if method == "type_at":
        params.update(line=rng.randrange(1, 15), column=rng.randrange(1, 70), mode=rng.choice(["file", "repl"]))
    elif method == "inlay":
        params.update(mode=rng.choice(["file", "repl"]))
    elif method == "complete":
        params = {"prefix": rng.choice(["@", "%", ":", "nn.", "C", ""])}
    elif method in ("type", "annot"):
        params = {"text": (text.strip().splitlines() or ["1"])[-1]}
    return method, params


def golden_requests(texts, n, seed=7):
    """n requests made from texts (paths), the same for a seed."""
    rng = random.Random(seed)
    return [golden_request(texts, rng) for _ in range(n)]
