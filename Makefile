# Glue only: each target calls one script or one tool. See README.md and CONTRIBUTING.md.
.PHONY: demo test check test-rust test-jvm format fuzz soak flink-cluster-test flink-lines-test build release broker-start broker-stop
demo:           ## the main job: build, start the broker, run the comparisons (producers, StreamFusion, the Rust sink, Nexmark), print the tables
	bash scripts/demo.sh
test:           ## every test (installs cargo-deny/cargo-fuzz if missing; starts and stops the local broker)
	bash scripts/test.sh all
check:          ## the inner loop, no broker: Rust and Java format, clippy, the Rust and JVM tests that need no broker
	bash scripts/test.sh check
test-rust:      ## the Rust tiers with the broker: licenses, fmt, clippy, every Rust test, Flink parity, Miri, fuzz pass
	bash scripts/test.sh rust
test-jvm:       ## every JVM test with the broker (Java format, the native library built through Maven)
	bash scripts/test.sh jvm
format:         ## formats the Rust workspace, the fuzz crate and every Java module (rustfmt; spotless with palantir-java-format)
	cargo fmt --all && cargo fmt --manifest-path fuzz/Cargo.toml && mvn -B -q -N spotless:apply
fuzz:           ## every fuzz target for FUZZ_SECONDS (default 300) each, under AddressSanitizer (nightly, cargo-fuzz)
	bash scripts/fuzz.sh
soak:           ## the cluster failure tests with the long ones CI leaves out (the rolling restarts), on a cluster of their own
	bash scripts/cluster-faults.sh --soak
flink-cluster-test: ## the SQL connector jar on a real Flink 2.2.1 session cluster (Flink's scripts; ADD JAR, two jobs at once, lib/, a TaskManager SIGKILLed), against the stock connector; 3 to 5 minutes on 2 cores (make test runs it with --runs 2)
	bash scripts/flink-cluster-test.sh
flink-lines-test: ## the same on the other Flink lines, each on a cluster of its own: 1.20 (its own jar), 2.0, 2.1 and 2.3 (the 2.2 jar); 3 minutes a line, plus each distribution's download the first time
	bash scripts/flink-cluster-test.sh --flink 1.20,2.0,2.1,2.3 --runs 1
build:          ## Rust workspace and Java modules (with the bundled native library), no tests
	cargo build --workspace --release --locked && mvn -B -q install -DskipTests
release:        ## the public Maven artifacts deployed (target/maven-repo, or RELEASE_REPOSITORY=ID::URL), crates dry-run
	bash scripts/release.sh
broker-start:
	kafka/broker start
broker-stop:
	kafka/broker stop
