# The two commands of the quick start:
#   make run   install what is missing, build, generate the table, serve on 127.0.0.1:8080
#              (building the 7-8 pattern databases of 4x4 and 2x8 into data/ in the background)
#   make test  install what is missing, build, generate the table, run the whole suite (CTest)
BUILD      ?= build
BUILD_TYPE ?= Release
TABLE      ?= data/eight.tbl
# Where `make run`'s server builds the 7-8 pattern databases of the 4x4
# board and of 2x8 at its first start (--pdb-dir; eight-tablegen's own file
# names, data/eight-4x4-7-8.tbl and data/eight-2x8-7-8.tbl: 865 MB and
# 288 MB, minutes of two cores and about 2.2 GB of memory, in the
# background) and serves them from then on.
PDB_DIR    ?= data
HOST       ?= 127.0.0.1
PORT       ?= 8080
JOBS       ?= $(shell nproc)
# CTest runs twice as many tests as cores: many wait on sockets, timers, a
# browser or a child process, and would leave the cores idle (each test's
# time-outs are hang guards, far above its time on a busy machine).
TEST_JOBS  ?= $(shell echo $$(( 2 * $$(nproc) )))
# Warnings as errors in our own targets (EIGHT_WERROR): .ci/run sets it ON.
WERROR     ?= OFF
# The suite and the benchmarks are built by default (EIGHT_BUILD_TESTS,
# EIGHT_BUILD_BENCHMARKS); an image built without its suite sets both OFF.
BUILD_TESTS      ?= ON
BUILD_BENCHMARKS ?= ON

# Debian packages the build and the suite need. Boost.Beast and Asio (the
# server's transport) are header-only in libboost1.81-dev; Boost.URL (request
# targets) is the compiled libboost-url1.81-dev, and Boost.Program_options
# (the three programs' command lines, common/option_reader.h) the compiled
# libboost-program-options1.81-dev (not libboost-program-options-dev, which
# is Debian 12's 1.74 and would pull 1.74's headers beside 1.81's).
# cpp-httplib is the HTTP client.
# pybind11, Python's headers and NumPy build the Python module (python/),
# pytest runs its tests, Hypothesis draws its input fuzzer's values
# (tests/python/test_fuzz_inputs.py).
PACKAGES := g++ cmake make pkg-config libboost1.81-dev libboost-url1.81-dev \
            libboost-program-options1.81-dev libcpp-httplib-dev \
            nlohmann-json3-dev libxxhash-dev doctest-dev libbenchmark-dev python3 python3-xxhash \
            scdoc pybind11-dev python3-dev python3-numpy python3-pytest python3-hypothesis
# ...and what only the test suite needs on top: the browser test's Chromium;
# systemd-analyze and systemd-socket-activate (the units' and socket
# activation's tests); groff and man (the man pages' tests); Python's yaml
# (docs/openapi.yaml must load with yaml.safe_load); prometheus, for promtool
# (the /metrics test) and Prometheus itself (.ci/run's scrape), with curl to
# ask them; mypy, which checks the Python module's type hints (py.typed, and
# a typed use of it: tests/python/test_native.py).
TEST_PACKAGES := chromium systemd groff-base man-db python3-yaml prometheus curl python3-mypy
# ...and what `make deb` needs: dpkg-shlibdeps (the Depends line) and file.
DEB_PACKAGES := dpkg-dev file

.PHONY: all deps configure build table run test bench clean sanitize-build test-sanitize test-debug fuzz fuzz-build fuzz-sanitize fuzz-python js js-test \
        deb deb-test

all: build

deps:
	@scripts/install-deps.sh $(PACKAGES)

CONFIGURE = cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DEIGHT_BUILD_TESTS=$(BUILD_TESTS) \
  -DEIGHT_BUILD_SERVER=ON -DEIGHT_BUILD_BENCHMARKS=$(BUILD_BENCHMARKS) -DEIGHT_WERROR=$(WERROR) >/dev/null
