#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer and AddressSanitizer, then runs each for SECONDS
# (default 60). New interesting inputs go to .build/fuzz/corpus/<target> (outside the
# repository); crashes to .build/fuzz/artifacts/. Copy a crash into Corpus/<target>/ once it
# is fixed: the root package's tests replay that folder on every `swift test`.
#
#   Tests/Fuzz/run.sh 60              # all targets, 60 s each
#   Tests/Fuzz/run.sh 300 jws_verify  # one target
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
shift || true
scratch="$(cd ../.. && pwd)/.build/fuzz"
# The Swift crash reporter itself crashes under ASan; libFuzzer prints the stack instead.
export SWIFT_BACKTRACE=enable=no
swift build -c release --scratch-path "$scratch" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=($(ls Sources | grep -v "^FuzzDriver$"))
fi
failed=()
for target in "${targets[@]}"; do
  mkdir -p "$scratch/corpus/$target" "$scratch/artifacts"
  echo "== fuzz-$target for ${seconds}s"
  log="$scratch/artifacts/$target.log"
  status=0
  "$scratch/release/fuzz-$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$scratch/artifacts/$target-" \
    "$scratch/corpus/$target" "Corpus/$target" >"$log" 2>&1 || status=$?
  grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|ERROR|SUMMARY" "$log" | tail -n 6 || true
  [ "$status" -eq 0 ] || failed+=("$target")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]} (see $scratch/artifacts)"
  exit 1
fi
echo "all fuzz targets ran ${seconds}s without a crash"
