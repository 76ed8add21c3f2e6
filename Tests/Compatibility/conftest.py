"""Fixtures of the compatibility suite: the built `assemblyline serve` on loopback, and sample images."""
import os
import pathlib
import subprocess
import sys
import threading

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("ASSEMBLYLINE_BIN", str(ROOT / ".build" / "debug" / "assemblyline"))
KEY = "compat-key"
SECRET = "compat-secret-never-printed"


class Service:
    """A running `assemblyline serve` process and what it printed."""

    def __init__(self, data_dir, *extra, listen="127.0.0.1:0"):
        env = dict(os.environ, COMPAT_SECRET=SECRET)
        self.process = subprocess.Popen(
            [BIN, "serve", "--listen", listen, "--data-dir", str(data_dir), "--key", KEY,
             "--secret-env", "COMPAT_SECRET", *extra],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        first = self.process.stdout.readline().strip()
        assert first.startswith("listening on http://"), first
        self.url = first.split()[-1]
        self.output = []
        for stream in (self.process.stdout, self.process.stderr):
            threading.Thread(target=self._drain, args=(stream,), daemon=True).start()

    def _drain(self, stream):
        for line in stream:
            self.output.append(line)

    def stop(self):
        self.process.terminate()
        return self.process.wait(timeout=20)


@pytest.fixture
def service(tmp_path):
    running = Service(tmp_path / "data")
    yield running
    assert running.stop() == 0
    assert not any(SECRET in line for line in running.output), "the secret was printed"


@pytest.fixture(scope="session")
def images(tmp_path_factory):
    """Twelve generated PNG files (no third-party media), from the demo's generator."""
    folder = tmp_path_factory.mktemp("images")
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make-sample-images.py"), str(folder)], check=True)
    return sorted(folder.rglob("*.png"))