configure: deps
	@$(CONFIGURE)

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The build generates the default table once per build tree
# ($(BUILD)/share/eight/eight.tbl, for install: eight-tablegen --shape
# default, proved by `eight verify` before it takes its name); $(TABLE) is a
# copy of it. A table already there is left alone unless it is older than the
# build's (a newer eight-tablegen wrote that) or fails `eight verify`: then
# the build's proven table is copied over it.
BUILD_TABLE = $(BUILD)/share/eight/eight.tbl
COPY_TABLE = cp $(BUILD_TABLE) $(TABLE).tmp && mv $(TABLE).tmp $(TABLE)
# $(call place_table,CHECK): CHECK is `verify` (every entry proven: 14 s of
# CPU, make table and make test) or `info` (the checksum: make run, whose
# server checks the table again before it listens, so that it serves
# within seconds).
define place_table
mkdir -p $(dir $(TABLE)); \
if [ ! -f $(TABLE) ]; then \
  echo "$(TABLE): missing, copying the build's"; $(COPY_TABLE); \
elif [ $(BUILD_TABLE) -nt $(TABLE) ]; then \
  echo "$(TABLE): older than $(BUILD_TABLE), copying it again"; $(COPY_TABLE); \
elif ! $(BUILD)/bin/eight $(1) $(TABLE) >/dev/null; then \
  echo "$(TABLE): failed eight $(1), copying the build's again"; $(COPY_TABLE); \
fi
endef
table: build
	@$(call place_table,verify)

# make run builds what it serves and nothing more (the server, the tool
# that proves the table, the generator and the table: no test or benchmark
# target), quietly: the build's output goes to $(RUN_LOG), shown only when
# the build fails. It says up front what the background build is.
RUN_TARGETS := eight-server eight eight-tablegen eight_table
RUN_LOG      = $(BUILD)/make-run.log
PDB_FILE     = $(PDB_DIR)/eight-4x4-7-8.tbl
PDB_FILE_2X8 = $(PDB_DIR)/eight-2x8-7-8.tbl
# A configured tree is not configured again (cmake --build does that itself
# when a CMakeLists.txt changed): on a built tree make run serves in seconds.
run: deps
	@[ -f $(BUILD)/CMakeCache.txt ] || $(CONFIGURE)
	@echo "make run: building eight-server and the default table (output in $(RUN_LOG))"
	@cmake --build $(BUILD) -j $(JOBS) --target $(RUN_TARGETS) -- --no-print-directory \
	  >$(RUN_LOG) 2>&1 || { tail -n 40 $(RUN_LOG); echo "make run: the build failed; all of it in $(RUN_LOG)"; exit 1; }
	@$(call place_table,info)
	@if [ -n "$(PDB_DIR)" ] && { [ ! -f $(PDB_FILE) ] || [ ! -f $(PDB_FILE_2X8) ]; }; then \
	  echo "make run: the server builds the 7-8 pattern databases of 4x4 and 2x8 in the background"; \
	  echo "  ($(PDB_FILE) and $(PDB_FILE_2X8): 865 MB and 288 MB on disk, minutes of both cores,"; \
	  echo "  about 2.2 GB of memory at its peak; 4x4 and 2x8 answers are served meanwhile, by smaller"; \
	  echo "  databases). Not wanted: make run PDB_DIR="; \
	fi
	@echo "make run: serving on http://$(HOST):$(PORT)/ (Ctrl-C stops it)"
	@exec $(BUILD)/bin/eight-server --table $(TABLE) $(if $(PDB_DIR),--pdb-dir $(PDB_DIR)) --host $(HOST) --port $(PORT)

test: table
	@scripts/install-deps.sh $(TEST_PACKAGES)
	@cd $(BUILD) && ctest --output-on-failure -j $(TEST_JOBS)

