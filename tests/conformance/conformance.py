#!/usr/bin/env python3
"""Vendor-contract conformance: starts each simulator (strata-sim), walks the routes the connectors
use and validates every answer against the vendor's published description, never against our own
code:

  ontap        ONTAP 9.6 Swagger (tests/fixtures/ontap/swagger-9.6-subset.json): the response schema
               of the Swagger path the request matches (200 or `default` error_response); a field the
               Swagger lacks passes where a recorded ONTAP answer (tests/fixtures/ontap/recorded/)
               carries it with the same shape.
  kubernetes   Kubernetes 1.34 OpenAPI v2 (tests/fixtures/kubernetes-openapi/) for core, batch,
               storage.k8s.io and discovery; the KAI Queue/PodGroup CRDs (tests/fixtures/kai/) and the
               VolumeSnapshot CRD for custom resources; WatchEvent lines and Status errors.
  azure        the Microsoft.NetApp 2025-06-01 Swagger definitions (NetAppAccount, CapacityPool, Volume,
               Snapshot and their lists) and the ARM common-types v6 they build on, ErrorResponse and
               OperationStatusResult (tests/fixtures/azure/schemas/); the published examples
               (tests/fixtures/azure/) are validated against the same definitions first.
  storagegrid  field names and JSON types of recorded/published bodies (tests/fixtures/storagegrid/).

Every property a vendor schema does not declare counts as a violation (Swagger definitions are open,
but a field the vendor never sends is exactly the shared simulator/connector assumption this
contract exists to catch). Documented exceptions live in allowlist.yaml, one reason each.

    conformance.py --sim build/dev/simulators/strata-sim [--only ontap,kubernetes] [--verbose]
Exit status 0 when every violation is allow-listed, 1 otherwise.
"""
import argparse
import copy
import fnmatch
import json
import os
import re
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import jsonschema
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.normpath(os.path.join(HERE, "..", "fixtures"))


# ---------------------------------------------------------------------------------------------
# Schemas


def openapi_to_jsonschema(node, *, drop_required=False, ontap=False):
    """Swagger 2.0 / OpenAPI v3 (CRD) schema -> JSON Schema draft 7 that also rejects undeclared
    properties. `x-` keys are dropped except the Kubernetes ones that change meaning."""
    if isinstance(node, list):
        return [openapi_to_jsonschema(v, drop_required=drop_required, ontap=ontap) for v in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key.startswith("x-") or key in ("readOnly", "discriminator", "externalDocs", "nullable"):
            continue
        if key == "required" and (drop_required or not isinstance(value, list)):
            continue
        if key in ("properties", "definitions", "patternProperties"):
            out[key] = {k: openapi_to_jsonschema(v, drop_required=drop_required, ontap=ontap) for k, v in value.items()}
        else:
            out[key] = openapi_to_jsonschema(value, drop_required=drop_required, ontap=ontap)
    if node.get("x-kubernetes-int-or-string") or node.get("format") == "int-or-string":
        out.pop("type", None)
        out["anyOf"] = [{"type": "integer"}, {"type": "string"}]
    if node.get("nullable") or node.get("x-nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"] if isinstance(out["type"], str) else out["type"] + ["null"]
    preserve = node.get("x-kubernetes-preserve-unknown-fields")
    if "properties" in out and "additionalProperties" not in out and "allOf" not in out and not preserve:
        out["additionalProperties"] = False
    if ontap and out.get("type") == "integer":
        # ONTAP declares sizes as integer; JSON has one number type, 5.0 would still be a defect.
        pass
    return out


class SwaggerSet:
    """A swagger-shaped document: `paths` (GET responses) and `definitions`."""

    def __init__(self, path, *, drop_required=False):
        with open(path, encoding="utf-8") as f:
            self.doc = json.load(f)
        self.defs = openapi_to_jsonschema(self.doc["definitions"], drop_required=drop_required)
        self.templates = []
        for template, item in self.doc.get("paths", {}).items():
            regex = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template.rstrip("/"))) + "/?$"
            self.templates.append((template, re.compile(regex), item["get"]["responses"]))

    def schema_for(self, ref):
        return {"definitions": self.defs, "$ref": ref}

    def response_ref(self, path, status):
        for template, regex, responses in self.templates:
            if regex.match(path):
                r = responses.get(str(status)) or responses.get("default")
                if r is None:
                    return template, None
                return template, r["schema"].get("$ref")
        return None, None


