# Builds the pinned Gitea server for the real-server tests (tests/giteareal)
# from its Go module, once per version, into build/gitea/VERSION/gitea.
# Sourced by scripts/test; `bash scripts/gitea.sh` builds it alone.
#
# `go install code.gitea.io/gitea@VERSION` refuses the module (its go.mod has
# replace directives), so the module is downloaded from the Go module proxy,
# copied out of the read-only module cache and built in place with SQLite.
gitea_version=v1.27.3

# gitea_source prints the module's directory in the (read-only) module
# cache, downloading it from the Go module proxy when missing.
gitea_source() {
  local src
  src=$(cd /tmp && GOFLAGS=-mod=mod go mod download -json "code.gitea.io/gitea@$gitea_version" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  if [ -z "$src" ] || [ ! -d "$src" ]; then
    echo "scripts/gitea.sh: go mod download of code.gitea.io/gitea@$gitea_version gave no directory" >&2
    return 1
  fi
  echo "$src"
}

# build_gitea prints the binary's path, building it first when missing.
# Built without the bindata tag (that needs generated files the module
# does not ship), Gitea reads its options and templates from
# STATIC_ROOT_PATH: they are copied beside the binary.
build_gitea() {
  local dir="build/gitea/$gitea_version"
  local bin="$dir/gitea"
  local src
  if [ -x "$bin" ] && [ -d "$dir/options" ] && [ -d "$dir/templates" ]; then
    echo "$PWD/$bin"
    return 0
  fi
  src=$(gitea_source) || return 1
  mkdir -p "$dir"
  for assets in options templates; do
    if [ ! -d "$dir/$assets" ]; then
      cp -r "$src/$assets" "$dir/$assets.tmp"
      chmod -R u+w "$dir/$assets.tmp"
      mv "$dir/$assets.tmp" "$dir/$assets"
    fi
  done
  if [ ! -x "$bin" ]; then
    local work="$dir/src"
    rm -rf "$work"
    cp -r "$src" "$work"
    chmod -R u+w "$work"
    echo "building Gitea $gitea_version (a few minutes, once per version)" >&2
    local started=$SECONDS
    (cd "$work" && GOFLAGS= CGO_ENABLED=1 nice go build -tags 'sqlite sqlite_unlock_notify' \
      -ldflags "-X main.Version=${gitea_version#v}" -o ../gitea.tmp .) >&2
    mv "$dir/gitea.tmp" "$bin"
    rm -rf "$work"
    echo "built Gitea $gitea_version in $((SECONDS - started))s" >&2
  fi
  echo "$PWD/$bin"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  cd "$(dirname "$0")/.."
  build_gitea
fi
