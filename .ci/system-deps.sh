#!/usr/bin/env bash
# Install the system packages Arboretum needs when they are missing: `graphviz` (the `dot`
# binary), `chromium` (the browser the end-to-end tests drive), `haproxy` (the load balancer
# in front of `make replicas` and the deploy tests) and `redis` (the class store `make replicas`
# shares between its replicas, and the store's tests). Idempotent.
set -euo pipefail

need=()
for what in "$@"; do
  case "$what" in
    graphviz) command -v dot >/dev/null 2>&1 || need+=(graphviz) ;;
    chromium) test -x /usr/bin/chromium || need+=(chromium fonts-dejavu-core) ;;
    haproxy) command -v haproxy >/dev/null 2>&1 || test -x /usr/sbin/haproxy || need+=(haproxy) ;;
    redis) command -v redis-server >/dev/null 2>&1 || test -x /usr/bin/redis-server || need+=(redis-server) ;;
    *) echo "system-deps: unknown package group '$what'" >&2; exit 2 ;;
  esac
done
[ ${#need[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: please install ${need[*]} with your system's package manager" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
    echo "system-deps: run 'sudo apt-get install -y ${need[*]}' (needs root)" >&2; exit 1
  fi
fi
echo "system-deps: installing ${need[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