def shape_of(example):
    """JSON Schema of 'the field names and JSON types of this published body' (arrays: the union of
    their elements' shapes). Numbers are one type: ints and floats are both JSON numbers."""
    if isinstance(example, dict):
        return {"type": "object", "properties": {k: shape_of(v) for k, v in example.items()},
                "additionalProperties": False}
    if isinstance(example, list):
        items = None
        for v in example:
            items = merge_shapes(items, shape_of(v))
        return {"type": "array", "items": items or {}}
    if isinstance(example, bool):
        return {"type": "boolean"}
    if isinstance(example, (int, float)):
        return {"type": "number"}
    if example is None:
        return {}  # a recorded null says nothing about the type
    return {"type": "string"}


def merge_shapes(a, b):
    if a is None:
        return b
    if a.get("type") == "object" and b.get("type") == "object":
        props = dict(a["properties"])
        for k, v in b["properties"].items():
            props[k] = merge_shapes(props.get(k), v)
        return {"type": "object", "properties": props, "additionalProperties": False}
    if a.get("type") == "array" and b.get("type") == "array":
        return {"type": "array", "items": merge_shapes(a["items"] or None, b["items"] or None) or {}}
    if a == {}:
        return b
    return a


def crd_schema(path, version):
    with open(path, encoding="utf-8") as f:
        crd = yaml.safe_load(f)
    for v in crd["spec"]["versions"]:
        if v["name"] == version and v.get("served", True):
            return crd, openapi_to_jsonschema(v["schema"]["openAPIV3Schema"])
    return crd, None


# ---------------------------------------------------------------------------------------------
# Violations and the allow-list


def pointer(path):
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path) if path else ""


class Report:
    def __init__(self, allowlist, verbose):
        self.allow = allowlist
        self.used = set()
        self.failures = []
        self.allowed = 0
        self.checked = 0
        self.recorded_ok = 0
        self.verbose = verbose
        self.recorded = []  # (system, route regex, record-prefix regex, shape, source)

    def add_recording(self, system, route, prefix, shape, source):
        """A vendor recording of the same resource: a property the schema does not declare but the
        recording carries counts as declared, provided the value has the recording's shape."""
        self.recorded.append((system, re.compile(route), re.compile(prefix), shape, source))

    def _recorded(self, system, route, ptr, value):
        for rsys, rroute, prefix, shape, source in self.recorded:
            if rsys != system or not rroute.search(route):
                continue
            m = prefix.match(ptr)
            if not m:
                continue
            node = shape
            for part in ptr[m.end():].split("/")[1:]:
                if node.get("type") == "array":
                    node = node.get("items") or {}
                    if part.isdigit():
                        continue
                if node.get("type") != "object" or part not in node.get("properties", {}):
                    node = None
                    break
                node = node["properties"][part]
            if node is None:
                continue
            problems = list(jsonschema.Draft7Validator(node).iter_errors(value))
            if problems:
                worst = problems[0]
                return f"declared only by the vendor recording {source}, whose value here differs: " \
                       f"{worst.message} at {pointer(list(worst.absolute_path)) or '/'}"
            self.recorded_ok += 1
            if self.verbose:
                print(f"  recorded {system} {route} {ptr}: as in {source}")
            return ""
        return None

    def violation(self, system, route, ptr, message):
        generic = re.sub(r"/\d+(?=/|$)", "/*", ptr)
        for i, entry in enumerate(self.allow):
            if entry["system"] != system:
                continue
            if not re.search(entry["route"], route):
                continue
            if not fnmatch.fnmatchcase(generic, entry["pointer"]):
                continue
            self.used.add(i)
            self.allowed += 1
            if self.verbose:
                print(f"  allowed  {system} {route} {ptr or '/'}: {message} [{entry['reason']}]")
            return
        self.failures.append(f"{system}: {route}\n    at {ptr or '/'}: {message}")

    def validate(self, system, route, body, schema, *, root_ptr=""):
        self.checked += 1
        validator = jsonschema.Draft7Validator(schema)
        for error in sorted(validator.iter_errors(body), key=lambda e: list(map(str, e.absolute_path))):
            self._error(system, route, error, root_ptr)
        if self.verbose:
            print(f"  checked  {system} {route}")

    def _error(self, system, route, error, root_ptr):
        base = root_ptr + pointer(list(error.absolute_path))
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            declared = set(error.schema.get("properties", {}))
            patterns = error.schema.get("patternProperties", {})
            for key in sorted(error.instance):
                if key in declared or any(re.search(p, key) for p in patterns):
                    continue
                recorded = self._recorded(system, route, base + "/" + key, error.instance[key])
                if recorded == "":
                    continue
                if recorded:
                    self.violation(system, route, base + "/" + key, recorded)
                    continue
                self.violation(system, route, base + "/" + key,
                               f"property \"{key}\" is not declared by the vendor schema "
                               f"(declared: {', '.join(sorted(declared)) or 'none'})")
            return
        if error.validator in ("anyOf", "oneOf") and error.context:
            best = jsonschema.exceptions.best_match(error.context)
            self._error(system, route, best, root_ptr)
            return
        self.violation(system, route, base, f"{error.message} (schema: {error.validator} {short(error.validator_value)})")

    def fail(self, system, route, message):
        self.failures.append(f"{system}: {route}\n    {message}")


