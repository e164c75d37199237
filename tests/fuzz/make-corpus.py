#!/usr/bin/env python3
"""Writes the seed corpora tests/fuzz/corpus/<target>/ from tests/fixtures (run from anywhere).

Seeds are starting points for the fuzzer, not test oracles: fixture bodies copied (or wrapped in
the response script of fuzztransport.h), plus a few small documents in the shapes the tests and
docs use (S3 XML, a dataset manifest, a sentiment line). Re-run after adding fixtures; the
output is committed.
"""
import hashlib
import json
import pathlib
import shutil

root = pathlib.Path(__file__).resolve().parents[2]
fixtures = root / "tests" / "fixtures"
out = root / "tests" / "fuzz" / "corpus"
SEP = b"\n%%\n"


def write(target, name, data):
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (d / name).write_bytes(data)


def files(pattern):
    return sorted(p for p in fixtures.glob(pattern) if p.is_file())


if out.exists():
    shutil.rmtree(out)

# ONTAP: every 9.14 body and the recorded ones; errors also as 4xx answers; a 202 job link
# followed by the job's states.
for p in files("ontap/9.14/*.json") + files("ontap/recorded/*.json"):
    body = p.read_bytes()
    write("ontap_dto", p.parent.name + "-" + p.name, body)
    if p.name.startswith("error_"):
        write("ontap_dto", "http400-" + p.name, b"HTTP 400\n\n" + body)
job_dir = fixtures / "ontap" / "9.14"
write("ontap_dto", "job-polling", b"HTTP 202\n\n" + (job_dir / "job_link_202.json").read_bytes() + SEP
      + (job_dir / "job_running.json").read_bytes() + SEP + (job_dir / "job_success.json").read_bytes())
write("ontap_dto", "volumes-paged", (job_dir / "volumes_page1.json").read_bytes() + SEP
      + (job_dir / "volumes_page2.json").read_bytes())

# Kubernetes objects: each example object, and lists of them.
objects = []
for p in files("kubernetes-objects/*.json"):
    write("kube_objects", p.name, p.read_bytes())
    doc = json.loads(p.read_text())
    objects.extend(doc if isinstance(doc, list) else [doc])
small = [o for o in objects if len(json.dumps(o)) < 8000]
write("kube_objects", "list-pods",
      json.dumps({"kind": "PodList", "apiVersion": "v1", "metadata": {"resourceVersion": "42", "continue": ""},
                  "items": [o for o in small if o.get("kind") in ("Pod", None)] or small[:2]}))

types_ps = ["ADDED", "MODIFIED", "DELETED"]
# The streaming Pod decoder: the example pods as one PodList page, and as single watch lines.
pods = [o for o in objects if o.get("kind") == "Pod"]
write("kube_podstream", "list-pods",
      json.dumps({"kind": "PodList", "apiVersion": "v1", "metadata": {"resourceVersion": "42"}, "items": pods}))
for i, o in enumerate(pods):
    write("kube_podstream", "event-%d" % i, json.dumps({"type": types_ps[i % 3], "object": o}))
write("kube_podstream", "bookmark", json.dumps({"type": "BOOKMARK", "object": {
    "kind": "Pod", "apiVersion": "v1", "metadata": {"resourceVersion": "43"}}}))

# Watch streams: the first byte is the chunk size, then one event per line.
types = ["ADDED", "MODIFIED", "DELETED"]
lines = [json.dumps({"type": types[i % 3], "object": o}) for i, o in enumerate(small)]
lines.append(json.dumps({"type": "BOOKMARK", "object": {"kind": "Pod", "apiVersion": "v1",
                                                         "metadata": {"resourceVersion": "43"}}}))
stream = "\n".join(lines) + "\n"
write("kube_watch", "events-chunk7", b"\x07" + stream.encode())
write("kube_watch", "events-whole", b"\x00" + stream.encode())
write("kube_watch", "expired", b"\x10" + (lines[0] + "\n" + json.dumps(
    {"type": "ERROR", "object": {"kind": "Status", "apiVersion": "v1", "status": "Failure",
                                 "reason": "Expired", "code": 410}}) + "\n").encode())

# kubeconfig YAML.
for p in files("kubeconfig/*.yaml"):
    write("kubeconfig", p.name, p.read_bytes())

