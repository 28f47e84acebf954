# For OpenBench: `make EXE=name` builds the engine as `name`.
# `make EVALFILE=path` checks that `path` is the network built in: the net is embedded
# from src/nnue/default.nnue at compile time, so another file is an error, not a net
# silently left out (put it there, or load it at run time: setoption name EvalFile value <path>).
# The build lands where cargo puts it: $(CARGO_TARGET_DIR) when set, else target/.
#
# SPSA on OpenBench: OpenBench builds a tune with the same plain `make EXE=…`, so a tune
# branch sets `TUNE ?= 1` below (one line, in the branch only). `TUNE=1` builds with the
# cargo feature `tuning`: every search tunable is then a UCI spin option, named as
# `tabas params` lists them for OpenBench's SPSA input. The tuning build lands in its own
# target directory, so the two builds do not rebuild each other.
EXE ?= tabas
EVALFILE ?=
TUNE ?= 0
TARGET_DIR := $(if $(CARGO_TARGET_DIR),$(CARGO_TARGET_DIR),target)
BUILD_DIR := $(if $(filter 1,$(TUNE)),$(TARGET_DIR)/tuning,$(TARGET_DIR))
FEATURES := $(if $(filter 1,$(TUNE)),--features tuning,)

all: evalfile
	CARGO_TARGET_DIR="$(BUILD_DIR)" cargo build --release $(FEATURES)
	cp "$(BUILD_DIR)/release/tabas" "$(EXE)"

# For your own CPU: `make native` compiles for every instruction set this CPU has
# (the default binary runs on any x86-64 and picks AVX2 at run time). A separate
# target directory keeps the two builds from rebuilding each other.
native: evalfile
	RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR="$(TARGET_DIR)/native" cargo build --release
	cp "$(TARGET_DIR)/native/release/tabas" "$(EXE)-native"

# Release binaries for each x86-64 microarchitecture level: `make levels` writes
# $(EXE)-x86-64 (any x86-64 CPU), -x86-64-v2 (SSE4.2, POPCNT: 2009 on), -x86-64-v3
# (AVX2, BMI2: Intel Haswell 2013 / AMD Excavator 2015 on) and -x86-64-v4 (AVX-512), each
# in its own target directory. A level binary on a CPU without its instructions says so
# and exits with status 3. `make levels-check` also runs `bench` with each binary this
# CPU can run and fails unless all give the same node count.
LEVELS := x86-64 x86-64-v2 x86-64-v3 x86-64-v4

levels: evalfile
	@for level in $(LEVELS); do \
	  RUSTFLAGS="-C target-cpu=$$level" CARGO_TARGET_DIR="$(TARGET_DIR)/$$level" \
	    cargo build --release || exit 1; \
	  cp "$(TARGET_DIR)/$$level/release/tabas" "$(EXE)-$$level" || exit 1; \
	done

levels-check: levels
	@nodes=""; for level in $(LEVELS); do \
	  out=$$(./$(EXE)-$$level bench 2>/dev/null); status=$$?; \
	  if [ $$status -eq 3 ]; then echo "$$level: not run, this CPU lacks its instructions"; continue; fi; \
	  [ $$status -eq 0 ] || { echo "$$level: bench failed ($$status)"; exit 1; }; \
	  line=$$(echo "$$out" | tail -n 1); echo "$$level: $$line"; \
	  n=$${line%% nodes*}; nodes="$$nodes $$n"; \
	done; \
	distinct=$$(echo $$nodes | tr ' ' '\n' | sort -u | wc -l); \
	[ "$$distinct" -eq 1 ] || { echo "levels-check: node counts differ:$$nodes"; exit 1; }; \
	echo "levels-check: every level searched $$(echo $$nodes | cut -d' ' -f1) nodes"

evalfile:
ifneq ($(strip $(EVALFILE)),)
	@test -f "$(EVALFILE)" || { echo "make: EVALFILE=$(EVALFILE): no such file" >&2; exit 1; }
	@cmp -s "$(EVALFILE)" src/nnue/default.nnue || { \
	  echo "make: EVALFILE=$(EVALFILE) is not the built-in network src/nnue/default.nnue." >&2; \
	  echo "      Tabas embeds that file at compile time: copy the net there and build again," >&2; \
	  echo "      or load it at run time with 'setoption name EvalFile value <path>'." >&2; \
	  exit 1; }
endif

.PHONY: all native levels levels-check evalfile