def short(value):
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "..."


# ---------------------------------------------------------------------------------------------
# Simulator processes and HTTP


class Sim:
    def __init__(self, binary, kind, args, tmp):
        self.kind = kind
        self.out_path = os.path.join(tmp, f"{kind}.out")
        self.ca = os.path.join(tmp, f"{kind}-ca.pem")
        with open(self.out_path, "w") as out:
            env = dict(os.environ, LANG="C", LC_ALL="C", QT_QPA_PLATFORM="offscreen")
            self.proc = subprocess.Popen([binary, kind, "--port", "0", "--cert-out", self.ca] + args,
                                         stdout=out, stderr=subprocess.STDOUT, env=env)
        self.text = ""
        deadline = time.time() + 60
        while "Press Ctrl+C" not in self.text:
            if self.proc.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"strata-sim {kind} did not start:\n{self.read()}")
            time.sleep(0.1)
            self.text = self.read()
        ctx = ssl.create_default_context(cafile=self.ca)
        ctx.check_hostname = False
        self.ctx = ctx

    def read(self):
        with open(self.out_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def line(self, pattern):
        m = re.search(pattern, self.text)
        if not m:
            raise RuntimeError(f"strata-sim {self.kind}: no line matching {pattern!r} in\n{self.text}")
        return m.group(1)

    def request(self, method, url, *, headers=None, body=None, stream_seconds=None):
        data = None
        hdrs = dict(headers or {})
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            hdrs.setdefault("Content-Type", "application/json")
        req = urllib.request.Request(url, data=data, method=method, headers=hdrs)
        try:
            resp = urllib.request.urlopen(req, context=self.ctx, timeout=30)
            status, rheaders, raw = resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as e:
            status, rheaders, raw = e.code, e.headers, e.read()
        return status, rheaders, raw

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def parse_json(report, system, route, raw):
    try:
        return json.loads(raw)
    except ValueError as e:
        report.fail(system, route, f"answer is not JSON ({e}): {raw[:200]!r}")
        return None


# ---------------------------------------------------------------------------------------------
# ONTAP


def add_ontap_recordings(report):
    """Real ONTAP answers (tests/fixtures/ontap/recorded/, see its PROVENANCE.md) declare the fields
    newer than the 9.6 Swagger that they carry."""
    rec = os.path.join(FIXTURES, "ontap", "recorded")
    with open(os.path.join(rec, "volumes.json"), encoding="utf-8") as f:
        volume = shape_of(json.load(f)["records"])["items"]
    with open(os.path.join(rec, "cluster.json"), encoding="utf-8") as f:
        cluster = shape_of(json.load(f))
    # A collection's records and a single object share the record shape.
    report.add_recording("ontap", r"GET /api/storage/volumes(\?|\s|/[^/?]+(\?|\s))", r"(/records/\d+)?", volume,
                         "ontap/recorded/volumes.json")
    report.add_recording("ontap", r"GET /api/cluster[?\s]", r"", cluster, "ontap/recorded/cluster.json")


def check_ontap(binary, tmp, report):
    spec = SwaggerSet(os.path.join(FIXTURES, "ontap", "swagger-9.6-subset.json"), drop_required=True)
    add_ontap_recordings(report)
    password = "conformance-Pw1"
    sim = Sim(binary, "ontap", ["--demo", "--password", password, "--page-cap", "60"], tmp)
    try:
        base = sim.line(r"listening on (\S+)/api")
        import base64
        auth = {"Authorization": "Basic " + base64.b64encode(f"admin:{password}".encode()).decode(),
                "Accept": "application/hal+json"}

        def get(path, *, headers=None, expect=None):
            status, _, raw = sim.request("GET", base + path, headers=headers or auth)
            route = f"GET {path} -> {status}"
            body = parse_json(report, "ontap", route, raw)
            if body is None:
                return None
            if expect is not None and status != expect:
                report.fail("ontap", route, f"expected HTTP {expect}")
            check(path, status, body, route)
            return body

        def check(path, status, body, route):
            api_path = urllib.parse.urlsplit(path).path
            assert api_path.startswith("/api")
            template, ref = spec.response_ref(api_path[4:], status)
            if ref is None:
                report.fail("ontap", route, f"no Swagger response schema for {api_path} (template {template})")
                return
            report.validate("ontap", route, body, spec.schema_for(ref))

        get("/api/cluster?fields=**")
        for collection in ("/api/cluster/nodes", "/api/svm/svms", "/api/storage/aggregates",
                           "/api/storage/flexcache/flexcaches", "/api/storage/flexcache/origins",
                           "/api/storage/qos/policies"):
            get(collection)
            page = get(collection + "?fields=**")
            if page and page.get("records"):
                get(f"{collection}/{page['records'][0]['uuid']}?fields=**")
                get(f"{collection}/{page['records'][0]['uuid']}")
        get("/api/storage/volumes")
        get("/api/storage/volumes?fields=*")
        volumes = []
        path = "/api/storage/volumes?fields=**&max_records=40"
        while path:
            page = get(path)
            if not page:
                break
            volumes += page.get("records", [])
            path = page.get("_links", {}).get("next", {}).get("href")
        by_name = {v.get("name"): v for v in volumes}
        for name in ("chest_xray", "imagenet", "mnist_legacy", "chest_xray_exp42", "imagenet_cache"):
            v = by_name.get(name)
            if not v:
                report.fail("ontap", "GET /api/storage/volumes", f"demo volume {name} missing")
                continue
            get(f"/api/storage/volumes/{v['uuid']}")
            get(f"/api/storage/volumes/{v['uuid']}?fields=**")
        chest = by_name.get("chest_xray")
        if chest:
            for interval in ("1h", "1d"):
                get(f"/api/storage/volumes/{chest['uuid']}/metrics?interval={interval}&fields=**")
            snaps = get(f"/api/storage/volumes/{chest['uuid']}/snapshots?fields=**")
            get(f"/api/storage/volumes/{chest['uuid']}/snapshots")
            if snaps and snaps.get("records"):
                get(f"/api/storage/volumes/{chest['uuid']}/snapshots/{snaps['records'][0]['uuid']}?fields=**")
            # A mutation: the 202 job link, then the job itself while queued/running and when done.
            status, _, raw = sim.request("POST", f"{base}/api/storage/volumes/{chest['uuid']}/snapshots",
                                         headers=auth, body={"name": "conformance_snap"})
            route = f"POST /api/storage/volumes/{{uuid}}/snapshots -> {status}"
            link = parse_json(report, "ontap", route, raw)
            if link is not None:
                if status != 202:
                    report.fail("ontap", route, "expected 202 with a job link")
                report.validate("ontap", route, link, spec.schema_for("#/definitions/job_link_response"))
                job = link.get("job", {}).get("uuid")
                if job:
                    get(f"/api/cluster/jobs/{job}?fields=**")
                    deadline = time.time() + 20
                    while time.time() < deadline:
                        j = get(f"/api/cluster/jobs/{job}?fields=**")
                        if not j or j.get("state") in ("success", "failure"):
                            break
                        time.sleep(0.5)
            get("/api/cluster/jobs?fields=**")
        get("/api/support/ems/events?fields=**&max_records=200")
        get("/api/support/ems/events?max_records=5")
        # Errors: ONTAP's error_response for each kind the connectors handle.
        get("/api/storage/volumes/00000000-0000-0000-0000-000000000000", expect=404)
        get("/api/storage/volumes?fields=no_such_field", expect=400)
        get("/api/storage/volumes?no_such_argument=1", expect=400)
        get("/api/cluster/jobs/00000000-0000-0000-0000-000000000000", expect=404)
        import base64 as b64
        bad = {"Authorization": "Basic " + b64.b64encode(b"admin:wrong").decode()}
        status, _, raw = sim.request("GET", base + "/api/cluster", headers=bad)
        route = f"GET /api/cluster (bad credentials) -> {status}"
        body = parse_json(report, "ontap", route, raw)
        if body is not None:
            report.validate("ontap", route, body, spec.schema_for("#/definitions/error_response"))
    finally:
        sim.stop()


# ---------------------------------------------------------------------------------------------
# Kubernetes

K8S_CRDS = {
    "scheduling.run.ai": {"queues": "kai/scheduling.run.ai_queues.yaml",
                          "podgroups": "kai/scheduling.run.ai_podgroups.yaml"},
    "snapshot.storage.k8s.io": {"volumesnapshots": "kubernetes-openapi/crds/snapshot.storage.k8s.io_volumesnapshots.yaml"},
}
META = "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1."


def check_kubernetes(binary, tmp, report):
    spec = SwaggerSet(os.path.join(FIXTURES, "kubernetes-openapi", "kubernetes-1.34-subset.json"))
    # metav1.Time and MicroTime marshal their zero value as JSON null (apimachinery
    # pkg/apis/meta/v1/time.go MarshalJSON), so a real server sends e.g. "lastProbeTime": null.
    for name in ("Time", "MicroTime"):
        spec.defs["io.k8s.apimachinery.pkg.apis.meta.v1." + name]["type"] = ["string", "null"]
    token = "conformance-token"
    sim = Sim(binary, "kubernetes", ["--preset", "dgx", "--token", token, "--prometheus-port", "0",
                                     "--kubeconfig-out", os.path.join(tmp, "kubeconfig")], tmp)
    try:
        base = sim.line(r"listening on (https://\S+)")
        auth = {"Authorization": f"Bearer {token}", "Accept": "application/json"}

        def fetch(path, headers=None):
            status, _, raw = sim.request("GET", base + path, headers=headers or auth)
            route = f"GET {path} -> {status}"
            return status, route, parse_json(report, "kubernetes", route, raw)

        def builtin(path, expect=200):
            status, route, body = fetch(path)
            if body is None:
                return None
            if status != expect:
                report.fail("kubernetes", route, f"expected HTTP {expect}")
            if status >= 400:
                report.validate("kubernetes", route, body, spec.schema_for(META + "Status"))
                return body
            template, ref = spec.response_ref(urllib.parse.urlsplit(path).path, status)
            if ref is None:
                report.fail("kubernetes", route, f"no OpenAPI response schema for this path (template {template})")
                return body
            report.validate("kubernetes", route, body, spec.schema_for(ref))
            return body

        def custom_schema(group, version, plural):
            crd_file = K8S_CRDS.get(group, {}).get(plural)
            if not crd_file:
                return None, f"no vendor CRD for {group}/{plural} in tests/fixtures"
            crd, schema = crd_schema(os.path.join(FIXTURES, crd_file), version)
            if schema is None:
                served = [v["name"] for v in crd["spec"]["versions"] if v.get("served", True)]
                return None, f"the vendor CRD serves {plural}.{group} only in {', '.join(served)}, not {version}"
            # The API server fills metadata from ObjectMeta, whatever the CRD says about it.
            schema = copy.deepcopy(schema)
            schema.setdefault("properties", {})["metadata"] = {"$ref": META + "ObjectMeta"}
            return {"definitions": spec.defs, **schema}, None

        def custom(path, group, version, plural, single):
            status, route, body = fetch(path)
            if body is None:
                return None
            schema, problem = custom_schema(group, version, plural)
            if problem:
                report.violation("kubernetes", route, "", problem)
                return body
            if status != 200:
                report.fail("kubernetes", route, "expected HTTP 200")
                return body
            if single:
                report.validate("kubernetes", route, body, schema)
            else:
                list_schema = {"definitions": spec.defs, "type": "object", "additionalProperties": False,
                               "required": ["items"],
                               "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
                                              "metadata": {"$ref": META + "ListMeta"},
                                              "items": {"type": "array", "items": {k: v for k, v in schema.items() if k != "definitions"}}}}
                report.validate("kubernetes", route, body, list_schema)
            return body

        builtin("/version")
        builtin("/api")
        builtin("/apis")
        groups = builtin("/apis") or {}
        versions = [("", "v1", "/api/v1")]
        for g in groups.get("groups", []):
            if g["name"] in ("batch", "storage.k8s.io"):
                builtin(f"/apis/{g['name']}")
            else:
                status, route, body = fetch(f"/apis/{g['name']}")
                if body is not None:
                    report.validate("kubernetes", route, body, spec.schema_for(META + "APIGroup"))
            for v in g.get("versions", []):
                versions.append((g["name"], v["version"], f"/apis/{g['name']}/{v['version']}"))
        served = {}
        for group, version, prefix in versions:
            status, route, body = fetch(prefix)
            if body is None:
                continue
            report.validate("kubernetes", route, body, spec.schema_for(META + "APIResourceList"))
            for r in body.get("resources", []):
                if "/" in r["name"] or "list" not in r.get("verbs", []):
                    continue
                served[(group, version, r["name"])] = r
                is_builtin = group in ("", "batch", "storage.k8s.io")
                lst = f"{prefix}/{r['name']}"
                items = (builtin(lst) if is_builtin else custom(lst, group, version, r["name"], False)) or {}
                first = (items.get("items") or [None])[0]
                if not first:
                    continue
                meta = first.get("metadata", {})
                one = (f"{prefix}/namespaces/{meta.get('namespace')}/{r['name']}/{meta.get('name')}" if r.get("namespaced")
                       else f"{prefix}/{r['name']}/{meta.get('name')}")
                if is_builtin:
                    builtin(one)
                else:
                    custom(one, group, version, r["name"], True)
        # The vendor's KAI CRDs: podgroups exist only as scheduling.run.ai/v2alpha2, queues only as v2.
        if ("scheduling.run.ai", "v2", "podgroups") in served:
            report.violation("kubernetes", "GET /apis/scheduling.run.ai/v2 (podgroups)", "/resources/podgroups",
                             "podgroups served in scheduling.run.ai/v2; the KAI CRD serves them only in v2alpha2")
        if ("scheduling.run.ai", "v2alpha2", "podgroups") not in served:
            report.fail("kubernetes", "GET /apis/scheduling.run.ai/v2alpha2", "podgroups not served in v2alpha2 (the KAI CRD's version)")
        # Paging: a continued list keeps the ListMeta shape.
        page = builtin("/api/v1/pods?limit=2") or {}
        cont = page.get("metadata", {}).get("continue")
        if cont:
            builtin("/api/v1/pods?limit=2&continue=" + urllib.parse.quote(cont))
        # Watch: every line a WatchEvent whose object is the watched kind (or a Status for ERROR).
        watch_path = "/api/v1/pods?watch=1&timeoutSeconds=1&allowWatchBookmarks=true"
        status, _, raw = sim.request("GET", base + watch_path, headers=auth)
        lines = [l for l in raw.decode(errors="replace").splitlines() if l.strip()]
        if status != 200 or not lines:
            report.fail("kubernetes", f"GET {watch_path} -> {status}", "expected a 200 stream of watch events")
        pod_ref = "#/definitions/io.k8s.api.core.v1.Pod"
        for i, l in enumerate(lines[:200]):
            route = f"WATCH {watch_path} event {i}"
            ev = parse_json(report, "kubernetes", route, l)
            if ev is None:
                continue
            report.validate("kubernetes", route, ev, spec.schema_for(META + "WatchEvent"))
            if isinstance(ev.get("object"), dict):
                report.validate("kubernetes", route, ev["object"],
                                spec.schema_for(META + "Status" if ev.get("type") == "ERROR" else pod_ref),
                                root_ptr="/object")
        # Status errors.
        builtin("/api/v1/namespaces/default/pods/no-such-pod", expect=404)
        builtin("/api/v1/pods?fieldSelector=spec.noSuchField%3Dx", expect=400)
        status, route, body = fetch("/api/v1/pods", headers={"Accept": "application/json"})
        if body is not None:
            if status != 401:
                report.fail("kubernetes", route + " (no token)", "expected HTTP 401")
            report.validate("kubernetes", route + " (no token)", body, spec.schema_for(META + "Status"))
        status, _, raw = sim.request("GET", base + "/api/v1/pods?watch=1&resourceVersion=1&timeoutSeconds=1", headers=auth)
        for i, l in enumerate([l for l in raw.decode(errors="replace").splitlines() if l.strip()][:5]):
            route = f"WATCH /api/v1/pods?resourceVersion=1 event {i}"
            ev = parse_json(report, "kubernetes", route, l)
            if ev is not None:
                report.validate("kubernetes", route, ev, spec.schema_for(META + "WatchEvent"))
                if ev.get("type") == "ERROR":
                    report.validate("kubernetes", route, ev.get("object"), spec.schema_for(META + "Status"), root_ptr="/object")
    finally:
        sim.stop()


