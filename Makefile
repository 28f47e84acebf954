# For OpenBench: `make EXE=name` builds the engine as `name`. Every build here is the
# engine alone, without the offline tools (cargo feature `tools`, on in a plain
# `cargo build`: src/tools/): `--no-default-features`, the same search and the same
# `bench`, less to compile. `tabas datagen` and the other tools then say that they are
# not built in; `cargo build --release` builds them.
# `make EVALFILE=path` builds it with the network file `path` inside instead of
# src/nnue/default.nnue (build.rs, TABAS_EVALFILE): first the default engine is built
# and asked to load the file, so a file it cannot load stops the build with its reason;
# the build with the file inside lands in a target directory of its own (…/evalfile).
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
FEATURES := --no-default-features $(if $(filter 1,$(TUNE)),--features tuning,)
NET := $(if $(strip $(EVALFILE)),$(abspath $(EVALFILE)),)
# The network for cargo, and where a build with it lands.
NET_ENV := $(if $(NET),TABAS_EVALFILE="$(NET)",)
NET_DIR := $(if $(NET),/evalfile,)

all: evalfile
	$(NET_ENV) CARGO_TARGET_DIR="$(BUILD_DIR)$(NET_DIR)" cargo build --release $(FEATURES)
	cp "$(BUILD_DIR)$(NET_DIR)/release/tabas" "$(EXE)"

# For your own CPU: `make native` compiles for every instruction set this CPU has
# (the default binary runs on any x86-64 and picks AVX2 at run time). A separate
# target directory keeps the two builds from rebuilding each other.
native: evalfile
	$(NET_ENV) RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR="$(TARGET_DIR)/native$(NET_DIR)" \
	  cargo build --release $(FEATURES)
	cp "$(TARGET_DIR)/native$(NET_DIR)/release/tabas" "$(EXE)-native"

# Release binaries for each x86-64 microarchitecture level: `make levels` writes
# $(EXE)-x86-64 (any x86-64 CPU), -x86-64-v2 (SSE4.2, POPCNT: 2009 on), -x86-64-v3
# (AVX2, BMI2: Intel Haswell 2013 / AMD Excavator 2015 on) and -x86-64-v4 (AVX-512), each
# in its own target directory. A level binary on a CPU without its instructions says so
# and exits with status 3. `make levels-check` also runs `bench` with each binary this
# CPU can run and fails unless all give the same node count.
LEVELS := x86-64 x86-64-v2 x86-64-v3 x86-64-v4

levels: evalfile
	@for level in $(LEVELS); do \
	  $(NET_ENV) RUSTFLAGS="-C target-cpu=$$level" CARGO_TARGET_DIR="$(TARGET_DIR)/$$level$(NET_DIR)" \
	    cargo build --release $(FEATURES) || exit 1; \
	  cp "$(TARGET_DIR)/$$level$(NET_DIR)/release/tabas" "$(EXE)-$$level" || exit 1; \
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

# With EVALFILE: the default engine must load the file (else the reason, and no build).
evalfile:
ifneq ($(NET),)
	@test -f "$(NET)" || { echo "make: EVALFILE=$(EVALFILE): no such file" >&2; exit 1; }
	CARGO_TARGET_DIR="$(BUILD_DIR)" cargo build --release $(FEATURES)
	@out=$$("$(BUILD_DIR)/release/tabas" "setoption name EvalFile value $(NET)" quit 2>/dev/null); \
	  case "$$out" in *"info string error"*) \
	    echo "make: EVALFILE=$(EVALFILE) is not a network this engine can load:" >&2; \
	    echo "$$out" >&2; exit 1;; esac
endif

.PHONY: all native levels levels-check evalfile
