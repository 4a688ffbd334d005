"""A client of the invjudge daemon's HTTP API (`invjudge serve`).

Standard library only (urllib, json, ssl): copy this file next to an
evaluation script, or put clients/python on PYTHONPATH.

    from invjudge_client import Client, ApiError

    client = Client("http://127.0.0.1:8321")       # token from INVJUDGE_TOKEN
    run = client.create_run(config={"votes": 3}, name="nightly")
    client.upload_pairs(run["id"], "pairs.jsonl")  # a path, file or iterable
    client.close(run["id"])
    for verdict in client.follow(run["id"]):       # as they come
        print(verdict)

Every error the API answers raises ApiError, carrying its HTTP status and
the API's error code (docs/openapi.yaml lists them); a daemon that cannot
be reached raises ConnectionFailed. Both are InvjudgeError.
"""

import json
import os
import ssl
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["Client", "InvjudgeError", "ApiError", "ConnectionFailed"]

FINAL_STATES = ("done", "cancelled", "failed")


class InvjudgeError(Exception):
    """Any failure of a request to the daemon."""


class ApiError(InvjudgeError):
    """The daemon answered with an error: `status` (HTTP), `code` (the API's
    error code, e.g. "unknown_run", "bad_config") and its `message`."""

    def __init__(self, status, code, message):
        super().__init__("HTTP %d %s: %s" % (status, code, message))
        self.status = status
        self.code = code
        self.message = message


class ConnectionFailed(InvjudgeError):
    """No answer: the daemon could not be reached, or TLS failed."""


