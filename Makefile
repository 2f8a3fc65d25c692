# `make EXE=<path>` builds the tetrarch binary at <path> (OpenBench builds engines this way).
# `make EXE=<path> FEATURES=tuning` builds it with the search parameters as UCI options (SPSA).
# `make test` runs every test (see tools/test.sh).
EXE ?= tetrarch
CARGO ?= cargo
FEATURES ?=

.PHONY: build test clean

build:
	$(CARGO) build --release -p tetrarch-protocols $(if $(FEATURES),--features $(FEATURES))
	cp target/release/tetrarch$(if $(filter Windows_NT,$(OS)),.exe,) $(EXE)

test:
	bash tools/test.sh

clean:
	$(CARGO) clean
