#!/usr/bin/env python3
"""Loads documentation pages in headless Chromium and checks what a reader sees.

    scripts/docs_check.py CHROMIUM BASE_URL SITE_DIR

Used by scripts/docs-check.sh, which serves the static site on 127.0.0.1 first. The pages: the
landing page, every article, every module page and the main types' pages (PAGES below), found in
the site's render data so new articles are checked as soon as they exist. Each page is loaded in
a 1400 x 1000 window through the DevTools protocol (a minimal WebSocket client below: the
standard library only), and fails when:
  - it stays blank: no title or no text in the main column after rendering;
  - the console reports an error, a script throws, or a request fails, except the viewer's
    optional theme-settings.json;
  - its sidebar has no link to a guide, or a guide's title is cut off there;
  - a code block is wider than its column (scrollWidth > clientWidth on a `pre` or on the box
    the viewer scrolls it in), so a reader would have to scroll sideways.
"""

import base64
import glob
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

WINDOW = (1400, 1000)
# The main types: each has a type extension file with task groups and links to its guides.
MAIN_TYPES = [
    "endpointcore/endpoint",
    "endpointcore/httpclient",
    "endpointcore/middleware",
    "endpointtransport/urlsessionhttpclient",
    "endpointtransport/foundation/urlsession",
    "endpointcurl/curlhttpclient",
    "endpointtesting/stubclient",
    "endpointdefaultclient/defaulthttpclient",
]
# Requests that may fail: the viewer asks for an optional theme file.
OPTIONAL = ("theme-settings.json",)


class WebSocket:
    """Just enough of RFC 6455 for the DevTools protocol: text frames, client masking."""

    def __init__(self, url):
        assert url.startswith("ws://")
        hostport, _, path = url[5:].partition("/")
        host, _, port = hostport.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("DevTools closed the connection during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"DevTools refused the WebSocket: {head[:200]!r}")

    def _exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            data += chunk
        return data

    def send(self, text):
        payload = text.encode()
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def receive(self):
        message = b""
        while True:
            first, second = self._exactly(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._exactly(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._exactly(8))[0]
            payload = self._exactly(length)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise ConnectionError("DevTools closed the WebSocket")
            if opcode in (0x9, 0xA):  # ping, pong
                continue
            message += payload
            if first & 0x80:
                return message.decode()


class Page:
    """One tab, driven through the DevTools protocol."""

    def __init__(self, url):
        self.ws = WebSocket(url)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.receive())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    def drain(self, seconds):
        """Collects events for a while (the page renders after its load event)."""
        self.ws.sock.settimeout(0.2)
        end = time.time() + seconds
        while time.time() < end:
            try:
                self.events.append(json.loads(self.ws.receive()))
            except (socket.timeout, TimeoutError):
                pass
        self.ws.sock.settimeout(60)


# What a reader would see: the title, the text of the main column, and code blocks that do not
# fit their column.
INSPECT = """(() => {
  const main = document.querySelector('main') || document.body;
  const title = document.querySelector('main h1, .title');
  // DocC's viewer lets a `pre` grow and scrolls its parent (a .container-general box), so a
  // block is too wide when either of them scrolls.
  const box = pre => pre.parentElement || pre;
  const wide = [...document.querySelectorAll('pre')]
    .filter(pre => pre.offsetParent !== null && (
      pre.scrollWidth > pre.clientWidth + 1 || box(pre).scrollWidth > box(pre).clientWidth + 1))
    .map(pre => ({
      width: Math.max(pre.scrollWidth, box(pre).scrollWidth), column: box(pre).clientWidth,
      line: [...pre.innerText.split('\\n')].sort((a, b) => b.length - a.length)[0].slice(0, 100)
    }));
  // Guides in the sidebar whose title is cut off (symbol names may be, guides' titles not).
  const truncated = [...document.querySelectorAll('.navigator-card-item a.leaf-link')]
    .filter(link => (link.getAttribute('href') || '').includes('/documentation/endpoint/'))
    .filter(link => link.scrollWidth > link.clientWidth + 1)
    .map(link => link.innerText.trim());
  // Links from the sidebar to the guides: every page's way back to them.
  const guides = [...document.querySelectorAll('.navigator-card-item a.leaf-link')]
    .filter(link => /\/documentation\/endpoint\/[a-z]/.test(link.getAttribute('href') || ''))
    .length;
  return {
    guides: guides,
    truncated: truncated,
    sidebar: document.querySelectorAll('.navigator-card-item').length,
    title: title ? title.innerText.trim() : '',
    text: main.innerText.trim().length,
    wide: wide,
    codeBlocks: document.querySelectorAll('pre').length,
  };
})()"""


def pages(site):
    """Paths of the landing page, every article and module page, and the main types."""
    data = os.path.join(site, "data", "documentation")
    result = ["documentation/endpoint/"]
    for path in sorted(glob.glob(os.path.join(data, "endpoint", "*.json"))):
        result.append(f"documentation/endpoint/{os.path.basename(path)[:-5]}/")
    for path in sorted(glob.glob(os.path.join(data, "*.json"))):
        name = os.path.basename(path)[:-5]
        if name != "endpoint":
            result.append(f"documentation/{name}/")
    result += [f"documentation/{path}/" for path in MAIN_TYPES]
    missing = [
        path
        for path in result
        if not os.path.exists(os.path.join(site, "data", path.rstrip("/") + ".json"))
    ]
    return result, missing


def problems_of(page, url):
    page.events.clear()
    page.call("Page.navigate", url=url)
    # The viewer renders from JSON after the load event; wait for a title, then settle.
    deadline = time.time() + 30
    state = None
    while time.time() < deadline:
        page.drain(0.5)
        state = page.evaluate(INSPECT)
        if state and state["title"] and state["text"] > 200:
            break
    page.drain(1.0)
    state = page.evaluate(INSPECT) or {"title": "", "text": 0, "wide": [], "codeBlocks": 0}
    if state["title"] and state.get("guides", 0) == 0:
        problems_sidebar = ["sidebar: no link to a guide"]
    else:
        problems_sidebar = []
    problems = list(problems_sidebar)
    if not state["title"] or state["text"] < 200:
        problems.append(f"blank page (title {state['title']!r}, {state['text']} characters)")
    for event in page.events:
        method, params = event.get("method"), event.get("params", {})
        text = None
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in
                            params.get("args", []))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            text = f"{entry.get('text')} {entry.get('url', '')}"
        elif method == "Network.responseReceived" and params["response"]["status"] >= 400:
            text = f"HTTP {params['response']['status']} {params['response']['url']}"
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            text = f"request failed: {params.get('errorText')}"
        if text and not any(name in text for name in OPTIONAL):
            problems.append(f"console: {text.strip()[:300]}")
    for title in state.get("truncated", []):
        problems.append(f"sidebar: the guide title {title!r} is cut off")
    for block in state["wide"]:
        problems.append(
            f"code block {block['width']} px wide in a {block['column']} px column: "
            f"{block['line']!r}"
        )
    return problems, state


