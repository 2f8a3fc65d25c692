# `make EXE=<path>` builds the tetrarch binary at <path> (OpenBench builds engines this way).
# `make test` runs every test (see tools/test.sh).
EXE ?= tetrarch
CARGO ?= cargo

.PHONY: build test clean

build:
	$(CARGO) build --release -p tetrarch-protocols
	cp target/release/tetrarch$(if $(filter Windows_NT,$(OS)),.exe,) $(EXE)

test:
	bash tools/test.sh

clean:
	$(CARGO) clean
