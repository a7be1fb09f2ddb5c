# The two commands of the quick start:
#   make run   install what is missing, build, generate the table, serve on 127.0.0.1:8080
#   make test  install what is missing, build, generate the table, run the whole suite (CTest)
BUILD      ?= build
BUILD_TYPE ?= Release
TABLE      ?= data/eight.tbl
HOST       ?= 127.0.0.1
PORT       ?= 8080
JOBS       ?= $(shell nproc)

# Debian packages the build and the suite need.
PACKAGES := g++ cmake make pkg-config libcpp-httplib-dev nlohmann-json3-dev \
            libxxhash-dev doctest-dev libbenchmark-dev python3 python3-xxhash

.PHONY: all deps configure build table run test bench clean

all: build

deps:
	@scripts/install-deps.sh $(PACKAGES)

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DEIGHT_BUILD_TESTS=ON \
	  -DEIGHT_BUILD_BENCHMARKS=ON >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

table: build
	@mkdir -p $(dir $(TABLE))
	@$(BUILD)/bin/eight-tablegen --quiet --out $(TABLE)
	@$(BUILD)/bin/eight verify $(TABLE)

run: table
	exec $(BUILD)/bin/eight-server --table $(TABLE) --host $(HOST) --port $(PORT)

test: table
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: table
	@$(BUILD)/bin/eight-bench

clean:
	rm -rf $(BUILD) $(TABLE) $(TABLE).tmp
