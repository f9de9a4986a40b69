#!/usr/bin/env python3
"""The browse benchmarks of issue 16, against `postfeed serve` and the release `postfeed`.

  latency  "pages before the reader needs them": with the fixture server at
           --latency-ms L (default 100) and the same run at L = 0, process start
           subtracted:
             - first screen of a cold `browse` (tmux pane) and of a cold `page 1`
               (its text waits for the page's images), budget <= 2 L;
             - the next screen in `browse` (one that crosses into page 2) after the
               reader has been on page 1 for 1 s: budget 0 requests;
             - `page 2` after `page 1`: budget 0 requests for the page and its images;
             - a warm restart of `browse`: budget 0 requests.
           Requests are counted at the server (GET /test/requests).
  page     the cold `page 1` and `page 2` after it of `latency` only (no tmux).
  memory   `browse` in a tmux pane over a generated feed of --posts posts (default
           100,000; served by `postfeed serve --fixtures DIR`): `g 1000`, then `g N` in
           steps of --step posts up to the end; VmHWM/VmRSS of the browse process at each
           step. Budget: peak RSS <= 1.2x the RSS after 1,000 posts.

Prints Markdown tables (append them to BENCHMARKS.md: every run, not the best).

  python3 scripts/bench-browse.py                      everything (release build first)
  python3 scripts/bench-browse.py --only latency --runs 5
  python3 scripts/bench-browse.py --only page --runs 5 --no-build
  python3 scripts/bench-browse.py --only memory --posts 20000
  POSTFEED_BIN=.build/release/postfeed python3 scripts/bench-browse.py --no-build

Needs tmux (make test-deps installs it) and python3. Scratch data goes to $TMPDIR.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLUMNS, ROWS = 100, 30


def log(message):
    print(f"bench-browse: {message}", file=sys.stderr, flush=True)


def build_release():
    swift = os.environ.get("SWIFT", "swift")
    log("building postfeed (release, static Swift runtime)…")
    subprocess.run([swift, "build", "-c", "release", "--static-swift-stdlib", "--product", "postfeed"],
                   cwd=ROOT, check=True, stdout=sys.stderr)
    path = subprocess.run([swift, "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    return os.path.join(path, "postfeed")


class Server:
    """`postfeed serve --port 0 --test-routes` in the background; its URL read from stdout."""

    def __init__(self, postfeed, latency_ms, fixtures=None):
        arguments = [postfeed, "serve", "--port", "0", "--test-routes", "--latency-ms", str(latency_ms)]
        if fixtures:
            arguments += ["--fixtures", fixtures]
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"at (http://\S+);", line)
        if not match:
            self.stop()
            raise SystemExit(f"bench-browse: postfeed serve did not say where it serves: {line!r}")
        self.url = match.group(1).rstrip("/")

    def counts(self):
        with urllib.request.urlopen(self.url + "/test/requests", timeout=10) as response:
            return json.load(response)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def delta(after, before):
    """Requests between two `/test/requests` answers; `new` lists them as `path?query`."""
    counts = {key: after[key] - before[key] for key in ("pages", "images", "total")}
    counts["new"] = after["recent"][before["total"]:]
    return counts


def fixture_posts():
    with open(os.path.join(ROOT, "Fixtures", "posts.json")) as file:
        return json.load(file)


def wanted(requests, numbers, page_size=20):
    """Of `requests`, those for the pages holding posts `numbers` (1-based) and for those
    posts' images: what showing them needed, as opposed to prefetches beyond them."""
    posts = fixture_posts()
    pages = {f"page={(number - 1) // page_size + 1}&" for number in numbers}
    images = {urllib.parse.urlparse(posts[number - 1].get("imageUrl") or "").path
              for number in numbers if 0 < number <= len(posts)} - {""}
    pages_hit = [r for r in requests if r.startswith("/api/posts?") and any(p in r + "&" for p in pages)]
    images_hit = [r for r in requests if r.split("?")[0] in images]
    return {"pages": len(pages_hit), "images": len(images_hit), "total": len(pages_hit) + len(images_hit)}


