#!/usr/bin/env python3
"""Strata cache loader: copies exactly one dataset commit from S3 onto a cache volume.

Runs as the Kubernetes Job Strata creates for a CacheCommit action (python3 stdlib only, any
python:3 image). Everything comes from the environment:

  S3_ENDPOINT       "http(s)://host[:port]"
  S3_REGION         SigV4 region (default us-east-1)
  S3_BUCKET         bucket holding the dataset and its manifests
  S3_PATH_STYLE     "true" (default) or "false" (virtual-hosted: bucket.host)
  MANIFEST_KEY      key of the commit manifest (strata.commit/1 JSON Lines)
  COMMIT_ID         64-hex SHA-256 of the manifest bytes (verified)
  DEST              target directory, /cache/<dataset>/<commit16>
  DATASET_PREFIX    object keys are stored relative to this prefix
  AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
  S3_CA_FILE        optional PEM bundle for https; S3_INSECURE=true skips verification
  LOADER_FAIL_AFTER tests only: exit 1 (as if killed) after copying that many objects

Protocol (stdout, one JSON object per line):
  {"event":"progress","objects_done":n,"objects_total":N,"bytes_done":b,"bytes_total":B,"objects_skipped":s}
  every ~1 s and at the end, then {"event":"ready",...same counters} (exit 0) or
  {"event":"failed","reason":"..."} (exit 1).
Objects already present with the right size are skipped (a retried pod resumes); each object is
written to <file>.part and renamed; DEST/.strata-ready is written last.
"""

import datetime
import hashlib
import hmac
import json
import os
import ssl
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree

READY_MARKER = ".strata-ready"
CHUNK = 1 << 20
RETRYABLE_STATUS = {429, 500, 502, 503, 504}
RETRYABLE_CODES = {"SlowDown", "InternalError", "ServiceUnavailable", "RequestTimeout"}
MAX_ATTEMPTS = 5


class LoadError(Exception):
    """A failure with a protocol reason."""