# ARM: the response body of every example, and LRO answers followed by their final bodies.
for p in files("azure/*.json") + files("azure/recorded/*.json"):
    doc = json.loads(p.read_text())
    responses = doc.get("responses", {"200": {"body": doc}})
    for status, response in sorted(responses.items()):
        body = json.dumps(response.get("body", {}), indent=1).encode()
        head = b"" if status == "200" else ("HTTP %s\n" % status).encode()
        for name, value in sorted((response.get("headers") or {}).items()):
            head += ("%s: %s\n" % (name, value)).encode()
        write("azure_dto", "%s-%s" % (p.stem, status), (head + b"\n" + body) if head else body)

# StorageGRID: authorize first, then the body.
for p in files("storagegrid/*.json"):
    write("storagegrid_dto", p.name, b'{"data":"fuzz-token","status":"success"}' + SEP + p.read_bytes())

# S3 XML in the shapes of the AWS S3 API reference (ListObjectsV2, ListObjectVersions,
# ListBuckets, GetBucketVersioning, Error).
s3 = {
    "list-v2": """<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>datasets</Name><Prefix>a/</Prefix>
<KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>true</IsTruncated><NextContinuationToken>t1</NextContinuationToken>
<Contents><Key>a/1.csv</Key><LastModified>2026-06-01T10:00:00.000Z</LastModified>
<ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>123</Size><StorageClass>STANDARD</StorageClass></Contents>
<CommonPrefixes><Prefix>a/img/</Prefix></CommonPrefixes></ListBucketResult>""",
    "list-versions": """<?xml version="1.0" encoding="UTF-8"?>
<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>datasets</Name><Prefix>a/</Prefix>
<KeyMarker></KeyMarker><VersionIdMarker></VersionIdMarker><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>
<Version><Key>a/1.csv</Key><VersionId>v2</VersionId><IsLatest>true</IsLatest><LastModified>2026-06-01T10:00:00.000Z</LastModified>
<ETag>"aa"</ETag><Size>5</Size></Version>
<DeleteMarker><Key>a/2.csv</Key><VersionId>v3</VersionId><IsLatest>true</IsLatest><LastModified>2026-06-01T10:00:01.000Z</LastModified></DeleteMarker>
</ListVersionsResult>""",
    "buckets": """<?xml version="1.0" encoding="UTF-8"?>
<ListAllMyBucketsResult><Owner><ID>1</ID></Owner><Buckets><Bucket><Name>datasets</Name>
<CreationDate>2026-06-01T10:00:00.000Z</CreationDate></Bucket></Buckets></ListAllMyBucketsResult>""",
    "versioning": """<VersioningConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Status>Enabled</Status></VersioningConfiguration>""",
    "error-slowdown": """HTTP 503\nRetry-After: 1\n\n<?xml version="1.0" encoding="UTF-8"?>
<Error><Code>SlowDown</Code><Message>Reduce your request rate.</Message><RequestId>1</RequestId></Error>""",
    "head": "HTTP 200\nETag: \"aa\"\nContent-Length: 5\nLast-Modified: Mon, 01 Jun 2026 10:00:00 GMT\nx-amz-version-id: v2\n\n",
}
for name, text in s3.items():
    write("s3_xml", name, text)

# Prometheus: every fixture; DCGM: a vector of the five DCGM metrics of one GPU.
for p in files("prometheus/*.json"):
    write("prometheus", p.name, p.read_bytes())
gpu = {"Hostname": "gpu-node-1", "gpu": "0", "UUID": "GPU-1", "modelName": "NVIDIA A100-SXM4-80GB",
       "pod": "train-0", "namespace": "runai-team-a", "container": "main"}
vector = [{"metric": dict(gpu, __name__=name), "value": [1700000000, value]}
          for name, value in [("DCGM_FI_DEV_GPU_UTIL", "87"), ("DCGM_FI_DEV_FB_USED", "40000"),
                              ("DCGM_FI_DEV_FB_FREE", "41000"), ("DCGM_FI_DEV_POWER_USAGE", "310.5"),
                              ("DCGM_FI_DEV_GPU_TEMP", "61")]]
write("dcgm", "gpu-vector", json.dumps({"status": "success", "data": {"resultType": "vector", "result": vector}}))
write("dcgm", "gpu-matrix", json.dumps({"status": "success", "data": {"resultType": "matrix", "result": [
    {"metric": dict(gpu, __name__="DCGM_FI_DEV_GPU_UTIL"), "values": [[1700000000, "80"], [1700000300, "90"]]}]}}))
write("dcgm", "query-vector.json", (fixtures / "prometheus" / "query-vector.json").read_bytes())

