# PlantLeaf. The two commands a newcomer needs: `make demo` and `make test`.
# Every target installs what is missing first (scripts/setup.sh); re-running changes nothing.

SWIFT ?= swift
RELEASE_BIN := .build/release/plantleaf
DEBUG_BIN := .build/debug/plantleaf

.PHONY: setup deps runtime data reference build demo test example bench teach-bench clean fuzz-build fuzz test-sanitize leak-check model-mutations \
	install uninstall release test-aarch64 soak verdicts test-perf

## setup: apt packages, libLiteRt.so and the shared models/samples (idempotent)
setup:
	@scripts/setup.sh all

deps runtime data reference:
	@scripts/setup.sh $@

## build: release build of the plantleaf CLI, and the generalist check's leaf reference made with it from the sample leaves
build: setup
	$(SWIFT) build -c release --product plantleaf
	@scripts/setup.sh leaf-reference $(RELEASE_BIN)

## demo: classify every sample leaf with the default model
demo: build
	$(RELEASE_BIN) classify samples/plantvillage

## test: unit tests and end-to-end tests of the built binary (with the reference pipeline in .venv for the parity tests, chromium for the bench compare --html page), two test processes side by side; behaviour only, the floors are test-perf's
test: setup
	@scripts/setup.sh reference
	@scripts/setup.sh browser
	$(SWIFT) build --build-tests
	@scripts/setup.sh leaf-reference $(DEBUG_BIN)
	@scripts/test/run.sh
	@scripts/example/check.sh

## test-perf: the tests that hold floors of time, CPU and memory, run on their own with the floors checked
test-perf: setup
	$(SWIFT) build --build-tests
	@scripts/setup.sh leaf-reference $(DEBUG_BIN)
	@scripts/test/run.sh --floors

## example: Examples/LeafCheck, a package of its own, built on PlantLeafKit and run (docs/pipeline.md shows it)
example: setup
	@scripts/example/check.sh

## install: plantleaf, the default model + labels and libLiteRt.so under PREFIX (bin/, share/plantleaf/, lib/plantleaf/), the monitor's and serve's systemd units, the docs (share/doc/plantleaf/)
PREFIX ?= /usr/local
install: build
	scripts/install.sh --prefix "$(PREFIX)" --destdir "$(DESTDIR)"

uninstall:
	scripts/install.sh --uninstall --prefix "$(PREFIX)" --destdir "$(DESTDIR)"

## release: dist/plantleaf-VERSION-linux-{x86_64,aarch64}.tar.gz, static Swift standard library (aarch64 under qemu-user, its archive tried in a root without Swift)
release: setup
	$(SWIFT) build --scratch-path .build-static $(RELEASE_FLAGS)
	@scripts/setup.sh leaf-reference .build-static/release/plantleaf
	scripts/release/package.sh $$(uname -m) .build-static/release/plantleaf
	scripts/aarch64/run.sh release

# The archives' binaries carry the Swift runtime and are stripped; only glibc, libstdc++,
# libpng and libjpeg-turbo come from the OS.
RELEASE_FLAGS := -c release --static-swift-stdlib --product plantleaf -Xlinker --strip-all
export RELEASE_FLAGS

## test-aarch64: debug build for aarch64 cross-compiled in an amd64 Debian 13 root, its tests, parity and bench in an emulated arm64 one (both cached in ~/.cache/plantleaf)
test-aarch64: build
	scripts/aarch64/run.sh test

## bench: speed, side by side with the reference pipeline; one script a part in scripts/bench/
bench: build reference
	@missed=; for part in scripts/bench/*.sh; do bash "$$part" || missed="$$missed $$(basename $$part)"; done; \
	if [ -n "$$missed" ]; then echo "bench: floors missed in:$$missed"; exit 1; fi

## teach-bench: the bean field photos taught 5 and 10 a class (30 splits), the sample leaves' answers with them taught, a photo's cost with lessons loaded
teach-bench: build reference
	@bash scripts/bench/70-teach.sh

## verdicts: the built binary's verdicts on lab leaves, everyday photos, field photos of plants, colour casts, green patterns and empty frames, tuning and holdout halves, against floors
verdicts: build reference
	@bash scripts/bench/40-verdicts.sh

## soak: the greenhouse monitor (camera --every INTERVAL --mqtt) for MINUTES minutes in the camera fixture: CPU, memory, latency
MINUTES ?= 10
INTERVAL ?= 5s
soak: build
	scripts/soak/monitor.sh $(MINUTES) $(INTERVAL)

## fuzz: libFuzzer + AddressSanitizer on every fuzz target for SECONDS each (crash inputs kept in .fuzz/crashes/)
SECONDS ?= 60
# Its own scratch folder, so the normal build is untouched. lld links it: gold fails on this link
# with an internal error. -DFUZZING hands main over to libFuzzer (Fuzz/main.swift).
fuzz-build: setup
	$(SWIFT) build -c release --scratch-path .build-fuzz --product plantleaf-fuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld

fuzz: fuzz-build
	scripts/hardening/fuzz.sh $(SECONDS)

## test-sanitize: the tests under AddressSanitizer/LeakSanitizer (+ UBSan for the C shims), then 15 s of fuzzing per target
test-sanitize: setup
	scripts/hardening/test-sanitize.sh 15

## leak-check: 1000+ images (samples and damaged files) in one process: RSS first/last, valgrind's bytes definitely lost
leak-check: build
	@scripts/setup.sh hardening
	python3 scripts/hardening/leak-check.py $(RELEASE_BIN) samples/plantvillage

## model-mutations: truncated and bit-flipped copies of the default model, each classified in its own process
model-mutations: build
	python3 scripts/hardening/model-mutations.py $(RELEASE_BIN) Models/plantvillage_int8.tflite \
		"$$(find -L samples/plantvillage -name '*.JPG' | sort | head -1)" --flips 2000

clean:
	rm -rf .build .build-fuzz .build-sanitize .build-static .build-aarch64 .build-aarch64-release dist Examples/LeafCheck/.build
