package org.bijou64.kafka.connect.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real Kafka Connect standalone worker ({@code org.apache.kafka.connect.cli.ConnectStandalone}, what Kafka's
 * {@code bin/connect-standalone.sh} runs) in a process of its own, on the class path Maven wrote to
 * {@code connect.worker.classpath.file} (Kafka's Connect runtime, no bijou64 jar), with the plugins of
 * {@code connect.plugin.path}. Its folder under {@code connect.work.dir} keeps the worker and connector
 * properties, the offsets file and {@code worker.log} (stdout and stderr). {@link #close()} stops it as
 * {@code kill} would (SIGTERM, then SIGKILL after 30 s).
 */
final class ConnectWorker implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Path dir;
    private final Process process;
    private final URI rest;
    private final HttpClient http = HttpClient.newHttpClient();

    private ConnectWorker(Path dir, Process process, URI rest) {
        this.dir = dir;
        this.process = process;
        this.rest = rest;
    }

    /** The plugin.path folder: our unpacked archive and Kafka's connect-file jar, each in its own folder. */
    static Path pluginPath() {
        return Path.of(property("connect.plugin.path"));
    }

    /** The worker's class path, as {@code dependency:build-classpath} wrote it. */
    static String classPath() {
        try {
            return Files.readString(Path.of(property("connect.worker.classpath.file")))
                    .trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return a JVM launcher line for {@code mainClass} on the worker's class path and logging */
    static List<String> java(String mainClass) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-Dlog4j2.configurationFile="
                + Path.of(resource("connect-log4j2.xml")).toAbsolutePath());
        command.add("-cp");
        command.add(classPath());
        command.add(mainClass);
        return command;
    }

    /**
     * Starts a worker and waits until its REST API answers (its connectors are then created).
     *
     * @param name the worker's folder under {@code connect.work.dir}, emptied first
     * @param bootstrap the broker
     * @param workerProperties worker settings beyond the fixed ones (bootstrap, JSON converters, offsets file,
     *     plugin.path, a free REST port, a 1 s offset flush so that FileStreamSink writes promptly)
     * @param jvmOptions more options for the worker's JVM (system properties)
     * @param connectors each connector's properties, {@code name} included
     * @throws IllegalStateException when the process exits or does not answer within 90 s (the log's tail says
     *     why)
     */
    static ConnectWorker start(
            String name,
            String bootstrap,
            Map<String, String> workerProperties,
            List<String> jvmOptions,
            List<Map<String, String>> connectors)
            throws IOException, InterruptedException {
        Path dir = Path.of(property("connect.work.dir"), name);
        deleteRecursively(dir);
        Files.createDirectories(dir);
        int port = freePort();
        Map<String, String> worker = new LinkedHashMap<>();
        worker.put("bootstrap.servers", bootstrap);
        worker.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        worker.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        worker.put("offset.storage.file.filename", dir.resolve("offsets").toString());
        worker.put("offset.flush.interval.ms", "1000");
        worker.put("plugin.path", pluginPath().toString());
        worker.put("listeners", "http://127.0.0.1:" + port);
        worker.putAll(workerProperties);
        List<String> command = java("org.apache.kafka.connect.cli.ConnectStandalone");
        command.addAll(1, jvmOptions);
        command.add(write(dir.resolve("worker.properties"), worker).toString());
        for (Map<String, String> connector : connectors) {
            command.add(write(dir.resolve(connector.get("name") + ".properties"), connector)
                    .toString());
        }
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("worker.log").toFile())
                .start();
        ConnectWorker started = new ConnectWorker(dir, process, URI.create("http://127.0.0.1:" + port));
        try {
            started.awaitRest();
        } catch (RuntimeException | IOException | InterruptedException e) {
            started.close();
            throw e;
        }
        return started;
    }

    private void awaitRest() throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "the Connect worker exited with " + process.exitValue() + "; its log ends:\n" + logTail());
            }
            try {
                // The REST server answers 404 until the worker has registered its resources.
                HttpResponse<String> root = http.send(
                        HttpRequest.newBuilder(rest.resolve("/")).build(), HttpResponse.BodyHandlers.ofString());
                if (root.statusCode() == 200) {
                    return;
                }
            } catch (ConnectException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("the Connect worker did not answer within " + START_TIMEOUT.toSeconds()
                + " s; its log ends:\n" + logTail());
    }

    /** @return the REST API's answer to GET {@code path}, parsed */
    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(rest.resolve(path))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(
                    "GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /**
     * Polls {@code GET /connectors/<connector>/status} every 250 ms until {@code until} accepts it.
     *
     * @return the accepted status
     * @throws AssertionError after {@code timeout}, with the last status and the log's tail
     */
    JsonNode awaitStatus(String connector, Predicate<JsonNode> until, Duration timeout)
            throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        JsonNode status = null;
        while (Instant.now().isBefore(deadline)) {
            status = get("/connectors/" + connector + "/status");
            if (until.test(status)) {
                return status;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("connector " + connector + " did not reach the state wanted within "
                + timeout.toSeconds() + " s: " + status + "\nthe worker's log ends:\n" + logTail());
    }

    /** @return this worker's folder (its properties, offsets and log) */
    Path dir() {
        return dir;
    }

    /** @return the whole of {@code worker.log} so far */
    String log() throws IOException {
        return Files.readString(dir.resolve("worker.log"), StandardCharsets.UTF_8);
    }

    /** @return the last 60 lines of {@code worker.log} */
    String logTail() {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("worker.log"), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    private static Path write(Path file, Map<String, String> settings) throws IOException {
        Properties properties = new Properties();
        properties.putAll(settings);
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            properties.store(out, null);
        }
        return file;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String resource(String name) {
        try {
            return Path.of(ConnectWorker.class.getResource("/" + name).toURI()).toString();
        } catch (java.net.URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("test resource " + name + " is missing", e);
        }
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("system property " + name + " is not set (Surefire sets it)");
        }
        return value;
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
