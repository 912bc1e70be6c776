#!/usr/bin/env bash
# Runs the cargo-fuzz targets of fuzz/ (docs/reliability.md, "Fuzzing"): builds them once under
# AddressSanitizer (nightly), then runs each for FUZZ_SECONDS from its seeds (fuzz/seeds/TARGET) and its
# working corpus (fuzz/corpus/TARGET, git-ignored, kept between runs), and prints per target the executions
# (libFuzzer's stat::number_of_executed_units), the coverage (cov: and ft:) and the corpus size. A crash,
# leak or timeout fails the run after every target has run; its input is in fuzz/artifacts/TARGET/ and the
# libFuzzer log in target/fuzz/TARGET.log. --ci: the bounded pass of scripts/test.sh (FUZZ_SECONDS default
# 12 instead of 300), built unoptimised (cargo fuzz --dev: about 2 minutes instead of 10 on two cores, for fewer
# executions per second; still AddressSanitizer, debug assertions and overflow checks). Needs the nightly toolchain and cargo-fuzz (scripts/setup.sh, run by make test, installs the pinned version); without
# a nightly toolchain it says so and exits 0, as scripts/miri.sh does.
set -euo pipefail
usage() {
  echo "usage: $0 [--ci] [TARGET...]   (environment: FUZZ_SECONDS per target, default 300, 12 with --ci)" >&2
  exit 2
}
ci=0
targets=()
for arg in "$@"; do
  case "$arg" in
    --ci) ci=1 ;;
    -*) usage ;;
    *) targets+=("$arg") ;;
  esac
done
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"
require cargo "install Rust 1.90 or newer (https://rustup.rs)"
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz: not available on this machine (needs a nightly toolchain for the sanitizer); skipped"
  exit 0
fi
require cargo-fuzz "cargo install --locked cargo-fuzz --version $CARGO_FUZZ_VERSION (scripts/setup.sh does)"
seconds=${FUZZ_SECONDS:-$([ "$ci" = 1 ] && echo 12 || echo 300)}
build_mode=()
[ "$ci" = 0 ] || build_mode=(--dev)
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "error: FUZZ_SECONDS=$seconds is not a positive number" >&2; exit 2; }
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo +nightly fuzz list --fuzz-dir fuzz)
# A single allocation larger than AddressSanitizer supports returns null, as a real allocator does, instead
# of being reported: arrow-ipc allocates a block's length from a file's footer with a fallible allocation and
# returns its MemoryError (docs/reliability.md, Fuzzing, finding 6); an infallible Rust allocation that fails still
# aborts, as before.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1"
logs=$ROOT/target/fuzz
mkdir -p "$logs"

echo "== fuzz: building ${#targets[@]} targets (cargo fuzz build ${build_mode[*]}, AddressSanitizer)"
start=$SECONDS
cargo +nightly fuzz build --fuzz-dir fuzz "${build_mode[@]}"
echo "fuzz: build took $((SECONDS - start)) s"

failed=()
summary=()
for target in "${targets[@]}"; do
  [ -d "fuzz/seeds/$target" ] || { echo "error: no seeds for target '$target' (fuzz/seeds/$target)" >&2; exit 2; }
  mkdir -p "fuzz/corpus/$target"
  echo "== fuzz: $target for $seconds s"
  start=$SECONDS
  # The first corpus folder receives the new inputs; the seeds stay as committed.
  status=0
  cargo +nightly fuzz run --fuzz-dir fuzz "${build_mode[@]}" "$target" "fuzz/corpus/$target" "fuzz/seeds/$target" -- \
    -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
    >"$logs/$target.log" 2>&1 || status=$?
  took=$((SECONDS - start))
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$target.log" | tail -1)
  coverage=$(grep -E '^#[0-9]+' "$logs/$target.log" | grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*/[^ ]*' | tail -1)
  if [ "$status" = 0 ]; then
    result=ok
  else
    result="FAILED (exit $status)"
    failed+=("$target")
    echo "fuzz: $target failed; the end of its log ($logs/$target.log):" >&2
    tail -n 40 "$logs/$target.log" >&2
    ls -1 "fuzz/artifacts/$target" 2>/dev/null | sed 's|^|  input: fuzz/artifacts/'"$target"'/|' >&2 || true
  fi
  summary+=("$(printf '%-14s %5s s  executions %-10s %s  %s' "$target" "$took" "${executions:-?}" "${coverage:-cov: ?}" "$result")")
done

echo "== fuzz: results ($seconds s per target)"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}" >&2
  exit 1
fi
