package org.bijou64.perf.compare;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator's handle on one {@link ModeWorker} process: sends a command line, waits a bounded time for the
 * reply line. The worker's stderr, and the lines of its stdout that are not replies, go to this process's stderr. A worker never outlives the coordinator: every
 * started worker is destroyed by {@link #close()} and, should the coordinator exit without it, by a shutdown hook;
 * a worker whose stdin ends exits by itself.
 */
final class WorkerProcess implements AutoCloseable {
    /** Marks the end of the worker's stdout in the reply queue. */
    private static final String END = new String("end of stream");

    private static final Duration QUIT_TIMEOUT = Duration.ofSeconds(30);
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "destroy-mode-workers"));
    }

    private final String name;
    private final Process process;
    private final Writer commands;
    private final LinkedBlockingQueue<String> replies = new LinkedBlockingQueue<>();

    private WorkerProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readReplies, "replies-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a worker.
     *
     * @param name for messages, e.g. the mode
     * @param command the worker's command line ({@link ProducerComparison#workerCommand})
     * @throws IOException when the process cannot be started
     */
    static WorkerProcess start(String name, List<String> command) throws IOException {
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        LIVE.add(process);
        return new WorkerProcess(name, process);
    }

    private void readReplies() {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                String reply = WorkerProtocol.unwrap(line);
                if (reply != null) {
                    replies.add(reply);
                } else {
                    System.err.println("[worker " + name + " stdout] " + line);
                }
            }
        } catch (IOException e) {
            // the process went away; END below tells the waiting request
        }
        replies.add(END);
    }

    /**
     * The next reply line, without sending a command (the start-up {@code ready}).
     *
     * @throws IOException when the worker exits or does not reply within {@code timeout}; the worker is then
     *     destroyed
     */
    String reply(Duration timeout) throws IOException, InterruptedException {
        String line = replies.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            destroy();
            throw new IOException("worker " + name + " did not reply within " + timeout.toSeconds() + " s");
        }
        if (line == END) {
            replies.add(END);
            throw new IOException("worker " + name + " exited"
                    + exitStatus().map(s -> " with status " + s).orElse("") + " (its error is above)");
        }
        return line;
    }

    /**
     * Sends one command line and waits for its reply.
     *
     * @throws IOException when the worker cannot be written to, exits or does not reply within {@code timeout}
     */
    String request(String command, Duration timeout) throws IOException, InterruptedException {
        try {
            commands.write(command + "\n");
            commands.flush();
        } catch (IOException e) {
            destroy();
            throw new IOException("worker " + name + " does not take commands: " + e.getMessage(), e);
        }
        return reply(timeout);
    }

    private Optional<Integer> exitStatus() {
        try {
            return process.waitFor(2, TimeUnit.SECONDS) ? Optional.of(process.exitValue()) : Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private void destroy() {
        process.destroyForcibly();
        LIVE.remove(process);
    }

    /** Asks the worker to quit, waits a bounded time, then destroys it if it is still there. Never throws. */
    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                commands.write(WorkerProtocol.QUIT + "\n");
                commands.flush();
                commands.close();
                process.waitFor(QUIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            // already gone
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            destroy();
        }
    }
}