class Client:
    """One daemon. `token` defaults to $INVJUDGE_TOKEN; for https:// URLs
    the server is verified with the system's CAs or `ca_file`, and
    `cert_file`/`key_file` are this client's certificate when the daemon
    asks for one (`serve --tls-ca`)."""

    upload_chunk_bytes = 4 << 20

    def __init__(self, base_url, token=None, ca_file=None, cert_file=None,
                 key_file=None, timeout=60.0):
        if not base_url.startswith(("http://", "https://")):
            raise ValueError("the daemon's URL must start with http:// or "
                             "https://: %r" % base_url)
        self.base_url = base_url.rstrip("/")
        self.token = token if token is not None else os.environ.get("INVJUDGE_TOKEN")
        self.timeout = timeout
        self._context = None
        if self.base_url.startswith("https://"):
            self._context = ssl.create_default_context(cafile=ca_file)
            if cert_file:
                self._context.load_cert_chain(cert_file, key_file)

    # -- the endpoints ----------------------------------------------------

    def healthy(self):
        """True while the daemon serves."""
        try:
            return self._request("GET", "/healthz", auth=False)[0] == 200
        except InvjudgeError:
            return False

    def create_run(self, config=None, name=None):
        """Creates a run (state "open") with the driver's configuration
        (a dict; None: the daemon's default). Returns the run."""
        body = {}
        if config is not None:
            body["config"] = config
        if name is not None:
            body["name"] = name
        return self._json("POST", "/v1/runs", json.dumps(body).encode(),
                          "application/json")

    def upload_pairs(self, run_id, pairs):
        """Uploads pairs: a path to a JSON Lines file, a file object, or an
        iterable of dicts (or of JSON strings). Sent in pieces of at most
        upload_chunk_bytes, cut at line ends. Returns {"accepted": N,
        "rejected": [{"line", "reason"}, ...]} over all pieces."""
        total = {"accepted": 0, "rejected": []}
        piece = []
        size = 0
        for line in _lines_of(pairs):
            piece.append(line)
            size += len(line)
            if size >= self.upload_chunk_bytes:
                self._upload_piece(run_id, piece, total)
                piece, size = [], 0
        if piece:
            self._upload_piece(run_id, piece, total)
        return total

    def close(self, run_id):
        """The input is complete (state "running"). Returns the run."""
        return self._json("POST", "/v1/runs/%s/close" % run_id)

    def run(self, run_id):
        """The run: id, name, state, counts, created, finished, ..."""
        return self._json("GET", "/v1/runs/%s" % run_id)

    def runs(self, page_size=100):
        """Every run, oldest first (read a page at a time)."""
        return list(self.iter_runs(page_size))

    def iter_runs(self, page_size=100, after=None):
        """The runs, oldest first, as a generator over pages of `page_size`
        (at most 1000) runs; `after`: a page's cursor ("next") to start
        after."""
        while True:
            path = "/v1/runs?limit=%d" % page_size
            if after:
                path += "&after=" + urllib.parse.quote(after, safe="")
            page = self._json("GET", path)
            for run in page["runs"]:
                yield run
            after = page.get("next")
            if not after:
                return

    def runs_page(self, limit=100, after=None):
        """One page: {"runs": [...], "next": cursor or None}."""
        path = "/v1/runs?limit=%d" % limit
        if after:
            path += "&after=" + urllib.parse.quote(after, safe="")
        return self._json("GET", path)

    def verdicts(self, run_id, after=0, wait_ms=0):
        """The verdict lines with a seq over `after` (at most 10,000), as
        dicts, and the run's state when they were read. With `wait_ms`, the
        daemon answers when there are lines or the run has ended, or after
        wait_ms with none."""
        path = "/v1/runs/%s/verdicts?after=%d" % (run_id, after)
        if wait_ms:
            path += "&wait_ms=%d" % wait_ms
        status, headers, body = self._request("GET", path)
        lines = [json.loads(l) for l in body.decode().splitlines() if l.strip()]
        return lines, headers.get("X-Run-State", "")

    def follow(self, run_id, wait_ms=20000):
        """Yields every verdict line of the run (a dict, "seq" first) as it
        comes, until the run has ended (done, cancelled or failed). Each
        request waits at the daemon for the next lines (no polling)."""
        after = 0
        while True:
            lines, state = self.verdicts(run_id, after, wait_ms)
            for line in lines:
                after = line["seq"]
                yield line
            # The state was read before the lines: once final, they were the last.
            if state in FINAL_STATES:
                return

    def cancel(self, run_id):
        """Cancels the run (no more judge calls). Returns the run."""
        return self._json("DELETE", "/v1/runs/%s" % run_id)

    def audit(self, run_id):
        """The run's audit trail (bytes; `invjudge audit verify` reads it)."""
        return self._request("GET", "/v1/runs/%s/audit" % run_id)[2]

    def metrics(self):
        """/metrics as {"name{labels}": value}."""
        text = self._request("GET", "/metrics")[2].decode()
        out = {}
        for line in text.splitlines():
            if not line or line.startswith("#"):
                continue
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
        return out

    # -- the transport ----------------------------------------------------

    def _upload_piece(self, run_id, lines, total):
        got = self._json("POST", "/v1/runs/%s/pairs" % run_id,
                         "".join(lines).encode(), "application/x-ndjson")
        total["accepted"] += got["accepted"]
        total["rejected"].extend(got["rejected"])

    def _json(self, method, path, data=None, content_type=None):
        return json.loads(self._request(method, path, data, content_type)[2])

    def _request(self, method, path, data=None, content_type=None, auth=True):
        req = urllib.request.Request(self.base_url + path, data=data,
                                     method=method)
        if content_type:
            req.add_header("Content-Type", content_type)
        if auth and self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout,
                                        context=self._context) as res:
                return res.status, res.headers, res.read()
        except urllib.error.HTTPError as e:
            raise _api_error(e.code, e.read()) from None
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            raise ConnectionFailed("cannot reach %s: %s" % (self.base_url, reason)) from None


def _api_error(status, body):
    try:
        err = json.loads(body)["error"]
        return ApiError(status, err["code"], err["message"])
    except (ValueError, KeyError, TypeError):
        return ApiError(status, "http_%d" % status, body.decode(errors="replace"))


def _lines_of(pairs):
    """Newline-ended JSON lines from a path, a file object or an iterable."""
    if isinstance(pairs, (str, os.PathLike)):
        with open(pairs, "rb") as f:
            yield from _lines_of(f)
        return
    for item in pairs:
        if isinstance(item, bytes):
            item = item.decode()
        if not isinstance(item, str):
            item = json.dumps(item)
        yield item if item.endswith("\n") else item + "\n"
