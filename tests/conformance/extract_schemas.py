#!/usr/bin/env python3
"""Extracts the parts of the vendors' published API descriptions that the conformance runner needs
into tests/fixtures/, so no test reads anything outside the repository.

Run by hand when a source changes (not at build or test time):
    tests/conformance/extract_schemas.py --ontap-swagger ontap-9.6-swagger.yaml \
        --kubernetes-openapi kubernetes-1.34-openapi-v2.json --out tests/fixtures

Sources (see tests/fixtures/*/PROVENANCE.md):
  ONTAP 9.6 Swagger 2.0: dwj300/go-ontap @ b6b4d691a53f2948b016fc06a4993cd222ec459c, netapp.yaml (MIT)
  Kubernetes 1.34 OpenAPI v2: kubernetes-client/c @ edf13194dbd50792b8ac8132d1ed7c191cecabd0,
      kubernetes/swagger.json.unprocessed (Apache-2.0)

Kept: the GET paths below with their response schemas, and every definition they reach through
$ref (transitively). Dropped: descriptions and examples (size), everything else unchanged.
"""
import argparse
import json
import os
import re

import yaml

ONTAP_PATHS = [
    "/cluster", "/cluster/nodes", "/cluster/nodes/{uuid}", "/cluster/jobs", "/cluster/jobs/{uuid}",
    "/svm/svms", "/svm/svms/{uuid}", "/storage/aggregates", "/storage/aggregates/{uuid}",
    "/storage/volumes", "/storage/volumes/{uuid}", "/storage/volumes/{uuid}/metrics",
    "/storage/volumes/{volume.uuid}/snapshots", "/storage/volumes/{volume.uuid}/snapshots/{uuid}",
    "/storage/flexcache/flexcaches", "/storage/flexcache/flexcaches/{uuid}",
    "/storage/flexcache/origins", "/storage/flexcache/origins/{uuid}",
    "/storage/qos/policies", "/storage/qos/policies/{policy.uuid}", "/support/ems/events",
]
ONTAP_EXTRA_DEFINITIONS = ["job_link_response", "error_response"]

# Kubernetes: discovery and the kinds the simulator serves (core, batch, storage.k8s.io).
K8S_PATH_RE = re.compile(
    r"^/(version/|api/|api/v1/|apis/|apis/(batch|storage\.k8s\.io)/(v1/)?"
    r"|api/v1/(namespaces|nodes|pods|events|resourcequotas|persistentvolumeclaims|persistentvolumes|configmaps|secrets)"
    r"|api/v1/namespaces/\{namespace\}/(pods|events|resourcequotas|persistentvolumeclaims|configmaps|secrets)(/\{name\}(/status)?)?"
    r"|api/v1/(namespaces|nodes|persistentvolumes)/\{name\}(/status)?"
    r"|apis/batch/v1/jobs|apis/batch/v1/namespaces/\{namespace\}/jobs(/\{name\}(/status)?)?"
    r"|apis/storage\.k8s\.io/v1/storageclasses(/\{name\})?)$")
K8S_EXTRA_DEFINITIONS = [
    "io.k8s.apimachinery.pkg.apis.meta.v1.Status", "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent",
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
]


class Yaml12Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """YAML 1.2 booleans only: the Swagger's enums hold the strings "on" and "off" (quota.state,
    autosize.mode), which YAML 1.1 would turn into true/false."""


Yaml12Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def strip(node):
    if isinstance(node, dict):
        return {k: strip(v) for k, v in node.items() if k not in ("description", "example")}
    if isinstance(node, list):
        return [strip(v) for v in node]
    return node


def refs(node, out):
    if isinstance(node, dict):
        r = node.get("$ref")
        if isinstance(r, str) and r.startswith("#/definitions/"):
            out.add(r[len("#/definitions/"):])
        for v in node.values():
            refs(v, out)
    elif isinstance(node, list):
        for v in node:
            refs(v, out)


def closure(definitions, roots):
    todo, seen = list(roots), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        found = set()
        refs(definitions[name], found)
        todo.extend(found - seen)
    return {k: strip(definitions[k]) for k in sorted(seen)}


def subset(spec, paths, extra, provenance):
    kept_paths = {}
    for p in paths:
        get = spec["paths"][p].get("get")
        if not get:
            continue
        kept_paths[p] = {"get": {"responses": {
            code: {"schema": r["schema"]} for code, r in get["responses"].items() if isinstance(r, dict) and "schema" in r}}}
    roots = set(extra)
    refs(kept_paths, roots)
    return {"x-strata-provenance": provenance, "swagger": "2.0", "paths": kept_paths,
            "definitions": closure(spec["definitions"], roots)}


def write(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{path}: {len(doc['paths'])} paths, {len(doc['definitions'])} definitions")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ontap-swagger", required=True)
    ap.add_argument("--kubernetes-openapi", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    with open(a.ontap_swagger, encoding="utf-8") as f:
        ontap = yaml.load(f, Loader=Yaml12Loader)
    write(os.path.join(a.out, "ontap", "swagger-9.6-subset.json"),
          subset(ontap, ONTAP_PATHS, ONTAP_EXTRA_DEFINITIONS,
                 "ONTAP 9.6 REST API Swagger 2.0 (NetApp), from dwj300/go-ontap @ "
                 "b6b4d691a53f2948b016fc06a4993cd222ec459c netapp.yaml (MIT); subset by "
                 "tests/conformance/extract_schemas.py"))
    with open(a.kubernetes_openapi, encoding="utf-8") as f:
        k8s = json.load(f)
    paths = sorted(p for p in k8s["paths"] if K8S_PATH_RE.match(p))
    write(os.path.join(a.out, "kubernetes-openapi", "kubernetes-1.34-subset.json"),
          subset(k8s, paths, K8S_EXTRA_DEFINITIONS,
                 "Kubernetes 1.34 OpenAPI v2, from kubernetes-client/c @ "
                 "edf13194dbd50792b8ac8132d1ed7c191cecabd0 kubernetes/swagger.json.unprocessed "
                 "(Apache-2.0); subset by tests/conformance/extract_schemas.py"))


if __name__ == "__main__":
    main()
