# Vigil's everyday commands. CI runs .ci/run, which runs `make test`'s command.
GO ?= go
FUZZTIME ?= 30s

.PHONY: run test lint bench fuzz build

build:
	$(GO) build -o bin/vigil ./cmd/vigil

run:
	$(GO) run ./cmd/vigil diff testdata/example/v1.xml testdata/example/v2.xml

test:
	$(GO) test ./...

lint:
	gofmt -l $$(git ls-files '*.go')
	$(GO) vet ./...
	@command -v staticcheck >/dev/null && staticcheck ./... || echo "staticcheck not installed: go install honnef.co/go/tools/cmd/staticcheck@latest"

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Each fuzz target runs for FUZZTIME; the seed corpora run in every `make test`.
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done
