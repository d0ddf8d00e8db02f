# PlantLeaf. The two commands a newcomer needs: `make demo` and `make test`.
# Every target installs what is missing first (scripts/setup.sh); re-running changes nothing.

SWIFT ?= swift
RELEASE_BIN := .build/release/plantleaf
DEBUG_BIN := .build/debug/plantleaf

.PHONY: setup deps runtime data build demo test bench clean

## setup: apt packages, libLiteRt.so and the shared models/samples (idempotent)
setup:
	@scripts/setup.sh all

deps runtime data:
	@scripts/setup.sh $@

## build: release build of the plantleaf CLI
build: setup
	$(SWIFT) build -c release --product plantleaf

## demo: classify every sample leaf with the default model
demo: build
	$(RELEASE_BIN) classify samples/plantvillage

## test: unit tests and end-to-end tests of the built binary
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf .build
