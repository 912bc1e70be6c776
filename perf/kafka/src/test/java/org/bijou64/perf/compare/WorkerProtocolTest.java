package org.bijou64.perf.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class WorkerProtocolTest {
    @Test
    void passRepliesRoundTripAndGiveRatesAndCpu() {
        WorkerProtocol.PassReply pass =
                new WorkerProtocol.PassReply(2_000_000_000L, 3_000_000_000L, 1_000_000, 2_985_000);
        assertEquals("ok 2000000000 3000000000 1000000 2985000", pass.line());
        assertEquals(pass, WorkerProtocol.PassReply.parse(pass.line()));
        assertEquals(500_000.0, pass.rate(), 1e-9);
        assertEquals(3.0, pass.cpuMicrosPerRecord(), 1e-9);
        assertEquals(new WorkerProtocol.Verified(7, 21), WorkerProtocol.Verified.parse("ok 7 21\n"));
    }

    @Test
    void errorsAndBrokenRepliesBecomeWorkerExceptions() {
        WorkerProtocol.WorkerException error = assertThrows(
                WorkerProtocol.WorkerException.class,
                () -> WorkerProtocol.PassReply.parse(
                        WorkerProtocol.error("IllegalStateException: send failed:\nboom")));
        assertEquals("pass: IllegalStateException: send failed: boom", error.getMessage());
        assertThrows(
                WorkerProtocol.WorkerException.class, () -> WorkerProtocol.PassReply.parse("ok 1 2 3"), "3 counts");
        assertThrows(
                WorkerProtocol.WorkerException.class,
                () -> WorkerProtocol.PassReply.parse("ok 0 2 3 4"),
                "no wall time");
        assertThrows(WorkerProtocol.WorkerException.class, () -> WorkerProtocol.PassReply.parse("ok 1 -2 3 4"));
        assertThrows(WorkerProtocol.WorkerException.class, () -> WorkerProtocol.PassReply.parse("ok 1 x 3 4"));
        assertThrows(WorkerProtocol.WorkerException.class, () -> WorkerProtocol.Verified.parse(""));
        assertThrows(WorkerProtocol.WorkerException.class, () -> WorkerProtocol.Verified.parse("ready 1 2"));
    }

    @Test
    void onlyPrefixedLinesAreReplies() {
        assertEquals("@worker ok 3", WorkerProtocol.wrap("ok 3"));
        assertEquals("ok 3", WorkerProtocol.unwrap(WorkerProtocol.wrap("ok 3")));
        assertEquals(
                null,
                WorkerProtocol.unwrap("[1.508s][info][jfr,startup] Started recording 1."),
                "the JVM's own stdout");
        assertEquals(null, WorkerProtocol.unwrap("ok 3"), "an unprefixed line is not a reply");
    }

    @Test
    void startUpValuesAndCommands() {
        assertEquals("JAVA", WorkerProtocol.parseReady("ready JAVA"));
        assertEquals("-", WorkerProtocol.parseReady("ready -"));
        WorkerProtocol.WorkerException failed = assertThrows(
                WorkerProtocol.WorkerException.class,
                () -> WorkerProtocol.parseReady("error TimeoutException: no broker"));
        assertEquals("start-up: TimeoutException: no broker", failed.getMessage());
        assertThrows(WorkerProtocol.WorkerException.class, () -> WorkerProtocol.parseReady("ok"));
        assertEquals("values /tmp/v-10.bin 10", WorkerProtocol.valuesCommand("/tmp/v-10.bin", 10));
        assertThrows(IllegalArgumentException.class, () -> WorkerProtocol.valuesCommand("/tmp/a b", 1));
        WorkerProtocol.parseOk("ok 10", WorkerProtocol.VALUES);
        assertThrows(WorkerProtocol.WorkerException.class, () -> WorkerProtocol.parseOk("nope", "values"));
        assertEquals(List.of("values", "/tmp/v.bin", "10"), WorkerProtocol.parseCommand(" values  /tmp/v.bin 10 "));
        assertThrows(IllegalArgumentException.class, () -> WorkerProtocol.parseCommand(" "));
    }
}