class S3Error(Exception):
    def __init__(self, status, code, message):
        super().__init__(f"S3 {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


def emit(event, **fields):
    sys.stdout.write(json.dumps(dict(event=event, **fields), separators=(",", ":")) + "\n")
    sys.stdout.flush()


def s3_quote(text, keep_slash):
    return urllib.parse.quote(text, safe="/~" if keep_slash else "~")


class S3:
    """Minimal SigV4 S3 client: GET with optional query and headers."""

    def __init__(self, env):
        self.endpoint = env["S3_ENDPOINT"].rstrip("/")
        parsed = urllib.parse.urlsplit(self.endpoint)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise LoadError(f"S3_ENDPOINT is not an http(s) URL: {self.endpoint}")
        self.scheme = parsed.scheme
        self.netloc = parsed.netloc
        self.region = env.get("S3_REGION") or "us-east-1"
        self.bucket = env["S3_BUCKET"]
        self.path_style = (env.get("S3_PATH_STYLE") or "true").lower() != "false"
        self.access_key = env.get("AWS_ACCESS_KEY_ID", "")
        self.secret_key = env.get("AWS_SECRET_ACCESS_KEY", "")
        self.context = None
        if self.scheme == "https":
            if (env.get("S3_INSECURE") or "").lower() == "true":
                self.context = ssl._create_unverified_context()
            else:
                self.context = ssl.create_default_context(cafile=env.get("S3_CA_FILE") or None)

    def _url(self, key, query):
        if self.path_style:
            host = self.netloc
            path = "/" + s3_quote(self.bucket, False) + "/" + s3_quote(key, True)
        else:
            host = self.bucket + "." + self.netloc
            path = "/" + s3_quote(key, True)
        canonical_query = "&".join(
            s3_quote(k, False) + "=" + s3_quote(v, False) for k, v in sorted(query.items())
        )
        return host, path, canonical_query

    def _sign(self, method, host, path, canonical_query, headers):
        now = datetime.datetime.now(datetime.timezone.utc)
        amz_date = now.strftime("%Y%m%dT%H%M%SZ")
        day = now.strftime("%Y%m%d")
        payload_hash = hashlib.sha256(b"").hexdigest()
        headers = dict(headers)
        headers["host"] = host
        headers["x-amz-date"] = amz_date
        headers["x-amz-content-sha256"] = payload_hash
        names = sorted(k.lower() for k in headers)
        lower = {k.lower(): " ".join(str(v).strip().split()) for k, v in headers.items()}
        canonical_headers = "".join(f"{n}:{lower[n]}\n" for n in names)
        signed_headers = ";".join(names)
        canonical_request = "\n".join(
            [method, path, canonical_query, canonical_headers, signed_headers, payload_hash]
        )
        scope = f"{day}/{self.region}/s3/aws4_request"
        to_sign = "\n".join(
            ["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical_request.encode()).hexdigest()]
        )
        key = ("AWS4" + self.secret_key).encode()
        for part in (day, self.region, "s3", "aws4_request"):
            key = hmac.new(key, part.encode(), hashlib.sha256).digest()
        signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
        headers["Authorization"] = (
            f"AWS4-HMAC-SHA256 Credential={self.access_key}/{scope}, "
            f"SignedHeaders={signed_headers}, Signature={signature}"
        )
        del headers["host"]
        return headers

    def open(self, key, query=None, headers=None):
        """Opens a signed GET; returns the response (caller reads and closes it). Retries
        throttling, 5xx and connection errors with exponential backoff."""
        query = query or {}
        delay = 0.5
        for attempt in range(1, MAX_ATTEMPTS + 1):
            host, path, canonical_query = self._url(key, query)
            signed = self._sign("GET", host, path, canonical_query, headers or {})
            url = f"{self.scheme}://{host}{path}" + (f"?{canonical_query}" if canonical_query else "")
            request = urllib.request.Request(url, headers=signed, method="GET")
            try:
                return urllib.request.urlopen(request, timeout=60, context=self.context)
            except urllib.error.HTTPError as error:
                body = error.read()
                error.close()
                code, message = parse_error(body, error.code)
                if attempt < MAX_ATTEMPTS and (error.code in RETRYABLE_STATUS or code in RETRYABLE_CODES):
                    time.sleep(delay)
                    delay *= 2
                    continue
                raise S3Error(error.code, code, message) from None
            except (urllib.error.URLError, OSError) as error:
                if attempt < MAX_ATTEMPTS:
                    time.sleep(delay)
                    delay *= 2
                    continue
                reason = getattr(error, "reason", error)
                raise LoadError(f"cannot reach S3 at {self.endpoint}: {reason}") from None
        raise LoadError("unreachable")


def parse_error(body, status):
    try:
        root = ElementTree.fromstring(body)
        code = root.findtext("Code") or f"HTTP{status}"
        message = root.findtext("Message") or f"HTTP {status}"
        return code, message
    except ElementTree.ParseError:
        return f"HTTP{status}", f"HTTP {status} without an S3 error document"


def parse_manifest(data):
    text = data.decode("utf-8")
    if not text.endswith("\n"):
        raise LoadError("the manifest is truncated (no newline after the last line)")
    lines = text[:-1].split("\n")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as error:
        raise LoadError(f"the manifest header is not JSON: {error}") from None
    if not isinstance(header, dict) or header.get("format") != "strata.commit/1":
        raise LoadError("the manifest is not strata.commit/1")
    entries = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            entry = json.loads(line)
            key, size, etag = entry["key"], entry["size"], entry["etag"]
            version = entry.get("version", "")
        except (json.JSONDecodeError, KeyError, TypeError):
            raise LoadError(f"manifest line {number} is not a valid object entry") from None
        if not isinstance(key, str) or not isinstance(size, int) or size < 0 or not isinstance(etag, str):
            raise LoadError(f"manifest line {number} is not a valid object entry")
        entries.append((key, size, etag, version or ""))
    if header.get("objects") not in (None, len(entries)):
        raise LoadError(f"the manifest header says {header.get('objects')} objects but lists {len(entries)}")
    return header, entries


def relative_path(key, prefix):
    if not key.startswith(prefix):
        raise LoadError(f"{key} is outside the dataset prefix {prefix}")
    rel = key[len(prefix):]
    parts = rel.split("/")
    if not rel or rel.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise LoadError(f"{key} cannot be stored as a file (empty, absolute or '..' path segment)")
    return rel


def free_bytes(path):
    probe = path
    while not os.path.exists(probe):
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    stat = os.statvfs(probe)
    return stat.f_bavail * stat.f_frsize


def main():
    env = os.environ
    for name in ("S3_ENDPOINT", "S3_BUCKET", "MANIFEST_KEY", "COMMIT_ID", "DEST"):
        if not env.get(name):
            raise LoadError(f"{name} is not set")
    dest = env["DEST"]
    commit_id = env["COMMIT_ID"].lower()
    prefix = env.get("DATASET_PREFIX", "")
    fail_after = int(env.get("LOADER_FAIL_AFTER", "0") or 0)
    s3 = S3(env)

    try:
        with s3.open(env["MANIFEST_KEY"]) as response:
            manifest = response.read()
    except S3Error as error:
        if error.code in ("NoSuchKey", "NotFound"):
            raise LoadError(f"the manifest {env['MANIFEST_KEY']} is gone from the bucket") from None
        raise
    actual = hashlib.sha256(manifest).hexdigest()
    if actual != commit_id:
        raise LoadError(f"the manifest {env['MANIFEST_KEY']} does not match commit {commit_id} (its SHA-256 is {actual})")
    _, entries = parse_manifest(manifest)
    entries.sort(key=lambda e: e[0].encode("utf-8"))
    plan = [(key, size, etag, version, os.path.join(dest, relative_path(key, prefix))) for key, size, etag, version in entries]

    objects_total = len(plan)
    bytes_total = sum(p[1] for p in plan)
    counters = {"objects_done": 0, "objects_total": objects_total, "bytes_done": 0, "bytes_total": bytes_total,
                "objects_skipped": 0}

    marker = os.path.join(dest, READY_MARKER)
    if os.path.exists(marker):
        try:
            with open(marker, encoding="utf-8") as handle:
                if json.load(handle).get("commit") == commit_id:
                    counters.update(objects_done=objects_total, bytes_done=bytes_total, objects_skipped=objects_total)
                    emit("progress", **counters)
                    emit("ready", **counters)
                    return 0
        except (OSError, ValueError):
            pass

    def present(path, size):
        try:
            return os.stat(path).st_size == size
        except OSError:
            return False

    needed = sum(size for _, size, _, _, path in plan if not present(path, size))
    if needed > free_bytes(dest):
        raise LoadError(f"no space left on the cache volume (needs {needed} bytes)")

    os.makedirs(dest, exist_ok=True)
    emit("progress", **counters)
    _last_report[0] = time.monotonic()
    copied = 0
    for key, size, etag, version, path in plan:
        if present(path, size):
            counters["objects_done"] += 1
            counters["bytes_done"] += size
            counters["objects_skipped"] += 1
        else:
            copy_object(s3, key, size, etag, version, path, counters)
            counters["objects_done"] += 1
            copied += 1
        report(counters)
        if fail_after and copied >= fail_after and counters["objects_done"] < objects_total:
            emit("progress", **counters)
            sys.stdout.flush()
            os._exit(1)  # as if the pod were killed: no failed event

    with open(marker + ".part", "w", encoding="utf-8") as handle:
        json.dump({"commit": commit_id, "objects": objects_total, "bytes": bytes_total,
                   "readyAt": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}, handle)
    os.replace(marker + ".part", marker)
    emit("progress", **counters)
    emit("ready", **counters)
    return 0


_last_report = [0.0]


def report(counters):
    """A progress line at most about once a second (also inside a large object's copy)."""
    now = time.monotonic()
    if now - _last_report[0] >= 1.0:
        emit("progress", **counters)
        _last_report[0] = now


def copy_object(s3, key, size, etag, version, path, counters):
    query = {"versionId": version} if version else {}
    try:
        response = s3.open(key, query)
    except S3Error as error:
        if error.code in ("NoSuchKey", "NoSuchVersion", "NotFound") or error.status == 404:
            raise LoadError(f"{key} is gone from the bucket") from None
        raise
    with response:
        got = (response.headers.get("ETag") or "").strip('"')
        if got and got != etag:
            raise LoadError(f"ETag of {key} changed since the commit (expected {etag}, got {got})")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        part = path + ".part"
        digest = hashlib.md5()
        written = 0
        try:
            with open(part, "wb") as handle:
                while True:
                    chunk = response.read(CHUNK)
                    if not chunk:
                        break
                    handle.write(chunk)
                    digest.update(chunk)
                    written += len(chunk)
                    counters["bytes_done"] += len(chunk)
                    report(counters)
        except OSError as error:
            if error.errno == 28:  # ENOSPC
                raise LoadError(f"no space left on the cache volume (needs {counters['bytes_total'] - counters['bytes_done']} bytes)") from None
            raise
    if written != size:
        counters["bytes_done"] -= written
        raise LoadError(f"{key} has {written} bytes, the commit says {size}")
    # Single-part ETags are the MD5 of the bytes: a mismatch means the bytes changed or broke.
    if "-" not in etag and digest.hexdigest() != etag:
        raise LoadError(f"ETag of {key} changed since the commit (expected {etag}, got {digest.hexdigest()})")
    os.replace(part, path)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except LoadError as error:
        emit("failed", reason=str(error))
        sys.exit(1)
    except S3Error as error:
        emit("failed", reason=str(error))
        sys.exit(1)
    except Exception as error:  # anything unexpected still ends with a protocol line
        emit("failed", reason=f"{type(error).__name__}: {error}")
        sys.exit(1)
