# For OpenBench: `make EXE=name` builds the engine as `name`.
# `make EVALFILE=path` checks that `path` is the network built in: the net is embedded
# from src/nnue/default.nnue at compile time, so another file is an error, not a net
# silently left out (put it there, or load it at run time: setoption name EvalFile value <path>).
# The build lands where cargo puts it: $(CARGO_TARGET_DIR) when set, else target/.
EXE ?= tabas
EVALFILE ?=
TARGET_DIR := $(if $(CARGO_TARGET_DIR),$(CARGO_TARGET_DIR),target)

all: evalfile
	cargo build --release
	cp "$(TARGET_DIR)/release/tabas" "$(EXE)"

# For your own CPU: `make native` compiles for every instruction set this CPU has
# (the default binary runs on any x86-64 and picks AVX2 at run time). A separate
# target directory keeps the two builds from rebuilding each other.
native: evalfile
	RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR="$(TARGET_DIR)/native" cargo build --release
	cp "$(TARGET_DIR)/native/release/tabas" "$(EXE)-native"

evalfile:
ifneq ($(strip $(EVALFILE)),)
	@test -f "$(EVALFILE)" || { echo "make: EVALFILE=$(EVALFILE): no such file" >&2; exit 1; }
	@cmp -s "$(EVALFILE)" src/nnue/default.nnue || { \
	  echo "make: EVALFILE=$(EVALFILE) is not the built-in network src/nnue/default.nnue." >&2; \
	  echo "      Tabas embeds that file at compile time: copy the net there and build again," >&2; \
	  echo "      or load it at run time with 'setoption name EvalFile value <path>'." >&2; \
	  exit 1; }
endif

.PHONY: all native evalfile