class Pane:
    """A tmux server of its own with one pane running /bin/sh (or `command`)."""

    def __init__(self, directory, command=None):
        self.socket = f"postfeed-bench-{os.getpid()}-{int(time.time() * 1000) % 100000}"
        self.directory = directory
        arguments = ["new-session", "-d", "-s", "b", "-x", str(COLUMNS), "-y", str(ROWS), "-c", directory]
        self.tmux(*arguments, *([command] if command else ["/bin/sh"]))
        self.tmux("set-option", "-g", "status", "off")
        self.tmux("set-option", "-g", "remain-on-exit", "on")
        self.tmux("resize-window", "-t", "b", "-x", str(COLUMNS), "-y", str(ROWS))

    def tmux(self, *arguments):
        environment = dict(os.environ, HOME=self.directory, PS1="$ ")
        environment.pop("TMUX", None)
        environment.pop("NO_COLOR", None)
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *arguments], env=environment,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, check=True).stdout

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "b").splitlines()

    def keys(self, *keys):
        self.tmux("send-keys", "-t", "b", *keys)

    def type_line(self, text):
        self.tmux("send-keys", "-t", "b", "-l", text)
        self.tmux("send-keys", "-t", "b", "Enter")

    def wait_for(self, predicate, timeout, what):
        """Polls the screen until `predicate(lines)`; returns the monotonic time it held."""
        deadline = time.monotonic() + timeout
        while True:
            lines = self.screen()
            now = time.monotonic()
            if predicate(lines):
                return now
            if now > deadline:
                raise SystemExit(f"bench-browse: timed out waiting for {what}; the screen:\n" + "\n".join(lines))
            time.sleep(0.002)

    def pane_pid(self):
        return int(self.tmux("display-message", "-p", "-t", "b", "#{pane_pid}").strip())

    def close(self):
        try:
            self.tmux("kill-server")
        except subprocess.CalledProcessError:
            pass


def post_numbers(lines):
    """The post numbers on screen: list entries start with `  N. `."""
    numbers = []
    for line in lines:
        match = re.match(r"^[\s>▶*]*(\d+)\. \S", line)
        if match:
            numbers.append(int(match.group(1)))
    return numbers


def at_prompt(lines):
    """The shell's prompt (`$ ` or root's `# `) is on one of `lines`."""
    return any(line.rstrip() in ("$", "#") or line.startswith(("$ ", "# ")) for line in lines)


def shows_post(number):
    return lambda lines: number in post_numbers(lines)


def median(values):
    return statistics.median(values) if values else float("nan")


def ms(seconds):
    return f"{seconds * 1000:.0f} ms"


# MARK: Latency


def start_floor(postfeed, runs):
    """`postfeed --version`, time to exit: process start-up for the commands."""
    samples = []
    for _ in range(runs):
        start = time.monotonic()
        subprocess.run([postfeed, "--version"], check=True, capture_output=True)
        samples.append(time.monotonic() - start)
    return median(samples)


def pane_floor(postfeed, scratch, runs):
    """The same through a tmux pane's shell, as browse is started: send-keys to output."""
    samples = []
    for index in range(runs):
        pane = Pane(scratch)
        try:
            pane.wait_for(at_prompt, 10, "the shell prompt")
            marker = f"floor-{index}"
            start = time.monotonic()
            pane.type_line(f"{postfeed} --version; echo {marker}")
            end = pane.wait_for(lambda lines: any(line.strip() == marker for line in lines), 10, "postfeed --version")
            samples.append(end - start)
        finally:
            pane.close()
    return median(samples)


