# AssemblyLine: the two commands are `make demo` and `make test`; each installs what it needs first.
SWIFT ?= swift
# Every toolchain call gets a temporary directory of its own, removed after it (scripts/swift-tool.sh).
SWIFT_TOOL := scripts/swift-tool.sh $(SWIFT)
DEBUG_BIN := .build/debug/assemblyline
RELEASE_BIN := .build/release/assemblyline
VENV := .venv
# Real clients nobody here wrote, pinned: the compatibility suite drives `assemblyline serve` with them;
# kubernetes-validate checks deploy/kubernetes/ against the Kubernetes schemas offline; moto is the
# S3-compatible server the bucket listing and the local service's bucket imports are checked against, seeded by
# boto3 (S3ListingMotoTests, BucketImportMotoTests; ASSEMBLYLINE_TEST_PYTHON may name another venv's python).
PYTHON_CLIENTS := pytransloadit==1.0.4 tuspy==1.1.0 pytest==8.3.4 kubernetes-validate==1.37.0 \
	'moto[server]==5.2.6' boto3==1.44.8

PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: deps build release check check-imports test test-package install deb demo bench fuzz samples clean

## deps: install the missing Debian packages (apt-get; sudo when not root); does nothing when all are there
deps:
	@scripts/install-deps.sh

## build: a debug build of the tool and its libraries (stamped with the commit, for --version)
build: deps
	@scripts/stamp-commit.sh
	$(SWIFT_TOOL) build

## release: an optimized build with the Swift runtime linked in (a host without the toolchain can run it),
## for the demo, the benchmarks and the package
release: deps
	@scripts/stamp-commit.sh
	$(SWIFT_TOOL) build -c release --static-swift-stdlib

## install: the release binary, its manual page, bash and fish completions, systemd units and examples under $(DESTDIR)$(PREFIX)
install: release
	scripts/install.sh $(RELEASE_BIN) "$(DESTDIR)" "$(PREFIX)"

## deb: dist/assemblyline_VERSION_ARCH.deb, whose Depends are read off the binary's shared libraries
deb: release
	scripts/make-deb.sh $(RELEASE_BIN)

## test-package: the .deb installs with dpkg -i and runs the demo's manifest with the build tree moved away
test-package: deb
	scripts/test-deb.sh $$(ls -t dist/assemblyline_*.deb | head -1)

## check-imports: the module import rules of docs/architecture.md, against the sources and Package.swift
check-imports:
	@python3 scripts/check-imports.py --self-test
	@python3 scripts/check-imports.py

## check: a build and the fast suites (the logic in-process, the adapters on their C libraries), without
## installing anything: the edit-compile-test loop. The binary's, hostile-input, compatibility, moto
## (which needs the venv) and package suites are left to `make test`.
check: check-imports
	@scripts/stamp-commit.sh
	$(SWIFT_TOOL) build --build-tests
	scripts/swift-test.sh 900 --skip 'AssemblyLineCLITests|HostileInputTests|HostileServiceTests|MotoTests'

## test: every test suite (unit, adapters on real C libraries, the CLI as a built binary, hostile input, official clients)
## The binary's end-to-end suites wait on child processes and hold threads meanwhile: they run in a
## test process of their own, so that they cannot slow down the timed suites (rate limits) of the rest.
## The hostile-input suite times each server's answers: it runs last, alone.
## The scale-out test runs deploy/slurm/ on a real Slurm it starts for itself (scripts/test-slurm.sh).
## The package test comes last: it moves the build tree away while it runs.
## Each step has a time limit many times its usual length (scripts/time-limit.sh): a step that hangs fails with the
## tests it was running and every thread's stack, instead of holding CI to its own limit. The suites print only what
## fails and a summary line (scripts/swift-test.sh).
test: build $(VENV)/installed check-imports
	$(SWIFT_TOOL) build --build-tests
	scripts/swift-test.sh 900 --skip 'AssemblyLineCLITests|HostileInputTests|HostileServiceTests'
	scripts/swift-test.sh 1200 --filter AssemblyLineCLITests
	scripts/time-limit.sh 600 $(VENV)/bin/python -m pytest -q Tests/Compatibility
	scripts/swift-test.sh 600 --filter HostileInputTests
	scripts/swift-test.sh 600 --filter HostileServiceTests
	scripts/time-limit.sh 900 scripts/test-slurm.sh $(DEBUG_BIN)
	scripts/time-limit.sh 1200 $(MAKE) test-package

## the Python clients of the compatibility suite, in a venv of their own
$(VENV)/installed: Makefile
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check $(PYTHON_CLIENTS)
	touch $@

## samples: generate the demo's sample images (no third-party media)
samples:
	@python3 scripts/make-sample-images.py manifests/samples

## demo: run manifests/example.yaml on the embedded service (thumbnails land in runs/output/), then report
demo: release samples
	$(RELEASE_BIN) run manifests/example.yaml
	$(RELEASE_BIN) report latest --manifest manifests/example.yaml
	$(RELEASE_BIN) report latest --manifest manifests/example.yaml --format html --output runs/report.html
	@echo "the report as a page: runs/report.html"

## bench: the benchmarks of bench/, printed; results are recorded by hand in bench/RESULTS.md
bench: release
	bench/run.sh

## fuzz: a bounded, seeded fuzz of both servers (generated requests; zero crashes or it fails)
fuzz: release
	bench/fuzz.py --bin $(RELEASE_BIN)

clean:
	rm -rf .build bench/work dist
