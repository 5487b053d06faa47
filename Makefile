# Vigil's everyday commands. CI runs .ci/run, which runs `make test`'s command.
GO ?= go
FUZZTIME ?= 30s

.PHONY: run test lint bench fuzz build

build:
	$(GO) build -o bin/vigil ./cmd/vigil

# vigil diff exits 1 when the documents differ, as diff(1) does.
run:
	$(GO) run ./cmd/vigil diff --format summary testdata/example/v1.xml testdata/example/v2.xml || test $$? -eq 1

test:
	$(GO) test ./...

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$unformatted" ]; then echo "not gofmt-ed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	@if command -v staticcheck >/dev/null; then staticcheck ./...; else echo "staticcheck not installed: go install honnef.co/go/tools/cmd/staticcheck@v0.8.2"; fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Each fuzz target runs for FUZZTIME; the seed corpora run in every `make test`.
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done