# ---------------------------------------------------------------------------------------------
# Azure Resource Manager (Microsoft.NetApp)


AZURE_SCHEMA = os.path.join(FIXTURES, "azure", "schemas", "netapp-2025-06-01-subset.json")


def flatten_allof(defs):
    """Swagger composes ARM resources with allOf (Volume = its own properties + TrackedResource +
    Resource). Draft 7 cannot reject undeclared properties across an allOf, so the referenced
    definitions' properties and required lists are merged into the definition itself."""
    done = {}

    def flat(name):
        if name in done:
            return done[name]
        d = copy.deepcopy(defs[name])
        for part in d.pop("allOf", []):
            ref = part.get("$ref", "")
            if not ref.startswith("#/definitions/") or set(part) != {"$ref"}:
                raise ValueError(f"{name}: allOf part {part} is not a local $ref")
            base = flat(ref[len("#/definitions/"):])
            d["properties"] = {**base.get("properties", {}), **d.get("properties", {})}
            d["required"] = sorted(set(base.get("required", [])) | set(d.get("required", [])))
            if not d["required"]:
                del d["required"]
        done[name] = d
        return d

    return {name: flat(name) for name in defs}


def azure_schemas():
    with open(AZURE_SCHEMA, encoding="utf-8") as f:
        defs = openapi_to_jsonschema(flatten_allof(json.load(f)["definitions"]))
    return lambda name: {"definitions": defs, "$ref": "#/definitions/" + name}