def cold_page(postfeed, server, scratch):
    """Cold `page 1` (empty caches): time to its first line (the page text, which waits for
    the images) and to exit; then `page 2` in the same cache: its requests."""
    cache = tempfile.mkdtemp(prefix="page-", dir=scratch)
    options = ["--base-url", server.url, "--cache-dir", cache]
    before = server.counts()
    start = time.monotonic()
    process = subprocess.Popen([postfeed, "page", "1"] + options, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first_line = process.stdout.readline()
    first = time.monotonic() - start
    output = first_line + process.stdout.read()
    process.wait()
    exited = time.monotonic() - start
    first_page = delta(server.counts(), before)
    image_lines = sum(1 for line in output.splitlines() if re.search(r"image \d+×\d+", line))
    loading = sum(1 for line in output.splitlines() if "still loading" in line)
    before = server.counts()
    subprocess.run([postfeed, "page", "2"] + options, check=True, capture_output=True)
    second = delta(server.counts(), before)
    second["own"] = wanted(second["new"], range(21, 41))
    shutil.rmtree(cache, ignore_errors=True)
    return {"first": first, "exit": exited, "requests": first_page, "images": image_lines, "loading": loading,
            "next": second}


def curl_floor(server, runs):
    """The same first screen with no client work: `curl` the page, then its images in
    parallel (one `curl --parallel`), timed from launch to exit, minus two `curl --version`.
    What two serial round trips cost against this server, decoding and caching nothing."""
    if shutil.which("curl") is None:
        return None
    names = sorted({urllib.parse.urlparse(post["imageUrl"]).path
                    for post in fixture_posts()[:20] if post.get("imageUrl")})
    page = ["curl", "-s", "-o", "/dev/null", server.url + "/api/posts?page=1&limit=20"]
    images = ["curl", "-s", "--no-progress-meter", "--parallel", "--parallel-immediate", "--parallel-max", "64"]
    for name in names:
        images += ["-o", "/dev/null", server.url + name]

    def timed(commands):
        start = time.monotonic()
        for command in commands:
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.monotonic() - start
    start_up = median([timed([["curl", "--version"], ["curl", "--version"]]) for _ in range(max(5, runs))])
    return median([timed([page, images]) for _ in range(max(5, runs))]) - start_up


def browse_run(postfeed, server, scratch):
    """Cold browse: time to the first screen; 1 s on it; the next screen (into page 2) and
    its requests; quit; a warm restart and its requests."""
    cache = tempfile.mkdtemp(prefix="browse-", dir=scratch)
    command = f"{postfeed} browse --base-url {server.url} --cache-dir {cache}"
    result = {}
    pane = Pane(scratch)
    try:
        pane.wait_for(at_prompt, 10, "the shell prompt")
        before = server.counts()
        start = time.monotonic()
        pane.type_line(command)
        shown = pane.wait_for(shows_post(1), 30, "browse's first screen")
        result["first"] = shown - start
        result["first_requests"] = delta(server.counts(), before)
        last = max(post_numbers(pane.screen()))
        time.sleep(1.0)
        before = server.counts()
        pane.keys("Space")
        pane.wait_for(lambda lines: any(n > last for n in post_numbers(lines)), 30, "the next screen")
        time.sleep(0.3)
        shown = post_numbers(pane.screen())
        result["next_screen"] = (last, max(shown))
        result["next_requests"] = delta(server.counts(), before)
        result["next_requests"]["own"] = wanted(result["next_requests"]["new"], shown)
        pane.keys("q")
        pane.wait_for(lambda lines: at_prompt([line for line in lines if line.strip()][-1:]), 10, "browse to quit")
        time.sleep(0.3)
        before = server.counts()
        start = time.monotonic()
        pane.type_line(command)
        shown = pane.wait_for(lambda lines: bool(post_numbers(lines)), 30, "browse's warm first screen")
        result["warm_first"] = shown - start
        time.sleep(0.5)
        result["warm_requests"] = delta(server.counts(), before)
        pane.keys("q")
        time.sleep(0.3)
    finally:
        pane.close()
        shutil.rmtree(cache, ignore_errors=True)
    return result


def run_latency(postfeed, latencies, runs, scratch, browse=True):
    floor = start_floor(postfeed, max(5, runs))
    floor_pane = pane_floor(postfeed, scratch, max(3, runs)) if browse else float("nan")
    results = {}
    floors = {}
    for latency in latencies:
        server = Server(postfeed, latency)
        try:
            pages = [cold_page(postfeed, server, scratch) for _ in range(runs)]
            floors[latency] = curl_floor(server, runs)
            browses = [browse_run(postfeed, server, scratch) for _ in range(runs)] if browse else []
        finally:
            server.stop()
        results[latency] = (pages, browses)
    print(f"### Latency budget: `postfeed serve --latency-ms L`, {runs} runs each (medians)"
          + (f", a {COLUMNS}×{ROWS} tmux pane for browse\n" if browse else ", `page` only\n"))
    print(f"Process start subtracted: `postfeed --version` to exit {ms(floor)} (for `page`)"
          + (f"; the same through the pane's shell, send-keys to its output, {ms(floor_pane)} (for `browse`).\n"
             if browse else ".\n"))
    header = "| measure | budget | " + " | ".join(f"L = {latency} ms" for latency in latencies) + " |"
    print(header)
    print("|---|---|" + "---:|" * len(latencies))

    def row(name, budget, cell):
        if not browse and "browse" in name:
            return
        print(f"| {name} | {budget} | " + " | ".join(cell(latency, *results[latency]) for latency in latencies) + " |")

    def requests(samples):
        pages = sorted(sample["pages"] for sample in samples)
        images = sorted(sample["images"] for sample in samples)
        return f"{pages[len(pages) // 2]} pages, {images[len(images) // 2]} images"

    row("cold `page 1`: first line (text after its images), start subtracted", "≤ 2 L",
        lambda latency, pages, _: ms(median([p["first"] for p in pages]) - floor))
    row("the floor: `curl` the page, then its images in parallel, curl's start subtracted", "—",
        lambda latency, *_: ms(floors[latency]) if floors.get(latency) is not None else "no curl")
    row("cold `page 1`: exit, start subtracted", "—",
        lambda latency, pages, _: ms(median([p["exit"] for p in pages]) - floor))
    row("cold `page 1`: images printed / still loading", "all printed",
        lambda latency, pages, _: f"{pages[0]['images']} / {pages[0]['loading']}")
    row("cold `page 1`: requests", "—", lambda latency, pages, _: requests([p["requests"] for p in pages]))
    row("`page 2` after `page 1`: requests for page 2 and its images", "0",
        lambda latency, pages, _: requests([p["next"]["own"] for p in pages]))
    row("`page 2` after `page 1`: all requests (with prefetches of page 3)", "—",
        lambda latency, pages, _: requests([p["next"] for p in pages]))
    row("cold `browse`: first screen (text; browse draws no images), start subtracted", "≤ 2 L",
        lambda latency, _, browses: ms(median([b["first"] for b in browses]) - floor_pane))
    row("cold `browse`: requests until the first screen", "—",
        lambda latency, _, browses: requests([b["first_requests"] for b in browses]))
    row("`browse`: next screen after 1 s on page 1: requests for its posts' pages and images", "0",
        lambda latency, _, browses: requests([b["next_requests"]["own"] for b in browses])
        + f" (last post on screen {browses[0]['next_screen'][0]} → {browses[0]['next_screen'][1]})")
    row("`browse`: next screen: all requests (with prefetches beyond it)", "—",
        lambda latency, _, browses: requests([b["next_requests"] for b in browses]))
    row("warm restart of `browse`: first screen, start subtracted", "—",
        lambda latency, _, browses: ms(median([b["warm_first"] for b in browses]) - floor_pane))
    row("warm restart of `browse`: requests", "0",
        lambda latency, _, browses: requests([b["warm_requests"] for b in browses]))
    print("")
    verdicts = []
    for latency in latencies:
        if latency == 0:
            continue
        pages, browses = results[latency]
        budget = 2 * latency / 1000

        def zero(samples):
            return all(sample["pages"] == 0 and sample["images"] == 0 for sample in samples)
        if not browse:
            verdicts.append(f"L = {latency} ms: cold `page 1` ≤ 2 L "
                            f"{'met' if median([p['first'] for p in pages]) - floor <= budget else 'NOT met'}; "
                            f"`page 2` after `page 1` 0 requests {'met' if zero([p['next']['own'] for p in pages]) else 'NOT met'}.")
            continue
        verdicts.append(f"L = {latency} ms: cold `page 1` ≤ 2 L "
                        f"{'met' if median([p['first'] for p in pages]) - floor <= budget else 'NOT met'}; "
                        f"cold `browse` ≤ 2 L {'met' if median([b['first'] for b in browses]) - floor_pane <= budget else 'NOT met'}; "
                        f"next screen 0 requests {'met' if zero([b['next_requests']['own'] for b in browses]) else 'NOT met'}; "
                        f"`page 2` after `page 1` 0 requests {'met' if zero([p['next']['own'] for p in pages]) else 'NOT met'}; "
                        f"warm restart 0 requests {'met' if zero([b['warm_requests'] for b in browses]) else 'NOT met'}.")
    print("Budgets: " + " ".join(verdicts) + "\n")


# MARK: Memory


def make_feed(count, directory):
    """Fixtures/ cycled to `count` posts under ids 1…count (newest first), real images."""
    with open(os.path.join(ROOT, "Fixtures", "posts.json")) as file:
        base = json.load(file)
    posts = []
    newest = 1_748_628_000
    for index in range(count):
        template = dict(base[index % len(base)])
        template["id"] = index + 1
        template["title"] = f"{template['title']} ({index + 1})"
        created = time.gmtime(newest - 60 * index)
        template["createdAt"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", created)
        posts.append(template)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "posts.json"), "w") as file:
        json.dump(posts, file)
    shutil.copytree(os.path.join(ROOT, "Fixtures", "images"), os.path.join(directory, "images"))


