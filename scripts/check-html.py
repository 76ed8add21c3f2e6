#!/usr/bin/env python3
"""Opens a local self-contained HTML file in headless Chromium and prints facts about it as JSON.

For the tests of the HTML pages AssemblyLine writes: they assert on what a real browser saw.
Chromium (Debian's `chromium`) is driven over the DevTools protocol on --remote-debugging-pipe
(its fds 3 and 4, NUL-terminated JSON). Its own network is off: every http(s)/ws request goes to
a dead proxy on 127.0.0.1:9, and DNS answers nothing, so nothing leaves the machine.

Printed keys:
  title, csp               document.title; the content of <meta http-equiv=Content-Security-Policy>
  outside_requests         every URL the page asked for other than its own file (data:, blob: and
                           about: are in-page) and every URL its CSP blocked, in order, once each
  console                  console calls, uncaught exceptions, browser log entries and CSP violations
  counts, texts            per --count SEL the number of matches; per --text SEL their textContent
  lines, overflows         per --lines SEL the number of lines each match's text is laid out on (the
                           distinct tops of its contents' client rectangles); per --lines SEL too, how
                           many matches lie wider than their table cell or box
  screenshot, width, height, distinct_colors, non_background_fraction, blank
                           the full-page PNG (1280 CSS px wide, scale 1) and how much is drawn on
                           it; blank when fewer than 3 colours or under 1% differs from the commonest

Usage: scripts/check-html.py FILE.html --screenshot OUT.png [--count SEL ...] [--text SEL ...] [--lines SEL ...]
Exit status: 0 when measured (even a bad page: the caller asserts), 2 when the file cannot be
read or Chromium is missing, crashes or takes over 30 s. Standard library only.
"""
import argparse
import base64
import collections
import fcntl
import itertools
import json
import math
import operator
import os
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from urllib.parse import urldefrag

TIMEOUT = 30.0
BYTE = (255).__and__  # a sum modulo 256, for PNG filters
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
         "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--disable-default-apps", "--disable-extensions", "--disable-breakpad",
         "--disable-domain-reliability", "--mute-audio", "--hide-scrollbars",
         "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND"]
# Runs before the page's own scripts; DevTools' scripts are exempt from the page's CSP.
RECORD_VIOLATIONS = """window.__checkHtmlViolations = [];
document.addEventListener('securitypolicyviolation',
  e => window.__checkHtmlViolations.push([e.violatedDirective, e.blockedURI]));"""
MEASURE = """(count, text, lines) => {
  const all = s => Array.from(document.querySelectorAll(s));
  const csp = document.querySelector('meta[http-equiv="Content-Security-Policy" i]');
  const box = e => (e.closest('td, th') || e.parentElement).getBoundingClientRect();
  const lineCount = e => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top))).size;
  };
  const wider = e => Array.from(e.getClientRects()).some(r => r.right > box(e).right + 0.5 || r.left < box(e).left - 0.5);
  return {title: document.title, csp: csp ? csp.content : null,
          counts: Object.fromEntries(count.map(s => [s, all(s).length])),
          texts: Object.fromEntries(text.map(s => [s, all(s).map(e => e.textContent)])),
          lines: Object.fromEntries(lines.map(s => [s, all(s).map(lineCount)])),
          overflows: Object.fromEntries(lines.map(s => [s, all(s).filter(wider).length])),
          violations: window.__checkHtmlViolations || []};
}"""


class Failure(Exception):
    """The page could not be measured: reported on stderr with exit status 2."""


def lift(fd):
    """Move FD above 9, close-on-exec, so it cannot clash with the child's fds 3 and 4."""
    new = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return new


