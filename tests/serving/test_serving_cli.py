"""python -m minitf.serving with TF Serving's flags, in a subprocess: it serves,
and SIGINT (Ctrl-C) stops it cleanly."""
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from minitf.serving.__main__ import parse_args
from serving_http import call, save_version

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_flags_have_tf_serving_names_and_defaults():
    args = parse_args(["--model_name=m", "--model_base_path=/x", "--rest_api_port=9",
                       "--file_system_poll_wait_seconds=5"])
    assert (args.model_name, args.model_base_path, args.rest_api_port,
            args.file_system_poll_wait_seconds) == ("m", "/x", 9, 5.0)
    defaults = parse_args(["--model_base_path=/x"])
    assert (defaults.model_name, defaults.rest_api_host, defaults.max_body_bytes) == \
        ("default", "127.0.0.1", 32 * 1024 * 1024)
    with pytest.raises(SystemExit):
        parse_args([])  # --model_base_path is required


def test_serves_until_sigint(tmp_path):
    save_version(str(tmp_path), 1)
    port = free_port()
    env = dict(os.environ, PYTHONPATH=ROOT)
    process = subprocess.Popen(
        [sys.executable, "-m", "minitf.serving", "--model_name", "m", "--model_base_path",
         str(tmp_path), "--rest_api_port", str(port)],
        stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        lines = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stderr.readline()
            lines.append(line)
            if "Exporting HTTP/REST API at:127.0.0.1:" in line or not line:
                break
        assert f"127.0.0.1:{port}" in lines[-1], lines
        assert any("Successfully loaded servable version {name: m version: 1}" in l
                   for l in lines), lines
        assert call(port, "POST", "/v1/models/m:predict", {"instances": [[1, 2]]}) == \
            (200, {"predictions": [[5.5]]})
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
        assert "Server stopped." in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stderr.close()
    with pytest.raises(ConnectionRefusedError):
        call(port, "GET", "/v1/models/m")
