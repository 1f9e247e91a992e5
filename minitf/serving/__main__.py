"""`python -m minitf.serving`: the model server from a shell, with TF Serving's flags.

    python -m minitf.serving --model_name=m --model_base_path=/models/m --rest_api_port=8501

Ctrl-C (SIGINT) or SIGTERM stops it cleanly (exit status 0).

>>> parse_args(["--model_name=m", "--model_base_path=/tmp/m"]).rest_api_port
8501

Where minitf differs from `tensorflow_model_server`: there is no gRPC
server (`--port` is accepted and ignored, with a note); `--rest_api_port=0`
picks a free port (TF Serving: 0 turns REST off) and the default is 8501
(the port TF Serving's Docker image uses; its own default is 0); it binds
127.0.0.1 unless `--rest_api_host` says otherwise (TF Serving binds all
interfaces); `--max_body_bytes` is minitf's own.
"""
import argparse
import logging
import signal
import sys
import threading

from . import DEFAULT_MAX_BODY_BYTES, start


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="python -m minitf.serving",
        description="Serve the newest numbered SavedModel under --model_base_path over TF "
                    "Serving's REST API.")
    parser.add_argument("--model_name", default="default",
                        help="name of the model, the NAME in /v1/models/NAME")
    parser.add_argument("--model_base_path", required=True,
                        help="directory holding numbered versions: 1/, 2/, ...")
    parser.add_argument("--rest_api_port", type=int, default=8501,
                        help="port for the REST API (0: any free port)")
    parser.add_argument("--rest_api_host", default="127.0.0.1",
                        help="address to bind (minitf's flag; default loopback only)")
    parser.add_argument("--file_system_poll_wait_seconds", type=float, default=1.0,
                        help="seconds between looks for a new version (0: never look again)")
    parser.add_argument("--max_body_bytes", type=int, default=DEFAULT_MAX_BODY_BYTES,
                        help="larger request bodies get 413 (minitf's flag)")
    parser.add_argument("--port", type=int, default=None,
                        help="TF Serving's gRPC port: minitf has no gRPC server")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    if args.port is not None:
        logging.warning("--port (gRPC) is ignored: minitf serves the REST API only.")
    server = start(args.model_name, args.model_base_path, args.rest_api_port,
                   args.file_system_poll_wait_seconds, args.rest_api_host, args.max_body_bytes)
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    print(f"Exporting HTTP/REST API at:{server.host}:{server.port} ...", file=sys.stderr,
          flush=True)
    try:
        while not stopping.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    server.stop()
    print("Server stopped.", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
