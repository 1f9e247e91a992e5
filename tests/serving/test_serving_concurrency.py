"""Several hundred requests from 8 threads: no failure and no wrong answer (each
request has its own input, so a mixed-up buffer between threads would show)."""
import http.client
import json
import threading

import numpy as np

import minitf.serving
from serving_http import expected_y, save_version

THREADS, PER_THREAD = 8, 50


def test_eight_threads_many_requests(tmp_path):
    save_version(str(tmp_path), 1)
    failures, answered = [], []
    with minitf.serving.start("m", str(tmp_path), file_system_poll_wait_seconds=0.05) as s:
        def client(t):
            conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=60)
            for i in range(PER_THREAD):
                x = [[float(t), float(i)], [float(i) / 7.0, -float(t)]][: 1 + (i % 2)]
                body = {"instances": x} if i % 3 else {"inputs": {"x": x}}
                if i % 10 == 9:  # a bad request now and then must not disturb the others
                    body = {"instances": [[1.0]]}
                try:
                    conn.request("POST", "/v1/models/m:predict", body=json.dumps(body))
                    response = conn.getresponse()
                    answer = json.loads(response.read())
                    if i % 10 == 9:
                        ok = response.status == 400 and "error" in answer
                    else:
                        got = answer["predictions" if i % 3 else "outputs"]
                        ok = response.status == 200 and np.allclose(got, expected_y(x))
                    (answered if ok else failures).append((t, i, response.status, answer))
                except Exception as exc:  # noqa: BLE001 -- collected and reported below
                    failures.append((t, i, repr(exc)))
            conn.close()

        threads = [threading.Thread(target=client, args=(t,)) for t in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert failures == []
    assert len(answered) == THREADS * PER_THREAD == 400
