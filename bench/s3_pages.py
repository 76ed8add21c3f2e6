#!/usr/bin/env python3
"""A ListObjectsV2 page generator: a bucket of N keys made up on the fly, for listing benchmarks.

moto cannot be seeded with a million objects in reasonable time; this answers any
`GET /BUCKET?list-type=2&prefix=P&max-keys=M&continuation-token=T` with the keys
`P + dDDDD/imgFFFF.jpg` (1,000 a folder, in byte order), their size and an ETag, paginated, without
checking the signature. Usage: s3_pages.py PORT KEYS [PREFIX]; prints "ready" once listening.
"""
import base64
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PORT, KEYS = int(sys.argv[1]), int(sys.argv[2])
PREFIX = sys.argv[3] if len(sys.argv) > 3 else "tree/"


def key(index):
    return f"{PREFIX}d{index // 1000:04d}/img{index % 1000:04d}.jpg"


class Pages(BaseHTTPRequestHandler):
    def do_GET(self):
        query = parse_qs(urlsplit(self.path).query, keep_blank_values=True)
        size = min(int(query.get("max-keys", ["1000"])[0]), 1000)
        token = query.get("continuation-token", [None])[0]
        # An opaque token with +, / and = in it, as S3's are.
        start = int(base64.b64decode(token).decode().split("+")[1]) if token else 0
        end = min(start + size, KEYS)
        parts = ['<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>bench</Name>',
                 f"<Prefix>{PREFIX}</Prefix><KeyCount>{end - start}</KeyCount><MaxKeys>{size}</MaxKeys>",
                 f"<IsTruncated>{'true' if end < KEYS else 'false'}</IsTruncated>"]
        if end < KEYS:
            parts.append(f"<NextContinuationToken>{base64.b64encode(f'next+{end}+//'.encode()).decode()}</NextContinuationToken>")
        for index in range(start, end):
            parts.append(f"<Contents><Key>{key(index)}</Key><LastModified>2026-12-05T01:00:00.000Z</LastModified>"
                         f"<ETag>&quot;{index:032x}&quot;</ETag><Size>{1 + index % 512}</Size></Contents>")
        parts.append("</ListBucketResult>")
        body = "".join(parts).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", PORT), Pages)
print("ready", flush=True)
server.serve_forever()
