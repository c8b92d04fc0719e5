# mk/bench.mk — the benchmarks (bench/; figures in docs/BENCHMARKS.md), the long memory soak,
# and presentctl's link order, which a benchmark measures and writes.

.PHONY: bench bench-quick bench-wayland bench-glass bench-notify bench-notify-quick soak-memory presentctl-order

BENCH_BIN    := .build/bench
BENCH_CFLAGS ?= -O2 -g -Wall -Wextra
BENCH_ARGS   ?=

$(BENCH_BIN)/baseline: bench/baseline/baseline.c
	@mkdir -p $(BENCH_BIN)
	cc $(BENCH_CFLAGS) -o $@ $< $$(pkg-config --cflags --libs libuv json-c)

$(BENCH_BIN)/loadgen: bench/loadgen.c
	@mkdir -p $(BENCH_BIN)
	cc $(BENCH_CFLAGS) -o $@ $< -lm

## bench: presentd (release) against the C baseline and sway; then bench-notify, bench-glass (5 min)
# Against the C baseline in bench/baseline and, when installed, a headless sway (short-lived
# clients, round trip, presentctl vs swaymsg); prints a table of figures and ratios and writes
# bench/out/results.json.
## bench-quick: the same in a few seconds (1 and 100 subscribers, 1 s windows), and bench-notify-quick
bench bench-quick: release $(BENCH_BIN)/baseline $(BENCH_BIN)/loadgen
	python3 bench/bench.py --presentd "$$($(SWIFT) build -c release --show-bin-path)/presentd" \
	  --baseline $(BENCH_BIN)/baseline --loadgen $(BENCH_BIN)/loadgen \
	  $(if $(filter bench-quick,$@),--quick --out bench/out/results-quick.json) $(BENCH_ARGS)
	$(MAKE) --no-print-directory bench-notify$(if $(filter bench-quick,$@),-quick)
	$(if $(filter bench,$@),@$(MAKE) --no-print-directory bench-glass)

## bench-wayland: the renderer's CPU and time a frame and its memory, at 1080p and 4K, and present-to-glass
bench-wayland: clients-bin wayland
	bin=$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS)) && \
	  PRESENTD=$$bin/presentd PRESENTCTL=$$bin/presentctl $(PYTHON) bench/wayland/bench.py

## bench-glass: present-to-glass alone, p50 and p99, on headless sway and weston
# make bench runs it; a SKIPPED line for a compositor, or the renderer's libraries, that is missing).
bench-glass: release
	@if pkg-config --exists wayland-client cairo pangocairo librsvg-2.0 xkbcommon json-c; then \
	  $(MAKE) --no-print-directory -C Clients/wayland >/dev/null && \
	  PRESENTD=$$($(SWIFT) build -c release --show-bin-path)/presentd $(PYTHON) bench/wayland/bench.py --glass; \
	else echo "present-to-glass: SKIPPED (presentd-wayland's libraries are not installed: make deps-wayland)"; fi

## bench-notify: presentd-notify against mako and dunst on a headless sway (about 30 s)
# Notify round trip, calls per second in a burst, CPU and memory, presentd-notify (with the
# release presentd) against mako, side by side, and dunst. `make bench` runs it too; without
# sway or mako it says SKIPPED and why (`apt-get install sway mako-notifier dunst`).
## bench-notify-quick: the same in about 10 s (`make bench-quick` runs it)
NOTIFY_BENCH_MISSING = $(strip $(foreach p,sway mako,$(if $(shell command -v $(p)),,$(p))))
bench-notify bench-notify-quick: release
	$(if $(NOTIFY_BENCH_MISSING),@echo "bench-notify: SKIPPED: $(NOTIFY_BENCH_MISSING) not installed (apt-get install sway mako-notifier dunst)",$(MAKE) --no-print-directory -C Clients/notify all bench-client)
	$(if $(NOTIFY_BENCH_MISSING),,mkdir -p bench/out && \
	$(PYTHON) bench/notify/bench.py --presentd "$$($(SWIFT) build -c release --show-bin-path)/presentd" \
	  --bridge Clients/notify/build/presentd-notify \
	  $(if $(filter bench-notify-quick,$@),--quick --json bench/out/notify-quick.json,--json bench/out/notify.json))

## soak-memory: presentd (release) under churn for SOAK_MEMORY_SECONDS (600): its memory's slope
# Its private dirty memory and PSS sampled after every round, and their slope over the second
# half (bench/out/soak-memory.json; docs/BENCHMARKS.md). Not in `make test`: it is the length
# that counts.
SOAK_MEMORY_SECONDS ?= 600
soak-memory: release $(BENCH_BIN)/baseline $(BENCH_BIN)/loadgen
	python3 bench/bench.py --presentd "$$($(SWIFT) build -c release --show-bin-path)/presentd" \
	  --baseline $(BENCH_BIN)/baseline --loadgen $(BENCH_BIN)/loadgen --soak $(SOAK_MEMORY_SECONDS) $(BENCH_ARGS)

## presentctl-order: rewrite presentctl's link order file (needs valgrind) and relink presentctl
# bench/presentctl/startup.order holds the functions and data presentctl's common commands
# touch, which its release link places side by side (bench/presentctl_order.py, under
# valgrind); presentctl is relinked with it (SwiftPM does not see the file change).
presentctl-order: release
	@command -v valgrind >/dev/null || { echo "presentctl-order: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
	@bin=$$($(SWIFT) build -c release --show-bin-path); \
	python3 bench/presentctl_order.py --bin "$$bin" --swiftc "$(dir $(SWIFT))swiftc" && rm -f "$$bin/presentctl"
	$(SWIFT) build -c release --product presentctl $(RELEASE_FLAGS) $(BUILD_FLAGS)