def memory(pid):
    values = {}
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            if line.startswith(("VmHWM:", "VmRSS:")):
                key, value = line.split(":")
                values[key] = int(value.split()[0])
    return values["VmHWM"], values["VmRSS"]


def run_memory(postfeed, count, step, scratch):
    fixtures = os.path.join(scratch, "feed")
    started = time.monotonic()
    make_feed(count, fixtures)
    generated = time.monotonic() - started
    server = Server(postfeed, 0, fixtures)
    cache = os.path.join(scratch, "memory-cache")
    pane = None
    rows = []
    try:
        command = f"exec {postfeed} browse --base-url {server.url} --cache-dir {cache}"
        pane = Pane(scratch, command)
        pane.wait_for(shows_post(1), 60, "browse's first screen")
        pid = pane.pane_pid()
        start = time.monotonic()
        targets = [1000] + list(range(1000 + step, count + 1, step))
        if targets[-1] != count:
            targets.append(count)
        for target in targets:
            pane.keys("g")
            pane.type_line(str(target))
            pane.wait_for(shows_post(target), 600, f"post {target} on screen")
            peak, resident = memory(pid)
            rows.append((target, time.monotonic() - start, peak, resident))
            log(f"memory: post {target}: peak {peak} KiB, RSS {resident} KiB")
        pane.keys("q")
        time.sleep(0.5)
    finally:
        if pane:
            pane.close()
        server.stop()
        shutil.rmtree(cache, ignore_errors=True)
    print(f"### Bounded memory: `browse` in a {COLUMNS}×{ROWS} tmux pane over {count:,} generated posts "
          f"(posts.json made in {generated:.1f} s, `postfeed serve --fixtures`), `g N` every {step:,} posts\n")
    print("| post on screen | elapsed | peak RSS (VmHWM) | RSS (VmRSS) | peak ÷ RSS after 1,000 |")
    print("|---:|---:|---:|---:|---:|")
    first_rss = rows[0][3]
    shown = [row for row in rows if row[0] in (1000, 10_000, 25_000, 50_000, 75_000) or row is rows[-1]]
    for target, elapsed, peak, resident in shown:
        print(f"| {target:,} | {elapsed:.1f} s | {peak / 1024:.1f} MiB | {resident / 1024:.1f} MiB | {peak / first_rss:.2f}× |")
    ratio = rows[-1][2] / first_rss
    print(f"\nTarget: peak RSS ≤ 1.2× the RSS after 1,000 posts: {ratio:.2f}× — {'met' if ratio <= 1.2 else 'NOT met'}.\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="latency,memory", help="latency, page, memory (comma-separated)")
    parser.add_argument("--latency-ms", type=int, default=100, help="L; the run at 0 is always added")
    parser.add_argument("--runs", type=int, default=3, help="runs per latency measure (medians)")
    parser.add_argument("--posts", type=int, default=100_000, help="posts in the generated feed (memory)")
    parser.add_argument("--step", type=int, default=1000, help="posts per `g N` step (memory)")
    parser.add_argument("--no-build", action="store_true", help="use $POSTFEED_BIN or the existing release build")
    arguments = parser.parse_args()
    parts = {part.strip() for part in arguments.only.split(",")}
    if shutil.which("tmux") is None and parts - {"page"}:
        raise SystemExit("bench-browse: tmux is not installed (make test-deps installs it)")
    postfeed = os.environ.get("POSTFEED_BIN")
    if not postfeed:
        postfeed = os.path.join(ROOT, ".build", "release", "postfeed") if arguments.no_build else build_release()
    postfeed = os.path.abspath(postfeed)
    scratch = tempfile.mkdtemp(prefix="postfeed-bench-browse-")
    try:
        print("## postfeed bench-browse\n")
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        print(f"`{postfeed}` at {commit or 'unknown commit'}, {os.cpu_count()} cores, "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.\n")
        if "latency" in parts:
            run_latency(postfeed, [arguments.latency_ms, 0], arguments.runs, scratch)
        elif "page" in parts:
            run_latency(postfeed, [arguments.latency_ms, 0], arguments.runs, scratch, browse=False)
        if "memory" in parts:
            run_memory(postfeed, arguments.posts, arguments.step, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