def main():
    chromium, base, site = sys.argv[1:4]
    paths, missing = pages(site)
    if missing:
        print("docs check: pages missing from the site: " + ", ".join(missing), file=sys.stderr)
        return 1
    profile = tempfile.mkdtemp(prefix="docs-check-chromium-")
    browser = subprocess.Popen(
        [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-extensions", "--disable-background-networking", "--mute-audio",
            f"--window-size={WINDOW[0]},{WINDOW[1]}", f"--user-data-dir={profile}",
            "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.time() + 60
        while not (os.path.exists(port_file) and open(port_file).read().strip()):
            if time.time() > deadline or browser.poll() is not None:
                print("docs check: Chromium did not start", file=sys.stderr)
                return 1
            time.sleep(0.2)
        port = open(port_file).read().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as response:
            targets = json.load(response)
        target = next(t for t in targets if t.get("type") == "page")
        page = Page(target["webSocketDebuggerUrl"])
        for domain in ("Page", "Runtime", "Log", "Network"):
            page.call(f"{domain}.enable")
        page.call(
            "Emulation.setDeviceMetricsOverride",
            width=WINDOW[0], height=WINDOW[1], deviceScaleFactor=1, mobile=False,
        )
        failed = 0
        for path in paths:
            started = time.time()
            problems, state = problems_of(page, base.rstrip("/") + "/" + path)
            status = "FAIL" if problems else "ok"
            print(
                f"docs check: {status:4} {path} ({state['title']!r}, {state['codeBlocks']} code "
                f"blocks, {state.get('guides', 0)} guides in the sidebar, "
                f"{time.time() - started:.1f} s)"
            )
            for problem in problems:
                print(f"    {problem}")
            failed += bool(problems)
        print(f"docs check: {len(paths) - failed} of {len(paths)} pages ok")
        return 1 if failed else 0
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
