# Glue only: each target calls one script. See README.md.
.PHONY: demo test fuzz soak build release broker-start broker-stop
demo:           ## the main job: build, start the broker, run the producer comparison, print the table
	bash scripts/demo.sh
test:           ## every test (starts and stops the local broker)
	bash scripts/test.sh
fuzz:           ## every fuzz target for FUZZ_SECONDS (default 300) each, under AddressSanitizer (nightly, cargo-fuzz)
	bash scripts/fuzz.sh
soak:           ## the cluster failure tests with the long ones CI leaves out (the rolling restarts), on a cluster of their own
	bash scripts/cluster-faults.sh --soak
build:          ## Rust workspace and Java modules (with the bundled native library), no tests
	cargo build --workspace --release --locked && mvn -B -q install -DskipTests
release:        ## the public Maven artifacts deployed (target/maven-repo, or RELEASE_REPOSITORY=ID::URL), crates dry-run
	bash scripts/release.sh
broker-start:
	kafka/broker start
broker-stop:
	kafka/broker stop
