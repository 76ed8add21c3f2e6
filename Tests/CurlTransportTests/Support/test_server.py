#!/usr/bin/env python3
"""A small HTTP/1.1 keep-alive server on 127.0.0.1 for the CurlTransport tests (stdlib only).

Usage: test_server.py [--tls CERT KEY]
Prints the bound port on the first line of stdout, then serves until stdin closes or it is killed.

Endpoints (query parameters in brackets):
  ANY  /echo                       reads the whole body, streaming it into SHA-256; answers JSON
                                   {method, path, length, sha256, headers, body (first 64 KiB as text)}
  GET  /bytes?n=N                  N bytes of the pattern (byte i is PATTERN[i % PERIOD])
  GET  /slow-bytes?n=N&chunk=C&delay=S   the pattern, C bytes every S seconds
  GET  /endless                    the pattern without a Content-Length, chunked, until the client goes away
  GET  /chatter                    one space a chunk, as fast as it goes, until the client goes away
  GET  /sleep?seconds=S            answers {"slept": S} after S seconds
  GET  /status?code=C[&body=TEXT][&size=N]   answers status C with TEXT, or N bytes of "x"
  GET  /redirect?to=PATH[&code=302]          answers a redirect to PATH
  GET  /object[?size=N][&etag=E][&modified=M]  N bytes of "x" with ETag E and Last-Modified M (a HEAD gets the head alone)
  GET  /connections                {"accepted": number of TCP connections accepted so far}
  GET  /drop                       closes the connection without answering
  GET  /held-head?key=K[&seconds=S]  sends its head only once /release?key=K was asked (or S seconds,
                                   default 20, passed), then the body "released" or "timed out"
  GET  /release?key=K              lets /held-head?key=K answer; answers {"released": K}
"""
import hashlib
import json
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PERIOD = 65521
PATTERN = bytes(((j * 131 + 17) & 0xFF) for j in range(PERIOD))
# The pattern repeated past 1 MiB, so that any window of up to 1 MiB is one slice.
REPEATED = PATTERN * ((1 << 20) // PERIOD + 2)
ECHO_BODY_LIMIT = 64 << 10

accepted_lock = threading.Lock()
accepted = 0
releases_lock = threading.Lock()
releases = {}


def release_event(key):
    with releases_lock:
        return releases.setdefault(key, threading.Event())


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        global accepted
        with accepted_lock:
            accepted += 1
        super().setup()

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        self.route()

    def do_POST(self):
        self.route()

    def do_PUT(self):
        self.route()

    def do_PATCH(self):
        self.route()

    def do_DELETE(self):
        self.route()

    def do_HEAD(self):
        self.route()

    def route(self):
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        handler = {
            "/echo": self.echo,
            "/bytes": self.pattern_bytes,
            "/slow-bytes": self.slow_bytes,
            "/endless": self.endless,
            "/chatter": self.chatter,
            "/sleep": self.sleep,
            "/status": self.status,
            "/redirect": self.redirect,
            "/object": self.object,
            "/connections": self.connections,
            "/drop": self.drop,
            "/held-head": self.held_head,
            "/release": self.release,
        }.get(url.path)
        if handler is None:
            self.drain_body()
            self.answer(404, b'{"error":"NOT_FOUND"}')
            return
        try:
            handler(url, query)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def drain_body(self):
        remaining = int(self.headers.get("Content-Length") or 0)
        digest = hashlib.sha256()
        kept = bytearray()
        while remaining > 0:
            chunk = self.rfile.read(min(remaining, 1 << 20))
            if not chunk:
                break
            digest.update(chunk)
            if len(kept) < ECHO_BODY_LIMIT:
                kept += chunk[: ECHO_BODY_LIMIT - len(kept)]
            remaining -= len(chunk)
        return digest, kept

    def answer(self, code, body, content_type="application/json", extra=()):
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def echo(self, url, query):
        digest, kept = self.drain_body()
        length = int(self.headers.get("Content-Length") or 0)
        reply = {
            "method": self.command,
            "path": self.path,
            "length": length,
            "sha256": digest.hexdigest(),
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": kept.decode("utf-8", "replace"),
        }
        self.answer(200, json.dumps(reply).encode())

    def send_pattern(self, total, chunk, delay):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(total))
        self.end_headers()
        sent = 0
        while sent < total:
            size = min(chunk, total - sent)
            start = sent % PERIOD
            self.wfile.write(memoryview(REPEATED)[start : start + size])
            sent += size
            if delay and sent < total:
                time.sleep(delay)

    def pattern_bytes(self, url, query):
        self.drain_body()
        self.send_pattern(int(query.get("n", "0")), 1 << 20, 0)

    def slow_bytes(self, url, query):
        self.drain_body()
        self.send_pattern(int(query.get("n", "0")), int(query.get("chunk", "1")), float(query.get("delay", "1")))

    def endless(self, url, query):
        self.drain_body()
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.close_connection = True
        size = 1 << 16
        sent = 0
        while True:
            start = sent % PERIOD
            self.wfile.write(b"%x\r\n" % size + memoryview(REPEATED)[start : start + size] + b"\r\n")
            sent += size

    def chatter(self, url, query):
        self.drain_body()
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.close_connection = True
        while True:
            self.wfile.write(b"1\r\n \r\n")
            self.wfile.flush()

    def sleep(self, url, query):
        self.drain_body()
        seconds = float(query.get("seconds", "1"))
        time.sleep(seconds)
        self.answer(200, json.dumps({"slept": seconds}).encode())

    def status(self, url, query):
        self.drain_body()
        if "size" in query:
            body = b"x" * int(query["size"])
        else:
            body = query.get("body", "").encode()
        self.answer(int(query.get("code", "500")), body, content_type="text/plain")

    def redirect(self, url, query):
        self.drain_body()
        self.answer(int(query.get("code", "302")), b"moved", content_type="text/plain",
                    extra=[("Location", query.get("to", "/echo"))])

    def object(self, url, query):
        self.drain_body()
        extra = [(name, query[key]) for key, name in (("etag", "ETag"), ("modified", "Last-Modified")) if key in query]
        self.answer(200, b"x" * int(query.get("size", "0")), content_type="application/octet-stream", extra=extra)

    def connections(self, url, query):
        self.drain_body()
        with accepted_lock:
            count = accepted
        self.answer(200, json.dumps({"accepted": count}).encode())

    def held_head(self, url, query):
        self.drain_body()
        released = release_event(query.get("key", "")).wait(float(query.get("seconds", "20")))
        self.answer(200, b"released" if released else b"timed out", content_type="text/plain")

    def release(self, url, query):
        self.drain_body()
        release_event(query.get("key", "")).set()
        self.answer(200, json.dumps({"released": query.get("key", "")}).encode())

    def drop(self, url, query):
        self.drain_body()
        self.close_connection = True
        self.connection.shutdown(2)


def exit_when_stdin_closes():
    while sys.stdin.buffer.read(4096):
        pass
    os._exit(0)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128


def main():
    server = Server(("127.0.0.1", 0), Handler)
    if len(sys.argv) == 4 and sys.argv[1] == "--tls":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
