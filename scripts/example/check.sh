#!/usr/bin/env bash
# make example: Examples/LeafCheck, a package of its own, is built against this checkout and run
# on a sample leaf; docs/pipeline.md must show its main.swift word for word, so the documented
# example is one that compiles with only PlantLeafKit's public API and runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
example=Examples/LeafCheck
documented=$(awk '/^## Using PlantLeafKit from Swift/ {section = 1} section && /^```swift$/ {inside = 1; next}
                  inside && /^```$/ {exit} inside {print}' docs/pipeline.md)
if ! diff -u <(printf '%s\n' "$documented") "$example/Sources/LeafCheck/main.swift"; then
    echo "example: docs/pipeline.md's example differs from $example/Sources/LeafCheck/main.swift (above)" >&2
    exit 1
fi
${SWIFT:-swift} build --package-path "$example"
leaf="samples/plantvillage/Apple___Apple_scab/00075aa8-d81a-4184-8541-b692b78d398a___FREC_Scab 3335.JPG"
output=$("$example/.build/debug/LeafCheck" .runtime/lib/libLiteRt.so Models/plantvillage_int8.tflite labels.txt "$leaf")
echo "$output"
case "$output" in
    "$leaf Apple — Apple scab "*) echo "example: the separate package classified the sample leaf" ;;
    *) echo "example: expected '$leaf Apple — Apple scab …'" >&2; exit 1 ;;
esac