# The JavaScript/WebAssembly package (js/, docs/javascript.md): the core and
# the C API compiled by Debian's Emscripten into a build tree of its own,
# $(JS_BUILD)/js/package, from which `npm pack` makes the package. Not part
# of make run or make test: Emscripten is a large install and a build of its
# own; .ci/run runs js-test. Its tests compare with the native build's
# eight, eight-server and table (EIGHT_NATIVE_BUILD), so js-test makes them
# first. NODE_PATH: Emscripten 3.1.6's tools load Debian's acorn
# (/usr/share/nodejs), which a Node.js other than Debian's does not search.
JS_BUILD    ?= build-js
JS_TESTS    ?= OFF
JS_PACKAGES := emscripten node-typescript
JS_ENV      := NODE_PATH=/usr/share/nodejs
js:
	@scripts/install-deps.sh $(JS_PACKAGES)
	@command -v npm >/dev/null 2>&1 || scripts/install-deps.sh npm
	@$(JS_ENV) emcmake cmake -S . -B $(JS_BUILD) -DCMAKE_BUILD_TYPE=Release -DEIGHT_BUILD_TESTS=$(JS_TESTS) \
	  -DEIGHT_NATIVE_BUILD=$(abspath $(BUILD)) -DEIGHT_WERROR=$(WERROR) >/dev/null
	@$(JS_ENV) cmake --build $(JS_BUILD) -j $(JOBS)

js-test: table
	@scripts/install-deps.sh $(TEST_PACKAGES)
	@$(MAKE) --no-print-directory js JS_TESTS=ON
	@cd $(JS_BUILD) && $(JS_ENV) ctest --output-on-failure -j $(TEST_JOBS)

# The Debian package, build/eight_VERSION_amd64.deb (cmake/package.cmake).
deb: build
	@scripts/install-deps.sh $(DEB_PACKAGES)
	@cd $(BUILD) && cpack -G DEB

# The package installed, used and removed in a fresh Debian 12 container
# (scripts/deb-test.sh).
deb-test: deb
	@scripts/deb-test.sh $(BUILD)

bench: table
	@$(BUILD)/bin/eight-bench

# The whole suite as a debug build with clang (a second compiler's warnings)
# under AddressSanitizer and UndefinedBehaviorSanitizer: -O1 -g, as ASan's
# documentation advises, and assertions on (EIGHT_SANITIZE implies them), so
# every REQUIRES: that has an assert is checked on every call the suite
# makes; any report or failed assert fails the test that triggered it. CI's
# debug build: one build for both. (The tests of the installed layout, the
# package's units and the manifests, labels packaging, systemd and deploy,
# check files rather than code paths and run in `make test`. So does the
# playground in Chromium, label browser: it checks the page, while the
# server's side of every request it makes is the HTTP tests', which run
# here; a sanitized server made it the longest test, 8 of the run's 45
# minutes of test time.) clang, not
# gcc: gcc 12 reports a false -Wmaybe-uninitialized in <regex> under ASan,
# and warnings are errors in CI.
# The tree holds the fuzzers too, only their own files instrumented for
# coverage (make fuzz-sanitize, below). sanitize-build builds it and runs
# nothing (.ci/run builds it while the suite runs on a busy machine).
# SANITIZE_TABLES_FROM, a build tree of this source (.ci/run: build), gives
# it that tree's generated tables to copy (EIGHT_TABLES_FROM): its own
# instrumented generators take many minutes.
SANITIZE_BUILD ?= build-sanitize
SANITIZE_TABLES_FROM ?=
sanitize-build: deps
	@scripts/install-deps.sh clang libclang-rt-14-dev $(TEST_PACKAGES)
	@cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
	  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DEIGHT_SANITIZE=address,undefined \
	  -DEIGHT_TABLES_FROM="$(if $(SANITIZE_TABLES_FROM),$(abspath $(SANITIZE_TABLES_FROM)))" \
	  -DEIGHT_BUILD_TESTS=ON -DEIGHT_BUILD_SERVER=ON -DEIGHT_BUILD_FUZZERS=ON \
	  -DEIGHT_FUZZ_COVERAGE=OFF -DEIGHT_WERROR=$(WERROR) >/dev/null
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS)

