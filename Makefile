# The two commands a newcomer needs: `make run` and `make test` (README.md).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
BOT := .venv/bot/bin
ACT := .venv/actions/bin
MODEL := models/assistant.tar.gz
PIP_INSTALL := pip install --quiet --disable-pip-version-check --no-deps --ignore-requires-python

export PYTHONPATH := $(CURDIR)
export CONTENT_DB_URL ?= sqlite:///$(CURDIR)/var/content.db
export TF_CPP_MIN_LOG_LEVEL ?= 2
# Rasa reports telemetry and crashes to the internet by default; this machine must not.
export RASA_TELEMETRY_ENABLED := false

# Everything that shapes the trained model: retrain when any of it is newer than the model.
MODEL_INPUTS := config.yml $(wildcard bot/domain/*.yml) $(shell find data -name '*.yml') \
	$(wildcard bot/nlu/*.py kernel/lang/*.py)

.PHONY: help setup run db purge train lint mypy check test test-unit validate validate-if-changed test-nlu test-stories test-followups \
	test-integration journeys danger-model deps deps-check axe-core bench bench-nlu bench-content bench-alerts \
	bench-action-secret bench-action-server bench-memory bench-mailbox bench-console bench-cases bench-sms bench-load bench-surge bench-language bench-urgency bench-claims bench-answers bench-locks \
	bench-webchat bench-embed bench-fairness bench-line chaos cluster cluster-if-root clean screenshots

help:
	@echo "make run    start the assistant (action server :5055, Rasa :5005) until Ctrl-C"
	@echo "make test   lint, unit tests, rasa data validate, train, held-out accuracy, test stories,"
	@echo "            integration (real servers, headless Chromium for the web chat), chaos, and as"
	@echo "            root the cluster"
	@echo "make check  the edit loop before a commit (under 4 min): lint, mypy, both runtimes' unit"
	@echo "            tests on every core with the database tests on SQLite only (TEST_DATABASES),"
	@echo "            rasa data validate if its inputs changed; no model, browser or servers"
	@echo "make journeys  whole journeys of evacuees, editors and caseworkers on make run's stack"
	@echo "make screenshots  copy the pictures the docs show, as the last browser tests took them"
	@echo "            (results/screenshots/), into docs/: tests never write into docs/"
	@echo "make deps   install the system packages the tests need (Debian: chromium, fonts, npm,"
	@echo "            redis-server; as root); make test only checks for them"
	@echo "make setup  create .venv/bot and .venv/actions from requirements/*.lock (runtime + dev-*)"
	@echo "make train  train $(MODEL) if it is missing or older than its inputs"
	@echo "make db     migrate and seed the content database ($$CONTENT_DB_URL)"
	@echo "make purge  delete conversations and alert data past their retention period"
	@echo "make bench  benchmarks (NLU vs stock Rasa; content actions' latency; alerts to 10 000"
	@echo "            subscribers; the channels' memory in Redis); see docs/BENCHMARKS.md"
	@echo "make bench-cases 'talk to a person' to the caseworkers' queue and a helpdesk; 1 000 cases"
	@echo "make bench-sms   what an SMS user pays (sends, segments) per question, five language slices"
	@echo "make bench-language  do shared words («سلام», numbers, names) move a conversation's language?"
	@echo "make bench-urgency   urgent-case words, and danger first: precision and recall per kind and slice"
	@echo "make danger-model    train the classifier behind the danger words (kernel/danger_model.json)"
	@echo "make bench-claims    rumours to checked claims: top-1 per language slice, false matches, 5 000 claims"
	@echo "make bench-answers   editors' answers through the NLU, find and route: top-1 per slice, wrong"
	@echo "            answers, the fixed topics kept; ours vs BM25 vs an embedding (after make train)"
	@echo "make bench-locks     a conversation's lock per turn: Redis calls in the event loop vs in threads"
	@echo "make bench-webchat   300 people behind one address and one script flooding from it: the old"
	@echo "            per-address limit vs pages' tickets and work; the work timed in Chromium"
	@echo "            (BENCH_WEBCHAT_REDIS=1 also against a redis-server of its own)"
	@echo "make bench-embed  the web chat on another site's page, on DevTools' Slow 3G: embed.js and"
	@echo "            the button, then the chat once tapped, beside /webchat/ opened directly"
	@echo "make bench-load  full stack under load: make run's setup, production (PostgreSQL, Redis,"
	@echo "            several workers) and stock Rasa side by side (BENCH_DURATION=60 BENCH_CONCURRENCY=50)"
	@echo "make bench-surge production on Telegram at 3x its capacity, direct vs queued intake"
	@echo "make bench-line  what keeping make run's line in SQLite costs a message, beside memory"
	@echo "            (BENCH_SURGE_SECONDS=60 BENCH_SURGE_FACTOR=3 BENCH_SURGE_CAPACITY_SECONDS=30)"
	@echo "make bench-fairness  one person's flood against everyone else's answers, the line as it"
	@echo "            was vs each person's share (production, Telegram); the editors' rumour page"
	@echo "make chaos  kill the action server, a Rasa process and Redis under a web-chat load (about"
	@echo "            3 min): what each message got, time to recover; needs PostgreSQL, redis-server"
	@echo "make cluster  six hosts (network namespaces: nginx, 2 Rasa, actions, Redis, PostgreSQL);"
	@echo "            cut a Rasa host off, kill the action server, partition Redis (as root, ~3 min;"
	@echo "            the last step of make test when it runs as root)"

## Environments ---------------------------------------------------------------------------
setup: .venv/bot/.installed .venv/actions/.installed

# Runtime lock + its development tools (requirements/dev-*.lock). A production install takes the
# runtime lock only (docs/OPERATIONS.md, "Installing"): the last step proves that lock complete alone.
.venv/%/.installed: requirements/%.lock requirements/dev-%.lock
	@$(PYTHON) -c 'import sys; assert (3, 10) <= sys.version_info[:2] <= (3, 11), \
		f"Python 3.10 or 3.11 needed, found {sys.version.split()[0]} (set PYTHON=...)"'
	@echo "Creating .venv/$* from requirements/$*.lock and dev-$*.lock (first time: a few minutes) ..."
	$(PYTHON) -m venv .venv/$*
	.venv/$*/bin/$(PIP_INSTALL) -r requirements/$*.lock -r requirements/dev-$*.lock
	@# --no-deps installs exactly the locks; pip check proves them complete. Rasa's matplotlib<3.6
	@# pin is the one expected complaint (no cp311 wheel exists; 3.7.5 works, see README).
	@{ .venv/$*/bin/pip check || true; } | { grep -v -e "has requirement matplotlib<3.6" -e "^No broken requirements" || true; } | \
		{ ! grep . ; } || { echo "pip check failed for .venv/$*"; exit 1; }
	.venv/$*/bin/python scripts/locks.py complete requirements/$*.lock
	touch $@

## Content database -------------------------------------------------------------------------
db: .venv/actions/.installed
	@mkdir -p var  # the default SQLite file lives there
	$(ACT)/python -m actions.content migrate
	$(ACT)/python -m actions.content seed

# Retention (docs/DATA_PROTECTION.md): conversations older than CONVERSATION_RETENTION in the
# tracker store of RASA_ENDPOINTS, then expired subscriptions and addresses and old deliveries.
# Running servers also do this hourly by themselves.
purge: setup db
	SQLALCHEMY_SILENCE_UBER_WARNING=1 $(BOT)/python -m bot.stores purge --endpoints $${RASA_ENDPOINTS:-endpoints.yml}
	$(ACT)/python -m actions.alerts purge

## Model ----------------------------------------------------------------------------------
train: $(MODEL)

$(MODEL): $(MODEL_INPUTS) | .venv/bot/.installed
	$(BOT)/rasa train --config config.yml --domain bot/domain --data data \
		--out models --fixed-model-name assistant
	@touch $@

## Run ------------------------------------------------------------------------------------
run: START := $(shell date +%s.%N)
# The content runtime's Python: stack.py reads the endpoints file with PyYAML, which a bare
# system python3 need not have.
run: setup db train
	$(ACT)/python scripts/stack.py --model $(MODEL) --content-db-url "$(CONTENT_DB_URL)" \
		--since $(START)

## Tests ----------------------------------------------------------------------------------
# mypy runs twice, once per runtime, against that runtime's packages: the content runtime's
# code with .venv/actions, the bot runtime's (bot/ with the channels, Rasa's annotations) with
# .venv/bot's interpreter. Each script is checked with the venv that runs it. `make mypy` is also
# the pre-commit hook (.pre-commit-config.yaml), so it needs the venvs but never builds them.
BOT_SCRIPTS := scripts/bench_nlu.py scripts/bench_language_hold.py scripts/bench_channel_memory.py scripts/dated_stories.py \
	scripts/bench_tracker_read.py scripts/bench_lock_store.py scripts/train_danger.py scripts/bench_webchat.py \
	scripts/bench_line.py
MYPY_ACTIONS := actions kernel $(filter-out $(BOT_SCRIPTS),$(wildcard scripts/*.py)) scripts/loadtest scripts/cluster
MYPY_BOT := bot $(BOT_SCRIPTS)

LINTED := bot kernel actions tests scripts conftest.py

lint: setup
	$(ACT)/ruff check $(LINTED)
	$(ACT)/ruff format --check $(LINTED)
	$(ACT)/python scripts/locks.py agree
	PYTHONPATH=. $(ACT)/lint-imports --no-cache
	@$(MAKE) --no-print-directory mypy

mypy:
	$(ACT)/mypy --cache-dir .mypy_cache/actions $(MYPY_ACTIONS)
	$(ACT)/mypy --cache-dir .mypy_cache/bot --python-executable $(BOT)/python $(MYPY_BOT)

# Each runtime's unit tests in its own venv (tests/runtimes.py), on every core (pytest-xdist):
# they use free ports, tmp_path, and PostgreSQL databases and schemas and Redis key prefixes of
# their own, so workers share nothing. Whole files stay on one worker (module fixtures are built
# once). Tests marked `serial` (timing measured against a deadline) run afterwards, alone.
XDIST ?= -n auto --dist loadfile
UNIT_BOT := tests/bot tests/channels
UNIT_ACTIONS := tests/actions tests/tooling

# The second pass collects only the files with such a test (collecting Rasa's tests costs).
serial_files = $(shell grep -rl --include='test_*.py' 'pytest.mark.serial' $(1))

test-unit: setup
	$(BOT)/pytest -q $(XDIST) -m "not serial" $(UNIT_BOT)
	$(if $(call serial_files,$(UNIT_BOT)),$(BOT)/pytest -q -m serial $(call serial_files,$(UNIT_BOT)))
	$(ACT)/pytest -q $(XDIST) -m "not serial" $(UNIT_ACTIONS)
	$(if $(call serial_files,$(UNIT_ACTIONS)),$(ACT)/pytest -q -m serial $(call serial_files,$(UNIT_ACTIONS)))

# The loop before each commit (README): what `make lint`, `make test-unit` and `make validate`
# check, without the lock files' agreement, the model, the browser or any server. Its database
# tests run on SQLite only (TEST_DATABASES, tests/databases.py: set it to "sqlite postgres" for
# both), and `rasa data validate` only when its inputs changed since it last passed. `make test`
# runs every database test on SQLite and on PostgreSQL, and always validates.
check: export TEST_DATABASES ?= sqlite
check: setup
	$(ACT)/ruff check $(LINTED)
	$(ACT)/ruff format --check $(LINTED)
	@$(MAKE) --no-print-directory mypy
	@$(MAKE) --no-print-directory test-unit
	@$(MAKE) --no-print-directory validate-if-changed

# `rasa data validate` reads the data, the domain and the config, and nothing else (no component
# is loaded); Rasa's version is in bot.lock. Once it passes, their digest goes to a stamp:
# `make check` validates again only when they changed since (scripts/unchanged.py); `make
# validate` and `make test` always validate.
VALIDATE_INPUTS := config.yml bot/domain data requirements/bot.lock
VALIDATED := var/validated.sha256
RASA_VALIDATE := $(BOT)/rasa data validate --config config.yml --domain bot/domain --data data \
	--fail-on-warnings

validate: .venv/bot/.installed
	$(RASA_VALIDATE)
	@$(BOT)/python scripts/unchanged.py write $(VALIDATED) $(VALIDATE_INPUTS)

validate-if-changed: .venv/bot/.installed
	@if $(BOT)/python scripts/unchanged.py same $(VALIDATED) $(VALIDATE_INPUTS); then \
		echo "rasa data validate: skipped, $(VALIDATE_INPUTS) unchanged since it passed"; \
	else echo "$(RASA_VALIDATE)" && $(RASA_VALIDATE) && \
		$(BOT)/python scripts/unchanged.py write $(VALIDATED) $(VALIDATE_INPUTS); fi

test-stories: $(MODEL)
	$(BOT)/rasa test core --model $(MODEL) --stories tests/stories \
		--fail-on-prediction-errors --out results/stories

# Follow-ups in every language, end to end on the text: intents and entities as well as the
# actions (docs/CONVERSATIONS.md). Expected dates are relative ("@+1"): dated first.
test-followups: $(MODEL)
	$(BOT)/python scripts/dated_stories.py tests/followups results/followup-stories
	$(BOT)/rasa test core --model $(MODEL) --stories results/followup-stories --e2e \
		--fail-on-prediction-errors --out results/followups

# Held-out accuracy floors for the trained model (regression guard).
test-nlu: $(MODEL)
	$(BOT)/pytest -q tests/nlu

# System packages the tests need, from Debian. Chromium: the web chat's and the console's tests
# drive /usr/bin/chromium with Playwright (Playwright's own browser download would need the
# internet). fonts-noto-core: Noto Sans/Naskh Arabic with every Dari and Pashto letter (Debian's
# default DejaVu Sans lacks ۍ, which the web chat then showed as an empty box); fontconfig finds
# it. npm: installs axe-core. redis-server: the channels' shared memory, the Redis lock store and
# chaos run Redis servers of their own. kannel, kannel-extras: bearerbox, smsbox and fakesmsc, the
# real Kannel of the Kannel channel's test. nginx, iproute2: make cluster's load balancer and its
# network namespaces. `make deps` installs what is missing (as root,
# apt-get); `make test` installs none of them: it names what is missing and stops. .ci/run calls both.
missing_packages = $(strip \
	$(if $(shell command -v chromium),,chromium) \
	$(if $(shell command -v fc-list),,fontconfig) \
	$(if $(shell fc-list ':charset=6cd' family 2>/dev/null),,fonts-noto-core) \
	$(if $(wildcard /usr/sbin/bearerbox),,kannel) \
	$(if $(wildcard /usr/lib/kannel/test/fakesmsc),,kannel-extras) \
	$(if $(wildcard /usr/sbin/nginx),,nginx) \
	$(if $(shell command -v ip),,iproute2) \
	$(if $(shell command -v npm),,npm) \
	$(if $(shell command -v redis-server),,redis-server))

deps:
	@missing="$(missing_packages)"; \
	if [ -z "$$missing" ]; then echo "make deps: every system package the tests need is installed"; \
	else echo "make deps: installing Debian packages: $$missing"; \
		apt-get update && apt-get install -y $$missing; fi

deps-check:
	@missing="$(missing_packages)"; \
	[ -z "$$missing" ] || { echo "Missing system packages for the tests: $$missing"; \
		echo "Run 'make deps' once (as root: it installs them with apt-get), then make test again."; \
		exit 1; }

# The console's accessibility check runs axe-core (npm) inside the page; installed here, under
# var/ (not in git), pinned.
AXE_VERSION := 4.14.1
AXE := var/axe/node_modules/axe-core/axe.min.js
axe-core: $(AXE)
$(AXE):
	@command -v npm >/dev/null || { echo "npm is missing: run 'make deps'"; exit 1; }
	npm install --silent --no-save --no-audit --no-fund --prefix var/axe axe-core@$(AXE_VERSION)

test-integration: deps-check setup $(MODEL) $(AXE)
	$(ACT)/pytest -q tests/integration

# Whole journeys as people walk them (the evacuee at night, the editor on a phone, the caseworker),
# each on a stack started by the very function `make run` uses (tests/journeys/conftest.py), in
# Chromium at 360 px where there is a page. Screenshots of each journey's last screen: results/journeys/.
journeys: deps-check setup $(MODEL)
	$(ACT)/pytest -q tests/journeys

# The pictures in docs/ are refreshed on purpose, never by a test run: the browser tests
# (make test-integration, make journeys) save them under results/screenshots/ (tests/screenshots.py).
screenshots:
	@ls results/screenshots/*.png >/dev/null 2>&1 || \
		{ echo "no screenshots yet: run make test-integration and make journeys first"; exit 1; }
	cp results/screenshots/*.png docs/

test: export TEST_DATABASES := sqlite postgres
test: deps-check setup lint test-unit validate train test-nlu test-stories test-followups test-integration \
	journeys chaos cluster-if-root

## Benchmarks (results: docs/BENCHMARKS.md) ----------------------------------------------
bench: bench-nlu bench-content bench-alerts bench-action-secret bench-action-server bench-memory bench-mailbox \
	bench-console bench-cases bench-sms bench-language bench-urgency bench-claims bench-locks bench-webchat \
	bench-embed

# Ours vs Rasa's default pipeline, trained on the same data, evaluated on the held-out split.
bench-nlu: .venv/bot/.installed
	@mkdir -p results
	$(BOT)/python scripts/bench_nlu.py --config ours=config.yml \
		--config rasa-default=scripts/configs/rasa_default.yml | tee results/bench-nlu.md

# Content actions on 10 000 flights: SQLite, and PostgreSQL too when BENCH_PG_URL is set.
# Urgent cases: whole-word lexicons beside the old prefix matcher, held-out precision and recall.
# The classifier behind the danger words, trained on the development messages (kernel/danger_model.json).
danger-model: .venv/bot/.installed
	$(BOT)/python scripts/train_danger.py

bench-urgency: .venv/actions/.installed
	@mkdir -p results
	$(ACT)/python scripts/bench_urgency.py | tee results/bench-urgency.md
	$(ACT)/python scripts/bench_danger.py | tee results/bench-danger.md

# Rumours to checked claims: held-out paraphrases in five slices, unrelated messages, 5 000 claims.
bench-claims: .venv/actions/.installed
	@mkdir -p results
	$(ACT)/python scripts/bench_claims.py | tee results/bench-claims.md

# Editors' answers: paraphrases of the demo answers in five slices through the trained NLU and
# find/route (the NLU's parses cached in results/answers-nlu.json), needs nothing answers, the
# fixed topics' held-out messages; thresholds chosen on dev; ours vs BM25 vs multilingual-e5-small
# (.venv/bench-embedding, never the product's); 5 000 answers. About 4 minutes; needs the model.
bench-answers: .venv/actions/.installed .venv/bot/.installed .venv/bench-embedding/.installed
	@mkdir -p results
	@test -f $(MODEL) || { echo "$(MODEL) is missing: run make train first"; exit 1; }
	$(ACT)/python scripts/bench_answers.py | tee results/bench-answers.md

# The embedding bench-answers compares, in a venv of its own (requirements/bench-embedding.txt).
.venv/bench-embedding/.installed: requirements/bench-embedding.txt
	$(PYTHON) -m venv .venv/bench-embedding
	.venv/bench-embedding/bin/$(PIP_INSTALL) -r requirements/bench-embedding.txt
	touch $@

# Does a conversation keep its language on words Dari and Pashto share (docs/BENCHMARKS.md)?
bench-language: .venv/bot/.installed
	@mkdir -p results
	$(BOT)/python scripts/bench_language_hold.py | tee results/bench-language.md

bench-content: .venv/actions/.installed
	@mkdir -p results
	$(ACT)/python scripts/bench_content.py $(if $(BENCH_PG_URL),--postgres $(BENCH_PG_URL)) \
		| tee results/bench-content.md

# Every console page over HTTP on 10 000 flights: SQLite, and PostgreSQL too with BENCH_PG_URL.
bench-console: .venv/actions/.installed
	@mkdir -p results
	$(ACT)/python scripts/bench_console.py $(if $(BENCH_PG_URL),--postgres $(BENCH_PG_URL)) \
		| tee results/bench-console.md

# From "talk to a person" to the caseworkers' queue and a helpdesk's webhook on the real stack;
# the queue page with 1 000 open cases and a case event to the webhook receiver, on SQLite and,
# with BENCH_PG_URL, PostgreSQL.
bench-cases: setup $(MODEL)
	@mkdir -p results
	$(ACT)/python scripts/bench_cases.py $(if $(BENCH_PG_URL),--postgres $(BENCH_PG_URL)) \
		| tee results/bench-cases.md

# One broadcast to 10 000 subscribers, end to end (PostgreSQL, Rasa, action server, notifier)
# against local fake providers that refuse what exceeds their rates; BENCH_SUBSCRIBERS=2000.
bench-alerts: setup $(MODEL)
	@mkdir -p results
	$(ACT)/python scripts/bench_alerts.py $(if $(BENCH_SUBSCRIBERS),--subscribers $(BENCH_SUBSCRIBERS)) \
		| tee results/bench-alerts.md

# The action server with and without its shared secret, side by side: the secret's cost per call.
bench-action-secret: .venv/actions/.installed
	@mkdir -p results
	$(ACT)/python scripts/bench_action_secret.py | tee results/bench-action-secret.md
# What the action server loads on the whole actions package beside actions.chat (its own):
# modules, start time, memory.
bench-action-server: .venv/actions/.installed
	@mkdir -p results
	$(ACT)/python scripts/bench_action_server.py | tee results/bench-action-server.md
# The channels' memory per turn: this process's against Redis (a redis-server of its own).
bench-memory: .venv/bot/.installed
	@mkdir -p results
	$(BOT)/python scripts/bench_channel_memory.py | tee results/bench-memory.md
# A conversation's lock per turn: Redis calls in the event loop (Rasa's way) against the lock
# store's own threads, and what each does to the event loop while Redis does not answer.
bench-locks: .venv/bot/.installed
	@mkdir -p results
	$(BOT)/python scripts/bench_lock_store.py | tee results/bench-locks.md
# The web chat's limits per client: 300 people behind one address within an hour and one script
# flooding new conversations from it, the old per-address rule beside pages' tickets and work,
# through the real web chat channel on a simulated clock; then the page's work (work.js) timed
# in Chromium, at full speed and 6x slower (a cheap phone). About 2 minutes.
bench-webchat: .venv/bot/.installed .venv/actions/.installed
	@mkdir -p results
	$(BOT)/python scripts/bench_webchat.py $(if $(BENCH_WEBCHAT_REDIS),--redis) | tee results/bench-webchat.md
	$(ACT)/python scripts/bench_webchat_work.py | tee -a results/bench-webchat.md
# The web chat on another site's page (embed.js), on a phone on DevTools' Slow 3G in Chromium,
# against make run's stack: embed.js's bytes and the button's time, nothing else loaded before
# the tap, then the chat's bytes and time until its question box works, beside /webchat/ opened
# directly; five first visits each (BENCH_EMBED_RUNS). About 3 minutes.
BENCH_EMBED_RUNS ?= 5
bench-embed: setup $(MODEL)
	@mkdir -p results
	$(ACT)/python scripts/bench_embed.py --runs $(BENCH_EMBED_RUNS) | tee results/bench-embed.md
# What the web chat pages' mailbox fetches cost a real Rasa process (memory there, and Redis).
bench-mailbox: setup $(MODEL)
	@mkdir -p results
	$(ACT)/python scripts/bench_mailbox.py | tee results/bench-mailbox.md

# What an SMS user pays: messages sent and segments received until each of a fixed list of
# questions is answered, in five language slices, through the real sms_gateway channel.
bench-sms: setup $(MODEL)
	@mkdir -p results
	$(ACT)/python scripts/bench_sms.py --transcript results/bench-sms-transcript.txt | tee results/bench-sms.md

# Full stack under load, side by side: make run's setup, the production setup (PostgreSQL tracker
# store, Redis lock store, several workers; needs both services) and stock Rasa: `rasa run` on
# this project trained with Rasa's default config (about 35 minutes the first time, then kept).
# BENCH_PROFILE=1 adds where each turn's CPU goes (py-spy). Setup and numbers: docs/BENCHMARKS.md.
BENCH_DURATION ?= 60
BENCH_CONCURRENCY ?= 50
bench-load: setup $(MODEL)
	@mkdir -p results
	$(ACT)/python scripts/bench_load.py --duration $(BENCH_DURATION) \
		--concurrency $(BENCH_CONCURRENCY) $(if $(BENCH_PROFILE),--profile results/profile)

# The production setup on Telegram (fake Bot API on loopback): closed-loop capacity, then
# BENCH_SURGE_FACTOR × it for BENCH_SURGE_SECONDS, CHANNEL_INTAKE=direct beside queue; lost and
# doubled messages, webhook latency, notices of the wait, drain rate, memory (docs/BENCHMARKS.md,
# "Surge"). Needs PostgreSQL and Redis. About 10 minutes with the defaults; BENCH_SURGE_PROFILE=1
# adds where Rasa's time goes during the arrivals (py-spy).
BENCH_SURGE_SECONDS ?= 60
BENCH_SURGE_FACTOR ?= 3
BENCH_SURGE_CAPACITY_SECONDS ?= 30
BENCH_SURGE_MODES ?= direct,queue
# The embedded line kept in SQLite (INTAKE_JOURNAL) beside the line in memory, in one run.
BENCH_LINE_MESSAGES ?= 5000
bench-line: .venv/bot/.installed
	$(BOT)/python scripts/bench_line.py --messages $(BENCH_LINE_MESSAGES)

bench-surge: setup $(MODEL)
	@mkdir -p results
	$(ACT)/python scripts/bench_surge.py --seconds $(BENCH_SURGE_SECONDS) \
		--factor $(BENCH_SURGE_FACTOR) --capacity-seconds $(BENCH_SURGE_CAPACITY_SECONDS) \
		--modes $(BENCH_SURGE_MODES) $(if $(BENCH_SURGE_PROFILE),--profile results/profile)

# One Telegram chat's 600 questions, 300 "urgent" ones and 40 at the provider's pace against
# everyone else's answers, each variant on a fresh production stack (about 15 minutes); then
# three web chat clients' 55 nonsense rumours against the editors' rumour page.
bench-fairness: setup $(MODEL)
	@mkdir -p results
	$(ACT)/python scripts/bench_fairness.py | tee results/bench-fairness.md
	$(ACT)/python scripts/bench_rumour_page.py | tee -a results/bench-fairness.md

# Production profile (2 Rasa processes, PostgreSQL tracker store in a fresh database, a Redis of
# its own on a free port), 6 people in the web chat; the action server, one Rasa process and
# Redis are killed in turn. About 3 minutes; exit 1 if a message was lost. The last step of
# `make test` (docs/OPERATIONS.md, "The chaos test").
chaos: deps-check setup $(MODEL)
	@mkdir -p results
	$(ACT)/python scripts/chaos.py $(if $(CHAOS_LABEL),--label "$(CHAOS_LABEL)")

# The multi-machine deployment of docs/OPERATIONS.md as network namespaces on one bridge (root):
# an nginx front, 2 Rasa hosts, an action server, Redis and a PostgreSQL cluster of its own, under
# a web chat load in three languages; a Rasa host cut off, the action server killed, Redis
# partitioned (docs/OPERATIONS.md, "The cluster test").
cluster: setup $(MODEL)
	@mkdir -p results
	$(ACT)/python -m scripts.cluster $(if $(CLUSTER_LABEL),--label "$(CLUSTER_LABEL)")

# The last step of `make test`: the cluster where it can make network namespaces (root, as CI
# runs); elsewhere it says it left the cluster out, so `make test` never needs root.
cluster-if-root:
	@if [ "$$(id -u)" = 0 ]; then $(MAKE) --no-print-directory cluster; \
	else echo "make cluster: left out (its network namespaces need root; run it as root)"; fi

clean:
	rm -rf models results var .rasa
