"""The versions of one model: find the newest numeric directory, load it, keep watching.

TF Serving's default version policy serves the newest version only: under
`--model_base_path` each SavedModel sits in a directory named by its version
number (`1/`, `2/`, ...; other names are ignored). A thread looks again every
`file_system_poll_wait_seconds`; a newer version is loaded there, off the
request path, and only then replaces the one being served (whose state turns
to END). A directory that cannot be loaded -- half-copied, or not a SavedModel
-- is logged and skipped, and the old version keeps serving; it is tried
again once its `saved_model.json` changes. If the served version's directory
is removed, the newest version left is loaded; if none is left, the loaded
one keeps serving (TF Serving would unload it: minitf prefers answering).

>>> import os, tempfile
>>> import minitf as tf
>>> base = tempfile.mkdtemp()
>>> module = tf.Module()
>>> module.f = tf.function(lambda x: {"y": 2.0 * x},
...                        input_signature=[tf.TensorSpec([None], tf.float32, "x")])
>>> tf.saved_model.save(module, os.path.join(base, "1"))
>>> store = ModelStore("m", base)
>>> store.poll_once()
>>> store.get().version, store.statuses()[0]["state"]
(1, 'AVAILABLE')

Each version holds a lock that predictions take, so one signature runs in
one thread at a time. A minitf graph run recycles scratch arrays kept on the
compiled plan, which every run of that plan shares (framework/executor.py);
the executor makes no promise about threads, so the server does not rely on
it. (8 threads calling one signature without the lock gave no wrong answer in
a quick check; the lock stays as a precaution.) TF Serving runs requests in
parallel; with NumPy and the GIL the lock costs little here.
"""
import logging
import os
import threading

from ..saved_model.load import load, read_document
from .errors import NotFound
from .metadata import signature_defs

log = logging.getLogger("minitf.serving")
MAX_VERSION = 2**63 - 1  # versions are int64 in TF Serving


class ServedVersion:
    """One loaded version: its signatures, their metadata, a lock for running them."""

    def __init__(self, version, path):
        self.version = version
        self.path = path
        self.loaded = load(path)
        self.signature_defs = signature_defs(read_document(path))
        self.signatures = dict(getattr(self.loaded, "signatures", {}) or {})
        self.lock = threading.Lock()


class ModelStore:
    """The served versions of model `name` under `base_path`, polled every `poll_wait_seconds`."""

    def __init__(self, name, base_path, poll_wait_seconds=1.0):
        self.name = name
        self.base_path = os.fspath(base_path)
        self.poll_wait_seconds = poll_wait_seconds
        self._current = None
        self._ended = []          # versions that were served and were replaced
        self._failed = {}         # version -> mtime of the saved_model.json that failed
        self._guard = threading.Lock()
        self._stop = threading.Event()
        self._thread = None

    def versions_on_disk(self):
        """The numeric version directories under base_path, newest first."""
        try:
            names = os.listdir(self.base_path)
        except OSError:
            return []
        found = [int(n) for n in names if n.isdigit() and 0 < len(n) <= 19
                 and int(n) <= MAX_VERSION and os.path.isdir(os.path.join(self.base_path, n))]
        return sorted(found, reverse=True)

    def poll_once(self):
        """Load the newest version if it is newer than the one served (and loads)."""
        on_disk = self.versions_on_disk()
        if not on_disk:
            log.warning("No versions of servable %s found under base path %s. Did you forget "
                        "to name your leaf directory as an integer (e.g. %s/1/)?%s",
                        self.name, self.base_path, self.base_path,
                        "" if self._current is None else
                        f" Version {self._current.version} stays loaded and keeps serving.")
            return
        current = self._current
        if current is not None and current.version not in on_disk:
            log.warning("Version %d of %s was removed from disk; serving the newest version "
                        "left instead.", current.version, self.name)
            current = None  # as TF Serving does: the newest version present is served
        for version in on_disk:
            if current is not None and version <= current.version:
                return
            if self._try_load(version):
                return

    def _try_load(self, version):
        path = os.path.join(self.base_path, str(version))
        stamp = _mtime(os.path.join(path, "saved_model.json"))
        if self._failed.get(version, object()) == stamp:
            return False  # failed before and unchanged since: don't log it every poll
        try:
            served = ServedVersion(version, path)
        except Exception as exc:  # noqa: BLE001 -- any broken directory is skipped, not fatal
            self._failed[version] = stamp
            log.error("Loading servable: {name: %s version: %d} failed: %s: %s -- skipped; "
                      "the version being served (if any) keeps serving.",
                      self.name, version, type(exc).__name__, exc)
            return False
        with self._guard:
            if self._current is not None:
                self._ended = [self._current.version] + [
                    v for v in self._ended if v not in (version, self._current.version)]
            self._current = served
        self._failed.pop(version, None)
        log.info("Successfully loaded servable version {name: %s version: %d}",
                 self.name, version)
        return True

    def get(self, version=None):
        """The served version (the newest, or exactly `version`); `NotFound` otherwise."""
        current = self._current
        if current is None or (version is not None and version != current.version):
            request = "Latest" if version is None else "Specific"
            arguments = self.name if version is None else f"{self.name}, {version}"
            hint = (" No version has loaded yet: the base path needs a numbered SavedModel "
                    "directory such as 1/." if current is None else
                    f" The server serves version {current.version} only.")
            raise NotFound(f"Servable not found for request: {request}({arguments}).{hint}")
        return current

    def statuses(self, version=None):
        """TF Serving's `model_version_status` list: the served version, then ended ones."""
        with self._guard:
            current, ended = self._current, list(self._ended)
        entries = ([(current.version, "AVAILABLE")] if current else []) + \
            [(v, "END") for v in ended]
        if version is not None:
            entries = [e for e in entries if e[0] == version]
            if not entries:
                raise NotFound(f"Could not find version {version} of model {self.name}.")
        elif not entries:
            raise NotFound(f"Could not find any versions of model {self.name}.")
        return [{"version": str(v), "state": state,
                 "status": {"error_code": "OK", "error_message": ""}} for v, state in entries]

    def start(self):
        """Load what is there now, then keep polling in a daemon thread."""
        self.poll_once()
        if self.poll_wait_seconds and self.poll_wait_seconds > 0:
            self._thread = threading.Thread(target=self._poll_loop, daemon=True,
                                            name=f"minitf-serving-poll-{self.name}")
            self._thread.start()

    def _poll_loop(self):
        while not self._stop.wait(self.poll_wait_seconds):
            try:
                self.poll_once()
            except Exception:  # noqa: BLE001 -- the poller must survive anything
                log.exception("Polling %s failed; trying again.", self.base_path)

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


def _mtime(path):
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None
