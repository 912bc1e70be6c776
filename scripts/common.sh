# Shared by the scripts in this folder: locate the repository and check the toolchain.
# Source it; it sets ROOT and puts ~/.cargo/bin on PATH.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
export PATH="$HOME/.cargo/bin:$PATH"

require() { # require COMMAND HINT
  command -v "$1" >/dev/null 2>&1 || { echo "error: '$1' not found: $2" >&2; exit 1; }
}

require_toolchain() {
  require cargo "install Rust 1.90 or newer (https://rustup.rs)"
  require cc "install a C compiler (apt-get install build-essential); librdkafka is built from source"
  require make "install make (apt-get install build-essential)"
  require java "install a JDK 17 or newer (apt-get install openjdk-17-jdk-headless)"
  require mvn "install Apache Maven 3.8 or newer (apt-get install maven)"
}

# Starts the local broker unless one answers; sets BROKER_STARTED_HERE=1 when this script started it.
start_broker() {
  BROKER_STARTED_HERE=0
  if ! "$ROOT/kafka/broker" status >/dev/null 2>&1; then
    "$ROOT/kafka/broker" start
    BROKER_STARTED_HERE=1
  fi
}
