#!/usr/bin/env bash
# Builds the protocol fuzzer (libFuzzer coverage + AddressSanitizer, debug), checks that both
# instrumentations are in the binary, and runs it for a bounded time over the seed corpus. Usage: run-fuzzer.sh SECONDS
# Exit status: 0 when no input crashed, hung, leaked or broke a property; 1 otherwise,
# with the input in .build/fuzz-findings/ (replay it: swift build --product ProtocolFuzzer
# && .build/debug/ProtocolFuzzer -v FILE).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-300}
swift=${SWIFT:-swift}
scratch=.build/fuzz-asan
work=.build/fuzz-corpus       # what the fuzzer learns; seeds stay in Tests/Fuzz/corpus
findings=.build/fuzz-findings
mkdir -p "$work" "$findings"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Both instrumentations in one flag. swiftc keeps only the last `-sanitize=` it is given, and
# SwiftPM's `--sanitize=fuzzer --sanitize=address` reach it as two flags in an order that
# differs between clean builds: one order builds without coverage, the other without
# AddressSanitizer. `--sanitize=fuzzer` stays so that SwiftPM lets libFuzzer supply main();
# the combined flag comes after it on every compile and link line and so wins.
if ! "$swift" build --product ProtocolFuzzer --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
     -Xswiftc -DFUZZING --scratch-path "$scratch" >"$log" 2>&1; then
  cat "$log" >&2
  echo "fuzz: the fuzzer did not build" >&2
  exit 1
fi
fuzzer="$scratch/debug/ProtocolFuzzer"

# Check the binary about to run, not the flags: count the calls into each runtime from the
# project's own functions (the runtimes themselves are not instrumented).
read -r coverage asan < <(objdump -d --no-show-raw-insn "$fuzzer" | awk '
  /^[0-9a-f]+ <.*>:$/ { project = ($2 ~ /\$s(11PresentCore|11PresentJSON|15PresentProtocol)/) }
  project && /call.*<__sanitizer_cov_/ { coverage++ }
  project && /call.*<__asan_/ { asan++ }
  END { print coverage + 0, asan + 0 }')
echo "fuzz: instrumented calls in the project's code: coverage $coverage, AddressSanitizer $asan"
if [ "$coverage" -eq 0 ] || [ "$asan" -eq 0 ]; then
  echo "fuzz: $fuzzer lacks $( [ "$coverage" -eq 0 ] && echo "coverage instrumentation" || echo "AddressSanitizer instrumentation"); refusing to run it (remove $scratch and retry)" >&2
  exit 1
fi
status=0
# SWIFT_BACKTRACE off: Swift's backtracer would otherwise keep libFuzzer from writing
# the crashing input. -timeout: an input slower than 10 s counts as a hang.
SWIFT_BACKTRACE=enable=no "$fuzzer" -dict=Tests/Fuzz/protocol.dict \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$findings/" "$work" Tests/Fuzz/corpus >"$log" 2>&1 || status=$?

# A binary without coverage instrumentation would "pass" while exploring nothing.
if ! grep -qE 'INITED cov: [0-9]+' "$log"; then
  grep -E 'WARNING|ERROR' "$log" | head -5
  echo "fuzz: the fuzzer reports no coverage (not instrumented?); remove $scratch and retry" >&2
  exit 1
fi
grep -E 'cov: [0-9]+' "$log" | tail -1 || true   # the coverage reached
grep -E '^INFO: seed corpus|stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" || true
if [ "$status" -ne 0 ]; then
  grep -E 'ERROR|Fatal error|SUMMARY|Test unit written|artifact' "$log" | head -20
  echo "fuzz: FAILED after a finding (status $status); inputs in $findings/" >&2
  exit 1
fi
echo "fuzz: $seconds s, no crash, hang, leak or broken property"