def check_azure_examples(report, schema):
    """The published examples must satisfy the extracted definitions: a transcription slip in
    the extracted subset shows up here, not as a simulator defect."""
    for example, code, name in (("Accounts_List", "200", "NetAppAccountList"), ("Pools_List", "200", "CapacityPoolList"),
                                ("Volumes_List", "200", "VolumeList"), ("Volumes_Get", "200", "Volume"),
                                ("Snapshots_List", "200", "SnapshotsList"), ("Snapshots_Create", "201", "Snapshot")):
        with open(os.path.join(FIXTURES, "azure", example + ".json"), encoding="utf-8") as f:
            body = json.load(f)["responses"][code]["body"]
        report.validate("azure", f"vendor example {example}.json ({code})", body, schema(name))


def check_azure(binary, tmp, report):
    schema = azure_schemas()
    check_azure_examples(report, schema)
    secret = "conformance-secret"
    sim = Sim(binary, "azure", ["--preset", "ailab", "--client-secret", secret, "--lro-ms", "300"], tmp)
    try:
        base = sim.line(r"listening on (https://\S+)").rstrip("/")
        authority = sim.line(r"Authority: (\S+)")
        client = sim.line(r"Client id: (\S+)")
        sub = sim.line(r"Subscription: (\S+)")
        form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": client, "client_secret": secret,
                                       "scope": base + "/.default"}).encode()
        status, _, raw = sim.request("POST", authority + "/oauth2/v2.0/token", body=form,
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
        token = json.loads(raw)["access_token"]
        auth = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        api = "api-version=2025-06-01"
        rg = f"/subscriptions/{sub}/resourceGroups/ai-lab-rg/providers/Microsoft.NetApp"

        def get(path, definition, expect=200):
            url = path if path.startswith("http") else base + path
            url += ("&" if "?" in url else "?") + api if "api-version" not in url else ""
            status, headers, raw = sim.request("GET", url, headers=auth)
            route = f"GET {urllib.parse.urlsplit(url).path} -> {status}"
            body = parse_json(report, "azure", route, raw)
            if body is None:
                return None
            if status != expect:
                report.fail("azure", route, f"expected HTTP {expect}")
            report.validate("azure", route, body, schema(definition))
            return body

        get(f"/subscriptions/{sub}/providers/Microsoft.NetApp/netAppAccounts", "NetAppAccountList")
        get(f"{rg}/netAppAccounts", "NetAppAccountList")
        acct = f"{rg}/netAppAccounts/anf-ai-lab"
        get(acct, "NetAppAccount")
        pools = get(f"{acct}/capacityPools", "CapacityPoolList") or {}
        for p in pools.get("value", []):
            get(p["id"] if p["id"].startswith("/") else acct, "CapacityPool")
        pool = f"{acct}/capacityPools/pool-standard"
        vols = get(f"{pool}/volumes", "VolumeList") or {}
        for v in vols.get("value", []):
            get(v["id"], "Volume")
            snaps = get(v["id"] + "/snapshots", "SnapshotsList") or {}
            for s in snaps.get("value", [])[:1]:
                get(s["id"], "Snapshot")
        get(f"{pool}/volumes/no-such-volume", "common-v6.ErrorResponse", expect=404)
        get(f"/subscriptions/{sub}/resourceGroups/no-such-rg/providers/Microsoft.NetApp/netAppAccounts",
            "common-v6.ErrorResponse", expect=404)
        # A long-running operation: the 201 Snapshot body, then the Azure-AsyncOperation status.
        vol = (vols.get("value") or [{}])[0].get("id")
        if vol:
            url = f"{base}{vol}/snapshots/conformance-snap?{api}"
            status, headers, raw = sim.request("PUT", url, headers=auth, body={"location": "eastus"})
            route = f"PUT {vol}/snapshots/{{name}} -> {status}"
            body = parse_json(report, "azure", route, raw)
            if body is not None:
                report.validate("azure", route, body, schema("Snapshot"))
            op = headers.get("Azure-AsyncOperation")
            if not op:
                report.fail("azure", route, "no Azure-AsyncOperation header (the Snapshots_Create example has one)")
            else:
                deadline = time.time() + 20
                while time.time() < deadline:
                    s = get(op, "common-v6.OperationStatusResult")
                    if not s or s.get("status") not in ("InProgress", "Creating", "Deleting", "Updating", "Accepted"):
                        break
                    time.sleep(0.2)
    finally:
        sim.stop()


# ---------------------------------------------------------------------------------------------
# StorageGRID (management API)


def storagegrid_shapes():
    with open(os.path.join(FIXTURES, "storagegrid", "accounts-cache.json"), encoding="utf-8") as f:
        recorded = json.load(f)
    envelope = shape_of({k: v for k, v in recorded.items() if k != "data"})
    # "deprecated" is in the API's response envelope (Response model), absent from this recording.
    envelope["properties"]["deprecated"] = {"type": "boolean"}
    account_cached = shape_of(recorded["data"])["items"]
    return envelope, account_cached


def check_storagegrid(binary, tmp, report):
    password = "conformance-Pw1"
    sim = Sim(binary, "storagegrid", ["--preset", "datalake", "--password", password], tmp)
    try:
        base = sim.line(r"Management API: (\S+)/api/v4")
        status, _, raw = sim.request("POST", base + "/api/v4/authorize",
                                     body={"username": "root", "password": password, "cookie": False, "csrfToken": False})
        token = json.loads(raw)["data"]
        auth = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        envelope, account_cached = storagegrid_shapes()

        def get(path, data_schema=None):
            status, _, raw = sim.request("GET", base + path, headers=auth)
            route = f"GET {path} -> {status}"
            body = parse_json(report, "storagegrid", route, raw)
            if body is None:
                return None
            if status != 200:
                report.fail("storagegrid", route, "expected HTTP 200")
                return body
            schema = copy.deepcopy(envelope)
            schema["properties"]["data"] = data_schema or {}
            report.validate("storagegrid", route, body, schema)
            return body

        get("/api/v4/grid/accounts-cache", {"type": "array", "items": account_cached})
        get("/api/v3/grid/accounts-cache", {"type": "array", "items": account_cached})
        # The plain account list: the same account fields without the cached usage.
        plain = copy.deepcopy(account_cached)
        for k in ("objectCount", "dataBytes"):
            plain["properties"].pop(k)
        accounts = get("/api/v4/grid/accounts?limit=25", {"type": "array", "items": plain}) or {}
        for path in ("/api/v4/grid/health", "/api/v4/grid/alerts", "/api/v4/grid/alert-history?limit=100",
                     "/api/v4/grid/node-health"):
            get(path)  # envelope only: no recorded body of these yet (see the simulator README)
        for a in (accounts.get("data") or [])[:1]:
            get(f"/api/v4/grid/accounts/{a['id']}", plain)
            get(f"/api/v4/grid/accounts/{a['id']}/usage?includeBucketDetail=true")
    finally:
        sim.stop()


# ---------------------------------------------------------------------------------------------


CHECKS = {"ontap": check_ontap, "kubernetes": check_kubernetes, "azure": check_azure, "storagegrid": check_storagegrid}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", required=True, help="path of the strata-sim binary")
    ap.add_argument("--only", default=",".join(CHECKS), help="comma-separated systems")
    ap.add_argument("--allowlist", default=os.path.join(HERE, "allowlist.yaml"))
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    with open(a.allowlist, encoding="utf-8") as f:
        allow = yaml.safe_load(f) or []
    for entry in allow:
        missing = {"system", "route", "pointer", "reason"} - set(entry)
        if missing:
            sys.exit(f"allowlist entry {entry} lacks {', '.join(sorted(missing))}")
    report = Report(allow, a.verbose)
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="strata-conformance-") as tmp:
        for system in a.only.split(","):
            t = time.time()
            try:
                CHECKS[system](a.sim, tmp, report)
            except Exception as e:  # a simulator that does not start or answer is a failure, not a crash
                report.fail(system, "(runner)", f"{type(e).__name__}: {e}")
            print(f"{system}: done in {time.time() - t:.1f} s")
    for i, entry in enumerate(allow):
        if i not in report.used and entry["system"] in a.only.split(","):
            print(f"note: allow-list entry no longer needed (remove it): {entry['system']} {entry['route']} {entry['pointer']}")
    print(f"{report.checked} bodies checked, {report.recorded_ok} fields declared by vendor recordings, "
          f"{report.allowed} allow-listed deviations, "
          f"{len(report.failures)} violations, {time.time() - started:.1f} s")
    for f in report.failures:
        print("VIOLATION " + f)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