# SANITIZE_EXCLUDE, when set, is a ctest -E regular expression of test names
# to leave out (.ci/run's breadth tests; empty: none).
SANITIZE_EXCLUDE ?=
test-sanitize: sanitize-build
	@cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ctest --output-on-failure -j $(JOBS) \
	  -LE "packaging|systemd|deploy|browser" $(if $(SANITIZE_EXCLUDE),-E "$(SANITIZE_EXCLUDE)")

# The whole suite as a debug build with clang, -O1 -g, assertions on, no
# sanitizers: quicker than test-sanitize, for developers. -O1, not -O0: the
# suite's exhaustive checks and table generation stay within minutes.
DEBUG_BUILD ?= build-debug
test-debug: deps
	@scripts/install-deps.sh clang $(TEST_PACKAGES)
	@cmake -S . -B $(DEBUG_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
	  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DEIGHT_ASSERTIONS=ON -DEIGHT_BUILD_TESTS=ON \
	  -DEIGHT_BUILD_SERVER=ON -DEIGHT_WERROR=$(WERROR) >/dev/null
	@cmake --build $(DEBUG_BUILD) -j $(JOBS)
	@cd $(DEBUG_BUILD) && ctest --output-on-failure -j $(JOBS)

# libFuzzer targets (clang, ASan + UBSan), each run FUZZ_SECONDS over its corpus.
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZERS      := fuzz_board_parser fuzz_table_reader fuzz_endpoints fuzz_http_reader fuzz_c_options fuzz_json_body
fuzz-build: deps
	@scripts/install-deps.sh clang libclang-rt-14-dev
	@cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
	  -DEIGHT_BUILD_FUZZERS=ON -DEIGHT_BUILD_TESTS=OFF -DEIGHT_BUILD_SERVER=ON \
	  -DEIGHT_SANITIZE=address,undefined -DEIGHT_WERROR=$(WERROR) >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZERS)

fuzz: fuzz-build
	@scripts/run-fuzzers.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZERS)

# The same fuzzers as the sanitizer build holds them (sanitize-build above):
# only their own files instrumented for coverage, so their short runs are
# blind to the library's branches; their seed corpora are replayed all the
# same. CI's fuzz step, without a tree of its own.
fuzz-sanitize: sanitize-build
	@scripts/run-fuzzers.sh $(SANITIZE_BUILD) $(FUZZ_SECONDS) $(FUZZERS)

# The Python module's input fuzzer (tests/python/test_fuzz_inputs.py:
# Hypothesis, derandomized) at PY_FUZZ_EXAMPLES calls a function, over the
# module of $(BUILD) (the sanitizer build has none: an instrumented module
# cannot load into Debian's python3). make test runs it at 150.
PY_FUZZ_EXAMPLES ?= 2000
fuzz-python: build
	@cd $(BUILD) && EIGHT_PY_FUZZ_EXAMPLES=$(PY_FUZZ_EXAMPLES) PYTHONPATH=$(abspath $(BUILD))/python \
	  /usr/bin/python3 -m pytest -q -p no:cacheprovider $(CURDIR)/tests/python/test_fuzz_inputs.py

clean:
	rm -rf $(BUILD) $(JS_BUILD) $(SANITIZE_BUILD) $(DEBUG_BUILD) $(FUZZ_BUILD) $(TABLE) $(TABLE).tmp \
	  $(PDB_DIR)/eight-4x4-7-8.tbl $(PDB_DIR)/eight-4x4-7-8.tbl.tmp $(PDB_DIR)/.eight-4x4-7-8.lock \
	  $(PDB_DIR)/eight-2x8-7-8.tbl $(PDB_DIR)/eight-2x8-7-8.tbl.tmp $(PDB_DIR)/.eight-2x8-7-8.lock

# Builds the Dockerfile's image and checks it for real: docker where an engine
# answers, else podman with a locally built base (scripts/container-test.sh).
.PHONY: container-test
container-test:
	@scripts/container-test.sh
