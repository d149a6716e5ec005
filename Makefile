# The feedback collection service. `make help` lists the targets.

GO        ?= go
BIN       := bin
FEEDBACKD := $(BIN)/feedbackd
DB        ?= ./data/feedback.db
# make run ADDR=:9090 serves on another port; the printed links follow.
ADDR      ?= $(or $(FEEDBACK_ADDR),:8080)
PORT      := $(lastword $(subst :, ,$(ADDR)))
BASE_URL  ?= $(or $(FEEDBACK_BASE_URL),http://localhost:$(PORT))
# Fuzz budgets are counts, not durations: a duration races Go 1.26's fuzz
# coordinator at its deadline (golang/go#75804, fixed in Go 1.27) and fails
# with "context deadline exceeded" on a busy machine.
FUZZTIME  ?= 300000x
BENCHTIME ?= 3s
LOADSECS  ?= 10
REPS      ?= 3
STATSROWS ?= 10000000
STATSRUNS ?= 7
STATICCHECK := $(BIN)/staticcheck
WASMBROWSERTEST := $(BIN)/wasmbrowsertest

WASM      := web/app.wasm
DASHWASM  := web/dashboard.wasm
BROTLI_Q  ?= 11
APP_SRC   := $(shell find app shared -name '*.go' -not -name '*_test.go') go.mod go.sum

.PHONY: help build wasm run test screenshots test-postgres check lint fuzz bench tools axe clean

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

build: ## build bin/feedbackd
	$(GO) build -trimpath -o $(FEEDBACKD) ./server/cmd/feedbackd

wasm: $(WASM).br $(DASHWASM).br ## build the PWA into web/app.wasm and the dashboard into web/dashboard.wasm, with .br and .gz copies

# The service's own packages are compiled without inlining for the
# browser: their code runs once per tap, and inlining go-app's element
# builders into every render function made the visitors' download 9 KB
# (brotli) larger. go-app and the standard library keep their inlining.
WASMFLAGS := -trimpath -gcflags='github.com/feedbackhq/feedback/...=-l' -ldflags="-s -w"

$(WASM): $(APP_SRC)
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) -o $(WASM) ./app

$(DASHWASM): $(APP_SRC)
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) -o $(DASHWASM) ./app/cmd/dashboard

%.wasm.br: %.wasm
	$(GO) run ./server/cmd/precompress -brotli $(BROTLI_Q) $<

run: build wasm ## start the service on the embedded SQLite default with a demo workspace (ADDR=:8080)
	$(FEEDBACKD) demo --db $(DB) --base-url $(BASE_URL)
	$(FEEDBACKD) serve --db $(DB) --addr $(ADDR) --base-url $(BASE_URL)

AXE       := .ci/node/node_modules/axe-core/axe.min.js
AXE_VERSION := 4.10.3

test: $(WASMBROWSERTEST) axe ## run every test (PostgreSQL, Chromium and axe-core suites skip with one line when missing, unless CI=true)
	@tools/prereqs.sh
	$(GO) test -race -count=1 ./...
	GOOS=js GOARCH=wasm $(GO) build ./shared/... ./app/...
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec $(CURDIR)/$(WASMBROWSERTEST) ./app/browser/ ./app/offline/... ./shared/client/

