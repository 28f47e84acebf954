# For OpenBench: `make EXE=name` builds the engine as `name`.
EXE ?= tabas

all:
	cargo build --release
	cp target/release/tabas $(EXE)

.PHONY: all
