# Sourced by scripts/test and scripts/sanitize: runs the XCTest bundle of one build as several processes
# at once, each given its own list of tests, and sums their results up.
#
#   test_processes_begin SCRATCH LOGS   # the build's folder (.build, .build-tsan, …) and a folder for the logs
#   pick FILTER [SKIP]                  # the tests matching FILTER less those matching SKIP, as the bundle takes them
#   test_process NAME LIST              # starts one process (in the background) on LIST; its log is LOGS/NAME.txt
#   test_processes_end                  # waits for them all, prints the logs and "N passed, N failed"; fails if any did
#
# Test processes run the bundle itself: several `swift test` started at once contend for SwiftPM's build
# database (one found it locked and ran nothing), and each spent most of a minute planning.

test_processes_begin() {
    local scratch=$1
    test_logs=$2
    rm -rf "$test_logs"; mkdir -p "$test_logs"
    test_names=$(swift test --skip-build --disable-swift-testing --scratch-path "$scratch" list 2>/dev/null)
    test_bundle=$(swift build --scratch-path "$scratch" --show-bin-path)/onairPackageTests.xctest
    test_pids=()
}

pick() {
    grep -E "$1" <<<"$test_names" | { [[ -n ${2:-} ]] && grep -vE "$2" || cat; } | paste -sd, -
}

test_process() {
    local name=$1 list=$2
    "$test_bundle" "$list" > "$test_logs/$name.txt" 2>&1 &
    test_pids+=($!)
}

test_processes_end() {
    local status=0 process log passed failed
    for process in "${test_pids[@]}"; do wait "$process" || status=$?; done
    # A process that ran no test failed, whatever it exited with: it crashed before its summary, or its
    # list matched nothing (a class renamed under a pattern above).
    for log in "$test_logs"/*.txt; do
        if ! grep -q "^Test Suite 'Selected tests' \(passed\|failed\)" "$log" || grep -q "Executed 0 tests" "$log"; then
            echo "test: $log ran no test" >&2; tail -3 "$log" >&2; status=1
        fi
    done
    cat "$test_logs"/*.txt
    passed=$(cat "$test_logs"/*.txt | grep -cE "^Test Case .* passed \(" || true)
    failed=$(cat "$test_logs"/*.txt | grep -cE "^Test Case .* failed \(" || true)
    echo
    echo "== failures (full logs: $test_logs/)"
    cat "$test_logs"/*.txt | grep -E "^Test Case .* failed \(" || echo "none"
    if ((status == 0 && passed == 0)); then status=1; fi
    echo "$passed passed, $failed failed"
    return "$status"
}