screenshots: axe ## run the browser tests and write a PNG of each dashboard page into docs/screenshots/ (needs chromium, PostgreSQL, pngquant)
	rm -rf docs/screenshots && mkdir -p docs/screenshots
	FEEDBACK_SCREENSHOTS=$(CURDIR)/docs/screenshots FEEDBACK_AXE_JS=$(CURDIR)/$(AXE) $(GO) test -count=1 \
		-run 'TestDashboard(Places|Hygiene|People|Live|Survey|SurveyUnsaved|Reviews|Viewer|PlatformOwner|SettingsNotFound|Insights)$$|TestIntegrations$$|TestAccount$$|TestAlert(EndToEnd|RulesEditor)$$' ./server/e2e/
	pngquant --force --skip-if-larger --ext .png --quality 60-90 docs/screenshots/*.png
	@du -sh docs/screenshots

test-postgres: ## run every test and require PostgreSQL
	FEEDBACK_REQUIRE_POSTGRES=1 $(MAKE) test

check: lint ## lint and compile for the browser
	GOOS=js GOARCH=wasm $(GO) build ./shared/... ./app/...
	GOOS=js GOARCH=wasm $(GO) vet ./shared/... ./app/...

lint: tools ## gofmt, go vet and staticcheck
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); echo 'gofmt: the files above need formatting'; exit 1)
	$(GO) vet ./...
	$(STATICCHECK) ./...

fuzz: ## run each fuzz target briefly (FUZZTIME=300000x executions)
	$(GO) test -run '^$$' -fuzz '^FuzzParsePosterCode$$' -fuzztime $(FUZZTIME) ./server/secret
	$(GO) test -run '^$$' -fuzz '^FuzzCheckURL$$' -fuzztime $(FUZZTIME) ./server/webhook
	$(GO) test -run '^$$' -fuzz '^FuzzParseListParams$$' -fuzztime $(FUZZTIME) ./shared/feedback
	$(GO) test -run '^$$' -fuzz '^FuzzSubmissionJSON$$' -fuzztime $(FUZZTIME) ./shared/feedback
	$(GO) test -run '^$$' -fuzz '^FuzzSubmissionForm$$' -fuzztime $(FUZZTIME) ./shared/feedback
	$(GO) test -run '^$$' -fuzz '^FuzzCheckJSONText$$' -fuzztime $(FUZZTIME) ./server/http/request

bench: ## feedbackd against bare INSERT/SELECT servers from outside (pinned, interleaved), the live stream from outside, the statistics rollups against a GROUP BY over 10M rows, then the Go benchmarks and wrk runs (needs PostgreSQL, wrk; see README)
	$(GO) run ./server/bench/compare -store postgres -secs $(LOADSECS) -reps $(REPS)
	$(GO) run ./server/bench/compare -store sqlite -secs $(LOADSECS) -reps $(REPS)
	$(GO) run ./server/bench/live
	$(GO) run ./server/bench/stats -rows $(STATSROWS) -runs $(STATSRUNS)
	$(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) -timeout 60m ./server/bench/ | $(GO) run ./server/bench/ratio
	$(GO) test -run '^$$' -bench '^BenchmarkDeliver$$' -benchtime $(BENCHTIME) ./server/webhook/ | $(GO) run ./server/bench/ratio
	$(GO) test -run '^$$' -bench DeliveryLatency -benchtime 1000x ./server/webhook/
	$(GO) test -run '^$$' -bench 'DeliveryUnderIngest|NoisyNeighbour|SlowReceiver|IdleDispatcher' -benchtime 1x -count 3 -timeout 30m ./server/webhook/
	$(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) ./server/poster/
	server/bench/load.sh postgres $(LOADSECS)
	server/bench/load.sh sqlite $(LOADSECS)
	server/bench/webhook.sh $(LOADSECS) 0s
	server/bench/webhook.sh 5 200ms

tools: $(STATICCHECK) $(WASMBROWSERTEST) ## build the pinned Go tools into bin/

axe: ## install axe-core for the accessibility checks, when npm is there
	@test -f $(AXE) || ! command -v npm >/dev/null || \
		npm install --no-save --no-audit --no-fund --prefix .ci/node axe-core@$(AXE_VERSION) >/dev/null 2>&1 || \
		echo "make: npm could not install axe-core@$(AXE_VERSION)"

$(STATICCHECK): tools/go.mod tools/go.sum
	cd tools && $(GO) build -o ../$(STATICCHECK) honnef.co/go/tools/cmd/staticcheck

# wasmbrowsertest runs the browser packages' tests in Chromium.
$(WASMBROWSERTEST): tools/go.mod tools/go.sum
	cd tools && $(GO) build -o ../$(WASMBROWSERTEST) github.com/agnivade/wasmbrowsertest

clean: ## remove build outputs
	rm -rf $(BIN) $(WASM) $(WASM).br $(WASM).gz $(DASHWASM) $(DASHWASM).br $(DASHWASM).gz
