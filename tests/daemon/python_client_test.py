"""clients/python/invjudge_client.py against a daemon this test starts
(`invjudge serve` on 127.0.0.1, port 0, state in a temporary directory that
is removed): every call, its exceptions with the API's error codes, the
token from INVJUDGE_TOKEN, and HTTPS with the server verified.

    python3 python_client_test.py INVJUDGE SOURCE_DIR
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

INVJUDGE, SOURCE = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(SOURCE, "clients", "python"))
from invjudge_client import ApiError, Client, ConnectionFailed  # noqa: E402

EXAMPLES = os.path.join(SOURCE, "examples", "pairs.jsonl")


class Daemon:
    """`invjudge serve` on a free port; stopped with SIGTERM."""

    def __init__(self, tmp, tag, *extra, env=None):
        self.err = os.path.join(tmp, tag + ".err")
        with open(self.err, "wb") as err:
            self.proc = subprocess.Popen(
                [INVJUDGE, "serve", "--listen", "127.0.0.1:0", "--state",
                 os.path.join(tmp, tag)] + list(extra),
                stdout=subprocess.DEVNULL, stderr=err, env=env)
        deadline = time.time() + 60
        while time.time() < deadline:
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", self.log())
            if m:
                self.port = int(m.group(1))
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("the daemon did not start: " + self.log())

    def log(self):
        with open(self.err) as f:
            return f.read()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ij-pyclient-")
        cls.daemon = Daemon(cls.tmp, "plain")
        cls.url = "http://127.0.0.1:%d" % cls.daemon.port

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def client(self):
        return Client(self.url, token="")

    def test_a_run_from_creation_to_its_verdicts(self):
        c = self.client()
        self.assertTrue(c.healthy())
        run = c.create_run(config={}, name="py")
        self.assertEqual(run["state"], "open")
        self.assertEqual(run["name"], "py")
        # From a file, then from an iterable of dicts (a duplicate id and a
        # fresh pair); line numbers count across uploads.
        up = c.upload_pairs(run["id"], EXAMPLES)
        self.assertEqual(up, {"accepted": 39, "rejected": []})
        more = c.upload_pairs(run["id"], iter([
            {"id": "train-01", "a": "1", "b": "1"},
            {"id": "py-1", "a": "\\frac{1}{2}", "b": "0.5"},
            "not json"]))
        self.assertEqual(more["accepted"], 1)
        self.assertEqual([r["line"] for r in more["rejected"]], [40, 42])
        self.assertIn("duplicate id", more["rejected"][0]["reason"])
        self.assertEqual(c.close(run["id"])["state"], "running")
        lines = list(c.follow(run["id"]))
        seqs = [l["seq"] for l in lines]
        self.assertEqual(seqs, list(range(1, len(lines) + 1)))
        pairs = [l for l in lines if "id" in l and l.get("kind", "pair") == "pair"]
        self.assertEqual(len({l["id"] for l in pairs}), 40)
        done = c.run(run["id"])
        self.assertEqual(done["state"], "done")
        self.assertEqual(done["counts"]["pairs"], 40)
        self.assertIn(run["id"], [r["id"] for r in c.runs()])
        self.assertIn(b'"type":"run_end"', c.audit(run["id"]))
        m = c.metrics()
        self.assertGreaterEqual(m['invjudge_runs{state="done"}'], 1)
        self.assertGreater(m['invjudge_judge_requests_total{judge="rules:math",outcome="ok"}'], 0)

    def test_cancel(self):
        c = self.client()
        run = c.create_run()
        c.upload_pairs(run["id"], EXAMPLES)
        self.assertEqual(c.cancel(run["id"])["state"], "cancelled")
        with self.assertRaises(ApiError) as e:
            c.upload_pairs(run["id"], [{"id": "late", "a": "1", "b": "1"}])
        self.assertEqual((e.exception.status, e.exception.code), (409, "run_ended"))

    def test_runs_are_read_a_page_at_a_time(self):
        c = self.client()
        made = [c.create_run(name="page-%d" % i)["id"] for i in range(5)]
        first = c.runs_page(limit=2)
        self.assertEqual(len(first["runs"]), 2)
        self.assertIsNotNone(first["next"])
        every = [r["id"] for r in c.iter_runs(page_size=2)]
        self.assertEqual(len(every), len(set(every)))  # no run twice
        self.assertEqual([i for i in every if i in made], made)  # oldest first
        self.assertEqual(every, [r["id"] for r in c.runs()])
        last = c.runs_page(limit=1000)
        self.assertIsNone(last["next"])
        with self.assertRaises(ApiError) as e:
            c.runs_page(limit=0)
        self.assertEqual((e.exception.status, e.exception.code), (400, "bad_request"))
        for run_id in made:
            c.cancel(run_id)

    def test_errors_carry_the_api_code(self):
        c = self.client()
        with self.assertRaises(ApiError) as e:
            c.run("run-nope")
        self.assertEqual((e.exception.status, e.exception.code), (404, "unknown_run"))
        with self.assertRaises(ApiError) as e:
            c.create_run(config={"votes": 0})
        self.assertEqual(e.exception.code, "bad_config")
        self.assertIn("/votes", e.exception.message)
        with self.assertRaises(ConnectionFailed):
            Client("http://127.0.0.1:1", token="").run("x")
        with self.assertRaises(ValueError):
            Client("ftp://x")


class TokenAndTlsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ij-pyclient-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_token_from_the_environment(self):
        env = dict(os.environ, INVJUDGE_TOKEN="tok-py-77c")
        d = Daemon(self.tmp, "tok", env=env)
        try:
            url = "http://127.0.0.1:%d" % d.port
            with self.assertRaises(ApiError) as e:
                Client(url, token="").runs()
            self.assertEqual((e.exception.status, e.exception.code), (401, "unauthorized"))
            old = os.environ.get("INVJUDGE_TOKEN")
            os.environ["INVJUDGE_TOKEN"] = "tok-py-77c"
            try:
                self.assertEqual(Client(url).runs(), [])
            finally:
                if old is None:
                    del os.environ["INVJUDGE_TOKEN"]
                else:
                    os.environ["INVJUDGE_TOKEN"] = old
        finally:
            d.stop()

    def test_https_with_the_server_verified(self):
        pki = os.path.join(self.tmp, "pki")
        subprocess.run([os.path.join(SOURCE, "scripts", "make-certs"), pki, "127.0.0.1"],
                       check=True, stdout=subprocess.DEVNULL)
        d = Daemon(self.tmp, "tls", "--tls-cert", os.path.join(pki, "127.0.0.1.pem"),
                   "--tls-key", os.path.join(pki, "127.0.0.1.key"))
        try:
            url = "https://127.0.0.1:%d" % d.port
            c = Client(url, token="", ca_file=os.path.join(pki, "ca.pem"))
            run = c.create_run()
            self.assertEqual(c.upload_pairs(run["id"], EXAMPLES)["accepted"], 39)
            with self.assertRaises(ConnectionFailed) as e:
                Client(url, token="").runs()  # the system's CAs do not know it
            self.assertIn("CERTIFICATE_VERIFY_FAILED", str(e.exception))
        finally:
            d.stop()


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