class Browser:
    """A headless Chromium in its own process group, spoken to over the DevTools pipe."""

    def __init__(self, binary, profile):
        cmd_r, self.cmd_w = map(lift, os.pipe())
        self.res_r, res_w = map(lift, os.pipe())
        self.stderr = open(os.path.join(profile, "stderr.txt"), "w+b")
        self.deadline, self.buffer, self.events, self.next_id = time.monotonic() + TIMEOUT, b"", [], 0
        # close_fds=False: the fds 3 and 4 made in the child must survive; all others are CLOEXEC.
        self.proc = subprocess.Popen([binary, *FLAGS, "--user-data-dir=" + os.path.join(profile, "user")],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.stderr,
                                     preexec_fn=lambda: (os.dup2(cmd_r, 3), os.dup2(res_w, 4)),
                                     close_fds=False, start_new_session=True)
        os.close(cmd_r)
        os.close(res_w)

    def last_words(self):
        """Return the last line Chromium wrote on stderr, to explain a crash (its D-Bus complaints left out)."""
        self.stderr.seek(0)
        lines = [line for line in self.stderr.read().decode(errors="replace").splitlines()
                 if line.strip() and "dbus" not in line]
        return f" (chromium said: {lines[-1]})" if lines else ""

    def receive(self, waiting_for):
        """Return Chromium's next message, failing at the deadline or when it has exited."""
        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self.res_r], [], [], left)[0]:
                raise Failure(f"chromium timed out after {TIMEOUT:.0f} s waiting for {waiting_for}")
            chunk = os.read(self.res_r, 1 << 20)
            if not chunk:
                raise Failure(f"chromium exited while waiting for {waiting_for}{self.last_words()}")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None):
        """Send one command and return its result, keeping the events that arrive meanwhile."""
        self.next_id += 1
        command = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            command["sessionId"] = session
        data = json.dumps(command).encode() + b"\0"
        while data:
            data = data[os.write(self.cmd_w, data):]
        while True:
            message = self.receive(method)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise Failure(f"chromium refused {method}: {message['error'].get('message')}")
                return message["result"]
            if "method" in message:
                self.events.append(message)

    def wait_for(self, event, since):
        """Read until the event EVENT is among the events after the first SINCE."""
        while all(e["method"] != event for e in self.events[since:]):
            message = self.receive(event)
            if "method" in message:
                self.events.append(message)

    def close(self):
        """Kill Chromium and every helper process it started."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        for fd in (self.cmd_w, self.res_r):
            os.close(fd)
        self.stderr.close()


def describe(event):
    """Return a console, exception or log event as one line, or None for other events."""
    method, p = event["method"], event["params"]
    if method == "Runtime.consoleAPICalled":
        args = " ".join(str(a.get("value", a.get("description", a.get("type")))) for a in p["args"])
        return f"console.{p['type']}: {args}"
    if method == "Runtime.exceptionThrown":
        details = p["exceptionDetails"]
        return "exception: " + details.get("exception", {}).get("description", details["text"])
    if method == "Log.entryAdded":
        entry = p["entry"]
        where = f" [{entry['url']}]" if "url" in entry else ""
        return f"{entry['level']} ({entry['source']}): {entry['text']}{where}"
    return None


def is_outside(url, document):
    """Tell whether URL is something other than the document itself or in-page data (CSP's 'inline' is no URL)."""
    return ":" in url and urldefrag(url).url != document and not url.startswith(("data:", "blob:", "about:"))


def measure(browser, document, counts, texts, lines, screenshot):
    """Load DOCUMENT in a new tab, write its screenshot and return the facts about it."""
    target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    s = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Network", "Page", "Runtime", "Log"):
        browser.call(domain + ".enable", session=s)
    browser.call("Emulation.setDeviceMetricsOverride",
                 {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}, s)
    browser.call("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS}, s)
    since = len(browser.events)
    navigated = browser.call("Page.navigate", {"url": document}, s)
    if "errorText" in navigated:
        raise Failure(f"chromium could not open {document}: {navigated['errorText']}")
    browser.wait_for("Page.loadEventFired", since)
    found = browser.call("Runtime.evaluate", {"expression": f"({MEASURE})(...{json.dumps([counts, texts, lines])})",
                                              "returnByValue": True}, s)
    if "exceptionDetails" in found:
        details = found["exceptionDetails"]
        reason = details.get("exception", {}).get("description", details["text"])
        raise Failure("measuring failed: " + reason.splitlines()[0])
    facts = found["result"]["value"]
    size = browser.call("Page.getLayoutMetrics", session=s)["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": math.ceil(size["width"]), "height": math.ceil(size["height"]), "scale": 1}
    shot = browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}, s)
    png = base64.b64decode(shot["data"])
    Path(screenshot).write_bytes(png)
    requests = [e["params"]["request"]["url"] for e in browser.events if e["method"] == "Network.requestWillBeSent"]
    blocked = [uri for _, uri in facts["violations"]]
    console = [line for line in map(describe, browser.events) if line]
    console += [f"csp violation: {directive} blocked {uri}" for directive, uri in facts["violations"]]
    width, height, distinct, fraction = colour_stats(png)
    return {"title": facts["title"], "csp": facts["csp"],
            "outside_requests": list(dict.fromkeys(u for u in requests + blocked if is_outside(u, document))),
            "console": console, "counts": facts["counts"], "texts": facts["texts"], "lines": facts["lines"],
            "overflows": facts["overflows"],
            "screenshot": str(screenshot), "width": width, "height": height, "distinct_colors": distinct,
            "non_background_fraction": round(fraction, 6), "blank": distinct < 3 or fraction < 0.01}


