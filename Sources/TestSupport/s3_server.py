"""moto's S3 on an ephemeral loopback port, seeded with boto3, for the listing and import tests.

Usage: s3_server.py BUCKET KEYS_FILE

Starts moto (ThreadedMotoServer) on 127.0.0.1, port 0, with INITIAL_NO_AUTH_ACTION_COUNT=3: the first
three requests (create an IAM user, its access key, its policy) pass unsigned, every later one is
checked with SigV4. The bucket and one object per line of KEYS_FILE (UTF-8: a key, or a key, a tab and the
path of a file holding its body; else the body is the key's bytes) are then created with the new key by
boto3, signed. Prints one JSON line (port, access key ID, secret, region), then serves until
its standard input closes, putting or deleting objects with boto3 as the lines it reads there say. The secret goes to the test through this pipe only, never argv.
"""
import json
import logging
import os
import sys
from concurrent.futures import ThreadPoolExecutor

os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")

import boto3  # noqa: E402
from botocore.config import Config  # noqa: E402
from moto.server import ThreadedMotoServer  # noqa: E402

REGION = "us-east-1"
POLICY = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}


def main():
    bucket, keys_file = sys.argv[1], sys.argv[2]
    with open(keys_file, encoding="utf-8") as handle:
        entries = [line.rstrip("\n").partition("\t") for line in handle if line.rstrip("\n")]
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    port = server.get_host_and_port()[1]
    endpoint = f"http://127.0.0.1:{port}"
    setup = dict(region_name=REGION, endpoint_url=endpoint, aws_access_key_id="setup", aws_secret_access_key="setup")
    iam = boto3.client("iam", **setup)
    iam.create_user(UserName="lister")
    key = iam.create_access_key(UserName="lister")["AccessKey"]
    iam.put_user_policy(UserName="lister", PolicyName="s3", PolicyDocument=json.dumps(POLICY))
    s3 = boto3.client(
        "s3", region_name=REGION, endpoint_url=endpoint,
        aws_access_key_id=key["AccessKeyId"], aws_secret_access_key=key["SecretAccessKey"],
        config=Config(s3={"addressing_style": "path"}, max_pool_connections=16),
    )
    s3.create_bucket(Bucket=bucket)
    def body(entry):
        name, _, path = entry
        if not path:
            return name.encode("utf-8")
        with open(path, "rb") as source:
            return source.read()

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda entry: s3.put_object(Bucket=bucket, Key=entry[0], Body=body(entry)), entries))
    print(json.dumps({"port": port, "accessKeyID": key["AccessKeyId"], "secret": key["SecretAccessKey"], "region": REGION}),
          flush=True)
    # Commands, one a line, until stdin closes: "put<TAB>KEY<TAB>PATH" or "delete<TAB>KEY"; each answered "ok".
    for line in sys.stdin:
        command, _, rest = line.rstrip("\n").partition("\t")
        if command == "put":
            key, _, path = rest.partition("\t")
            s3.put_object(Bucket=bucket, Key=key, Body=body((key, "", path)))
        elif command == "delete":
            s3.delete_object(Bucket=bucket, Key=rest)
        print("ok", flush=True)
    server.stop()


if __name__ == "__main__":
    main()
