#!/usr/bin/env python3
"""A bounded, seeded fuzzer of the two servers: `assemblyline serve` and `assemblyline sign-server`.

Each iteration sends one generated request on a fresh connection: request lines and header fields
with mutated names and values, numbers at and around every integer boundary in every numeric header,
query and JSON field, multipart bodies with broken framing, and tus sequences (create, then PATCH,
HEAD, DELETE with boundary offsets and lengths). After every batch, and at the end, the fuzzer checks
that the server still runs and answers a normal request; any exit of a server is a crash and fails
the run. It prints one line per server (iterations, answers by status class, closes, slowest normal
answer, peak RSS) for bench/RESULTS.md.

Usage: bench/fuzz.py [--iterations N] [--seed S] [--bin PATH]
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time

BOUNDARIES = [
    "0", "1", "-1", "+1", "00", "007", " 1", "1 ", "1.0", "1e3", "0x10", "", "-0",
    "127", "128", "255", "256", "32767", "32768", "65535", "65536",
    "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
    "9223372036854775806", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616", "99999999999999999999999999",
    "NaN", "inf", "1" * 400,
]
KEY = "fuzzkey0123456789abcdef012345678"


def number(rng):
    return rng.choice(BOUNDARIES)


def json_number(rng):
    text = rng.choice(BOUNDARIES)
    try:
        return int(text)
    except ValueError:
        return text


class Server:
    def __init__(self, binary, kind, directory):
        self.kind = kind
        self.secret = "fuzz-secret-" + os.urandom(8).hex()
        self.token = "fuzz-token-" + os.urandom(8).hex()
        env = dict(os.environ, FUZZ_SECRET=self.secret)
        if kind == "serve":
            args = [binary, "serve", "--listen", "127.0.0.1:0", "--data-dir", os.path.join(directory, "data"),
                    "--key", KEY, "--secret-env", "FUZZ_SECRET", "--creations-per-minute", "0", "--status-per-second", "0"]
        else:
            policy = os.path.join(directory, "policy.yaml")
            with open(policy, "w") as handle:
                handle.write("key: %s\nsecret_env: FUZZ_SECRET\ntokens_sha256: [%s]\ntemplates: [tpl]\n"
                             "fields:\n  album: '(a+)+b'\n  name: '[a-z0-9-]{1,32}'\nrequests_per_minute: 100000\n"
                             % (KEY, hashlib.sha256(self.token.encode()).hexdigest()))
            args = [binary, "sign-server", "--policy", policy, "--listen", "127.0.0.1:0"]
        self.out = open(os.path.join(directory, kind + ".out"), "w+")
        self.err = open(os.path.join(directory, kind + ".err"), "w+")
        self.process = subprocess.Popen(args, stdout=self.out, stderr=self.err, env=env, cwd=directory)
        for _ in range(500):
            self.out.seek(0)
            line = self.out.readline()
            if line.startswith("listening on "):
                self.port = int(line.strip().rsplit(":", 1)[1])
                break
            time.sleep(0.02)
        else:
            raise SystemExit("%s did not start" % kind)
        self.peak_rss = 0

    def send(self, data, timeout=5.0):
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as connection:
            try:
                connection.sendall(data)
                connection.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            reply = b""
            try:
                while len(reply) < 1 << 20:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    reply += chunk
            except OSError:
                pass
        return reply

    def normal(self):
        if self.kind == "serve":
            request = b"GET /assemblies/" + b"0" * 32 + b" HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
        else:
            request = b"POST /sign HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        start = time.monotonic()
        reply = self.send(request)
        elapsed = time.monotonic() - start
        return reply.startswith(b"HTTP/1.1 4"), elapsed

    def rss(self):
        with open("/proc/%d/status" % self.process.pid) as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    self.peak_rss = max(self.peak_rss, int(line.split()[1]) * 1024)
        return self.peak_rss

    def signature(self, params):
        return "sha384:" + hmac.new(self.secret.encode(), params.encode(), hashlib.sha384).hexdigest()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.out.seek(0)
        self.err.seek(0)
        printed = self.out.read() + self.err.read()
        return self.secret not in printed and self.token not in printed


def request(method, target, headers, body=b""):
    head = "%s %s HTTP/1.1\r\n" % (method, target)
    head += "".join("%s: %s\r\n" % pair for pair in headers)
    return head.encode("latin-1", "replace") + b"\r\n" + body


def mutate_headers(rng, headers):
    headers = list(headers)
    for _ in range(rng.randint(0, 3)):
        choice = rng.random()
        if choice < 0.2 and headers:
            name, value = rng.choice(headers)
            headers.append((name, value))                              # a repeated field
        elif choice < 0.4 and headers:
            index = rng.randrange(len(headers))
            headers[index] = (headers[index][0] + rng.choice([" ", "\t", "\x00", "é"]), headers[index][1])
        elif choice < 0.6 and headers:
            index = rng.randrange(len(headers))
            headers[index] = (headers[index][0], headers[index][1] + rng.choice(["\r\n folded", "\x00", "\x7f", "é" * 3]))
        elif choice < 0.8:
            headers.append((rng.choice(["Content-Length", "Upload-Offset", "Upload-Length", "X-Any"]), number(rng)))
        elif headers:
            headers.pop(rng.randrange(len(headers)))
    return headers


def serve_request(rng, server, state):
    kind = rng.choice(["create", "status", "list", "tus_create", "tus_patch", "tus_head", "tus_delete", "files", "replay", "junk"])
    if kind == "create":
        fields = {"steps": {":original": {"robot": "/upload/handle"}}}
        if rng.random() < 0.5:
            fields["steps"]["r"] = {"robot": "/image/resize", "use": ":original",
                                    "width": json_number(rng), "height": json_number(rng)}
        params = json.dumps(dict(fields, auth={"key": KEY, "expires": "2099/01/01 00:00:00+00:00", "nonce": os.urandom(6).hex()}))
        form = [("params", params), ("signature", server.signature(params))]
        if rng.random() < 0.7:
            form.append(("tus_num_expected_upload_files", number(rng) if rng.random() < 0.5 else "1"))
        if rng.random() < 0.5:
            boundary = rng.choice(["b", "x" * 70, "x" * 71, ""])
            body = b"".join(b"--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n"
                            % (boundary.encode(), name.encode(), value.encode()) for name, value in form)
            if rng.random() < 0.3:
                body += b"--%s\r\nContent-Disposition: form-data; name=\"f\"; filename=\"../%s\"\r\n\r\n%s\r\n" % (
                    boundary.encode(), os.urandom(4).hex().encode(), os.urandom(rng.randint(0, 2000)))
            if rng.random() < 0.8:
                body += b"--%s--\r\n" % boundary.encode()
            content_type = "multipart/form-data; boundary=%s" % boundary
        else:
            body = "&".join("%s=%s" % (name, value.replace("&", "%26").replace("+", "%2B")) for name, value in form).encode()
            content_type = "application/x-www-form-urlencoded"
        headers = [("Host", "h"), ("Content-Type", content_type), ("Content-Length", str(len(body)))]
        reply = server.send(request("POST", "/assemblies", mutate_headers(rng, headers), body))
        if b'"assembly_id":"' in reply and b"ASSEMBLY_UPLOADING" in reply:
            state["assemblies"].append(reply.split(b'"assembly_id":"')[1][:32].decode())
        return reply
    if kind == "status":
        target = "/assemblies/" + rng.choice(state["assemblies"] + ["0" * 32, "%00", "..%2f" * 20, "a" * rng.randint(0, 70000)])
        return server.send(request(rng.choice(["GET", "DELETE", "HEAD"]), target, mutate_headers(rng, [("Host", "h")])))
    if kind == "list":
        members = {"auth": {"key": KEY, "expires": "2099/01/01 00:00:00+00:00"}}
        for name in ("page", "pagesize"):
            if rng.random() < 0.7:
                members[name] = json_number(rng)
        params = json.dumps(members)
        target = "/assemblies?params=%s&signature=%s" % (params.replace(" ", "%20"), server.signature(params))
        if rng.random() < 0.5:
            target += "&page=%s&pagesize=%s" % (number(rng), number(rng))
        return server.send(request("GET", target, mutate_headers(rng, [("Host", "h")])))
    if kind == "tus_create":
        assembly = rng.choice(state["assemblies"] or ["0" * 32])
        metadata = "assembly_url %s,filename %s" % (
            base64.b64encode(("http://h/assemblies/" + assembly).encode()).decode(), base64.b64encode(b"a.bin").decode())
        headers = [("Host", "h"), ("Tus-Resumable", "1.0.0"), ("Upload-Length", number(rng) if rng.random() < 0.5 else "100"),
                   ("Upload-Metadata", metadata if rng.random() < 0.9 else "assembly_url !!")]
        reply = server.send(request("POST", "/resumable/files/", mutate_headers(rng, headers)))
        for line in reply.split(b"\r\n"):
            if line.lower().startswith(b"location:"):
                state["uploads"].append(line.split(b"/resumable/files/")[-1].decode())
        return reply
    if kind in ("tus_patch", "tus_head", "tus_delete"):
        upload = rng.choice(state["uploads"] or ["0" * 32])
        target = "/resumable/files/" + (upload if rng.random() < 0.9 else "..%2f..%2fauth-secret")
        if kind == "tus_patch":
            body = os.urandom(rng.randint(0, 200))
            headers = [("Host", "h"), ("Tus-Resumable", "1.0.0"), ("Upload-Offset", number(rng) if rng.random() < 0.5 else "0"),
                       ("Content-Type", "application/offset+octet-stream"),
                       ("Content-Length", number(rng) if rng.random() < 0.3 else str(len(body)))]
            if rng.random() < 0.3:
                headers.append(("Upload-Checksum", "sha1 " + base64.b64encode(hashlib.sha1(body).digest()).decode()))
            return server.send(request("PATCH", target, mutate_headers(rng, headers), body))
        method = "HEAD" if kind == "tus_head" else "DELETE"
        return server.send(request(method, target, mutate_headers(rng, [("Host", "h"), ("Tus-Resumable", "1.0.0")])))
    if kind == "files":
        target = "/files/%s/%s/%s" % (rng.choice(["0" * 32, "..", "%2e%2e"]), rng.choice(["..%2f..", "x"]), "a" * rng.randint(0, 300))
        return server.send(request("GET", target, mutate_headers(rng, [("Host", "h"), ("Range", "bytes=%s-%s" % (number(rng), number(rng)))])))
    if kind == "replay":
        target = "/assemblies/%s/replay" % rng.choice(state["assemblies"] or ["0" * 32])
        body = b"params=" + os.urandom(rng.randint(0, 100)).hex().encode()
        return server.send(request("POST", target, [("Host", "h"), ("Content-Type", "application/x-www-form-urlencoded"),
                                                    ("Content-Length", str(len(body)))], body))
    junk = os.urandom(rng.randint(1, 400))
    if rng.random() < 0.5:
        junk = rng.choice([b"GET ", b"POST /assemblies HTTP/1.1\r\n", b"PRI * HTTP/2.0\r\n\r\n"]) + junk
    return server.send(junk)


def sign_request(rng, server, state):
    album = rng.choice(["a" * rng.randint(1, 5000) + "c", "aab", "b", "x" * rng.randint(0, 300)])
    auth = {"key": KEY, "expires": time.strftime("%Y/%m/%d %H:%M:%S+00:00", time.gmtime(time.time() + 600)),
            "nonce": os.urandom(6).hex()}
    members = {"auth": auth, "template_id": "tpl", "fields": {"album": album}}
    if rng.random() < 0.3:
        members["fields"]["name"] = json_number(rng)
    if rng.random() < 0.2:
        members["auth"]["expires"] = number(rng)
    body = json.dumps({"params": json.dumps(members)})
    if rng.random() < 0.2:
        body = rng.choice(["[" * 70000, '{"params":1}', "{}", body[: rng.randint(0, len(body))], body + " " * 70000])
    target = rng.choice(["/sign"] * 8 + ["/sign/", "//sign", "/sign?x=1", "/sign\x00x"])
    headers = [("Host", "h"), ("Authorization", "Bearer " + (server.token if rng.random() < 0.9 else "nobody")),
               ("Content-Type", "application/json"), ("Content-Length", str(len(body.encode())))]
    return server.send(request(rng.choice(["POST"] * 9 + ["GET"]), target, mutate_headers(rng, headers), body.encode()))


def fuzz(binary, kind, iterations, seed):
    directory = tempfile.mkdtemp(prefix="assemblyline-fuzz-")
    server = Server(os.path.abspath(binary), kind, directory)
    rng = random.Random(seed)
    state = {"assemblies": [], "uploads": []}
    classes, closes, slowest = {}, 0, 0.0
    started = time.monotonic()
    try:
        for index in range(iterations):
            generate = serve_request if kind == "serve" else sign_request
            try:
                reply = generate(rng, server, state)
            except OSError:
                if server.process.poll() is not None:
                    raise SystemExit("%s CRASHED at iteration %d (seed %d): exit %s" % (kind, index + 1, seed, server.process.returncode))
                raise
            if reply.startswith(b"HTTP/1."):
                status = reply.split(b" ", 2)[1][:1].decode() + "xx"
                if status == "5xx" and os.environ.get("FUZZ_SHOW_5XX"):
                    print(reply[:600])
                classes[status] = classes.get(status, 0) + 1
            else:
                closes += 1
            if (index + 1) % 100 == 0 or index + 1 == iterations:
                if server.process.poll() is not None:
                    raise SystemExit("%s CRASHED after iteration %d (seed %d): exit %s" % (kind, index + 1, seed, server.process.returncode))
                try:
                    healthy, elapsed = server.normal()
                except OSError:
                    healthy, elapsed = False, 0.0
                if not healthy and server.process.poll() is not None:
                    raise SystemExit("%s CRASHED before iteration %d (seed %d): exit %s" % (kind, index + 1, seed, server.process.returncode))
                if not healthy:
                    raise SystemExit("%s stopped answering after iteration %d (seed %d)" % (kind, index + 1, seed))
                slowest = max(slowest, elapsed)
                server.rss()
    finally:
        clean = server.stop()
        shutil.rmtree(directory, ignore_errors=True)
    elapsed = time.monotonic() - started
    answers = ", ".join("%s %d" % pair for pair in sorted(classes.items()))
    print("fuzz %-11s %d requests in %.1f s (seed %d): %s, %d closed without an answer; 0 crashes; slowest normal answer %.1f ms; "
          "peak RSS %d MB; secret and token never printed: %s"
          % (kind, iterations, elapsed, seed, answers, closes, slowest * 1000, server.peak_rss >> 20, "yes" if clean else "NO"))
    if not clean:
        raise SystemExit("%s printed its secret or a token" % kind)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--bin", default=".build/release/assemblyline")
    arguments = parser.parse_args()
    for kind in ("serve", "sign-server"):
        fuzz(arguments.bin, kind, arguments.iterations, arguments.seed)


if __name__ == "__main__":
    sys.exit(main())
