#!/usr/bin/env bash
# make test's test run (and make test-perf's): the built test binary's suites as three
# processes side by side, one a test target.
#
#   scripts/test/run.sh [ARGUMENT...]            every test, the time, CPU and memory floors unchecked (make test)
#   scripts/test/run.sh --floors [ARGUMENT...]   the tests that hold floors, with the floors checked (make test-perf)
#
# ARGUMENTs go to each process (--skip NAME); TEST_BINARY names the test binary of another
# scratch folder.
#
# Most tests wait for programs they start (plantleaf, the camera fixture's VM, chromium,
# mosquitto), and Swift Testing runs as many tests at once as there are cores: three processes
# keep three times as many in flight. They run the test binary itself, not `swift test`, which holds
# the build folder's lock for as long as it runs. Each process's whole output is kept in
# .build/test-output/test-run/; what is shown is each one's issues, the tests' own lines and its
# summary, then one line for the run.
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${TEST_BINARY:-$(swift build --show-bin-path)/PlantLeafPackageTests.xctest}
logs=.build/test-output/test-run
mkdir -p "$logs"

# The processes, by test target: the end-to-end tests, the unit tests of every module (one
# target a module), and the camera tests, whose one VM boot (minutes, under TCG) starts at once in
# a process of its own rather than when a busy process gets to it.
units='PlantLeafSupportTests|PlantLeafCoreTests|PlantLeafCameraUnitTests|PlantLeafBenchTests|PlantLeafMQTTTests|PlantLeafJournalTests|PlantLeafLessonsTests|PlantLeafServeTests|PlantLeafCommandLineTests|PlantLeafTestSupportTests'
processes=(
    "cli:^PlantLeafCLITests\."
    "unit:^($units)\."
    "camera:^PlantLeafCameraTests\."
)
# The camera process is the run's longest (its VM emulates every instruction), and the others
# have time to spare: they run at a lower priority, so that the VM is not the one kept waiting
# for a core.
lower_priority="cli unit"
# The tests whose floors make test-perf checks (TestPaths.checksFloors): run alone, with nothing
# else on the machine's cores but what they measure.
floors='HostileImageTests|ServeHostileTests|oversizedUploadsAreRefusedQuickly|slowClientsNeitherBlockOthersNorStay|unreleasedQoS2PublishesDoNotGrowMemory|resumesAfterTheBrokerRestartsWithOnlyTheNewestResult|tlsToARefusingPortBacksOffAndSaysSoPromptly'

if [ "${1:-}" = --floors ]; then
    shift
    export PLANTLEAF_TEST_FLOORS=1
    processes=("floors:$floors")
fi

started=$SECONDS
pids=()
for process in "${processes[@]}"; do
    name=${process%%:*} filter=${process#*:}
    niceness=0
    case " $lower_priority " in *" $name "*) niceness=10;; esac
    NO_COLOR=1 nice -n $niceness "$bin" --testing-library swift-testing --filter "$filter" "$@" > "$logs/$name.log" 2>&1 &
    pids+=($!)
done

status=0
results=()
for index in "${!processes[@]}"; do
    name=${processes[$index]%%:*}
    wait "${pids[$index]}"
    code=$?
    [ $code -eq 0 ] || status=1
    echo "== $name ($logs/$name.log)"
    # Everything but the one-line notices of a test starting or passing.
    grep -vE '^(◇|✔) (Test|Suite) .*(started|passed)' "$logs/$name.log" | grep -vE '^\s*$'
    results+=("$name: $(grep -E '^(✔|✘) Test run with' "$logs/$name.log" | tail -1 || echo "no summary, exit $code")")
done
echo "== test run: $((SECONDS - started)) s"
for line in "${results[@]}"; do echo "   $line"; done
exit $status
