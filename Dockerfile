# eight: the 8-puzzle lookup-table service.
#
#   docker build -t eight:1.0.0 .            (or: podman build --format docker ...)
#   docker run --rm -p 127.0.0.1:8080:8080 eight:1.0.0
#
# The build stage is a fresh Debian 12 with nothing installed: it runs the
# project's own set-up (make deps -> scripts/install-deps.sh), builds, runs
# the test suite (unless --build-arg EIGHT_SUITE=off) and generates and
# verifies the table, as `make test` does on a fresh machine. The runtime
# stage holds eight-server, eight, their shared libraries (found from the
# binaries, installed from Debian) and the table.
# `make container-test` builds and checks this image; docs/deployment.md.

ARG DEBIAN_FRONTEND=noninteractive

# ------------------------------------------------------------------ build
FROM debian:bookworm-slim AS build
ARG DEBIAN_FRONTEND
WORKDIR /src

# make is the one prerequisite of a fresh machine; everything else comes from
# the Makefile's own package list. This layer is cached until those change.
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends make >/dev/null \
 && rm -rf /var/lib/apt/lists/*
COPY Makefile ./
COPY scripts/install-deps.sh scripts/
RUN make deps && rm -rf /var/lib/apt/lists/*

COPY . .
# Build, which generates and verifies the table and writes the tests' tables,
# then copy the table to data/ (make table = configure, build, copy), then the
# suite. Tests labelled node, browser or contract need
# Node.js, npm packages, Python's yaml or Chromium from the network, and those
# labelled man, systemd or prometheus need groff, systemd's tools or promtool
# (the Makefile's TEST_PACKAGES); they run in `make test`, not here.
# --build-arg EIGHT_SUITE=off builds neither the suite nor the benchmarks (about
# half the build) and runs no tests: for a builder that has just run the same
# commit's suite on Debian 12, as .ci/run's `make test` has before it builds
# this image.
ARG EIGHT_SUITE=on
RUN case "$EIGHT_SUITE" in on|off) ;; *) echo "EIGHT_SUITE is on or off, not '$EIGHT_SUITE'" >&2; exit 2 ;; esac \
 && if [ "$EIGHT_SUITE" = on ]; then \
      make table BUILD=build JOBS="$(nproc)" \
      && cd build \
      && ctest --output-on-failure -j "$(nproc)" -LE 'node|browser|contract|man|systemd|prometheus'; \
    else \
      make table BUILD=build JOBS="$(nproc)" BUILD_TESTS=OFF BUILD_BENCHMARKS=OFF; \
    fi

# The Debian packages that own the shared libraries the two binaries and
# eight's module load. The module (--server, fetch) goes where eight finds
# it from its own directory, as in the build tree: ../lib/eight/.
RUN scripts/runtime-packages.sh build/bin/eight-server build/bin/eight \
      build/lib/eight/eight-remote.so > /runtime-packages.txt \
 && cat /runtime-packages.txt \
 && install -D -m 0755 build/bin/eight-server /out/usr/local/bin/eight-server \
 && install -D -m 0755 build/bin/eight /out/usr/local/bin/eight \
 && install -D -m 0644 build/lib/eight/eight-remote.so /out/usr/local/lib/eight/eight-remote.so \
 && install -D -m 0444 data/eight.tbl /out/usr/share/eight/eight.tbl

# ------------------------------------------------------------------ runtime
FROM debian:bookworm-slim
ARG DEBIAN_FRONTEND
ARG VERSION=1.0.0
ARG REVISION=unknown

COPY --from=build /runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update -qq \
 && xargs -a /tmp/runtime-packages.txt apt-get install -y -qq --no-install-recommends >/dev/null \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/apt /var/log/dpkg.log /tmp/runtime-packages.txt \
 && groupadd --system --gid 10001 eight \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
            --shell /usr/sbin/nologin eight \
 && install -d -o eight -g eight -m 0700 /var/lib/eight

COPY --from=build /out/ /

LABEL org.opencontainers.image.title="eight" \
      org.opencontainers.image.description="Precomputed lookup-table solver for the 8-puzzle: eight-server (HTTP) and the eight CLI, with the table" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.base.name="docker.io/library/debian:bookworm-slim" \
      org.opencontainers.image.documentation="docs/deployment.md"

ENV EIGHT_TABLE=/usr/share/eight/eight.tbl \
    EIGHT_HOST=0.0.0.0 \
    EIGHT_PORT=8080 \
    EIGHT_PDB_DIR=/var/lib/eight
# The server builds the 7-8 pattern databases of the 4x4 board and of 2x8
# here at its first start, in the background (865 MB and 288 MB, minutes,
# about 2.2 GB of memory at the peak),
# and serves them from then on: mount a named volume to keep them
# (-v eight-pdb:/var/lib/eight). Not writable (a read-only root without a
# volume), it logs so and serves without them.
VOLUME /var/lib/eight

# Numeric, so Kubernetes' runAsNonRoot can check it.
USER 10001:10001
EXPOSE 8080
# eight-server finishes in-flight requests and exits 0 on SIGTERM within a second.
STOPSIGNAL SIGTERM
# The image has no curl: the CLI probes the server itself (exit 0 on 2xx).
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["/usr/local/bin/eight", "probe", "--path", "/readyz", "--timeout-ms", "2000"]
ENTRYPOINT ["/usr/local/bin/eight-server"]