def png_rows(png):
    """Decode an 8-bit RGB or RGBA, non-interlaced PNG into (width, height, bytes per pixel, rows)."""
    pos, idat, header = 8, [], None
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", png[pos + 8:pos + 21])
        elif kind == b"IDAT":
            idat.append(png[pos + 8:pos + 8 + length])
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise Failure(f"screenshot PNG is not 8-bit RGB(A) non-interlaced: depth {depth}, colour type {colour}")
    bpp, raw = 3 if colour == 2 else 4, zlib.decompress(b"".join(idat))
    stride, prev, rows = width * bpp, bytearray(width * bpp), []
    for y in range(height):
        start = y * (stride + 1)
        row = unfilter(raw[start], bytearray(raw[start + 1:start + 1 + stride]), prev, bpp)
        rows.append(row)
        prev = row
    return width, height, bpp, rows


def unfilter(kind, row, prev, bpp):
    """Undo PNG filter KIND (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) on ROW in place and return it."""
    if kind == 1:
        for channel in range(bpp):
            row[channel::bpp] = bytes(map(BYTE, itertools.accumulate(row[channel::bpp])))
    elif kind == 2:
        if row.count(0) == len(row):  # the row above again, as in most of a page's background
            return prev
        row[:] = map(BYTE, map(operator.add, row, prev))
    elif kind == 3:
        row[:bpp] = map(BYTE, map(operator.add, row[:bpp], (up >> 1 for up in prev[:bpp])))
        for i, up in zip(range(bpp, len(row)), prev[bpp:]):
            row[i] = (row[i] + ((row[i - bpp] + up) >> 1)) & 255
    elif kind == 4:
        row[:bpp] = map(BYTE, map(operator.add, row[:bpp], prev[:bpp]))
        for i, up, corner in zip(range(bpp, len(row)), prev[bpp:], prev):
            left = row[i - bpp]
            pa, pb, pc = abs(up - corner), abs(left - corner), abs(left + up - corner - corner)
            row[i] = (row[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
    elif kind:
        raise Failure(f"screenshot PNG has an unknown filter type {kind}")
    return row


def colour_stats(png):
    """Return width, height, distinct colours and the share unlike the commonest colour (of ≤ 1M pixels sampled)."""
    width, height, bpp, rows = png_rows(png)
    step = max(1, math.isqrt(width * height // 1_000_000))
    colours = collections.Counter(pixel for row in rows[::step]
                                  for pixel in zip(*(row[c::bpp * step] for c in range(bpp))))
    total = sum(colours.values())
    return width, height, len(colours), 1 - colours.most_common(1)[0][1] / total if total else 0.0


def main():
    """Parse the arguments, measure the page and print the JSON, or fail with status 2."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--count", action="append", default=[], metavar="CSS_SELECTOR")
    parser.add_argument("--text", action="append", default=[], metavar="CSS_SELECTOR")
    parser.add_argument("--lines", action="append", default=[], metavar="CSS_SELECTOR")
    args = parser.parse_args()
    binary = shutil.which("chromium")
    profile = tempfile.mkdtemp(prefix="check-html-")
    browser = None
    try:
        if not binary:
            raise Failure("chromium is not installed (scripts/install-deps.sh installs it)")
        if not os.path.isfile(args.file):
            raise Failure(f"no such file: {args.file}")
        browser = Browser(binary, profile)
        facts = measure(browser, Path(args.file).resolve().as_uri(), args.count, args.text, args.lines, args.screenshot)
    except (Failure, OSError) as failure:
        print(f"check-html: {failure}", file=sys.stderr)
        return 2
    finally:
        if browser:
            browser.close()
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps(facts, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
