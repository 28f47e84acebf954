# For OpenBench: `make EXE=name` builds the engine as `name`.
EXE ?= tabas

all:
	cargo build --release
	cp target/release/tabas $(EXE)

# For your own CPU: `make native` compiles for every instruction set this CPU has
# (the default binary runs on any x86-64 and picks AVX2 at run time). A separate
# target directory keeps the two builds from rebuilding each other.
native:
	RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native cargo build --release
	cp target/native/release/tabas $(EXE)-native

.PHONY: all native