# Dataset manifest (strata.commit/1), as tests/connectors/dataset/manifest_test.cpp writes them.
entries = [{"key": "fraud_jun/labels/a.json", "size": 7, "etag": "cccc", "version": "v7"},
           {"key": "fraud_jun/part-0001.csv", "size": 123, "etag": "9b2cf535f27731c974343645a3985328", "version": ""}]
header = {"format": "strata.commit/1", "dataset": "fraud_jun", "bucket": "datasets", "prefix": "fraud_jun/",
          "parent": "", "author": "alice", "message": "June fraud snapshot", "time": "2026-06-01T10:00:00Z",
          "objects": len(entries), "bytes": sum(e["size"] for e in entries)}
manifest = "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in [header] + entries)
write("manifest", "two-entries", manifest)
header2 = dict(header, parent=hashlib.sha256(manifest.encode()).hexdigest(), objects=0, bytes=0, prefix="")
write("manifest", "empty-child", json.dumps(header2, separators=(",", ":")) + "\n")

# Sentiment JSON Lines (docs/sentiment-schema.md's example line, and a variant without text).
line = {"call": "c-20261122-0412", "agent": "Maya Okafor", "team": "Billing", "speaker": "customer", "index": 3,
        "start": 12.4, "end": 15.9, "call_start": "2026-11-22T09:14:03Z", "text": "I was charged twice.",
        "label": "negative", "confidence": 0.91, "model": "riva-sentiment-bert-base", "ground_truth": "negative"}
line2 = {k: v for k, v in line.items() if k not in ("text", "ground_truth")}
line2.update(speaker="agent", index=4, start=16.0, end=18.5, label="positive", call_start="2026-11-22T10:14:03.250+01:00")
write("sentiment_jsonl", "two-lines", json.dumps(line) + "\n" + json.dumps(line2) + "\n\n")

# HTTP request heads as browsers and the console's clients send them.
heads = {
    "get": "GET /api/v1/estate?x=1 HTTP/1.1\r\nHost: strata.example:8443\r\nAccept: application/json\r\n"
           "Cookie: strata_session=abc\r\n\r\n",
    "post": "POST /api/v1/login HTTP/1.1\r\nHost: strata.example\r\nContent-Type: application/json\r\n"
            "Content-Length: 38\r\n\r\n",
    "chunked": "PUT /api/v1/x HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n",
    "websocket": "GET /api/v1/live HTTP/1.1\r\nHost: strata.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
}
for name, text in heads.items():
    write("http_guard", name, text)

# Chunked bodies: limit byte, two split bytes, then the stream (and the next request after it).
bodies = {
    "one-chunk": "2e\r\n" + '{"user":"viewer","password":"viewer-password"}' + "\r\n0\r\n\r\n",
    "extensions": "5;name=value\r\nhello\r\n1 ;x\r\n!\r\n0;last\r\n\r\nGET / HTTP/1.1\r\n\r\n",
    "trailer": "3\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n",
    "hidden-request": "0\r\nXXGET /api/v1/session HTTP/1.1\r\nHost: evil.example\r\n\r\n",
    "bare-lf": "5\nhello\n0\n\n",
}
for name, text in bodies.items():
    write("chunked_body", name, b"\x10\x00\x07" + text.encode())

# Quota what-if bodies as the web console sends them.
write("whatif_body", "quotas", '{"source":"k8s-ai","quotas":{"team-a":4,"team-b":2.5},"weights":{"team-b":3}}')
write("whatif_body", "named", '{"source":"k8s-ai","projects":["p1","p2"],"quotas":{"p1":1,"p2":0},"weights":{"p1":1e6}}')
write("whatif_body", "unknown", '{"source":"k8s-ai","quotas":{"team-z":1,"team-a":-1}}')

# Support bundles: the demo's trimmed body (the target wraps it in header and checksum), one
# part of it alone, and the same body as a whole gzip'd bundle file for the raw path.
import gzip
body = json.loads((fixtures / "bundle" / "demo-body-small.json").read_text())
write("bundle", "demo-body", json.dumps(body, separators=(",", ":")))
write("bundle", "estate-only", json.dumps({"estate": body.get("estate", {})}, separators=(",", ":")))
compact = json.dumps(body, separators=(",", ":"), sort_keys=True)
doc = {"body": body, "checksum": {"algorithm": "sha256", "value": hashlib.sha256(compact.encode()).hexdigest()},
       "created": "2026-11-26T09:03:05.038Z", "format": "strata-bundle", "host": "fuzz", "hours": 1,
       "strata_version": "fuzz", "user": "", "version": 1}
write("bundle", "demo-file", gzip.compress(json.dumps(doc, separators=(",", ":"), sort_keys=True).encode(), mtime=0))
