package org.bijou64.security;

import static org.bijou64.security.SecureBroker.allow;
import static org.bijou64.security.SecureBroker.jaas;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.bijou64.perf.kafka.Bijou64Deserializer;
import org.bijou64.perf.kafka.Bijou64Serializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bijou64 serdes against a broker that authenticates with SASL/SCRAM-SHA-512 over TLS and authorises every
 * request with {@code StandardAuthorizer} ACLs (the security tests, {@code docs/security.md}; {@code kafka/broker} with
 * {@code KAFKA_SECURITY=sasl_ssl}). Each test makes users of its own (a fresh random password each, through the
 * super user's {@link Admin}) with exactly the ACLs it names:
 * <ul>
 *   <li>with the least-privilege ACLs of {@code docs/security.md} (producer: {@code WRITE} on the topic; consumer:
 *       {@code READ} on the topic and on its group), an idempotent {@code acks=all} producer with
 *       {@link Bijou64Serializer} and a {@code read_committed} consumer with {@link Bijou64Deserializer} carry every
 *       value exactly once, in order;</li>
 *   <li>without any one of those ACLs the client fails within its configured timeout with Kafka's authorisation
 *       error naming the resource (the topic, or the group), the broker's authorizer log names the operation it
 *       denied, and nothing reaches the topic (its end offset is checked at the end);</li>
 *   <li>a wrong password is refused with {@link SaslAuthenticationException};</li>
 *   <li>and, at the end, no password of any user appears in an error message, in the clients' log (every line at
 *       INFO and above, their configs among them) or in the broker's logs.</li>
 * </ul>
 *
 * <p>Runs only when {@code KAFKA_SECURE_BOOTSTRAP_SERVERS} (the broker's {@code SASL_SSL} listener) and
 * {@code KAFKA_SECURE_ADMIN_CONFIG} (the super user's client settings, {@code run/admin.properties} of the broker's
 * home) are set, as {@code scripts/security-tests.sh} does; otherwise skipped with the reason.
 * {@code KAFKA_SECURE_LOG_DIR} names the broker's logs folder for the last check.
 */
@Timeout(120)
class Bijou64SecurityTest {
    /** The clients' bound on every blocking call ({@code max.block.ms}, {@code default.api.timeout.ms}). */
    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    private static final int VALUES = 2_000;

    /** The broker, its super user, and every password the tests made or were given. */
    private static SecureBroker broker;

    private static Admin admin;
    private static String topic;
    /** Every error a test saw, checked for secrets at the end. */
    private static final List<Throwable> ERRORS = new ArrayList<>();

    @BeforeAll
    static void setUp() throws Exception {
        assumeTrue(SecureBroker.configured(), SecureBroker.NOT_CONFIGURED);
        broker = SecureBroker.connect();
        admin = broker.admin();
        topic = "bijou64-secure-" + UUID.randomUUID();
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    }

    @AfterAll
    static void nothingElseWrittenAndNoSecretInLogsOrErrors() throws Exception {
        if (broker == null) {
            return;
        }
        // The refused clients wrote nothing: the topic holds the least-privilege test's values alone.
        TopicPartition partition = new TopicPartition(topic, 0);
        long end = admin.listOffsets(Map.of(partition, OffsetSpec.latest()))
                .partitionResult(partition)
                .get()
                .offset();
        broker.close();
        assertEquals(VALUES, end, "records in " + topic + " (only the least-privilege producer may write)");
        for (Throwable error : ERRORS) {
            for (Throwable t = error; t != null; t = t.getCause()) {
                broker.assertNoSecret(
                        String.valueOf(t.getMessage()),
                        "the message of " + t.getClass().getName());
            }
        }
        List<Path> logs = new ArrayList<>();
        logs.add(Paths.get("target/security-clients.log"));
        logs.addAll(SecureBroker.logFiles());
        assertTrue(Files.size(logs.get(0)) > 0, "the clients logged at INFO into " + logs.get(0));
        for (Path log : logs) {
            broker.assertNoSecret(Files.readString(log), log.toString());
        }
        System.out.printf(
                "RESULT no secret in %d error messages and %d log files (%s)%n", ERRORS.size(), logs.size(), logs);
    }

    @Test
    void leastPrivilegeAclsCarryEveryValueExactlyOnce() throws Exception {
        String group = "bijou64-secure-readers-" + UUID.randomUUID();
        Properties producer =
                broker.user("writer", List.of(allow("writer", ResourceType.TOPIC, topic, AclOperation.WRITE)));
        Properties consumer = broker.user(
                "reader",
                List.of(
                        allow("reader", ResourceType.TOPIC, topic, AclOperation.READ),
                        allow("reader", ResourceType.GROUP, group, AclOperation.READ)));
        List<Long> sent = new ArrayList<>();
        try (KafkaProducer<byte[], Long> p = producer(producer)) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < VALUES; i++) {
                long v = i % 100 == 0 ? Long.MIN_VALUE + i : i * 7_919L - 1_000;
                sent.add(v);
                acks.add(p.send(new ProducerRecord<>(topic, v)));
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get();
            }
        }
        List<Long> read = new ArrayList<>();
        try (KafkaConsumer<byte[], Long> c = consumer(consumer, group)) {
            c.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (read.size() < VALUES && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], Long> r : c.poll(Duration.ofMillis(500))) {
                    read.add(r.value());
                }
            }
            c.commitSync();
        }
        assertEquals(sent, read, "every value once, in order, through SASL_SSL with the least-privilege ACLs");
        System.out.printf(
                "RESULT least-privilege ACLs: %d values sent, %d read back read_committed, equal%n",
                sent.size(), read.size());
    }

    @Test
    void producerWithoutTopicWriteFailsFastNamingTheTopic() throws Exception {
        // Leave a WRITE on another topic, so only the one on ours is missing.
        Properties props = broker.user(
                "no-write", List.of(allow("no-write", ResourceType.TOPIC, topic + "-other", AclOperation.WRITE)));
        long start = System.nanoTime();
        Throwable error;
        try (KafkaProducer<byte[], Long> p = producer(props)) {
            error = failure(() -> p.send(new ProducerRecord<>(topic, 42L)).get());
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        TopicAuthorizationException denied =
                assertInstanceOf(TopicAuthorizationException.class, error, error.toString());
        assertEquals(Set.of(topic), denied.unauthorizedTopics());
        assertTrue(denied.getMessage().contains(topic), denied.getMessage());
        assertTrue(took.compareTo(TIMEOUT) < 0, "failed after " + took + ", within max.block.ms " + TIMEOUT);
        System.out.printf(
                "RESULT producer without WRITE on the topic: %s after %d ms; broker: %s%n",
                denied, took.toMillis(), SecureBroker.denial("no-write", "Topic:LITERAL:" + topic + " "));
    }

    @Test
    void consumerWithoutTopicReadFailsFastNamingTheTopic() throws Exception {
        String group = "bijou64-secure-no-topic-" + UUID.randomUUID();
        Refusal refusal = refusedConsumer(
                "no-topic-read", group, allow("no-topic-read", ResourceType.GROUP, group, AclOperation.READ));
        TopicAuthorizationException denied =
                assertInstanceOf(TopicAuthorizationException.class, refusal.error, refusal.error.toString());
        assertEquals(Set.of(topic), denied.unauthorizedTopics());
        System.out.printf(
                "RESULT consumer without READ on the topic: %s after %d ms; broker: %s%n",
                denied, refusal.took.toMillis(), SecureBroker.denial("no-topic-read", "Topic:LITERAL:" + topic + " "));
    }

    @Test
    void consumerWithoutGroupReadFailsFastNamingTheGroup() throws Exception {
        String group = "bijou64-secure-no-group-" + UUID.randomUUID();
        Refusal refusal = refusedConsumer(
                "no-group-read", group, allow("no-group-read", ResourceType.TOPIC, topic, AclOperation.READ));
        GroupAuthorizationException denied =
                assertInstanceOf(GroupAuthorizationException.class, refusal.error, refusal.error.toString());
        assertEquals(group, denied.groupId());
        System.out.printf(
                "RESULT consumer without READ on the group: %s after %d ms; broker: %s%n",
                denied, refusal.took.toMillis(), SecureBroker.denial("no-group-read", "Group:LITERAL:" + group + " "));
    }

    /** The error a consumer of {@code group} subscribed to the topic gets, and when. */
    private record Refusal(Throwable error, Duration took) {}

    /**
     * Makes {@code user} with only {@code acl}, subscribes a consumer of {@code group} to the topic and polls
     * until it fails; asserts that it fails within {@link #TIMEOUT}.
     */
    private static Refusal refusedConsumer(String user, String group, AclBinding acl) throws Exception {
        Properties props = broker.user(user, List.of(acl));
        long start = System.nanoTime();
        Throwable error;
        try (KafkaConsumer<byte[], Long> c = consumer(props, group)) {
            c.subscribe(List.of(topic));
            error = failure(() -> pollUntilFailure(c));
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(TIMEOUT) < 0, "failed after " + took + ", within " + TIMEOUT);
        return new Refusal(error, took);
    }

    @Test
    void wrongPasswordIsRefused() throws Exception {
        Properties props = broker.user(
                "wrong-password", List.of(allow("wrong-password", ResourceType.TOPIC, topic, AclOperation.WRITE)));
        String wrong = broker.newPassword();
        props.put(SaslConfigs.SASL_JAAS_CONFIG, jaas("wrong-password", wrong));
        long start = System.nanoTime();
        Throwable error;
        try (KafkaProducer<byte[], Long> p = producer(props)) {
            error = failure(() -> p.send(new ProducerRecord<>(topic, 42L)).get());
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertInstanceOf(SaslAuthenticationException.class, error, error.toString());
        assertTrue(took.compareTo(TIMEOUT) < 0, "failed after " + took + ", within max.block.ms " + TIMEOUT);
        System.out.printf("RESULT wrong password: %s after %d ms%n", error, took.toMillis());
    }

    // --- helpers ---------------------------------------------------------------------------------------------

    /** An idempotent {@code acks=all} producer with the bijou64 serializer for values. */
    private static KafkaProducer<byte[], Long> producer(Properties user) {
        Properties props = new Properties();
        props.putAll(user);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) TIMEOUT.toMillis());
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 14_000);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new Bijou64Serializer());
    }

    /** A {@code read_committed} consumer of {@code group} with the bijou64 deserializer for values. */
    private static KafkaConsumer<byte[], Long> consumer(Properties user, String group) {
        Properties props = new Properties();
        props.putAll(user);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new Bijou64Deserializer());
    }

    private static void pollUntilFailure(KafkaConsumer<byte[], Long> c) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!c.poll(Duration.ofMillis(200)).isEmpty()) {
                fail("the consumer read records it has no right to");
            }
        }
        fail("no error within " + TIMEOUT);
    }

    private interface Call {
        void run() throws Exception;
    }

    /** The error {@code call} throws, unwrapped from {@link ExecutionException}; fails if it throws none. */
    private static Throwable failure(Call call) {
        try {
            call.run();
        } catch (ExecutionException e) {
            ERRORS.add(e);
            return e.getCause();
        } catch (Exception e) {
            ERRORS.add(e);
            return e;
        }
        return fail("expected an error");
    }
}
