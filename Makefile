# Everything a developer or CI runs. The protobuf toolchain (buf and the
# protoc plugins) is pinned in buildtools/go.mod and run with `go tool`, so library
# users of this module never inherit it.
GO ?= go
BUF := $(GO) tool -modfile=buildtools/go.mod buf
PROTO_DEPS := build/proto-deps
# The last release's tool snapshots and the breaks declared since.
BASELINE := tests/toolsnaps/release

.PHONY: all generate proto-deps lint test vet check-generated check-breaking toolsnaps-baseline

all: generate vet test

# buf/validate/validate.proto, printed from the protovalidate Go module, by
# the plugin's --export-protos (as other teams get it; buf.yaml ignores the
# copy of our own options proto it writes beside it).
proto-deps:
	$(GO) run ./cmd/protoc-gen-forgetools --export-protos $(PROTO_DEPS) >/dev/null

generate: proto-deps
	$(BUF) generate
	$(BUF) generate --template tests/eleventharm/buf.gen.yaml
	$(BUF) generate --template tests/probe/buf.gen.yaml
	$(GO) build ./gen/... ./tests/eleventharm/... ./tests/probe/...
	$(GO) vet ./gen/... ./tests/eleventharm/... ./tests/probe/...
	UPDATE_TOOLSNAPS=1 $(GO) test ./tests/toolsnaps/ -run TestToolSnapshots -count=1 >/dev/null
	$(GO) run ./cmd/forgetools tools --format markdown > docs/tools.md
	$(GO) run ./cmd/forgetools tools --format markdown --shape grouped > docs/tools-grouped.md
	UPDATE_REQUESTS=1 $(GO) test ./tests/cost/ -run TestRequestsPerCall -count=1 >/dev/null

lint: proto-deps
	$(BUF) lint

vet:
	$(GO) vet ./...

# The README's test command: every test, PostgreSQL included.
test:
	./scripts/test

# Fails when generated code, tool snapshots or docs differ from what the
# protos produce.
check-generated: generate
	git add -N gen tests/eleventharm tests/probe tests/toolsnaps docs
	git diff --exit-code -- gen tests/eleventharm tests/probe tests/toolsnaps docs

# Fails when the tools break a model's call against the release baseline
# and the break is not declared in $(BASELINE)/declared-breaks.
check-breaking:
	$(GO) run ./cmd/forgetools tools --breaking-against $(BASELINE) --declared $(BASELINE)/declared-breaks
	$(GO) run ./cmd/forgetools tools --shape grouped --breaking-against $(BASELINE)/grouped --declared $(BASELINE)/grouped/declared-breaks

# At a release: the current tool snapshots become the baseline, and the
# declared breaks start again from the file's comments.
toolsnaps-baseline:
	for d in . grouped; do \
	  mkdir -p $(BASELINE)/$$d && rm -f $(BASELINE)/$$d/*.json && \
	  cp tests/toolsnaps/$$d/*.json $(BASELINE)/$$d/ && \
	  grep '^#' $(BASELINE)/declared-breaks > $(BASELINE)/$$d/declared-breaks.new && \
	  mv $(BASELINE)/$$d/declared-breaks.new $(BASELINE)/$$d/declared-breaks || exit 1; \
	done
